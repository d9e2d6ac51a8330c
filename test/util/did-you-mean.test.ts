import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, getCloseMatches, sequenceRatio } from '../../src/util/did-you-mean.js';
import { EVENT_NAMES } from '../../src/events.js';
import { runPython } from '../_python.js';

describe('getCloseMatches (port of difflib.get_close_matches)', () => {
  it('suggests the Hermes examples', () => {
    expect(didYouMean('pre_tool_cal', EVENT_NAMES)).toBe('pre_tool_call');
    expect(didYouMean('Pre_Tool_Call', EVENT_NAMES)).toBe('pre_tool_call');
    expect(didYouMean('on_sesion_start', EVENT_NAMES)).toBe('on_session_start');
    expect(didYouMean('zzzzzz', EVENT_NAMES)).toBeNull();
  });

  it('breaks a tie in favour of the lexicographically larger candidate', () => {
    // 'abd' and 'abe' both score 2*2/6 ≈ 0.67 against 'abc'.
    expect(sequenceRatio('abd', 'abc')).toBeCloseTo(2 / 3);
    expect(getCloseMatches('abc', ['abd', 'abe'], 1)).toEqual(['abe']);
    expect(getCloseMatches('abc', ['abe', 'abd'], 2)).toEqual(['abe', 'abd']);
  });

  it('applies the cutoff inclusively and returns best first', () => {
    // 'ab' vs 'abc': 2*2/5 = 0.8; vs 'axc': 2*1/5 = 0.4.
    expect(getCloseMatches('ab', ['axc', 'abc'], 3, 0.8)).toEqual(['abc']);
    expect(getCloseMatches('ab', ['axc', 'abc'], 3, 0.4)).toEqual(['abc', 'axc']);
    expect(getCloseMatches('', [''], 1)).toEqual(['']);
  });

  it('rejects n and cutoff out of range like Python', () => {
    expect(() => getCloseMatches('a', ['a'], 0)).toThrow(RangeError);
    expect(() => getCloseMatches('a', ['a'], 1, 1.5)).toThrow(RangeError);
  });

  it('agrees with Python difflib on typos, case changes, junk-heavy and long words', () => {
    const typo = fc
      .tuple(fc.constantFrom(...EVENT_NAMES), fc.array(fc.tuple(fc.nat(40), fc.constantFrom('del', 'ins', 'swap', 'upper')), { maxLength: 4 }))
      .map(([name, edits]) => {
        let s: string = name;
        for (const [pos, op] of edits) {
          const i = pos % Math.max(s.length, 1);
          if (op === 'del') s = s.slice(0, i) + s.slice(i + 1);
          else if (op === 'ins') s = `${s.slice(0, i)}_${s.slice(i)}`;
          else if (op === 'swap') s = s.slice(0, i) + (s[i + 1] ?? '') + (s[i] ?? '') + s.slice(i + 2);
          else s = s.slice(0, i) + s.slice(i, i + 1).toUpperCase() + s.slice(i + 1);
        }
        return s;
      });
    const words = [
      ...fc.sample(typo, { numRuns: 300, seed: 7 }),
      ...fc.sample(fc.string({ maxLength: 20 }), { numRuns: 100, seed: 8 }),
      ...fc.sample(fc.string({ unit: fc.constantFrom('a', 'b', '_', 'c'), minLength: 190, maxLength: 260 }), { numRuns: 10, seed: 9 }),
      `${'pre_tool_call'.repeat(20)}`,
      'on_session_😀start',
    ];
    const py = runPython<{ best: (string | null)[]; ratios: number[] }>(
      [
        'import difflib, json, sys',
        'd = json.load(sys.stdin)',
        'best = [(difflib.get_close_matches(w, d["names"], n=1, cutoff=0.6) or [None])[0] for w in d["words"]]',
        'ratios = [difflib.SequenceMatcher(None, a, w).ratio() for w in d["words"] for a in d["probe"]]',
        'json.dump({"best": best, "ratios": ratios}, sys.stdout)',
      ].join('\n'),
      { names: EVENT_NAMES, words, probe: ['pre_tool_call', 'a_b_c'] },
    );
    expect(words.map((w) => didYouMean(w, EVENT_NAMES))).toEqual(py.best);
    const ours = words.flatMap((w) => ['pre_tool_call', 'a_b_c'].map((a) => sequenceRatio(a, w)));
    ours.forEach((r, k) => expect(r).toBeCloseTo(py.ratios[k] as number, 12));
  });
});

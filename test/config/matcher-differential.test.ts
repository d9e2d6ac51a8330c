// Random Python patterns against the real `re` module: whatever Python compiles we must compile
// to the same matches, and whatever Python rejects we must treat literally.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../../src/config/matcher.js';
import { runPython } from '../_python.js';

const QUANTIFIERS = ['*', '+', '?', '{2}', '{,2}', '{1,}', '{0,1}'];
const TOKENS = [
  'a',
  'b',
  'x',
  '_',
  'é',
  '1',
  '-',
  ' ',
  '.',
  '|',
  '(',
  ')',
  '(?:',
  '[',
  '[^',
  ']',
  '^',
  '$',
  '{',
  '}',
  '\\d',
  '\\w',
  '\\s',
  '\\D',
  '\\W',
  '\\S',
  '\\b',
  '\\B',
  '\\A',
  '\\Z',
  '\\-',
  '\\.',
  '\\n',
  '\\x61',
  '\\141',
  '(?P<g>',
  '(?P=g)',
  '\\1',
  '(?i)',
  '(?#c)',
  '\\q',
  ...QUANTIFIERS,
];
// Differences we accept knowingly: Python forbids these, JS has no reason to.
const KNOWN_PYTHON_ONLY_ERRORS = ['cannot refer to an open group', 'look-behind requires fixed-width pattern'];

function tokenSoup(seed: number, runs: number): string[] {
  const arb = fc
    .array(fc.constantFrom(...TOKENS), { maxLength: 8 })
    // `x*+` is a possessive quantifier in Python 3.11, which JS lacks (it becomes a literal here).
    .filter((ts) => !ts.some((t, k) => t === '+' && k > 0 && QUANTIFIERS.includes(ts[k - 1] as string)))
    .map((ts) => ts.join(''));
  return fc.sample(arb, { numRuns: runs, seed });
}

function grammar(seed: number, runs: number): string[] {
  const { seq } = fc.letrec<{ seq: string; atom: string }>((tie) => ({
    atom: fc.oneof(
      { depthSize: 'xsmall', withCrossShrink: true },
      fc.constantFrom('a', 'b', 'x', '_', 'é', '.', '\\w', '\\d', '\\s', '\\W', '[ab]', '[^a]', '[\\w-]', '[^\\W\\d]', '[\\S]', '[a-x]', '\\-', '\\.'),
      tie('seq').map((s) => `(${s})`),
      fc.tuple(tie('seq'), tie('seq')).map(([l, r]) => `(?:${l}|${r})`),
    ),
    seq: fc
      .array(fc.tuple(tie('atom'), fc.constantFrom('', '', '', '*', '+', '?', '{1,2}', '*?')), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([a, q]) => a + q).join('')),
  }));
  const flags = fc.constantFrom('', '', '(?i)', '(?s)', '(?m)', '(?a)', '(?x)');
  return fc.sample(
    fc.tuple(flags, seq).map(([f, s]) => f + s),
    { numRuns: runs, seed },
  );
}

describe('compileMatcher vs Python re (differential)', () => {
  it('matches exactly what Python matches, on random patterns and names', () => {
    const patterns = [...new Set([...tokenSoup(1, 1200), ...grammar(2, 600)])].filter((p) => p.trim() !== '');
    const names = fc.sample(fc.string({ unit: fc.constantFrom('a', 'b', 'x', '_', 'é', 'É', 'A', '1', '٣', '-', ' ', '.', '\n'), maxLength: 5 }), {
      numRuns: 40,
      seed: 3,
    });
    names.push('', 'ab', 'aa', 'xa_', 'a\n', 'é1');
    const py = runPython<{ error: string | null; matches: boolean[] }[]>(
      [
        'import json, re, sys, warnings',
        'warnings.simplefilter("ignore")',
        'd = json.load(sys.stdin)',
        'out = []',
        'for p in d["patterns"]:',
        '    p = p.strip()',
        '    try:',
        '        r = re.compile(p)',
        '        out.append({"error": None, "matches": [r.fullmatch(n) is not None for n in d["names"]]})',
        '    except re.error as e:',
        '        out.append({"error": str(e), "matches": [n == p for n in d["names"]]})',
        'json.dump(out, sys.stdout)',
      ].join('\n'),
      { patterns, names },
    );
    let compared = 0;
    let compiledByPython = 0;
    let positives = 0;
    const mismatches: unknown[] = [];
    patterns.forEach((pattern, k) => {
      const expected = py[k] as { error: string | null; matches: boolean[] };
      if (expected.error && KNOWN_PYTHON_ONLY_ERRORS.some((e) => expected.error?.includes(e))) return;
      const m = compileMatcher(pattern);
      const got = names.map((n) => m.test(n));
      if (m.literal !== (expected.error !== null) || got.some((g, j) => g !== expected.matches[j])) {
        const differ = names.filter((_n, j) => got[j] !== expected.matches[j]);
        mismatches.push({ pattern, ours: m.error ?? 'compiled', python: expected.error ?? 'compiled', differ });
      }
      compared++;
      if (expected.error === null) compiledByPython++;
      positives += got.filter(Boolean).length;
    });
    expect(mismatches.slice(0, 15)).toEqual([]);
    expect(compared).toBeGreaterThan(patterns.length * 0.95);
    expect(compiledByPython).toBeGreaterThan(800);
    expect(positives).toBeGreaterThan(800);
  });
});

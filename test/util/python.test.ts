import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyRepr, pyStrip, pythonInt, pyTypeName } from '../../src/util/python.js';
import { runPython } from '../_python.js';

describe('pythonInt (Python int())', () => {
  it.each([
    [30, 30],
    [2.9, 2],
    [-2.9, -2],
    [0.5, 0],
    [true, 1],
    [false, 0],
    ['30', 30],
    [' 30 ', 30],
    ['\t+30\n', 30],
    ['-5', -5],
    ['1_000', 1000],
    ['007', 7],
    ['٣٠', 30],
    ['３０', 30],
    [new TextEncoder().encode(' 42 '), 42],
  ])('%j → %d', (value, expected) => {
    expect(pythonInt(value)).toBe(expected);
  });

  it('accepts a bigint', () => {
    expect(pythonInt(BigInt(12))).toBe(12);
  });

  it.each([
    ['30.5'],
    ['thirty'],
    [''],
    ['1__0'],
    ['_1'],
    ['1_'],
    ['+-1'],
    ['0x1e'],
    ['1e3'],
    [null],
    [undefined],
    [[30]],
    [new Map()],
    [Number.NaN],
    [Infinity],
    [new Date(0)],
  ])('%j fails', (value) => {
    expect(pythonInt(value)).toBeNull();
  });

  it('agrees with Python int() on random strings made of digits, signs, underscores and spaces', () => {
    const strings = fc.sample(
      fc.string({ unit: fc.constantFrom('0', '1', '7', '_', '-', '+', ' ', '\t', '.', 'e', '٣', '\u00a0', '\u2007', '\u001c', '\ufeff'), maxLength: 8 }),
      {
        numRuns: 2000,
        seed: 11,
      },
    );
    strings.push('9'.repeat(4300), '9'.repeat(4301));
    const py = runPython<(number | null)[]>(
      [
        'import json, sys',
        'out = []',
        'for s in json.load(sys.stdin):',
        '    try:',
        '        n = int(s)',
        '        out.append(n if abs(n) < 2**53 else ("big+" if n > 0 else "big-"))',
        '    except ValueError:',
        '        out.append(None)',
        'json.dump(out, sys.stdout)',
      ].join('\n'),
      strings,
    );
    const ours = strings.map((s) => {
      const n = pythonInt(s);
      return n === null ? null : Math.abs(n) < 2 ** 53 ? n : n > 0 ? 'big+' : 'big-';
    });
    expect(ours).toEqual(py);
  });
});

describe('pyRepr / pyTypeName / pyStrip', () => {
  it('renders values like Python repr()', () => {
    const values: unknown[] = [
      '30.5',
      "it's",
      'say "hi"',
      'both \' and "',
      'tab\tnl\n\\',
      '\u0007',
      'é😀',
      null,
      true,
      false,
      3,
      -0.5,
      1e20,
      1.5e-7,
      [1, 'a', null],
      new Map<unknown, unknown>([
        ['s', 30],
        [1, [true]],
      ]),
      new Set(),
      Number.NaN,
      -Infinity,
    ];
    expect(values.map((v) => pyRepr(v))).toEqual([
      "'30.5'",
      '"it\'s"',
      '\'say "hi"\'',
      "'both \\' and \"'",
      "'tab\\tnl\\n\\\\'",
      "'\\x07'",
      "'é😀'",
      'None',
      'True',
      'False',
      '3',
      '-0.5',
      '1e+20',
      '1.5e-07',
      "[1, 'a', None]",
      "{'s': 30, 1: [True]}",
      'set()',
      'nan',
      '-inf',
    ]);
  });

  it('agrees with Python repr() on random strings', () => {
    // Characters whose printability is the same in every recent Unicode version (Python and ICU
    // may be on different ones, which changes the repr of newly assigned characters).
    const unit = fc.oneof(
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
      fc.constantFrom('é', '\u00a0', '\u00ad', '\u200b', '\u2028', '\u3000', '\ue000', '\ud800', '😀', '\u{10ffff}', '字'),
    );
    const strings = fc.sample(
      fc.array(unit, { maxLength: 10 }).map((cs) => cs.join('')),
      { numRuns: 500, seed: 5 },
    );
    const py = runPython<string[]>('import json, sys\njson.dump([repr(s) for s in json.load(sys.stdin)], sys.stdout)', strings);
    expect(strings.map((s) => pyRepr(s))).toEqual(py);
  });

  it('cuts very long reprs', () => {
    expect(pyRepr('x'.repeat(1000))).toHaveLength(200);
  });

  it('names Python types', () => {
    expect([null, true, 3, 2.5, 'x', [], new Map(), new Set(), new Date(0), new Uint8Array()].map(pyTypeName)).toEqual([
      'NoneType',
      'bool',
      'int',
      'float',
      'str',
      'list',
      'dict',
      'set',
      'date',
      'bytes',
    ]);
  });

  it('strips exactly the whitespace Python strips', () => {
    expect(pyStrip('\u001c\u0085 x \u3000')).toBe('x');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
  });
});

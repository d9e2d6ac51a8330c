// The stdout JSON reader must answer exactly like Python's json.loads, which Hermes uses. These tests
// compare against a real python3 process on hand-picked and generated texts.

import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePythonJson } from '../../src/directives/_python-json.js';

interface PyVerdict {
  ok: boolean;
  /** Python type name of the value: dict, list, str, int, float, bool, NoneType. */
  type?: string;
  /** For dicts: the keys in order; for floats: a tag for non-finite values. */
  keys?: string[];
  special?: string | null;
}

const PY_ORACLE = String.raw`
import json, math, sys
texts = json.loads(sys.stdin.read())
out = []
for t in texts:
    try:
        v = json.loads(t)
    except Exception:
        out.append({"ok": False})
        continue
    r = {"ok": True, "type": type(v).__name__}
    if isinstance(v, dict):
        r["keys"] = list(v.keys())
    if isinstance(v, float) and not math.isfinite(v):
        r["special"] = "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    out.append(r)
sys.stdout.write(json.dumps(out))
`;

function python(texts: string[]): PyVerdict[] {
  const res = spawnSync('python3', ['-c', PY_ORACLE], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (res.status !== 0) throw new Error(`python3 failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as PyVerdict[];
}

function ours(text: string): PyVerdict {
  const r = parsePythonJson(text);
  if (!r.ok) return { ok: false };
  const v = r.value;
  const out: PyVerdict = { ok: true, type: pyType(v) };
  if (out.type === 'dict') out.keys = Object.keys(v as object);
  if (typeof v === 'number' && !Number.isFinite(v)) out.special = Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  return out;
}

function pyType(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'number';
    default:
      return 'dict';
  }
}

/** Python distinguishes int from float; JS does not. Compare modulo that. */
function normalise(v: PyVerdict): PyVerdict {
  return v.type === 'int' || v.type === 'float' ? { ...v, type: 'number' } : v;
}

const HAND_PICKED = [
  '{}',
  '{"a": NaN}',
  '{"a": Infinity, "b": -Infinity}',
  'NaN',
  '-Infinity',
  '-NaN',
  '+Infinity',
  'Infinity1',
  'nan',
  'infinity',
  '[NaN, 1, "NaN"]',
  '{"a": 1, "a": 2, "b": 3}',
  '{"b": 1, "a": 2, "b": 3}',
  '\ufeff{}',
  '{} {}',
  '{}\n{}',
  '{"a": "\\u00e9"}',
  '{"a": "\\ud800"}',
  '{"a": "\u0001"}',
  '{"a":\t1}',
  '{"a":\u00a01}',
  '{"a":\f1}',
  '01',
  '1.',
  '.5',
  '1e5',
  '-0',
  '1E+2',
  '[1,]',
  '[,1]',
  '{"a" 1}',
  '{"a": 1,}',
  '"\\x"',
  '"abc',
  'tru',
  'true false',
  '[NaN, Infinity NaN]',
  '{"x": NaN, "y": [Infinity, {"z": -Infinity}]}',
  '{"__proto__": 1, "x": NaN}',
  ' \t\n{"a":NaN}\r\n ',
  '[' + 'NaN,'.repeat(50) + 'NaN]',
  '"NaN" NaN',
  'NaNNaN',
  '{"a":NaN,}',
  '{NaN: 1}',
  '[-Infinityx]',
  '[1e400, -1e400]',
];

describe('parsePythonJson agrees with python3 json.loads', () => {
  it('on hand-picked texts (NaN tokens, duplicates, BOM, trailing data, whitespace)', () => {
    const expected = python(HAND_PICKED).map(normalise);
    HAND_PICKED.forEach((text, i) => {
      expect({ text, verdict: ours(text) }).toEqual({ text, verdict: expected[i] });
    });
  });

  it('on generated JSON-like texts with NaN/Infinity spliced in', () => {
    const token = fc.constantFrom('NaN', 'Infinity', '-Infinity', 'nan', '+Infinity', '-NaN', ' ', ',', '}', ']', '"', '\ufeff');
    const spliced = fc.tuple(fc.json(), fc.nat(), token).map(([json, at, tok]) => {
      const i = json.length === 0 ? 0 : at % (json.length + 1);
      return json.slice(0, i) + tok + json.slice(i);
    });
    const texts = fc.sample(fc.oneof(spliced, fc.json(), fc.string({ unit: 'binary', maxLength: 20 })), { numRuns: 1500, seed: 20261130 });
    const expected = python(texts).map(normalise);
    texts.forEach((text, i) => {
      expect({ text, verdict: ours(text) }).toEqual({ text, verdict: expected[i] });
    });
  });
});

describe('parsePythonJson', () => {
  it('returns the same values JSON.parse gives for standard JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const r = parsePythonJson(text);
        expect(r).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });

  it('decodes NaN/Infinity values in place, with strings left alone', () => {
    expect(parsePythonJson('{"a": [NaN, "Infinity", -Infinity], "b": {"c": Infinity}}')).toEqual({
      ok: true,
      value: { a: [NaN, 'Infinity', -Infinity], b: { c: Infinity } },
    });
  });

  it('never throws, even on absurd nesting', () => {
    expect(parsePythonJson('['.repeat(200_000) + 'NaN' + ']'.repeat(200_000)).ok).toBeTypeOf('boolean');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(typeof parsePythonJson(s).ok).toBe('boolean');
      }),
    );
  });
});

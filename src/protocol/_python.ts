// Small pieces of Python semantics that the Hermes wire depends on. Hermes is Python, so "trimmed",
// "truthy" and "first 400 chars" mean Python's str.strip(), bool() and code-point slicing, which
// differ from JS trim() (it also strips a BOM), JS truthiness ([] and {} are truthy) and UTF-16
// slicing (it can split a surrogate pair).

import { isPlainObject } from '../_json.js';

// Python's str.isspace() set. Unlike JS trim(): includes \x1c-\x1f and \x85, excludes U+FEFF (BOM).
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP_RE, '');
}

/** Python `bool(value)` for JSON-like values (undefined counts as None; NaN is truthy as in Python). */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python `s[:n]`: the first n code points (never splits a surrogate pair). */
export function firstCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  let out = '';
  let count = 0;
  for (const ch of s) {
    if (count >= n) break;
    out += ch;
    count++;
  }
  return out;
}


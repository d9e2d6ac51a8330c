// Python value semantics that the Hermes wire and Hermes' config parser rely on. Hermes is Python, so
// "trimmed", "truthy", "first 400 chars", `int(x)`, `repr(x)` and `type(x).__name__` mean Python's
// str.strip(), bool(), code-point slicing and so on, which differ from JS trim() (it also strips a
// BOM), JS truthiness ([] and {} are truthy) and UTF-16 slicing (it can split a surrogate pair).
// Config values here are YAML data converted with `toJS({ mapAsMap: true })`: mappings are Maps,
// sequences arrays, timestamps Dates, !!binary bytes.

import { isPlainObject } from '../json.js';

/** Python `str.isspace()` characters (JS `\s` differs: it has U+FEFF and lacks \x1c-\x1f, \x85). */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
/** int() keeps ASCII control characters other than \t\n\v\f\r (so not \x1c-\x1f) but drops Unicode spaces. */
const INT_SPACE = PY_SPACE.replace('\\x1c-\\x1f', '');
const INT_STRIP = new RegExp(`^[${INT_SPACE}]+|[${INT_SPACE}]+$`, 'g');
/** Python 3.11+ refuses to convert strings of more than 4300 digits (sys.int_info.str_digits_check_threshold). */
const PY_MAX_STR_DIGITS = 4300;

/** Python `str.strip()`: removes the whitespace Python knows, no more, no less. */
export function pyStrip(text: string): string {
  return text.replace(PY_STRIP, '');
}

/**
 * Python `int(x)` for the values a YAML file can hold: ints; bools (True → 1); floats truncated
 * toward zero; strings with surrounding whitespace, a sign and single underscores between digits
 * (any Unicode decimal digits, as Python accepts). Returns null where Python raises
 * (`"30.5"`, words, lists, None, inf/nan).
 */
export function pythonInt(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) + 0 : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return parseIntString(value);
  if (value instanceof Uint8Array) return parseIntString(Array.from(value, (b) => String.fromCharCode(b)).join(''));
  return null;
}

function parseIntString(text: string): number | null {
  const s = text.replace(INT_STRIP, '');
  const m = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(s);
  if (!m) return null;
  const digits = Array.from((m[2] as string).replaceAll('_', ''), decimalValue).join('');
  if (digits.length > PY_MAX_STR_DIGITS) return null;
  const n = Number(digits);
  return m[1] === '-' ? -n + 0 : n;
}

/**
 * The value 0-9 of a Unicode decimal digit. Every Nd block is a contiguous run of whole 0…9
 * sequences, so the value is the distance from the start of the run, modulo 10.
 */
function decimalValue(ch: string): string {
  let cp = ch.codePointAt(0) as number;
  if (cp >= 0x30 && cp <= 0x39) return ch;
  const start = cp;
  while (cp > 0 && /\p{Nd}/u.test(String.fromCodePoint(cp - 1))) cp--;
  return String((start - cp) % 10);
}

/** Hermes' truthy-string test (HERMES_SAFE_MODE, HERMES_ACCEPT_HOOKS): trimmed, case-insensitive 1/true/yes/on. */
export function isTruthyString(value: string): boolean {
  return ['1', 'true', 'yes', 'on'].includes(value.replace(PY_STRIP, '').toLowerCase());
}

/** Python `type(x).__name__` for a YAML value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'string':
      return 'str';
    default:
      break;
  }
  if (Array.isArray(value)) return 'list';
  if (value instanceof Map) return 'dict';
  if (value instanceof Set) return 'set';
  if (value instanceof Date) return isMidnightUtc(value) ? 'date' : 'datetime';
  if (value instanceof Uint8Array) return 'bytes';
  return 'dict';
}

const REPR_LIMIT = 200;

/** Python `repr(x)` for a YAML value, cut to a readable length for messages. */
export function pyRepr(value: unknown): string {
  const out = reprInner(value, []);
  return out.length > REPR_LIMIT ? `${out.slice(0, REPR_LIMIT - 3)}...` : out;
}

/** Python `str(x)`: strings as they are, everything else as its repr. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

function reprInner(value: unknown, seen: unknown[]): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return reprString(value);
  if (value instanceof Date) return reprDate(value);
  if (value instanceof Uint8Array) return reprBytes(value);
  if (typeof value !== 'object') return String(value);
  if (seen.includes(value)) return Array.isArray(value) ? '[...]' : '{...}';
  const inner = [...seen, value];
  if (Array.isArray(value)) return `[${value.map((v) => reprInner(v, inner)).join(', ')}]`;
  if (value instanceof Set) {
    return value.size === 0 ? 'set()' : `{${[...value].map((v) => reprInner(v, inner)).join(', ')}}`;
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return `{${entries.map(([k, v]) => `${reprInner(k, inner)}: ${reprInner(v, inner)}`).join(', ')}}`;
}

function reprNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  // YAML ints and integral floats are indistinguishable here; integral values print as ints.
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1e16 || abs < 1e-4) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === ' ' || !NON_PRINTABLE.test(ch)) out += ch;
    else out += escapeCodePoint(ch.codePointAt(0) as number);
  }
  return out + quote;
}

function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

function reprBytes(bytes: Uint8Array): string {
  let body = '';
  for (const b of bytes) {
    if (b === 0x27 || b === 0x5c) body += `\\${String.fromCharCode(b)}`;
    else if (b === 0x0a) body += '\\n';
    else if (b === 0x0d) body += '\\r';
    else if (b === 0x09) body += '\\t';
    else if (b >= 0x20 && b < 0x7f) body += String.fromCharCode(b);
    else body += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `b'${body}'`;
}

function isMidnightUtc(d: Date): boolean {
  return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
}

function reprDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return 'None';
  const ymd = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  if (isMidnightUtc(d)) return `datetime.date(${ymd.join(', ')})`;
  const hms = [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  const micro = d.getUTCMilliseconds() * 1000;
  return `datetime.datetime(${[...ymd, ...hms, ...(micro ? [micro] : [])].join(', ')})`;
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

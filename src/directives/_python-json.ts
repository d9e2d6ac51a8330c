// JSON text → value with Python `json.loads` semantics, which is what Hermes applies to hook stdout:
// one strict JSON value (a BOM, trailing garbage or a second value are errors), duplicate keys keep
// the last value, and the bare tokens NaN, Infinity and -Infinity are accepted outside strings.
//
// JSON.parse agrees with json.loads on everything except those three tokens, so it is the fast
// path; the hand-written parser below only runs when JSON.parse fails on a text that contains one.

import { errorText } from '../errors.js';

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parsePythonJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    if (!text.includes('NaN') && !text.includes('Infinity')) return { ok: false, error: errorText(e) };
  }
  try {
    const parser = new Parser(text);
    parser.skipWhitespace();
    const value = parser.value();
    parser.skipWhitespace();
    if (parser.pos !== text.length) parser.fail('Extra data');
    return { ok: true, value };
  } catch (e) {
    // SyntaxError from fail(), or RangeError on absurd nesting: both mean "not valid JSON" here.
    return { ok: false, error: errorText(e) };
  }
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at position ${this.pos}`);
  }

  skipWhitespace(): void {
    // json.loads whitespace is exactly [ \t\n\r].
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.pos++;
    }
  }

  value(): unknown {
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case '"':
        return this.string();
      case '{':
        return this.object();
      case '[':
        return this.array();
      default:
        break;
    }
    if (t.startsWith('null', this.pos)) return this.literal(4, null);
    if (t.startsWith('true', this.pos)) return this.literal(4, true);
    if (t.startsWith('false', this.pos)) return this.literal(5, false);
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(t);
    if (m) {
      this.pos += m[0].length;
      return Number(m[0]);
    }
    if (t.startsWith('NaN', this.pos)) return this.literal(3, NaN);
    if (t.startsWith('Infinity', this.pos)) return this.literal(8, Infinity);
    if (t.startsWith('-Infinity', this.pos)) return this.literal(9, -Infinity);
    return this.fail('Expecting value');
  }

  private literal<T>(length: number, value: T): T {
    this.pos += length;
    return value;
  }

  private string(): string {
    const t = this.text;
    let i = this.pos + 1;
    for (;;) {
      if (i >= t.length) this.fail('Unterminated string');
      const c = t[i];
      if (c === '"') break;
      i += c === '\\' ? 2 : 1;
    }
    // JSON.parse decodes escapes and rejects control characters exactly like json.loads(strict=True).
    const value = JSON.parse(t.slice(this.pos, i + 1)) as string;
    this.pos = i + 1;
    return value;
  }

  private object(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWhitespace();
      const v = this.value();
      // Last duplicate wins (kept at the first key's position, like a Python dict); defineProperty
      // keeps "__proto__" an ordinary key, as JSON.parse does.
      Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === '}') return obj;
      if (sep !== ',') {
        this.pos--;
        this.fail("Expecting ',' delimiter");
      }
      this.skipWhitespace();
    }
  }

  private array(): unknown[] {
    const arr: unknown[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return arr;
    }
    for (;;) {
      arr.push(this.value());
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === ']') return arr;
      if (sep !== ',') {
        this.pos--;
        this.fail("Expecting ',' delimiter");
      }
      this.skipWhitespace();
    }
  }
}

// The state of one Python pattern under translation (_py-regex.ts) — position, groups, flags —
// and what the translation of both a pattern and a character class needs from it: Python's
// error with its position, the classes behind \d \w \s, and the escapes that mean the same
// character inside and outside a class. Pure.

import { HooksError } from '../errors.js';

export class PythonRegexError extends HooksError {
  constructor(message: string) {
    super('python_regex', message);
  }
}

export const FLAG_LETTERS = 'aiLmsux';
const SIMPLE_ESCAPES: Record<string, string> = { a: '\\x07', f: '\\f', n: '\\n', r: '\\r', t: '\\t', v: '\\v' };

/** Class contents (JS, for use inside `[…]`) of Python's \d \w \s. */
export interface Categories {
  d: string;
  w: string;
  s: string;
}
const UNICODE_CATEGORIES: Categories = {
  d: '\\p{Nd}',
  w: '\\p{L}\\p{N}_',
  s: ' \\t\\n\\r\\f\\v\\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000',
};
const ASCII_CATEGORIES: Categories = { d: '0-9', w: 'a-zA-Z0-9_', s: ' \\t\\n\\r\\f\\v' };

export interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  verbose: boolean;
  ascii: boolean;
}

export type Fail = (message: string, at: number) => never;

export class PatternReader {
  i = 0;
  groups = 0;
  readonly names = new Set<string>();
  readonly flags: Flags = { ignoreCase: false, multiline: false, dotAll: false, verbose: false, ascii: false };

  constructor(readonly p: string) {}

  readonly fail: Fail = (message, at) => {
    throw new PythonRegexError(`${message} at position ${Array.from(this.p.slice(0, at)).length}`);
  };

  get cat(): Categories {
    return this.flags.ascii ? ASCII_CATEGORIES : UNICODE_CATEGORIES;
  }

  /** Escapes that mean the same character inside and outside a class; advances past them. */
  commonEscape(at: number, c: string): string {
    const { p } = this;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      this.i = at + 2;
      return simple;
    }
    if (c === '0') {
      const oct = (/^0[0-7]{0,2}/.exec(p.slice(at + 1)) as RegExpExecArray)[0];
      this.i = at + 1 + oct.length;
      return this.octal(oct, at);
    }
    if (c === 'x' || c === 'u' || c === 'U') {
      const width = c === 'x' ? 2 : c === 'u' ? 4 : 8;
      const hex = (new RegExp(`^[0-9a-fA-F]{0,${width}}`).exec(p.slice(at + 2)) as RegExpExecArray)[0];
      if (hex.length !== width) return this.fail(`incomplete escape \\${c}${hex}`, at);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) return this.fail(`bad escape \\${c}${hex}`, at);
      this.i = at + 2 + width;
      return codePoint(cp);
    }
    if (c === 'N') return this.fail('named Unicode escapes (\\N{...}) are not supported', at);
    if (/^[a-zA-Z0-9]$/.test(c)) return this.fail(`bad escape \\${c}`, at);
    // Any other character escapes to itself.
    const cp = p.codePointAt(at + 1) as number;
    this.i = at + 1 + (cp > 0xffff ? 2 : 1);
    return codePoint(cp);
  }

  octal(digits: string, at: number): string {
    const cp = parseInt(digits, 8);
    if (cp > 0o377) return this.fail(`octal escape value \\${digits} outside of range 0-0o377`, at);
    return codePoint(cp);
  }
}

export function codePoint(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

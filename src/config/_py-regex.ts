// Compile a Python `re` pattern into a JS RegExp with Python's `fullmatch` semantics.
//
// Hermes compiles hook matchers with Python's `re`; a matcher must mean the same thing here, so
// this is a small translator rather than a pass-through. The JS side uses the `u` flag (code-point
// semantics and `\p{…}`, like Python's str patterns) and everything whose meaning differs is
// rewritten:
//   (?P<name>…) → (?<name>…)    (?P=name) → \k<name>    (?#comment) → removed
//   \A \Z → start/end of input   \a → BEL   \U0001F600, octal \0 \101 → the code point
//   \d \w \s \b (and negations) → Python's Unicode classes ((?a) → ASCII ones)
//   . ^ $ → Python's rules (only `\n` is a line break; `$` also matches before a final `\n`)
//   {,n} → {0,n}; a `{`, `}` or `]` that is not syntax → a literal; `\-` `\ ` … → the character
//   leading (?aimsux) → handled here (`i` becomes the JS flag, `x` strips whitespace/comments)
// Python's own errors are reproduced where JS would accept the pattern: unknown escapes (`\q`),
// short hex escapes, references to undefined groups, global flags not at the start, `(?<name>`.
// What JS cannot express (scoped flags `(?i:…)`, atomic groups, conditionals, `\N{…}`) is an
// error too; the caller then falls back to literal equality, as Hermes does for an invalid pattern.

import { HooksError, errorText } from '../errors.js';

export class PythonRegexError extends HooksError {
  constructor(message: string) {
    super('python_regex', message);
  }
}

const FLAG_LETTERS = 'aiLmsux';
const VERBOSE_SPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);
const SIMPLE_ESCAPES: Record<string, string> = { a: '\\x07', f: '\\f', n: '\\n', r: '\\r', t: '\\t', v: '\\v' };

/** Class contents (JS, for use inside `[…]`) of Python's \d \w \s. */
interface Categories {
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

interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  verbose: boolean;
  ascii: boolean;
}

type Fail = (message: string, at: number) => never;

/** A RegExp that tests whether the whole string matches the Python pattern. Throws PythonRegexError. */
export function compilePythonFullmatch(pattern: string): RegExp {
  const { source, flags } = new Translator(pattern).run();
  try {
    return new RegExp(`^(?:${source})$`, flags.ignoreCase ? 'iu' : 'u');
  } catch (e) {
    // "Invalid regular expression: /^(?:(a)$/u: Unterminated group" → "Unterminated group"
    const msg = errorText(e);
    const tail = msg.slice(msg.lastIndexOf(': ') + 2).trim();
    throw new PythonRegexError(tail || msg);
  }
}

class Translator {
  private i = 0;
  private groups = 0;
  private readonly names = new Set<string>();
  /** Positions of the `(` still open, so `)` can be checked like Python (our wrapper must not absorb it). */
  private readonly open: number[] = [];
  private readonly flags: Flags = { ignoreCase: false, multiline: false, dotAll: false, verbose: false, ascii: false };

  constructor(private readonly p: string) {}

  private fail: Fail = (message, at) => {
    throw new PythonRegexError(`${message} at position ${Array.from(this.p.slice(0, at)).length}`);
  };

  private get cat(): Categories {
    return this.flags.ascii ? ASCII_CATEGORIES : UNICODE_CATEGORIES;
  }

  run(): { source: string; flags: Flags } {
    this.leadingFlags();
    let out = '';
    const p = this.p;
    while (this.i < p.length) {
      const ch = p[this.i] as string;
      if (this.flags.verbose && VERBOSE_SPACE.has(ch)) {
        this.i++;
        continue;
      }
      if (this.flags.verbose && ch === '#') {
        const nl = p.indexOf('\n', this.i);
        this.i = nl < 0 ? p.length : nl + 1;
        continue;
      }
      switch (ch) {
        case '\\':
          out += this.escape();
          break;
        case '[':
          out += this.charClass();
          break;
        case '(': {
          const at = this.i;
          const js = this.group();
          // A comment `(?#…)` or a reference `(?P=name)` is consumed whole; the rest open a group.
          if (js.startsWith('(')) this.open.push(at);
          out += js;
          break;
        }
        case ')':
          if (this.open.pop() === undefined) this.fail('unbalanced parenthesis', this.i);
          out += ')';
          this.i++;
          break;
        case '.':
          out += this.flags.dotAll ? '[\\s\\S]' : '[^\\n]';
          this.i++;
          break;
        case '^':
          out += this.flags.multiline ? '(?<![^\\n])' : '(?<![\\s\\S])';
          this.i++;
          break;
        case '$':
          // Python: end of string, or just before a newline that ends it (any newline with MULTILINE).
          out += this.flags.multiline ? '(?![^\\n])' : '(?=\\n?(?![\\s\\S]))';
          this.i++;
          break;
        case '{': {
          // Python: {m} {m,} {,n} {m,n} {,} are quantifiers; any other `{` is a literal.
          const m = /^\{(\d*)(?:(,)(\d*))?\}/.exec(p.slice(this.i));
          if (m && (m[1] !== '' || m[2] !== undefined)) {
            out += m[2] === undefined ? `{${m[1]}}` : `{${m[1] || '0'},${m[3]}}`;
            this.i += m[0].length;
          } else {
            out += '\\{';
            this.i++;
          }
          break;
        }
        case '}':
        case ']':
          out += `\\${ch}`;
          this.i++;
          break;
        default: {
          const cp = p.codePointAt(this.i) as number;
          out += String.fromCodePoint(cp);
          this.i += cp > 0xffff ? 2 : 1;
        }
      }
    }
    const unclosed = this.open[this.open.length - 1];
    if (unclosed !== undefined) this.fail('missing ), unterminated subpattern', unclosed);
    return { source: out, flags: this.flags };
  }

  /** `(?i)`, `(?im)(?s)` … at the very start: Python 3.11 allows global flags only there. */
  private leadingFlags(): void {
    for (;;) {
      const m = /^\(\?([a-zA-Z]+)\)/.exec(this.p.slice(this.i));
      if (!m || ![...(m[1] as string)].every((c) => FLAG_LETTERS.includes(c))) return;
      const letters = m[1] as string;
      if (letters.includes('L')) this.fail("bad inline flag: cannot use 'L' flag with a str pattern", this.i);
      if (letters.includes('a') && letters.includes('u')) this.fail("bad inline flag: flags 'a', 'u' and 'L' are incompatible", this.i);
      if (letters.includes('i')) this.flags.ignoreCase = true;
      if (letters.includes('m')) this.flags.multiline = true;
      if (letters.includes('s')) this.flags.dotAll = true;
      if (letters.includes('x')) this.flags.verbose = true;
      if (letters.includes('a')) this.flags.ascii = true;
      this.i += m[0].length;
    }
  }

  /** An escape outside a class. */
  private escape(): string {
    const { p } = this;
    const at = this.i;
    const c = p[at + 1];
    if (c === undefined) return this.fail('bad escape (end of pattern)', at);
    const W = this.cat.w;
    const word = `[${W}]`;
    let out: string | null = null;
    switch (c) {
      case 'A':
        out = '(?<![\\s\\S])';
        break;
      case 'Z':
        out = '(?![\\s\\S])';
        break;
      // Word boundaries are wrapped in a lookahead (not a group) so that, as in Python, they
      // cannot be repeated: `\b*` is "nothing to repeat" in both.
      case 'b':
        out = `(?=(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
        break;
      // Python's \B never matches in an empty string (there is a character on one side).
      case 'B':
        out = `(?=(?:(?<=[\\s\\S])|(?=[\\s\\S]))(?:(?<=${word})(?=${word})|(?<!${word})(?!${word})))`;
        break;
      case 'd':
      case 'w':
      case 's':
        out = `[${this.cat[c]}]`;
        break;
      case 'D':
      case 'W':
      case 'S':
        out = `[^${this.cat[c.toLowerCase() as keyof Categories]}]`;
        break;
      default:
        break;
    }
    if (out !== null) {
      this.i += 2;
      return out;
    }
    if (c >= '1' && c <= '9') {
      // Python: three octal digits are a character, else a one- or two-digit group reference.
      const oct = /^[0-7]{3}/.exec(p.slice(at + 1));
      if (oct) {
        this.i += 1 + oct[0].length;
        return this.octal(oct[0], at);
      }
      const ref = (/^\d\d?/.exec(p.slice(at + 1)) as RegExpExecArray)[0];
      if (Number(ref) > this.groups) return this.fail(`invalid group reference ${ref}`, at + 1);
      this.i += 1 + ref.length;
      return `\\${ref}`;
    }
    return this.commonEscape(at, c);
  }

  /** Escapes that mean the same character inside and outside a class; advances past them. */
  private commonEscape(at: number, c: string): string {
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

  private octal(digits: string, at: number): string {
    const cp = parseInt(digits, 8);
    if (cp > 0o377) return this.fail(`octal escape value \\${digits} outside of range 0-0o377`, at);
    return codePoint(cp);
  }

  /**
   * `[…]`. Members are copied into a JS class; Python's complemented categories (\W \S \D) cannot
   * be members of a JS `u` class, so a class with them becomes an equivalent alternation.
   */
  private charClass(): string {
    const { p } = this;
    const start = this.i;
    this.i++;
    let negated = false;
    if (p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const bodyStart = this.i;
    let members = '';
    const complements: string[] = [];
    // A '-' just emitted as a range operator (so a category after it would be a bad range).
    let rangeDash = false;
    for (;;) {
      if (this.i >= p.length) return this.fail('unterminated character set', start);
      const ch = p[this.i] as string;
      // Python: a `]` right after `[` or `[^` is a literal.
      if (ch === ']' && this.i > bodyStart) {
        this.i++;
        break;
      }
      if (ch === '\\') {
        const at = this.i;
        const c = p[at + 1];
        if (c === undefined) return this.fail('bad escape (end of pattern)', at);
        const category = 'dwsDWS'.includes(c) ? c : null;
        if (category !== null) {
          const next = p[at + 2];
          if (rangeDash || (next === '-' && p[at + 3] !== undefined && p[at + 3] !== ']')) {
            return this.fail(`bad character range ${p.slice(at, at + 4)}`, at);
          }
          const content = this.cat[category.toLowerCase() as keyof Categories];
          if (category === category.toLowerCase()) members += content;
          else complements.push(content);
          this.i = at + 2;
        } else if (c === 'b') {
          members += '\\x08';
          this.i = at + 2;
        } else if (c >= '1' && c <= '7') {
          const oct = (/^[0-7]{1,3}/.exec(p.slice(at + 1)) as RegExpExecArray)[0];
          this.i = at + 1 + oct.length;
          members += this.octal(oct, at);
        } else {
          members += this.commonEscape(at, c);
        }
        rangeDash = false;
        continue;
      }
      if (ch === '-') {
        const isRange = this.i > bodyStart && p[this.i + 1] !== ']' && p[this.i + 1] !== undefined;
        members += '\\-'.slice(isRange ? 1 : 0);
        rangeDash = isRange;
        this.i++;
        continue;
      }
      const cp = p.codePointAt(this.i) as number;
      members += ch === '[' || ch === ']' || ch === '^' ? `\\${ch}` : String.fromCodePoint(cp);
      this.i += cp > 0xffff ? 2 : 1;
      rangeDash = false;
    }
    if (complements.length === 0) return `[${negated ? '^' : ''}${members}]`;
    if (!negated) {
      const alternatives = [...(members ? [`[${members}]`] : []), ...complements.map((c) => `[^${c}]`)];
      return `(?:${alternatives.join('|')})`;
    }
    // [^…\W…]: a character in none of the members and in every complemented category.
    return `(?:${members ? `(?![${members}])` : ''}${complements.map((c) => `(?=[${c}])`).join('')}[\\s\\S])`;
  }

  /** A `(` and what follows it up to the group's body. */
  private group(): string {
    const { p } = this;
    const at = this.i;
    if (p[at + 1] !== '?') {
      this.groups++;
      this.i++;
      return '(';
    }
    const rest = p.slice(at + 2);
    if (rest.startsWith('P<')) {
      const m = /^P<([^>]*)>/.exec(rest);
      if (!m) return this.fail('missing >, unterminated name', at + 4);
      const name = m[1] as string;
      if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name)) return this.fail(`bad character in group name '${name}'`, at + 4);
      if (this.names.has(name)) return this.fail(`redefinition of group name '${name}'`, at + 4);
      this.names.add(name);
      this.groups++;
      this.i = at + 2 + m[0].length;
      return `(?<${name}>`;
    }
    if (rest.startsWith('P=')) {
      const m = /^P=([^)]*)\)/.exec(rest);
      if (!m) return this.fail('missing ), unterminated name', at + 4);
      const name = m[1] as string;
      if (!this.names.has(name)) return this.fail(`unknown group name '${name}'`, at + 4);
      this.i = at + 2 + m[0].length;
      return `\\k<${name}>`;
    }
    if (rest.startsWith('P')) return this.fail(`unknown extension ?P${rest[1] ?? ''}`, at + 1);
    if (rest.startsWith('#')) {
      const end = p.indexOf(')', at);
      if (end < 0) return this.fail('missing ), unterminated comment', at);
      this.i = end + 1;
      return '';
    }
    for (const lead of [':', '=', '!', '<=', '<!']) {
      if (rest.startsWith(lead)) {
        this.i = at + 2 + lead.length;
        return `(?${lead}`;
      }
    }
    if (rest.startsWith('<')) return this.fail(`unknown extension ?<${rest[1] ?? ''}`, at + 1);
    const flagGroup = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
    if (flagGroup && (flagGroup[1] !== '' || flagGroup[2] !== undefined)) {
      const bad = [...`${flagGroup[1]}${flagGroup[2] ?? ''}`].find((c) => !FLAG_LETTERS.includes(c));
      if (bad !== undefined) return this.fail('unknown flag', at + 2);
      if (flagGroup[3] === ')' && flagGroup[2] === undefined) return this.fail('global flags not at the start of the expression', at);
      return this.fail('scoped inline flags (?flags:...) are not supported in JavaScript', at);
    }
    if (rest.startsWith('>')) return this.fail('atomic groups (?>...) are not supported in JavaScript', at);
    if (rest.startsWith('(')) return this.fail('conditional groups (?(id)yes|no) are not supported in JavaScript', at);
    return this.fail(`unknown extension ?${rest[0] ?? ''}`, at + 1);
  }
}

function codePoint(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

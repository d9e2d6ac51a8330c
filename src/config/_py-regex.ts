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

import { errorText } from '../errors.js';
import { translateCharClass } from './_py-regex-class.js';
import { type Categories, FLAG_LETTERS, type Flags, PatternReader, PythonRegexError } from './_py-regex-reader.js';

export { PythonRegexError } from './_py-regex-reader.js';

const VERBOSE_SPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);

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

class Translator extends PatternReader {
  /** Positions of the `(` still open, so `)` can be checked like Python (our wrapper must not absorb it). */
  private readonly open: number[] = [];

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
          out += translateCharClass(this);
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

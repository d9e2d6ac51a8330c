// Python's character classes `[…]` in JS. Members are copied into a JS class; Python's
// complemented categories (\W \S \D) cannot be members of a JS `u` class, so a class with them
// becomes an equivalent alternation. Pure.

import type { Categories, PatternReader } from './_py-regex-reader.js';

/** Translates the class starting at `r.i` (a `[`) and advances past its `]`. */
export function translateCharClass(r: PatternReader): string {
  const { p } = r;
  const start = r.i;
  r.i++;
  let negated = false;
  if (p[r.i] === '^') {
    negated = true;
    r.i++;
  }
  const bodyStart = r.i;
  let members = '';
  const complements: string[] = [];
  // A '-' just emitted as a range operator (so a category after it would be a bad range).
  let rangeDash = false;
  for (;;) {
    if (r.i >= p.length) return r.fail('unterminated character set', start);
    const ch = p[r.i] as string;
    // Python: a `]` right after `[` or `[^` is a literal.
    if (ch === ']' && r.i > bodyStart) {
      r.i++;
      break;
    }
    if (ch === '\\') {
      const at = r.i;
      const c = p[at + 1];
      if (c === undefined) return r.fail('bad escape (end of pattern)', at);
      const category = 'dwsDWS'.includes(c) ? c : null;
      if (category !== null) {
        const next = p[at + 2];
        if (rangeDash || (next === '-' && p[at + 3] !== undefined && p[at + 3] !== ']')) {
          return r.fail(`bad character range ${p.slice(at, at + 4)}`, at);
        }
        const content = r.cat[category.toLowerCase() as keyof Categories];
        if (category === category.toLowerCase()) members += content;
        else complements.push(content);
        r.i = at + 2;
      } else if (c === 'b') {
        members += '\\x08';
        r.i = at + 2;
      } else if (c >= '1' && c <= '7') {
        const oct = (/^[0-7]{1,3}/.exec(p.slice(at + 1)) as RegExpExecArray)[0];
        r.i = at + 1 + oct.length;
        members += r.octal(oct, at);
      } else {
        members += r.commonEscape(at, c);
      }
      rangeDash = false;
      continue;
    }
    if (ch === '-') {
      const isRange = r.i > bodyStart && p[r.i + 1] !== ']' && p[r.i + 1] !== undefined;
      members += '\\-'.slice(isRange ? 1 : 0);
      rangeDash = isRange;
      r.i++;
      continue;
    }
    const cp = p.codePointAt(r.i) as number;
    members += ch === '[' || ch === ']' || ch === '^' ? `\\${ch}` : String.fromCodePoint(cp);
    r.i += cp > 0xffff ? 2 : 1;
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

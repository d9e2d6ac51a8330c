// Python's `shlex.split(s)` (POSIX mode, no comments), which Hermes uses to find a hook's script
// path, and its inverse `shlex.quote(s)`. The splitter is kept private and exact rather than
// reusing the spawn splitter: this decides which file's mtime/hash is recorded, and must pick the
// same token Hermes picks. Pure.

const WHITESPACE = ' \t\r\n';

/** Tokens, or null where Python raises ValueError (unclosed quote, trailing backslash). */
export function shlexSplit(text: string): string[] | null {
  const tokens: string[] = [];
  let state: ' ' | 'a' | "'" | '"' | '\\' = ' ';
  let escapedState: 'a' | '"' = 'a';
  let token = '';
  let quoted = false;

  const emit = (): void => {
    tokens.push(token);
    token = '';
    quoted = false;
  };

  for (const ch of text) {
    if (state === ' ' || state === 'a') {
      if (WHITESPACE.includes(ch)) {
        if (state === 'a' || token !== '' || quoted) emit();
        state = ' ';
      } else if (ch === '\\') {
        escapedState = 'a';
        state = '\\';
      } else if (ch === "'" || ch === '"') {
        quoted = true;
        state = ch;
      } else {
        token += ch;
        state = 'a';
      }
    } else if (state === "'") {
      if (ch === "'") state = 'a';
      else token += ch;
    } else if (state === '"') {
      if (ch === '"') state = 'a';
      else if (ch === '\\') {
        escapedState = '"';
        state = '\\';
      } else token += ch;
    } else {
      // After a backslash: inside double quotes only `\"` and `\\` are escapes.
      if (escapedState === '"' && ch !== '"' && ch !== '\\') token += '\\';
      token += ch;
      state = escapedState;
    }
  }
  if (state === "'" || state === '"' || state === '\\') return null;
  if (token !== '' || quoted) emit();
  return tokens;
}

/**
 * Python's `shlex.quote(s)`: the word as is when it is only `[A-Za-z0-9_@%+=:,./-]`, else in
 * single quotes (an inner `'` as `'\''`). Safe to paste into a POSIX shell, and split back into
 * the same word by shlexSplit and by the spawn splitter.
 */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

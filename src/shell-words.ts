// Split a configured hook command into argv, like a POSIX shell would but with no shell:
// quotes and backslashes are honoured; `$VAR`, globs, `#`, pipes and redirections are plain
// characters. Beyond Hermes (which runs `expanduser` on the whole string, so only a leading `~`
// expands), an unquoted `~` or `~/…` at the start of ANY token expands to the home directory,
// so `bash ~/hooks/x.sh` works. `~user` is left alone. Pure: no I/O.

import { homedir as osHomedir } from 'node:os';

export type SplitResult = { ok: true; argv: string[] } | { ok: false; error: string };

export interface SplitOptions {
  /** Home directory used for `~` expansion; defaults to `os.homedir()` (read only when needed). */
  homedir?: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
/** Inside double quotes a backslash escapes only these (POSIX); elsewhere it stays literal. */
const DQUOTE_ESCAPABLE = new Set(['\\', '"', '$', '`', '\n']);

/** Tilde state of the current token: its first unit was an unquoted `~` whose fate is undecided. */
type Tilde = 'none' | 'pending' | 'expand';

export function splitCommand(command: string, opts: SplitOptions = {}): SplitResult {
  const parseError = (reason: string): SplitResult => ({
    ok: false,
    error: `command '${command}' cannot be parsed: ${reason}`,
  });
  const argv: string[] = [];
  let token = '';
  let inToken = false;
  let tilde: Tilde = 'none';
  let home: string | undefined;

  // Every unit after the first decides a pending tilde: only an unquoted `/` keeps it.
  const settleTilde = (unquotedSlash: boolean): void => {
    if (tilde === 'pending') tilde = unquotedSlash ? 'expand' : 'none';
  };
  const endToken = (): void => {
    if (!inToken) return;
    if (tilde === 'pending' || tilde === 'expand') {
      home ??= opts.homedir ?? osHomedir();
      token = home + token.slice(1);
    }
    argv.push(token);
    token = '';
    inToken = false;
    tilde = 'none';
  };

  const n = command.length;
  let i = 0;
  while (i < n) {
    const c = command[i] as string;
    if (WHITESPACE.has(c)) {
      endToken();
      i += 1;
    } else if (c === '\\') {
      const next = command[i + 1];
      if (next === undefined) return parseError('No escaped character');
      i += 2;
      if (next === '\n') continue; // line continuation: both characters vanish
      settleTilde(false);
      token += next;
      inToken = true;
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) return parseError('No closing quotation');
      settleTilde(false);
      token += command.slice(i + 1, close);
      inToken = true;
      i = close + 1;
    } else if (c === '"') {
      const quoted = readDoubleQuoted(command, i + 1);
      if (quoted === null) return parseError('No closing quotation');
      settleTilde(false);
      token += quoted.text;
      inToken = true;
      i = quoted.end;
    } else {
      if (!inToken && c === '~') tilde = 'pending';
      else settleTilde(c === '/');
      token += c;
      inToken = true;
      i += 1;
    }
  }
  endToken();
  if (argv.length === 0) return { ok: false, error: 'empty command' };
  return { ok: true, argv };
}

/**
 * The text of a double-quoted string whose body starts at `start`, and the index just past its
 * closing quote; null when it is never closed. A backslash escapes only DQUOTE_ESCAPABLE (an
 * escaped newline vanishes); before any other character it stays literal.
 */
function readDoubleQuoted(command: string, start: number): { text: string; end: number } | null {
  const n = command.length;
  let text = '';
  let i = start;
  while (i < n) {
    const d = command[i] as string;
    if (d === '"') return { text, end: i + 1 };
    if (d === '\\' && i + 1 < n && DQUOTE_ESCAPABLE.has(command[i + 1] as string)) {
      const e = command[i + 1] as string;
      if (e !== '\n') text += e;
      i += 2;
      continue;
    }
    text += d;
    i += 1;
  }
  return null;
}

/**
 * Quote a word for a POSIX shell (Python's `shlex.quote`): the word as is when it is only
 * `[A-Za-z0-9_@%+=:,./-]`, else in single quotes (an inner `'` as `'\''`). Safe to paste into a
 * shell, and split back into the same word by splitCommand.
 */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

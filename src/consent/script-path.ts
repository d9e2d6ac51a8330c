// Which file a hook command "is", exactly as Hermes picks it (reference §5): the first token that
// looks like a script by its suffix, else the first token that looks like a path, else the first
// token; `~` expanded. Used for the mtime, the sha256 pin and doctor. Pure.

import { shlexSplit } from './_shlex.js';

export const SCRIPT_SUFFIXES: readonly string[] = [
  '.sh', '.bash', '.zsh', '.fish', '.py', '.pyw', '.rb', '.pl', '.lua', '.js', '.mjs', '.cjs', '.ts',
];

export interface ScriptToken {
  /** The chosen token with `~` expanded (or the whole command when it does not split). */
  path: string;
  /** Index of the chosen token in the split command; null when the whole command was used. */
  index: number | null;
  /** The split command, or null when it did not split. */
  argv: string[] | null;
}

export function resolveScriptPath(command: string, opts: { homedir: string; username?: string }): ScriptToken {
  const argv = shlexSplit(command);
  if (argv === null || argv.length === 0) return { path: command, index: null, argv };
  let index = argv.findIndex((t) => SCRIPT_SUFFIXES.some((s) => t.toLowerCase().endsWith(s)));
  if (index < 0) index = argv.findIndex((t) => t.includes('/') || t.startsWith('~'));
  if (index < 0) index = 0;
  return { path: expandUser(argv[index] as string, opts), index, argv };
}

/**
 * `os.path.expanduser`: `~` and `~/…` → home; `~name/…` only for the current user (we do not read
 * the password database); anything else unchanged.
 */
export function expandUser(token: string, opts: { homedir: string; username?: string }): string {
  if (!token.startsWith('~')) return token;
  let slash = token.indexOf('/', 1);
  if (slash < 0) slash = token.length;
  const name = token.slice(1, slash);
  if (name !== '' && name !== opts.username) return token;
  const home = opts.homedir.replace(/\/+$/, '');
  return home + token.slice(slash) || '/';
}

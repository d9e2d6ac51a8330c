// A hook command that names its program or script by a relative path (`./guard.sh`, `hooks/guard.sh`,
// `python3 hooks/guard.py`). Hermes hands it to exec unchanged, so it is looked up in the agent's
// working directory: the guard runs only when the agent was started in one directory, and the
// agent can write that directory. We resolve it once, against the directory of the config file
// that names it, and the command becomes that absolute one before anything else sees it — consent
// (the approval key and the pinned file), dedupe, validate, doctor, test and run all see one path.
// Pure: paths are joined, never looked up.

import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { shellQuote, splitCommand } from '../shell-words.js';

/** Interpreters whose first non-option word is the script they run. */
const INTERPRETER = /^((ba|z|da|k|mk|a)?sh|(python|pypy)[0-9.]*|node|nodejs|tsx|ruby|perl)$/;
/** Options after which the interpreter runs code from the command line or stdin, not a file. */
const INLINE = new Set(['-c', '-e', '-E', '-m', '-p', '--eval', '--print', '-', '--']);
const SHELL_INLINE = /^-[a-zA-Z]*c[a-zA-Z]*$/;
const SCRIPT_SUFFIX = /\.(sh|bash|zsh|py|pyw|js|mjs|cjs|ts|mts|rb|pl)$/i;
/** Options that take the next word as their value (`node -r ./setup.js`): a relative file there is resolved too. */
const TAKES_VALUE = new Set(['-r', '--require', '--import', '--loader', '-W', '-X', '-o', '-O', '-I', '-M']);

export interface ResolvedCommand {
  /** The command with the relative word(s) replaced by absolute paths, each quoted for the splitter. */
  command: string;
  /** Each word resolved: as written and as resolved. */
  resolved: { word: string; path: string }[];
}

/** A word exec or the interpreter would look up relative to the working directory. */
function isRelativePath(word: string, bareScript: boolean): boolean {
  if (word === '' || isAbsolute(word) || word.startsWith('~') || word.includes('$')) return false;
  return word.includes('/') || (bareScript && SCRIPT_SUFFIX.test(word));
}

/** The indexes of the words to resolve: the program, and the script an interpreter runs. */
function relativeWords(argv: readonly string[]): number[] {
  const out: number[] = [];
  const program = argv[0] as string;
  if (isRelativePath(program, false)) out.push(0);
  const name = basename(program);
  if (!INTERPRETER.test(name)) return out;
  const shell = /sh$/.test(name);
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as string;
    if (INLINE.has(w) || (shell && SHELL_INLINE.test(w))) break;
    if (TAKES_VALUE.has(w)) {
      if (isRelativePath(argv[i + 1] ?? '', false)) out.push(i + 1);
      i += 1;
      continue;
    }
    if (w.startsWith('-')) continue;
    // The first word that is not an option is the script (a bare `guard.py` too: python opens it from the cwd).
    if (isRelativePath(w, true)) out.push(i);
    break;
  }
  return out;
}

/** A word quoted so splitCommand gives it back, keeping a leading `~/` expandable. */
function requote(word: string): string {
  if (word === '~') return word;
  return word.startsWith('~/') ? `~/${shellQuote(word.slice(2))}` : shellQuote(word);
}

/**
 * `command` with its relative program or script resolved against the directory of `configFile`;
 * null when it has none (or does not split: the config check says why).
 */
export function resolveRelativeCommand(command: string, configFile: string): ResolvedCommand | null {
  // `~` is kept as written (homedir '~'): it is expanded at spawn time, not baked in here.
  const split = splitCommand(command, { homedir: '~' });
  if (!split.ok) return null;
  const at = relativeWords(split.argv);
  if (at.length === 0) return null;
  const base = dirname(resolve(configFile));
  const resolved: { word: string; path: string }[] = [];
  const words = split.argv.map((w, i) => {
    if (!at.includes(i)) return requote(w);
    const path = resolve(base, w);
    resolved.push({ word: w, path });
    return shellQuote(path);
  });
  return { command: words.join(' '), resolved };
}

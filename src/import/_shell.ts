// The agents run hook commands through a shell (`sh -c`, `$SHELL -lc`, `bash -c`); we split the
// command like a POSIX shell but run no shell (no `$VAR`, pipes, globs). These helpers tell when an
// imported command needs a real shell to mean the same thing, and wrap it in one.

import { shellQuote } from '../shell-words.js';

const SHELL_SYNTAX = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[', ']', '{', '}', '\n']);

/** True when the command uses anything our no-shell splitter would not give the same meaning. */
export function needsShell(command: string): boolean {
  if (/^\s*[A-Za-z_][A-Za-z0-9_]*=/.test(command)) return true; // `VAR=value cmd`
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '$' || c === '`') return true;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (SHELL_SYNTAX.has(c)) return true;
    else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]!))) return true;
  }
  return false;
}

/** `sh -c '<command>'` (or another shell) as one command line for our splitter. */
export function wrapInShell(command: string, shell: 'sh' | 'bash'): string {
  return `${shell} -c ${shellQuote(command)}`;
}

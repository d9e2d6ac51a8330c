// Launch-failure texts: what could not be started, the path that was tried, and the fix, so a
// failed launch is its own outcome and never masquerades as an exit code. The exec format error
// keeps Hermes' own wording first (reference §3.2); the file is read (launch-problems.ts) only
// once a launch has failed.

import { resolve } from 'node:path';
import { firstOnPath, problemText, programProblem, quotingFix, shebangFix, unquotedPath } from './launch-problems.js';

/** `[Errno 8] Exec format error: '<path>'` — what Python's subprocess reports for ENOEXEC — and the fix. */
export function execFormatErrorText(path: string): string {
  return `[Errno 8] Exec format error: '${path}' — it has no #! line: ${shebangFix(path)}`;
}

/** Where a launch looked argv[0] up: the child's PATH and working directory. */
export interface LaunchContext {
  path?: string | undefined;
  cwd?: string | undefined;
}

/**
 * Maps a spawn error (errno code + message) to the HookRun `error` text. A command that is not
 * found says what was looked up, where that helps: commands run without a shell, so `FOO=1 cmd`
 * looks for a program called `FOO=1`, and an unquoted path with spaces is several words.
 */
export function launchErrorText(code: string | undefined, message: string | undefined, argv: readonly string[], context: LaunchContext = {}): string {
  const argv0 = argv[0] ?? '';
  const cwd = context.cwd ?? process.cwd();
  switch (code) {
    case 'ENOENT':
      return notFoundText(argv, cwd, context.path);
    case 'EACCES':
    case 'EPERM':
      return notExecutableText(argv0, cwd, context.path);
    case 'ENOEXEC':
      return execFormatErrorText(argv0.includes('/') ? resolve(cwd, argv0) : argv0);
    default:
      return message && message.length > 0 ? message : `cannot launch '${argv0}'${code ? ` (${code})` : ''}`;
  }
}

/**
 * The run of a script whose own `#!` line is broken ends as env's exit 126/127 (`/usr/bin/env:
 * 'bash\r': No such file or directory`), not as a launch error: the text that says so and how to
 * fix it when the file's `#!` line is what failed, else null (the script ran and exited 127 itself).
 */
export function brokenShebangText(argv0: string, context: LaunchContext): string | null {
  const cwd = context.cwd ?? process.cwd();
  const file = argv0.includes('/') ? resolve(cwd, argv0) : firstOnPath(argv0, context.path, cwd);
  if (file === null) return null;
  const p = programProblem(file, { cwd, path: context.path });
  return p === null || p.missing ? null : problemText(p);
}

function notExecutableText(argv0: string, cwd: string, path: string | undefined): string {
  const file = argv0.includes('/') ? resolve(cwd, argv0) : firstOnPath(argv0, path, cwd);
  if (file === null) return `command not executable: ${argv0}`;
  const p = programProblem(file, { cwd, path });
  if (p === null) return `command not executable: ${file}`;
  if (p.missing) return `command not executable: ${file} is not a regular file — point the command at the program or script itself`;
  return `command ${problemText(p)}`;
}

function notFoundText(argv: readonly string[], cwd: string, path: string | undefined): string {
  const argv0 = argv[0] ?? '';
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(argv0);
  if (assignment) return `command not found: \`${argv0}\` — environment assignments need \`env ${argv0} …\` (commands run without a shell)`;
  if (!argv0.includes('/')) return `command not found: \`${argv0}\` (looked up on PATH=${path ?? ''})`;
  const file = resolve(cwd, argv0);
  // The file is there: what was not found is its `#!` interpreter (missing, or CRLF's `bash\r`).
  const p = programProblem(file, { cwd, path });
  if (p !== null && !p.missing) return problemText(p);
  const split = unquotedPath(argv, 0, cwd);
  const where = argv0.startsWith('/') ? `${file} (no such file)` : `\`${argv0}\` (looked up relative to the working directory ${cwd})`;
  return `command not found: ${where}${split === null ? '' : ` — ${quotingFix(split)}`}`;
}

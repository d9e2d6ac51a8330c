// What stops a hook's program (or the script its interpreter runs) from starting, read from the
// file itself, said with the path and the fix: a missing file (and whether the command was split
// at the spaces of an unquoted path), not a regular file, no exec bit, CRLF line endings, no `#!`
// line, a `#!` interpreter that does not exist. One place for it: `validate` and `doctor` ask
// before anything runs (cli/_command-check.ts), and a launch that failed asks why (run-hook.ts).
// Synchronous file reads, only ever on those paths — never on a hook that starts.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, extname, join, resolve } from 'node:path';
import { shellQuote, splitCommand } from '../shell-words.js';
import { readHead } from './_exec-format.js';

export interface LaunchProblem {
  /** What is wrong, naming the file: `not executable: /x/guard.sh`. */
  problem: string;
  /**
   * How to fix it (`run: chmod +x /x/guard.sh`); null when the fix is to correct the path, which
   * the caller words (it knows where the command is written).
   */
  fix: string | null;
  /** There is nothing to run at that path (missing, or not a regular file). */
  missing: boolean;
}

/** `problem — fix`, or `problem — <fallback>` when the fix is the caller's to say. */
export function problemText(p: LaunchProblem, fallback?: string): string {
  const fix = p.fix ?? fallback;
  return fix ? `${p.problem} — ${fix}` : p.problem;
}

/** `sed -i 's/\r$//' FILE`: what turns CRLF line endings into LF. */
export function crlfFix(file: string): string {
  return `run: sed -i 's/\\r$//' ${shellQuote(file)}`;
}

/** The `#!` line to add to a script that has none, by its suffix (bash unless it says otherwise). */
export function shebangFix(file: string): string {
  const interpreter = { '.py': 'python3', '.pyw': 'python3', '.js': 'node', '.mjs': 'node', '.cjs': 'node', '.rb': 'ruby', '.pl': 'perl' }[
    extname(file).toLowerCase()
  ];
  return `add #!/usr/bin/env ${interpreter ?? 'bash'} as the first line`;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * `argv[at]` does not exist, but it and the words after it, joined with single spaces, name a
 * file: the command was split at the spaces of an unquoted path (`/home/u/Mes Documents/garde
 * fou.sh`). Returns that path and the command with it quoted; null otherwise.
 */
export function unquotedPath(argv: readonly string[], at: number, cwd: string): { path: string; command: string } | null {
  for (let end = at + 2; end <= argv.length; end++) {
    const joined = argv.slice(at, end).join(' ');
    // A word without a slash is looked up on PATH even when quoted: quoting would not help.
    if (!joined.includes('/') || !isFile(resolve(cwd, joined))) continue;
    const words = [...argv.slice(0, at).map(shellQuote), shellQuote(joined), ...argv.slice(end).map(shellQuote)];
    return { path: joined, command: words.join(' ') };
  }
  return null;
}

/** The fix for a split path, as the config line to write (a YAML double-quoted string). */
export function quotingFix(found: { command: string }): string {
  return `the command was split at the spaces in its path; quote the path: command: ${JSON.stringify(found.command)}`;
}

/**
 * The quoting fix for a whole command whose path was split at its spaces (the first word that
 * names no file but, joined with the next ones, does), or null. For wording that only has the
 * command line (consent's "does not exist").
 */
export function splitPathFix(command: string, cwd: string, homedir?: string): string | null {
  const split = splitCommand(command, homedir === undefined ? {} : { homedir });
  if (!split.ok) return null;
  for (let at = 0; at < split.argv.length; at++) {
    const word = split.argv[at] ?? '';
    if (!word.includes('/') || isFile(resolve(cwd, word))) continue;
    const found = unquotedPath(split.argv, at, cwd);
    if (found !== null) return quotingFix(found);
  }
  return null;
}

/** `which`: the first executable regular file named `name` in the directories of `path` (empty entries skipped). */
export function whichOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isFile(candidate) && executable(candidate)) return candidate;
  }
  return null;
}

/** The first regular file named `name` on `path` (what execvp tried first), executable or not. */
export function firstOnPath(name: string, path: string | undefined, cwd: string): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    const candidate = resolve(cwd, dir === '' ? '.' : dir, name);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function missingFile(file: string, argv: readonly string[] | null, at: number, cwd: string): LaunchProblem {
  const split = argv === null ? null : unquotedPath(argv, at, cwd);
  return { problem: `file not found: ${file}`, fix: split === null ? null : quotingFix(split), missing: true };
}

export interface ProgramContext {
  cwd: string;
  /** PATH the `#!` line's `env NAME` is looked up on (the hook's). */
  path?: string | undefined;
  /** The whole argv, so a missing program can be recognised as a split path. */
  argv?: readonly string[];
}

/**
 * What stops the kernel from executing `file` as a program (argv[0], already resolved to a path),
 * or null when nothing visible does.
 */
export function programProblem(file: string, ctx: ProgramContext): LaunchProblem | null {
  let isDir = false;
  try {
    const st = statSync(file);
    if (!st.isFile()) {
      isDir = st.isDirectory();
      return { problem: `not a regular file: ${file}${isDir ? ' (a directory)' : ''}`, fix: null, missing: true };
    }
  } catch {
    return missingFile(file, ctx.argv ?? null, 0, ctx.cwd);
  }
  if (!executable(file)) return { problem: `not executable: ${file}`, fix: `run: chmod +x ${shellQuote(file)}`, missing: false };
  return headProblem(file, { direct: true, path: ctx.path, cwd: ctx.cwd });
}

/**
 * What stops an interpreter from running `argv[at]` as its script (`bash x.sh`, `python3 h.py`):
 * missing (or split at spaces), not a regular file, not readable — and for a shell, CRLF line
 * endings, which it reads as part of each command.
 */
export function scriptProblem(file: string, ctx: { cwd: string; argv: readonly string[]; at: number; shell: boolean }): LaunchProblem | null {
  try {
    if (!statSync(file).isFile()) return { problem: `not a regular file: ${file}`, fix: null, missing: true };
  } catch {
    return missingFile(file, ctx.argv, ctx.at, ctx.cwd);
  }
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return { problem: `not readable: ${file}`, fix: `run: chmod +r ${shellQuote(file)}`, missing: false };
  }
  if (!ctx.shell) return null;
  const head = readHead(file);
  if (head !== null && head.includes('\r\n')) {
    return { problem: `CRLF line endings: ${file} (the shell reads each \\r as part of a command)`, fix: crlfFix(file), missing: false };
  }
  return null;
}

/** The `#!` line of a script, without the `#!` and the newline; null when it has none. */
function shebangLine(head: Buffer): string | null {
  if (head.length < 2 || head[0] !== 0x23 || head[1] !== 0x21) return null;
  const nl = head.indexOf(0x0a);
  return head.subarray(2, nl === -1 ? head.length : nl).toString('utf8');
}

function headProblem(file: string, opts: { direct: boolean; path: string | undefined; cwd: string }): LaunchProblem | null {
  const head = readHead(file);
  if (head === null) return null; // unreadable (execute-only): the kernel may still run it
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return null; // ELF
  const line = shebangLine(head);
  if (line === null) {
    // Binary data may be a binfmt_misc format (jar, PE under wine …): leave it to the kernel.
    if (head.includes(0)) return null;
    return {
      problem: `no #! line: ${file} cannot be executed directly (Exec format error)`,
      fix: shebangFix(file),
      missing: false,
    };
  }
  if (line.endsWith('\r')) {
    return {
      // The kernel (or env) looks for the last word of the line with the \r glued to it.
      problem: `CRLF line endings: ${file} (its #! line asks for '${
        line
          .trim()
          .split(/[ \t]+/)
          .pop() ?? ''
      }\\r')`,
      fix: crlfFix(file),
      missing: false,
    };
  }
  const words = line.trim().split(/[ \t]+/);
  const interpreter = words[0] ?? '';
  if (interpreter === '') return { problem: `empty #! line: ${file}`, fix: shebangFix(file), missing: false };
  if (interpreter.startsWith('/') && !isFile(interpreter)) {
    return { problem: `the #! interpreter ${interpreter} of ${file} does not exist`, fix: `install it, or correct the #! line`, missing: false };
  }
  // `#!/usr/bin/env NAME`: NAME is looked up on the hook's PATH when it runs.
  if (opts.path !== undefined && /(^|\/)env$/.test(interpreter)) {
    const name = words.slice(1).find((w) => !w.startsWith('-') && !w.includes('='));
    if (name !== undefined && !name.includes('/') && firstOnPath(name, opts.path, opts.cwd) === null) {
      return {
        problem: `the #! line of ${file} runs ${name} through env, and ${name} is not on PATH=${opts.path}`,
        fix: `install ${name}, or correct the #! line`,
        missing: false,
      };
    }
  }
  return null;
}

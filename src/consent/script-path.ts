// Which file a hook command "is": the file whose bytes the approval pins. It is chosen from the
// very argv spawn will exec (`splitCommand`, the one splitter), walking through wrappers (`env`,
// `nice`, `timeout` …) to the program, and for a known interpreter past its options — skipping
// the ones that take a value (`node -r X`, `python3 -W X`, `bash -O X`) — to the script it runs.
// When the interpreter runs code from the command line, a module, stdin or a package rather than
// a file (`python3 -c …`, `python3 -m …`, `node -e …`, `npx …`), the interpreter binary is pinned
// and `note` says so. An unknown program is what exec runs, so it is pinned itself — except a bare
// unknown name followed by a script-looking argument (`uv run hook.py`), where the script is the
// better guess (and Hermes' choice). Each program family has its reader (_wrapper-steps.ts,
// _interpreter-steps.ts); options missing from their tables are taken as flags without a value.
// Pure.

import { splitCommand } from '../shell-words.js';
import { basename, hasScriptSuffix, type StepReader } from './_pin-words.js';
import { INTERPRETER_STEPS, type InterpreterFamily } from './_interpreter-steps.js';
import { WRAPPER_STEPS, type WrapperFamily } from './_wrapper-steps.js';

export { hasScriptSuffix, SCRIPT_SUFFIXES } from './_pin-words.js';

export type PinKind = 'script' | 'program' | 'interpreter';

export interface PinTarget {
  /** The argv spawn execs; null when the command does not split (it then cannot run either). */
  argv: string[] | null;
  /** Why the command does not split, or `empty command`; null otherwise. */
  error: string | null;
  /** The chosen word as the program or interpreter receives it (`~/` already expanded). */
  token: string;
  /**
   * How the word becomes a file: `path` = a bare program name exec looks up on PATH (`searchPath`
   * when an `env PATH=…` prefix set one); `cwd` = relative to the hook's working directory
   * (joined with `chdir` when `env -C`, `ruby -C` or `bun --cwd` moved it).
   */
  lookup: 'path' | 'cwd';
  searchPath: string | null;
  chdir: string | null;
  kind: PinKind;
  /** Why this word was chosen when it is not the obvious one (interpreter pinned, guessed script). */
  note: string | null;
  /** Every program exec (and each wrapper after it) runs on the way, in order: judged by the trust rule. */
  programs: ProgramWord[];
  /** The code string of `bash -c CODE` (any shell's -c), when that is what runs; null otherwise. */
  shellCode: string | null;
}

/** A program word and how it becomes a file (as PinTarget's lookup, searchPath, chdir). */
export interface ProgramWord {
  token: string;
  lookup: 'path' | 'cwd';
  searchPath: string | null;
  chdir: string | null;
}

export function choosePinTarget(command: string, opts: { homedir?: string } = {}): PinTarget {
  const split = splitCommand(command, opts.homedir === undefined ? {} : { homedir: opts.homedir });
  if (!split.ok) return { ...emptyTarget(command), error: split.error };
  return pinTargetOfArgv(split.argv);
}

function emptyTarget(token: string): PinTarget {
  return { argv: null, error: null, token, lookup: 'cwd', searchPath: null, chdir: null, kind: 'program', note: null, programs: [], shellCode: null };
}

/** choosePinTarget for an argv already split (the commands inside a `bash -c` string). */
export function pinTargetOfArgv(argv: readonly string[]): PinTarget {
  const base = emptyTarget(argv.join(' '));
  let words = [...argv];
  base.argv = [...argv];
  let i = 0;
  let chdir: string | null = null;
  let searchPath: string | null = null;
  const program = (at: number, kind: PinKind = 'program', note: string | null = null): PinTarget => {
    const token = words[at] as string;
    const bare = !token.includes('/');
    return { ...base, token, lookup: bare ? 'path' : 'cwd', searchPath: bare ? searchPath : null, chdir: bare ? null : chdir, kind, note };
  };

  for (let hops = 0; hops < 16; hops++) {
    const prog = words[i];
    if (prog === undefined || prog === '') return { ...base, token: prog ?? '', error: 'empty command' };
    const name = basename(prog);
    const family = familyOf(name);
    const bareProg = !prog.includes('/');
    // base.programs is shared by every PinTarget returned below (they spread base).
    base.programs.push({ token: prog, lookup: bareProg ? 'path' : 'cwd', searchPath: bareProg ? searchPath : null, chdir: bareProg ? null : chdir });
    if (family === null) {
      // An unknown program: exec runs it. A bare name with a script-looking argument is most
      // likely a runner (`uv run hook.py`): pin that script, as Hermes would.
      if (!prog.includes('/')) {
        const s = words.findIndex((w, k) => k > i && hasScriptSuffix(w));
        if (s > 0) {
          const token = words[s] as string;
          return {
            ...base,
            token,
            lookup: 'cwd',
            searchPath: null,
            chdir,
            kind: 'script',
            note: `${name} is not a known interpreter: pinned its first argument that looks like a script`,
          };
        }
      }
      return program(i);
    }
    const step = STEPS[family](words, i);
    if ('inline' in step) {
      if (step.code !== undefined) {
        return { ...program(i, 'interpreter', `${step.inline}: the ${name} binary is pinned, and the scripts its code runs`), shellCode: step.code };
      }
      return program(i, 'interpreter', `${step.inline}: the ${name} binary is pinned, not the code it runs`);
    }
    if ('script' in step) {
      if (step.chdir !== undefined && step.chdir !== null) chdir = chdir === null ? step.chdir : `${chdir}/${step.chdir}`;
      const token = words[step.script];
      if (token === undefined) return program(i, 'interpreter', `${name} is given no script file: the ${name} binary is pinned`);
      if (family === 'deno' && /^[a-z][a-z0-9+.-]*:/i.test(token)) {
        return program(i, 'interpreter', `${name} runs ${token}, which is not a local file: the ${name} binary is pinned`);
      }
      const lookup = step.lookup ?? 'cwd';
      return { ...base, token, lookup, searchPath: lookup === 'path' ? searchPath : null, chdir: lookup === 'path' ? null : chdir, kind: 'script', note: null };
    }
    // A wrapper: go on with the program it runs.
    if (step.words) words = step.words;
    if (step.chdir !== undefined && step.chdir !== null) chdir = chdir === null ? step.chdir : `${chdir}/${step.chdir}`;
    if (step.searchPath !== undefined) searchPath = step.searchPath;
    if (step.next >= words.length) return program(i);
    i = step.next;
  }
  return program(i);
}

type Family = WrapperFamily | InterpreterFamily;

const STEPS: Record<Family, StepReader> = { ...WRAPPER_STEPS, ...INTERPRETER_STEPS };

function familyOf(name: string): Family | null {
  if (name === 'env' || name === 'nice' || name === 'nohup' || name === 'setsid' || name === 'timeout' || name === 'stdbuf') return name;
  if (name === 'node' || name === 'nodejs' || name === 'tsx') return 'node';
  if (/^(python|pypy)[0-9.]*$/.test(name)) return 'python';
  if (['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash'].includes(name)) return 'shell';
  if (name === 'ruby') return 'ruby';
  if (name === 'perl') return 'perl';
  if (name === 'deno') return 'deno';
  if (name === 'bun') return 'bun';
  if (['npx', 'pnpx', 'bunx', 'pnpm', 'yarn', 'npm'].includes(name)) return 'npx';
  return null;
}

// Can a hook command start as spawn will start it? Read from the files before anything runs: the
// program (argv[0], looked up on PATH when it is a bare name) and, when an interpreter runs a
// script (`bash x.sh`, `python3 h.py`), that script. The file checks themselves are spawn's
// (launch-problems.ts), so `validate`, `doctor` and a failed launch say the same thing, each
// with its fix: the path to quote, `chmod +x`, `sed -i 's/\r$//'`, the `#!` line to add.

import path from 'node:path';
import { findOnPath, locatePinned } from '../consent/script-info.js';
import { splitCommand } from '../shell-words.js';
import { problemText, programProblem, scriptProblem } from '../spawn/launch-problems.js';

export interface CommandCheck {
  ok: boolean;
  /** There is nothing to run: the program or the script is missing (doctor then says so about consent too). */
  missing: boolean;
  /** The file checked last (the script when an interpreter runs one), when there is one. */
  file: string | null;
  /** On a problem: what is wrong, naming the file, then the fix. */
  message: string;
}

export interface CommandCheckContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the command is written, for the fix (` in config.yaml line 4`); '' when the caller says where. */
  where: string;
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SHELL = /(^|\/)(ba|z|da|k|mk|a)?sh$/;

export async function checkCommand(command: string, ctx: CommandCheckContext): Promise<CommandCheck> {
  const { cwd, env } = ctx;
  const fixPath = `fix the path${ctx.where}`;
  const fixCommand = `fix the command${ctx.where}`;
  const homedir = env.HOME;
  const split = splitCommand(command, homedir === undefined ? {} : { homedir });
  if (!split.ok) return { ok: false, missing: false, file: null, message: `${split.error} — ${fixCommand}` };
  const argv = split.argv;
  const program = argv[0] ?? '';
  if (program === '') return { ok: false, missing: true, file: null, message: `empty command — fix it${ctx.where}` };

  let exe: string;
  if (program.includes('/')) {
    exe = path.resolve(cwd, program);
  } else {
    const found = await findOnPath(program, env, cwd);
    if (found === null) {
      const hint = ENV_ASSIGNMENT.test(program)
        ? `environment assignments need \`env ${program} …\` (commands run without a shell)`
        : `it is not on PATH; use its full path, or ${fixCommand}`;
      return { ok: false, missing: true, file: null, message: `command not found: ${program} — ${hint}` };
    }
    exe = found;
  }
  const relativeFix =
    program.includes('/') && !program.startsWith('/')
      ? `a relative path is looked up in the working directory the hook runs in (here ${cwd}); use an absolute path, or ${fixPath}`
      : fixPath;
  const exeProblem = programProblem(exe, { cwd, path: env.PATH, argv });
  if (exeProblem) return { ok: false, missing: exeProblem.missing, file: exe, message: problemText(exeProblem, relativeFix) };

  // The script an interpreter runs: the file consent pins (the same choice, made once).
  const { target, file: script } = await locatePinned(command, { cwd, env, ...(homedir !== undefined ? { homedir } : {}) });
  if (target.kind !== 'script' || script === null || script === exe) {
    return { ok: true, missing: false, file: exe, message: `script exists and is executable (${exe})` };
  }
  const at = argv.indexOf(target.token, 1);
  const shell = argv.slice(0, Math.max(at, 1)).some((w) => SHELL.test(w));
  const problem = scriptProblem(script, { cwd: target.chdir === null ? cwd : path.resolve(cwd, target.chdir), argv, at: at < 0 ? argv.length : at, shell });
  if (problem) return { ok: false, missing: problem.missing, file: script, message: problemText(problem, fixPath) };
  return { ok: true, missing: false, file: script, message: `script exists and is readable (${script})` };
}

// Every file a hook command runs, found the way exec finds it, and judged by the one trust rule
// (trust.ts): each program on the way (a wrapper like `env`, the interpreter `python3` looked up on
// PATH as exec will), the pinned script, and — for `bash -c CODE` — each program and script the
// code names (_shell-code.ts). An approval vouches for bytes; the rule vouches that nobody else can
// swap them: a script in a directory another user can write, or an earlier `python3` on PATH that
// another user owns, runs their code as you however well the approved bytes were pinned.

import path from 'node:path';
import { checkTrust, distrustMessage, type TrustFinding } from './trust.js';
import { pinTargetOfArgv, type PinTarget, type ProgramWord } from './script-path.js';
import { readShellCode } from './_shell-code.js';

export { UNFOLLOWABLE_FIX, unfollowableMessage } from './_shell-code.js';
import { findOnPathSync } from './_find-on-path.js';

export interface RunFile {
  /** How messages name it: `hook script`, `interpreter`, `script named in its -c code` … */
  what: string;
  /** Absolute path. */
  path: string;
  /** Found by a PATH look-up: taking its directory off PATH is a fix too. */
  onPath?: boolean;
}

export interface WhatRuns {
  /** The files that run, in order, once each. */
  files: RunFile[];
  /** The scripts a `-c` string names (absolute): pinned along with the command's own pin. */
  named: string[];
  /** Why a `-c` string cannot be followed (nothing in it can be pinned); null otherwise. */
  unfollowable: string | null;
}

export interface WhatRunsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  homedir: string;
}

const MAX_DEPTH = 4;

/** The files `target` (the command's pin target) runs; `pinned` is its pinned file when found. */
export async function whatRuns(target: PinTarget, pinned: string | null, opts: WhatRunsOptions): Promise<WhatRuns> {
  const out: WhatRuns = { files: [], named: [], unfollowable: null };
  await collect(target, pinned, opts, out, 0);
  return out;
}

async function collect(target: PinTarget, pinned: string | null, opts: WhatRunsOptions, out: WhatRuns, depth: number): Promise<void> {
  const add = (what: string, file: string, onPath = false): void => {
    if (!out.files.some((f) => f.path === file)) out.files.push({ what, path: file, ...(onPath ? { onPath } : {}) });
  };
  const inner = depth > 0;
  for (const p of target.programs) {
    // The pinned program was just looked up for the pin: the same look-up, not a second one.
    const file = pinned !== null && target.kind !== 'script' && p.token === target.token ? pinned : resolveProgram(p, opts);
    if (file === null) continue; // not found: the runnable check says so
    const self = file === pinned && target.kind === 'program';
    const label = inner ? 'program named in its -c code' : !self ? 'interpreter' : p.lookup === 'path' ? 'hook program' : 'hook script';
    add(label, file, p.lookup === 'path');
  }
  if (pinned !== null && target.kind === 'script') add(inner ? 'script named in its -c code' : 'hook script', pinned);
  if (target.shellCode === null) return;
  if (depth >= MAX_DEPTH) {
    out.unfollowable = 'its -c code nests shells too deep to follow';
    return;
  }
  const code = readShellCode(target.shellCode, opts.homedir);
  if (code.unfollowable !== null) {
    out.unfollowable = code.unfollowable;
    return;
  }
  for (const [k, argv] of code.commands.entries()) {
    const dynamic = new Set(argv.filter((_, i) => code.dynamic[k]?.[i] === true));
    // `source f` / `. f` runs f in this shell: a script like any other.
    const words = argv[0] === 'source' || argv[0] === '.' ? ['bash', ...argv.slice(1)] : argv;
    const t = pinTargetOfArgv(words);
    if (t.error !== null) continue;
    const named = [...t.programs.map((p) => p.token), ...(t.kind === 'script' ? [t.token] : [])];
    const opaque = named.find((w) => dynamic.has(w));
    if (opaque !== undefined) {
      out.unfollowable = `a variable or a glob names what it runs (${opaque})`;
      return;
    }
    const relative = named.find((w) => w.includes('/') && !path.isAbsolute(w));
    if (code.movesDir && relative !== undefined) {
      out.unfollowable = `it changes directory, so ${relative} is not relative to the hook's working directory`;
      return;
    }
    let file: string | null = null;
    if (t.kind === 'script') {
      file = t.lookup === 'path' ? findOnPathSync(t.token, pathEnv(t.searchPath, opts.env), opts.cwd) : path.resolve(opts.cwd, t.chdir ?? '.', t.token);
    } else if (t.token.includes('/')) file = path.resolve(opts.cwd, t.chdir ?? '.', t.token);
    // A file named by path is the user's own code: pinned. A bare name on PATH is only judged.
    if (file !== null && !out.named.includes(file)) out.named.push(file);
    await collect(t, file, opts, out, depth + 1);
    if (out.unfollowable !== null) return;
  }
}

function resolveProgram(p: ProgramWord, opts: WhatRunsOptions): string | null {
  if (p.lookup === 'path') return findOnPathSync(p.token, pathEnv(p.searchPath, opts.env), opts.cwd);
  return path.resolve(opts.cwd, p.chdir ?? '.', p.token);
}

function pathEnv(searchPath: string | null, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return searchPath !== null ? { PATH: searchPath } : env;
}

/**
 * Judge each file (now: a directory made writable since is caught); the message for those that
 * fail, each with its fix, a finding shared with an earlier file said once; null when all pass.
 */
export function judgeRuns(files: readonly RunFile[]): string | null {
  const said = new Set<string>();
  const parts: string[] = [];
  for (const f of files) {
    const v = checkTrust(f.path);
    if (!v.exists || v.findings.length === 0) continue;
    const news: TrustFinding[] = v.findings.filter((x) => !said.has(`${x.path}\0${x.problem}`));
    for (const x of v.findings) said.add(`${x.path}\0${x.problem}`);
    const offPath = f.onPath === true ? ` (or take ${path.dirname(f.path)} off PATH)` : '';
    if (news.length > 0) parts.push(`its ${distrustMessage(f.what, { ...v, findings: news })}${offPath}`);
  }
  return parts.length === 0 ? null : `${parts.join('; ')} — whoever can change it runs their code as you`;
}

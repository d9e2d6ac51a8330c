// The execa call, and nothing else: start `file` detached with the payload file as fd 0 and two
// plain pipes, and report how it ended. Deadline, group kill, output cap and cleanup are
// run-hook.ts's job, because execa 9's versions of them reach the direct child only.

import type { Readable } from 'node:stream';
import { execa } from 'execa';

/** How the process ended, or why it never started (then `code` is the errno code). */
export interface LaunchOutcome {
  exitCode?: number;
  signal?: string;
  code?: string;
  message?: string;
}

export interface Launched {
  /** Undefined when the spawn failed; `exited` then carries the error code. */
  pid: number | undefined;
  stdout: Readable | null;
  stderr: Readable | null;
  /** Always resolves (reject: false); a rejection would be an execa-internal error, also mapped. */
  exited: Promise<LaunchOutcome>;
}

export interface LaunchOptions {
  stdinFd: number;
  env: NodeJS.ProcessEnv;
  cwd: string | undefined;
}

/** Throws only on invalid arguments that execa rejects synchronously. */
export function launch(file: string, args: string[], { stdinFd, env, cwd }: LaunchOptions): Launched {
  const sub = execa(file, args, {
    // A plain fd is handed to child_process as is ('native' stdio); execa's typings only spell
    // out the literals 0 and 3–9.
    stdin: stdinFd as 3,
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false, // run-hook captures, bounded
    encoding: 'buffer',
    stripFinalNewline: false,
    detached: true, // own process group: -pid reaches the whole tree
    cleanup: false, // a no-op with detached anyway; live-hooks.ts does it for groups
    reject: false,
    forceKillAfterDelay: false, // escalation is ours, to the group
    extendEnv: false,
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const toOutcome = (r: unknown): LaunchOutcome => {
    const o = r as { exitCode?: number; signal?: string; code?: string; originalMessage?: string; message?: string };
    return { exitCode: o.exitCode, signal: o.signal, code: o.code, message: o.originalMessage ?? o.message };
  };
  return { pid: sub.pid, stdout: sub.stdout, stderr: sub.stderr, exited: sub.then(toOutcome, toOutcome) };
}

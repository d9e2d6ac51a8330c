// The child_process.spawn call, and nothing else: start `file` detached with the payload file as
// fd 0 and two plain pipes, and report how it ended. Deadline, group kill, output cap and cleanup
// are run-hook.ts's job (they must reach the whole process group, not the direct child).
//
// Why not execa: none of what it adds is used here (its timeout, maxBuffer, forceKill and cleanup
// reach the direct child only), and its per-call plumbing cost ~0.6–1.6 ms wall and ~0.7–1.9 ms
// host CPU per hook run on the 2-core bench machine, plus ~6 ms at every CLI start (bench/README.md).

import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

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
  /** Always resolves: at 'close' (exited and both pipes ended), or with the spawn error. */
  exited: Promise<LaunchOutcome>;
  /**
   * Resolves when the process itself has exited (its pipes may still be held by a descendant),
   * or with the spawn error. Never later than `exited`.
   */
  processExited: Promise<LaunchOutcome>;
}

export interface LaunchOptions {
  stdinFd: number;
  env: NodeJS.ProcessEnv;
  cwd: string | undefined;
}

/** Throws only on invalid arguments that child_process rejects synchronously (e.g. a NUL byte). */
export function launch(file: string, args: string[], { stdinFd, env, cwd }: LaunchOptions): Launched {
  const child = spawn(file, args, {
    stdio: [stdinFd, 'pipe', 'pipe'],
    detached: true, // own process group: -pid reaches the whole tree
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  let onExit!: (outcome: LaunchOutcome) => void;
  const processExited = new Promise<LaunchOutcome>((resolve) => {
    onExit = resolve;
  });
  const exited = new Promise<LaunchOutcome>((resolve) => {
    // 'error' before any exit is a failed spawn (ENOENT, EACCES, …); later ones (a failed kill)
    // change nothing about how the process ends, so only the first settlement counts.
    child.once('error', (err: NodeJS.ErrnoException) => {
      const failed = { code: err.code, message: err.message };
      // A failed spawn never exits; a later error (a failed kill) says nothing about the exit.
      if (child.pid === undefined) onExit(failed);
      resolve(failed);
    });
    // The process is gone; its output may still be in flight, or held open by a descendant.
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => onExit({ exitCode: code ?? undefined, signal: signal ?? undefined }));
    // 'close', not 'exit': the output is complete only once both pipes ended.
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => resolve({ exitCode: code ?? undefined, signal: signal ?? undefined }));
  });
  return { pid: child.pid, stdout: child.stdout, stderr: child.stderr, exited, processExited };
}

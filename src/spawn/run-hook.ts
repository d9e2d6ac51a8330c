// spawnHook: the ONE place that starts a hook process. Every outcome — exit, signal, timeout,
// endless output, cancel, launch failure — becomes one flat HookRun; the promise never rejects.
//
// Output is captured up to a cap per stream (memory); the rest is drained and counted
// (`stdout_dropped_bytes`), and the hook runs on to its exit, whose status counts. Only a writer
// far past the cap that has not exited (_output-capture.ts floodBound) is killed: `output_limit`.
//
// Lifecycle (DESIGN "The wire protocol"): no shell; the child leads its own process group
// (`detached`); stdin is the hook's own private copy of the payload, already unlinked, as fd 0.
// `beforeLaunch` runs synchronously right before the process starts, with no await in between
// (consent is checked there, so the check-to-exec window is as small as Node allows).
//
// A hook's answer is final at its exit: the run settles when its pipes close with nothing left
// in its group (the usual case, no wait), else EXIT_GRACE_MS after the exit. Whatever is left
// then — the rest of its process group, and any process outside it still holding its stdout or
// stderr (a `setsid` daemon, found by the socket it holds and the run id in its environment:
// _leftovers.ts) — gets SIGTERM, then SIGKILL `killGraceMs` later, and the run says how many
// (`left_processes`). A helper meant to outlive its hook leaves the group and the hook's output
// (`setsid cmd </dev/null >/dev/null 2>&1 &`) and is kept.
//
// A hook that does not exit: at the deadline the whole group gets SIGTERM, then SIGKILL
// `killGraceMs` later if any member is left, then the pipes are abandoned `drainMs` after that
// (and whoever outside the group still holds them is ended too) — so a run settles within
// timeout + ~1 s. The spawn itself is a plain child_process.spawn (_launch.ts): a runner's usual
// timeout, maxBuffer, forceKill and cleanup reach the direct child alone (and do not settle while
// a grandchild holds a pipe), so those are ours.
//
// The stages, one module each: launch (_start.ts: command, stdin, environment, beforeLaunch, the
// spawn), output capture (_output-capture.ts), deadline and kill (_supervisor.ts), result
// (_run-result.ts).

import type { HookRun } from '../types.js';
import { errorText } from '../errors.js';
import { captureOutput, floodBound } from './_output-capture.js';
import { launchedRunResult, runFinisher } from './_run-result.js';
import { launchCheck, launchNow, parseCommand, stdinCopy } from './_start.js';
import { byteLength } from './stdin-file.js';
import { RunSupervisor } from './_supervisor.js';
import { DEFAULT_DRAIN_MS, DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, type SpawnHookOptions } from './spawn-options.js';

export { DEFAULT_DRAIN_MS, DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, type SpawnHookOptions } from './spawn-options.js';
export { EXIT_GRACE_MS } from './_supervisor.js';

/** Runs one hook process to completion. Never rejects: every outcome is a HookRun. */
export async function spawnHook(options: SpawnHookOptions): Promise<HookRun> {
  try {
    return await runHook(options);
  } catch (err) {
    // Not expected; a bug here must still not surface as a rejected emit.
    return {
      command: options.command,
      argv: [],
      status: 'launch_failed',
      exit_code: null,
      signal: null,
      stdout: '',
      stderr: '',
      error: `internal error: ${errorText(err)}`,
      duration_ms: 0,
      started_at: performance.now(),
      pid: null,
      timeout: options.timeoutMs / 1000,
      left_processes: 0,
      stdout_dropped_bytes: 0,
      stderr_dropped_bytes: 0,
    };
  }
}

async function runHook(options: SpawnHookOptions): Promise<HookRun> {
  const finish = runFinisher(options.command, options.timeoutMs, performance.now());
  const command = parseCommand(options, finish);
  if ('run' in command) return command.run;
  // No await unless the payload is large: the caller keeps its tick until the hook is watched.
  let stdinFd: number;
  try {
    const copy = stdinCopy(options.stdin);
    stdinFd = typeof copy === 'number' ? copy : await copy;
  } catch (err) {
    return finish({ status: 'launch_failed', argv: command.argv, error: `cannot prepare stdin: ${errorText(err)}` });
  }
  const start = launchNow(options, finish, command.argv, stdinFd);
  if ('run' in start) return start.run;
  const { sub, pid, argv, file, env, runId, spawnedAt } = start.started;

  const supervisor = new RunSupervisor(sub, pid, runId, {
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    drainMs: options.drainMs ?? DEFAULT_DRAIN_MS,
  });
  const refusedAfter = launchCheck(options.afterLaunch);
  if (refusedAfter !== null) supervisor.stop('refused', 'SIGKILL');
  // The cap bounds memory only; the flood bound stops a writer that never ends (_output-capture.ts).
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const output = captureOutput(sub, cap, floodBound(cap, byteLength(options.stdin)), () => supervisor.stop('output_limit'));
  supervisor.watch(options.timeoutMs, options.signal);

  const end = await supervisor.ended;
  const left = supervisor.conclude(end);
  return launchedRunResult(finish, end, {
    argv,
    file,
    pid,
    spawnedAt,
    path: env.PATH,
    cwd: options.cwd,
    stdout: output.stdout.text(),
    stderr: output.stderr.text(),
    stdoutDropped: output.stdout.dropped,
    stderrDropped: output.stderr.dropped,
    stopReason: supervisor.stopReason,
    refusedAfter,
    left,
  });
}

// The result stage of a run: every way it can end, as one flat HookRun. A launched run's status
// comes from why it was stopped (if it was), else from how the process ended.

import type { HookRun, HookStatus } from '../types.js';
import { brokenShebangText, type LaunchContext, launchErrorText } from './_launch-error.js';
import type { RunEnd, StopReason } from './_supervisor.js';

export type RunFields = Partial<HookRun> & { status: HookStatus; argv: string[] };
/** Completes a run's fields with the defaults and its duration (from `started_at`, once launched). */
export type Finish = (fields: RunFields) => HookRun;

export function runFinisher(command: string, timeoutMs: number, startedAt: number): Finish {
  return (fields) => ({
    command,
    exit_code: null,
    signal: null,
    stdout: '',
    stderr: '',
    error: null,
    pid: null,
    started_at: startedAt,
    timeout: timeoutMs / 1000,
    left_processes: 0,
    stdout_dropped_bytes: 0,
    stderr_dropped_bytes: 0,
    ...fields,
    duration_ms: performance.now() - (fields.started_at ?? startedAt),
  });
}

/** What a launched run knew when it ended. */
export interface LaunchedRun {
  argv: string[];
  /** argv[0]: the program or script. */
  file: string;
  pid: number;
  spawnedAt: number;
  /** The child's PATH and working directory, where a launch error looks argv[0] up. */
  path: string | undefined;
  cwd: string | undefined;
  stdout: string;
  stderr: string;
  /** Bytes past the cap, drained and discarded. */
  stdoutDropped: number;
  stderrDropped: number;
  stopReason: StopReason | null;
  /** afterLaunch's reason, when it refused the started process. */
  refusedAfter: string | null;
  /** Processes left behind and killed (`left_processes`). */
  left: number;
}

export function launchedRunResult(finish: Finish, end: RunEnd, run: LaunchedRun): HookRun {
  const outcome = end.outcome;
  const exitCode = outcome?.exitCode;
  const signal = outcome?.signal ?? null;
  // Endless output is a failure only when the kill is what ended the hook: one that exited with a
  // status of its own (an exit 2 written just as the bound was crossed) is judged by that status.
  const stopReason = run.stopReason === 'output_limit' && exitCode !== undefined ? null : run.stopReason;
  const { argv } = run;
  // Only a failed run looks argv[0] up: the usual run does not pay for process.cwd().
  const context = (): LaunchContext => ({ path: run.path, cwd: run.cwd ?? process.cwd() });
  const common = {
    argv,
    pid: run.pid,
    started_at: run.spawnedAt,
    stdout: run.stdout,
    stderr: run.stderr,
    stdout_dropped_bytes: run.stdoutDropped,
    stderr_dropped_bytes: run.stderrDropped,
  };
  if (stopReason === 'output_limit') return finish({ ...common, status: 'output_limit', signal });
  if (stopReason === 'refused') return finish({ ...common, status: 'launch_failed', signal, error: run.refusedAfter });
  if (stopReason !== null) {
    return finish({ ...common, status: 'timeout', signal, error: stopReason === 'cancelled' ? 'cancelled' : null });
  }
  if (exitCode === undefined && signal === null) {
    // Neither an exit code nor a signal: the launch failed around the process.
    const error = launchErrorText(outcome?.code, outcome?.message, argv, context());
    return finish({ ...common, status: 'nonzero_exit', error });
  }
  if (exitCode === 126 || exitCode === 127) {
    // env's "cannot run" codes: when the script's own #! line is what failed (CRLF's `bash\r`, an
    // interpreter not on PATH), the hook never ran — a launch failure, said with its fix.
    const broken = brokenShebangText(run.file, context());
    if (broken !== null) return finish({ ...common, status: 'launch_failed', exit_code: exitCode, error: broken });
  }
  const leftFields = { left_processes: run.left };
  if (signal !== null) return finish({ ...common, ...leftFields, status: 'nonzero_exit', signal });
  return finish({ ...common, ...leftFields, status: exitCode === 0 ? 'ok' : 'nonzero_exit', exit_code: exitCode ?? null });
}

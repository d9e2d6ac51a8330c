// Fixed texts of the wire: what a block says when the hook gave no message, and how a fail_closed
// hook's failure is worded. Kept in one place so the engine, the CLI, the dialects and the docs agree.

import type { RunRecord } from '../types.js';

export const DEFAULT_BLOCK_MESSAGE = 'Blocked by shell hook.';

/** How many characters of stderr become the block message of an exit-2 hook. */
export const STDERR_MESSAGE_LIMIT = 400;

/** Block message of a fail_closed hook that failed: `hook <command> failed closed: <reason>`. */
export function failClosedMessage(command: string, reason: string): string {
  return `hook ${command} failed closed: ${reason}`;
}

/** The hook's fail_closed is in force: only on pre_tool_call, the one event whose call it can stop (as Hermes). */
export function failsClosed(spec: { fail_closed?: boolean; event: string }): boolean {
  return spec.fail_closed === true && spec.event === 'pre_tool_call';
}

/** True when the directive is the block a fail_closed hook's failure produced (not the hook's own answer). */
export function isFailClosedBlock(command: string, directive: { action: string; message?: string } | null): boolean {
  return directive?.action === 'block' && typeof directive.message === 'string' && directive.message.startsWith(failClosedMessage(command, ''));
}

export const FAIL_CLOSED_REASON = {
  unparseable: 'unparseable stdout (expected a JSON object)',
  outputLimit: 'kept writing far past the output cap and was killed before it exited',
  /** Its stdout was cut at the cap: whatever it held is not an answer. */
  truncated: (dropped: number): string => `unreadable output: stdout exceeded the capture limit (${dropped} bytes dropped), so it is not a directive`,
  /** Exit 0 with nothing on stdout, after starting what was killed at its exit (its answer, if any, was to come from there). */
  leftBeforeAnswer: (left: number): string =>
    `exited 0 with no answer; ${left === 1 ? '1 process it left running was' : `${left} processes it left running were`} killed — ` +
    'answer before exiting, or `wait` for the child',
  timedOut: (timeoutSeconds: number): string => `timed out after ${timeoutSeconds}s`,
  exited: (code: number): string => `exited with status ${code} without a directive`,
  killed: (signal: string): string => `killed by ${signal} without a directive`,
  failed: 'exited abnormally without a directive',
  launchFailed: 'could not be started',
} as const;

/**
 * Why a fail_closed hook's process did not end cleanly (killed, non-zero exit, or failed around
 * the process), in FAIL_CLOSED_REASON wording; null when it exited 0.
 */
export function abnormalEndReason(run: Pick<RunRecord, 'status' | 'exit_code' | 'signal'>): string | null {
  if (typeof run.signal === 'string' && run.signal !== '') return FAIL_CLOSED_REASON.killed(run.signal);
  if (typeof run.exit_code === 'number' && run.exit_code !== 0) return FAIL_CLOSED_REASON.exited(run.exit_code);
  if (run.status === 'nonzero_exit') return FAIL_CLOSED_REASON.failed;
  return null;
}

/** Bytes of stdout cut at the cap (0 when none, or unknown). */
export function stdoutDropped(run: Pick<RunRecord, 'stdout_dropped_bytes'>): number {
  const n = run.stdout_dropped_bytes;
  return typeof n === 'number' && n > 0 ? n : 0;
}

/**
 * A fail_closed guard's answer was to come from what it left running: it exited 0 with nothing on
 * stdout and left processes, killed at its exit (`(sleep 1; echo '{"action":"block"}') & exit 0`).
 * The reason it blocks, or null. A guard that printed anything answered (or failed otherwise).
 */
export function answerLeftBehind(run: Pick<RunRecord, 'exit_code' | 'signal' | 'stdout' | 'left_processes'>): string | null {
  const left = typeof run.left_processes === 'number' ? run.left_processes : 0;
  if (!(left > 0) || run.exit_code !== 0 || (typeof run.signal === 'string' && run.signal !== '')) return null;
  if (typeof run.stdout === 'string' && run.stdout.trim() !== '') return null;
  return FAIL_CLOSED_REASON.leftBeforeAnswer(left);
}

/** How a hook keeps a helper running past its own exit (said wherever left processes are reported). */
export const KEEP_A_HELPER = 'a helper meant to outlive its hook must leave its process group and its output: setsid CMD </dev/null >/dev/null 2>&1 &';

/**
 * "exited 0; left 2 processes, killed": a hook that exited but left processes running, which were
 * killed when its answer was taken. Null when it left none.
 */
export function leftProcessesText(run: Pick<RunRecord, 'exit_code' | 'signal'> & { left_processes?: number }): string | null {
  const n = run.left_processes ?? 0;
  if (!(n > 0)) return null;
  const how = typeof run.signal === 'string' && run.signal !== '' ? `killed by ${run.signal}` : `exited ${run.exit_code ?? '?'}`;
  return `${how}; left ${n} process${n === 1 ? '' : 'es'}, killed`;
}

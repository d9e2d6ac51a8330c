// A finished hook run → Directive, by reference §3.3 (V4) in order, plus fixes beyond Hermes:
// a fail_closed hook that exits non-zero (or is killed) without a directive blocks (#102405); a
// stdout cut at the output cap is no directive, while the exit status still counts; a fail_closed
// hook that exited 0 silent, leaving the children its answer was to come from, blocks (issue 29).
// exit 2 and fail_closed only apply on pre_tool_call, the one event that can block.

import type { EventName } from '../events.js';
import { firstCodePoints, pyStrip } from '../util/python.js';
import type { Directive, HookSpec, RunRecord } from '../types.js';
import {
  abnormalEndReason,
  answerLeftBehind,
  DEFAULT_BLOCK_MESSAGE,
  FAIL_CLOSED_REASON,
  STDERR_MESSAGE_LIMIT,
  failClosedMessage,
  failsClosed,
  stdoutDropped,
} from './messages.js';
import { inspectStdout } from './parse-stdout.js';

export type EvaluatedSpec = Pick<HookSpec, 'event' | 'command' | 'fail_closed' | 'timeout'>;

export function evaluateRun(spec: EvaluatedSpec, run: RunRecord): Directive | null {
  try {
    return evaluate(spec, run);
  } catch {
    // Pure code over plain data; only a hostile RunRecord (throwing getters) gets here.
    return failsClosed(spec) ? block(spec, FAIL_CLOSED_REASON.failed) : null;
  }
}

function evaluate(spec: EvaluatedSpec, run: RunRecord): Directive | null {
  const blocking = spec.event === 'pre_tool_call';
  const fc = failsClosed(spec);

  // 1. Never launched (or an internal error).
  if (run.status === 'launch_failed' || (typeof run.error === 'string' && run.error !== '')) {
    return fc ? block(spec, run.error || FAIL_CLOSED_REASON.launchFailed) : null;
  }
  // 2. Killed by us before it exited: its output is incomplete and means nothing.
  if (run.status === 'timeout') return fc ? block(spec, FAIL_CLOSED_REASON.timedOut(spec.timeout)) : null;
  if (run.status === 'output_limit') return fc ? block(spec, FAIL_CLOSED_REASON.outputLimit) : null;

  // Beyond Hermes (issue 29): a stdout cut at the cap is not a directive (its JSON cannot be trusted); the exit still counts.
  const dropped = stdoutDropped(run);
  const stdout = typeof run.stdout === 'string' && dropped === 0 ? run.stdout : '';
  const stdoutInfo = inspectStdout(spec.event, stdout);

  // 4. Exit 2 on a blocking event blocks; a block on stdout supplies the message.
  if (blocking && run.exit_code === 2) {
    if (stdoutInfo.directive?.action === 'block') return stdoutInfo.directive;
    const stderr = pyStrip(typeof run.stderr === 'string' ? run.stderr : '');
    return { action: 'block', message: firstCodePoints(stderr, STDERR_MESSAGE_LIMIT) || DEFAULT_BLOCK_MESSAGE };
  }
  if (dropped > 0) return fc ? block(spec, FAIL_CLOSED_REASON.truncated(dropped)) : null;

  // 5–6. Any other exit status: stdout is still honoured.
  if (stdoutInfo.directive) return stdoutInfo.directive;
  if (!fc) return null;

  // 7. fail_closed: output that is not a JSON object blocks (`{}` and empty output do not).
  if (stdoutInfo.kind === 'invalid_json' || stdoutInfo.kind === 'not_object') {
    return block(spec, FAIL_CLOSED_REASON.unparseable);
  }
  // Beyond Hermes (issue 24): an answer it does not know (`deny`, `Block`) that meant more than
  // "go ahead" is a guard that could not answer, not an allow.
  if (stdoutInfo.problem?.failsClosed) return block(spec, stdoutInfo.problem.message);
  // Beyond Hermes (#102405): a failed hook that said nothing must not let the call through.
  const failure = abnormalEndReason(run);
  if (failure !== null) return block(spec, failure);
  // Beyond Hermes (issue 29): nor one whose answer was to come from a child killed at its exit.
  const leftBehind = stdoutInfo.kind === 'empty' ? answerLeftBehind(run) : null;
  return leftBehind === null ? null : block(spec, leftBehind);
}

function block(spec: EvaluatedSpec, reason: string): Directive {
  return { action: 'block', message: failClosedMessage(spec.command, reason) };
}

/**
 * The warning lines Hermes would log for this run (reference §3.3 / §3.4 wording), for loggers and
 * `hermes-hooks test`. Empty for a clean run.
 */
export function describeRun(spec: Pick<HookSpec, 'event' | 'command'>, run: RunRecord): string[] {
  try {
    return describe(spec.event, spec.command, run);
  } catch {
    return [];
  }
}

function describe(event: EventName, command: string, run: RunRecord): string[] {
  const who = `(event=${event} command=${command})`;
  if (run.status === 'launch_failed' || (typeof run.error === 'string' && run.error !== '')) {
    return [`shell hook failed ${who}: ${run.error || FAIL_CLOSED_REASON.launchFailed}`];
  }
  if (run.status === 'timeout') return [`shell hook timed out after ${seconds(run.duration_ms)}s ${who}`];
  if (run.status === 'output_limit') return [`shell hook kept writing far past the output cap and was killed ${who}`];
  const lines: string[] = [];
  const dropped = stdoutDropped(run);
  const stderr = firstCodePoints(pyStrip(typeof run.stderr === 'string' ? run.stderr : ''), STDERR_MESSAGE_LIMIT);
  if (typeof run.signal === 'string' && run.signal !== '') {
    lines.push(`shell hook killed by ${run.signal} ${who}; stderr=${stderr}`);
  } else if (typeof run.exit_code === 'number' && run.exit_code !== 0) {
    lines.push(`shell hook exited ${run.exit_code} ${who}; stderr=${stderr}`);
  }
  if (dropped > 0) {
    lines.push(`shell hook stdout exceeded the capture limit ${who}: ${dropped} bytes dropped; a cut stdout is not a directive`);
    return lines;
  }
  const info = inspectStdout(event, typeof run.stdout === 'string' ? run.stdout : '');
  if (info.kind === 'invalid_json') {
    lines.push(`shell hook stdout was not valid JSON (event=${event}): ${firstCodePoints(info.text, 200)}`);
  }
  return lines;
}

/** Python's f"{round(elapsed, 3)}": at most 3 decimals, always with a decimal point ("2.0"). */
function seconds(ms: number): string {
  const text = String(Math.round(Number.isFinite(ms) ? ms : 0) / 1000);
  return text.includes('.') || text.includes('e') ? text : `${text}.0`;
}

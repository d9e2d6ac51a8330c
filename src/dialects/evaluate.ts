// One finished run of a dialect hook → our Directive, by that agent's rules (reference §b1–§b4):
// its exit codes, its output fields (the agent's record reads them: agents/<agent>.ts readRun), its
// argument names mapped back to ours (`file_path` → `path`). fail_closed is ours and works as on
// our wire: launch failure, timeout, endless output, garbled or cut stdout, a non-zero exit that
// decided nothing, or an exit 0 silent but for the children killed at it → `hook <command> failed
// closed: <reason>`. A stdout cut at the cap is read as no stdout: the exit status still counts.

import type { Directive, HookSpec, RunRecord } from '../types.js';
import { abnormalEndReason, answerLeftBehind, FAIL_CLOSED_REASON, failClosedMessage, failsClosed, stdoutDropped } from '../directives/messages.js';
import { agentModule } from './agents/index.js';
import { argsToOurs, toTheirTool, type AgentDialect, type DialectMaps } from './names.js';

export type DialectHookSpec = Pick<HookSpec, 'event' | 'command' | 'fail_closed' | 'timeout'>;

const DECIDES_TOOL_CALL = new Set<Directive['action']>(['block', 'modify', 'approve']);

/**
 * The directive of one dialect hook run, or null when it contributes nothing.
 * `toolName` is OUR tool name of the call (used to map argument keys back), null off tool events.
 */
export function evaluateDialectRun(dialect: AgentDialect, maps: DialectMaps, spec: DialectHookSpec, toolName: string | null, run: RunRecord): Directive | null {
  const fc = failsClosed(spec);
  const failClosed = (reason: string): Directive => ({ action: 'block', message: failClosedMessage(spec.command, reason) });

  if (run.status === 'launch_failed') return fc ? failClosed(run.error || FAIL_CLOSED_REASON.launchFailed) : null;
  if (run.status === 'timeout') return fc ? failClosed(FAIL_CLOSED_REASON.timedOut(run.timeout ?? spec.timeout)) : null;
  if (run.status === 'output_limit') return fc ? failClosed(FAIL_CLOSED_REASON.outputLimit) : null;

  const theirTool = toolName === null ? null : toTheirTool(maps, dialect, toolName);
  const dropped = stdoutDropped(run);
  const reading = agentModule(dialect).readRun({
    event: spec.event,
    run,
    stdout: dropped > 0 ? '' : run.stdout.trim(),
    stderr: run.stderr.trim().slice(0, 400),
    toOurArgs: (input) => argsToOurs(maps, dialect, theirTool, input),
  });
  const { directive } = reading;
  if (!fc) return directive;
  if (directive && DECIDES_TOOL_CALL.has(directive.action)) return directive;
  if (dropped > 0) return failClosed(FAIL_CLOSED_REASON.truncated(dropped));
  if (reading.garbled) return failClosed(FAIL_CLOSED_REASON.unparseable);
  if (run.exit_code !== 0) return failClosed(abnormalEndReason(run) ?? FAIL_CLOSED_REASON.failed);
  const leftBehind = answerLeftBehind(run);
  return leftBehind === null ? directive : failClosed(leftBehind);
}

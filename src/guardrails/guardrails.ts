// Tool-loop guardrails: a built-in, in-process hook that watches post_tool_call and gates
// pre_tool_call. Pure (no I/O, no clock); all state is per session and bounded.
//
// What is counted (afterToolCall), per session:
//   A call's identity is (tool_name, canonical JSON of args). A call FAILED when its status is
//   'error' or 'blocked', or its result is a JSON object with a truthy `error` key. A successful
//   call is PROGRESS when its (identity, result) pair was not seen before in the session.
//   - exact_failure[identity]   failures of that identity; reset when it succeeds, or on progress.
//   - same_tool_failure[tool]   failures of that tool, any args; reset when it succeeds, or on progress.
//   - idempotent_no_progress[identity]  consecutive successes of that identity with one same result
//     (the first one counts 1); restarts at 1 on a different result; reset on progress.
//   - cycle: the call history (identities only — results may differ, e.g. a snapshot with a
//     timestamp); a different call breaks the pattern.
//
// When a verdict fires (beforeToolCall), for the call about to run:
//   - exact_failure / idempotent_no_progress / same_tool_failure: count ≥ threshold.
//     So with the defaults the 3rd attempt of an exact call that failed twice is warned and the
//     6th attempt after 5 identical failures is stopped.
//   - cycle: the history ends with r complete repetitions of a unit of 2..maxCyclePeriod calls
//     (at least two different calls in it) and the next call continues the pattern; r ≥ threshold.
//     With the defaults, A,B,A,B,A,B then A is warned; A,B ×5 then A is stopped.
//   A stop needs `hard_stop_enabled`, or `non_interactive_hard_stop_enabled` on a platform other
//   than cli/tui/desktop/acp. A call with no platform uses the last one its session reported,
//   else `defaultPlatform`, else counts as interactive (a missing platform is most often a local
//   CLI host; we never hard-stop on a guess). Past the stop threshold without a stop allowed, the
//   call is warned instead. Warnings need `warnings_enabled`. When several detectors fire, a stop
//   beats a warning, then the most specific wins: exact_failure, cycle, idempotent_no_progress,
//   same_tool_failure.
//
// The pieces: _session.ts holds one session's memory and counts a completed call, _cycle.ts finds
// cycles, _verdict.ts turns counts into a verdict; this module looks sessions up and asks each
// detector.

import { cycleAt } from './_cycle.js';
import { LruMap } from './_lru.js';
import { identity, newSession, normalisePlatform, recordCall, sessionKey, toolNameOf, type SessionState } from './_session.js';
import { judge, strongest } from './_verdict.js';
import type { GuardrailsConfig, GuardrailVerdict, ToolLoopGuardrails, ToolLoopGuardrailsOptions } from './types.js';

export { DEFAULT_GUARDRAILS_CONFIG, defaultGuardrailsConfig, parseGuardrailsConfig } from './config.js';
export { isFailedToolCall } from './_session.js';
export { INTERACTIVE_PLATFORMS } from './_verdict.js';
export { GUARDRAIL_DETECTORS } from './types.js';
export type {
  DetectorCounts,
  GuardrailDetector,
  GuardrailsConfig,
  GuardrailVerdict,
  ToolLoopGuardrails,
  ToolLoopGuardrailsOptions,
} from './types.js';

const DEFAULT_MAX_SESSIONS = 1024;
const DEFAULT_MAX_CYCLE_PERIOD = 6;

/** One guardrails instance: its settings and every session it remembers. */
interface Guardrails {
  readonly config: GuardrailsConfig;
  readonly sessions: LruMap<string, SessionState>;
  readonly maxPeriod: number;
  readonly historyLimit: number;
  readonly defaultPlatform: string | null;
}

/** Every detector's verdict on the call `id` of `tool` about to run in `state`. */
function verdictsFor(g: Guardrails, state: SessionState, tool: string, id: string, platform: string | null): GuardrailVerdict[] {
  const verdicts: GuardrailVerdict[] = [];
  const push = (v: GuardrailVerdict | null): void => {
    if (v) verdicts.push(v);
  };

  const exact = state.exactFailures.peek(id) ?? 0;
  if (exact > 0) push(judge(g.config, { detector: 'exact_failure', tool, count: exact }, platform));

  const cycle = cycleAt(state.history, id, g.maxPeriod);
  if (cycle) {
    const cycleTools = state.historyTools.slice(state.historyTools.length - cycle.unit.length);
    push(judge(g.config, { detector: 'cycle', tool, count: cycle.reps, cycleTools }, platform));
  }

  const streak = state.streaks.peek(id);
  if (streak) push(judge(g.config, { detector: 'idempotent_no_progress', tool, count: streak.count }, platform));

  const toolFails = state.toolFailures.peek(tool) ?? 0;
  if (toolFails > 0) push(judge(g.config, { detector: 'same_tool_failure', tool, count: toolFails }, platform));
  return verdicts;
}

function beforeToolCall(g: Guardrails, kwargs: Record<string, unknown>): GuardrailVerdict | null {
  const args = kwargs ?? {};
  const tool = toolNameOf(args);
  if (tool === null) return null;
  const key = sessionKey(args);
  let state = g.sessions.get(key);
  const reported = normalisePlatform(args['platform']);
  if (!state) {
    if (reported === null) return null; // nothing recorded yet: nothing to judge
    state = newSession();
    g.sessions.set(key, state);
  }
  if (reported !== null) state.platform = reported;
  const platform = state.platform ?? g.defaultPlatform;
  return strongest(verdictsFor(g, state, tool, identity(tool, args['args']), platform));
}

function afterToolCall(g: Guardrails, kwargs: Record<string, unknown>): void {
  const args = kwargs ?? {};
  const tool = toolNameOf(args);
  if (tool === null) return;
  const key = sessionKey(args);
  let state = g.sessions.get(key);
  if (!state) {
    state = newSession();
    g.sessions.set(key, state);
  }
  const reported = normalisePlatform(args['platform']);
  if (reported !== null) state.platform = reported;
  recordCall(state, tool, identity(tool, args['args']), args, g.historyLimit);
}

export function createToolLoopGuardrails(config: GuardrailsConfig, opts: ToolLoopGuardrailsOptions = {}): ToolLoopGuardrails {
  const maxPeriod = Math.max(2, Math.floor(opts.maxCyclePeriod ?? DEFAULT_MAX_CYCLE_PERIOD));
  const cycleReps = Math.max(config.warn_after.cycle, config.hard_stop_after.cycle);
  const g: Guardrails = {
    config,
    sessions: new LruMap<string, SessionState>(opts.maxSessions ?? DEFAULT_MAX_SESSIONS),
    maxPeriod,
    // Enough history to see the longest unit repeated up to the larger cycle threshold, plus the tail.
    historyLimit: Math.max(64, maxPeriod * (cycleReps + 1) + 1),
    defaultPlatform: normalisePlatform(opts.defaultPlatform ?? null),
  };
  return {
    beforeToolCall: (kwargs) => beforeToolCall(g, kwargs),
    afterToolCall: (kwargs) => afterToolCall(g, kwargs),
    resetSession: (sessionId) => {
      g.sessions.delete(sessionId);
    },
  };
}

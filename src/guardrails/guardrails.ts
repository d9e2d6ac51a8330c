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

import { canonicalJson } from '../_json.js';
import { canonicalResult, digest } from './_canonical.js';
import { LruMap } from './_lru.js';
import { stopMessage, warningMessage, type LoopFact } from './_messages.js';
import type { GuardrailDetector, GuardrailsConfig, GuardrailVerdict, ToolLoopGuardrails, ToolLoopGuardrailsOptions } from './types.js';

export { DEFAULT_GUARDRAILS_CONFIG, defaultGuardrailsConfig, parseGuardrailsConfig } from './config.js';
export { GUARDRAIL_DETECTORS } from './types.js';
export type {
  DetectorCounts,
  GuardrailDetector,
  GuardrailsConfig,
  GuardrailVerdict,
  ToolLoopGuardrails,
  ToolLoopGuardrailsOptions,
} from './types.js';

export const INTERACTIVE_PLATFORMS: ReadonlySet<string> = new Set(['cli', 'tui', 'desktop', 'acp']);

const DEFAULT_MAX_SESSIONS = 1024;
const DEFAULT_MAX_CYCLE_PERIOD = 6;
/** Distinct identities / tools / results remembered per session. */
const PER_SESSION_KEYS = 512;
const PRECEDENCE: readonly GuardrailDetector[] = ['exact_failure', 'cycle', 'idempotent_no_progress', 'same_tool_failure'];

interface Streak {
  result: string;
  count: number;
}

interface SessionState {
  platform: string | null;
  /** Identities of completed calls, oldest first, bounded. */
  history: string[];
  /** The tool of each call in history, same positions (for cycle messages). */
  historyTools: string[];
  exactFailures: LruMap<string, number>;
  toolFailures: LruMap<string, number>;
  streaks: LruMap<string, Streak>;
  /** (identity, result) pairs already seen: a success outside this set is progress. */
  seen: LruMap<string, true>;
}

function newSession(): SessionState {
  return {
    platform: null,
    history: [],
    historyTools: [],
    exactFailures: new LruMap(PER_SESSION_KEYS),
    toolFailures: new LruMap(PER_SESSION_KEYS),
    streaks: new LruMap(PER_SESSION_KEYS),
    seen: new LruMap(PER_SESSION_KEYS * 4),
  };
}

function sessionKey(kwargs: Record<string, unknown>): string {
  const sid = kwargs['session_id'];
  if (typeof sid === 'string' && sid !== '') return sid;
  const parent = kwargs['parent_session_id'];
  if (typeof parent === 'string' && parent !== '') return parent;
  return '';
}

function toolNameOf(kwargs: Record<string, unknown>): string | null {
  const t = kwargs['tool_name'];
  return typeof t === 'string' && t !== '' ? internTool(t) : null;
}

/** One flat 22-character key per (tool, arguments): the per-session state holds only these. */
function identity(tool: string, args: unknown): string {
  return digest(`${tool}\u0000${canonicalJson(args ?? null)}`);
}

// Every call brings its tool name as a fresh string (parsed from its kwargs); keeping one copy per
// name instead of one per remembered call is most of a session's memory after a few hundred calls.
const MAX_INTERNED_TOOLS = 4096;
const toolNames = new Map<string, string>();
function internTool(tool: string): string {
  const known = toolNames.get(tool);
  if (known !== undefined) return known;
  if (toolNames.size < MAX_INTERNED_TOOLS) toolNames.set(tool, tool);
  return tool;
}

function normalisePlatform(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null;
}

/** status error/blocked, or a JSON-object result with a truthy `error` key. */
export function isFailedToolCall(kwargs: Record<string, unknown>): boolean {
  const status = kwargs['status'];
  if (status === 'error' || status === 'blocked') return true;
  const result = kwargs['result'];
  let parsed: unknown = result;
  if (typeof result === 'string') {
    try {
      parsed = JSON.parse(result);
    } catch {
      return false;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return Boolean((parsed as Record<string, unknown>)['error']);
}

export function createToolLoopGuardrails(config: GuardrailsConfig, opts: ToolLoopGuardrailsOptions = {}): ToolLoopGuardrails {
  const sessions = new LruMap<string, SessionState>(opts.maxSessions ?? DEFAULT_MAX_SESSIONS);
  const maxPeriod = Math.max(2, Math.floor(opts.maxCyclePeriod ?? DEFAULT_MAX_CYCLE_PERIOD));
  const cycleReps = Math.max(config.warn_after.cycle, config.hard_stop_after.cycle);
  // Enough history to see the longest unit repeated up to the larger cycle threshold, plus the tail.
  const historyLimit = Math.max(64, maxPeriod * (cycleReps + 1) + 1);
  const defaultPlatform = normalisePlatform(opts.defaultPlatform ?? null);

  const stopAllowed = (platform: string | null): boolean =>
    config.hard_stop_enabled || (config.non_interactive_hard_stop_enabled && platform !== null && !INTERACTIVE_PLATFORMS.has(platform));

  /** Longest run of complete repetitions at the tail that `next` continues, over all periods. */
  function cycleAt(state: SessionState, next: string): { reps: number; unit: string[] } | null {
    const h = state.history;
    const seq = [...h, next];
    const n = seq.length;
    let best: { reps: number; unit: string[] } | null = null;
    for (let p = 2; p <= maxPeriod; p++) {
      if (n < p + 1) break;
      let matched = 0; // positions i (from the end) with seq[i] === seq[i - p]
      for (let i = n - 1; i - p >= 0 && seq[i] === seq[i - p]; i--) matched++;
      const periodic = matched + p; // length of the p-periodic suffix, `next` included
      const reps = Math.floor((periodic - 1) / p);
      if (reps < 1) continue;
      // One repetition = the p calls before `next`, in call order.
      const unit = seq.slice(n - 1 - p, n - 1);
      if (new Set(unit).size < 2) continue; // a single repeated call is idempotent/exact territory
      if (!best || reps > best.reps) best = { reps, unit };
    }
    return best;
  }

  function judge(detector: GuardrailDetector, count: number, fact: LoopFact, platform: string | null): GuardrailVerdict | null {
    const stopAt = config.hard_stop_after[detector];
    const warnAt = config.warn_after[detector];
    const base = { detector, tool_name: fact.tool, count };
    if (count >= stopAt && stopAllowed(platform)) {
      return { action: 'stop', message: stopMessage(fact), threshold: stopAt, ...base };
    }
    if (config.warnings_enabled && (count >= warnAt || count >= stopAt)) {
      return { action: 'warn', message: warningMessage(fact), threshold: count >= warnAt ? warnAt : stopAt, ...base };
    }
    return null;
  }

  function beforeToolCall(kwargs: Record<string, unknown>): GuardrailVerdict | null {
    const args = kwargs ?? {};
    const tool = toolNameOf(args);
    if (tool === null) return null;
    const key = sessionKey(args);
    let state = sessions.get(key);
    const reported = normalisePlatform(args['platform']);
    if (!state) {
      if (reported === null) return null; // nothing recorded yet: nothing to judge
      state = newSession();
      sessions.set(key, state);
    }
    if (reported !== null) state.platform = reported;
    const platform = state.platform ?? defaultPlatform;

    const id = identity(tool, args['args']);
    const verdicts: GuardrailVerdict[] = [];
    const push = (v: GuardrailVerdict | null): void => {
      if (v) verdicts.push(v);
    };

    const exact = state.exactFailures.peek(id) ?? 0;
    if (exact > 0) push(judge('exact_failure', exact, { detector: 'exact_failure', tool, count: exact }, platform));

    const cycle = cycleAt(state, id);
    if (cycle) {
      const cycleTools = state.historyTools.slice(state.historyTools.length - cycle.unit.length);
      push(judge('cycle', cycle.reps, { detector: 'cycle', tool, count: cycle.reps, cycleTools }, platform));
    }

    const streak = state.streaks.peek(id);
    if (streak) push(judge('idempotent_no_progress', streak.count, { detector: 'idempotent_no_progress', tool, count: streak.count }, platform));

    const toolFails = state.toolFailures.peek(tool) ?? 0;
    if (toolFails > 0) push(judge('same_tool_failure', toolFails, { detector: 'same_tool_failure', tool, count: toolFails }, platform));

    if (verdicts.length === 0) return null;
    const rank = (v: GuardrailVerdict): number => (v.action === 'stop' ? 0 : 10) + PRECEDENCE.indexOf(v.detector);
    verdicts.sort((a, b) => rank(a) - rank(b));
    return verdicts[0] ?? null;
  }

  function afterToolCall(kwargs: Record<string, unknown>): void {
    const args = kwargs ?? {};
    const tool = toolNameOf(args);
    if (tool === null) return;
    const key = sessionKey(args);
    let state = sessions.get(key);
    if (!state) {
      state = newSession();
      sessions.set(key, state);
    }
    const reported = normalisePlatform(args['platform']);
    if (reported !== null) state.platform = reported;

    const id = identity(tool, args['args']);
    state.history.push(id);
    state.historyTools.push(tool);
    if (state.history.length > historyLimit) {
      state.history.splice(0, state.history.length - historyLimit);
      state.historyTools.splice(0, state.historyTools.length - historyLimit);
    }

    if (isFailedToolCall(args)) {
      state.exactFailures.set(id, (state.exactFailures.peek(id) ?? 0) + 1);
      state.toolFailures.set(tool, (state.toolFailures.peek(tool) ?? 0) + 1);
      // A blocked call never ran, so it says nothing about the result streak (and a stopped
      // no-progress loop must stay stopped); a real failure ends the streak.
      if (args['status'] !== 'blocked') state.streaks.delete(id);
      return;
    }

    const result = digest(canonicalResult(args['result']));
    state.exactFailures.delete(id);
    state.toolFailures.delete(tool);
    const pair = digest(id + result); // both fixed-length: no separator needed
    if (!state.seen.has(pair)) {
      // Progress: something new came back. Every no-progress counter starts over.
      state.seen.set(pair, true);
      state.exactFailures.clear();
      state.toolFailures.clear();
      state.streaks.clear();
      state.streaks.set(id, { result, count: 1 });
      return;
    }
    state.seen.get(pair); // refresh recency
    const prev = state.streaks.peek(id);
    state.streaks.set(id, prev && prev.result === result ? { result, count: prev.count + 1 } : { result, count: 1 });
  }

  function resetSession(sessionId: string): void {
    sessions.delete(sessionId);
  }

  return { beforeToolCall, afterToolCall, resetSession };
}

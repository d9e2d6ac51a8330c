// One session's memory of its tool calls, and what a completed call (post_tool_call) does to it:
// the call history, failure counts per identity and per tool, result streaks, and the
// (identity, result) pairs already seen. Every map is bounded. Pure.

import { canonicalJson } from '../json.js';
import { canonicalResult, digest } from './_canonical.js';
import { LruMap } from './_lru.js';

/** Distinct identities / tools / results remembered per session. */
const PER_SESSION_KEYS = 512;

interface Streak {
  result: string;
  count: number;
}

export interface SessionState {
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

export function newSession(): SessionState {
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

export function sessionKey(kwargs: Record<string, unknown>): string {
  const sid = kwargs['session_id'];
  if (typeof sid === 'string' && sid !== '') return sid;
  const parent = kwargs['parent_session_id'];
  if (typeof parent === 'string' && parent !== '') return parent;
  return '';
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

export function toolNameOf(kwargs: Record<string, unknown>): string | null {
  const t = kwargs['tool_name'];
  return typeof t === 'string' && t !== '' ? internTool(t) : null;
}

/** One flat 22-character key per (tool, arguments): the per-session state holds only these. */
export function identity(tool: string, args: unknown): string {
  return digest(`${tool}\u0000${canonicalJson(args ?? null)}`);
}

export function normalisePlatform(value: unknown): string | null {
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

function appendHistory(state: SessionState, id: string, tool: string, historyLimit: number): void {
  state.history.push(id);
  state.historyTools.push(tool);
  if (state.history.length > historyLimit) {
    state.history.splice(0, state.history.length - historyLimit);
    state.historyTools.splice(0, state.historyTools.length - historyLimit);
  }
}

function recordSuccess(state: SessionState, id: string, tool: string, rawResult: unknown): void {
  const result = digest(canonicalResult(rawResult));
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

/** Count one completed call of `tool` (identity `id`) whose kwargs are `args`. */
export function recordCall(state: SessionState, tool: string, id: string, args: Record<string, unknown>, historyLimit: number): void {
  appendHistory(state, id, tool, historyLimit);
  if (isFailedToolCall(args)) {
    state.exactFailures.set(id, (state.exactFailures.peek(id) ?? 0) + 1);
    state.toolFailures.set(tool, (state.toolFailures.peek(tool) ?? 0) + 1);
    // A blocked call never ran, so it says nothing about the result streak (and a stopped
    // no-progress loop must stay stopped); a real failure ends the streak.
    if (args['status'] !== 'blocked') state.streaks.delete(id);
    return;
  }
  recordSuccess(state, id, tool, args['result']);
}

// Builds the stdin payload from an emit's kwargs, by reference §3.1: fixed keys in wire order,
// `args` → tool_input (objects only), session_id falling back to parent_session_id, everything
// else into `extra` in kwarg order.

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { pyTruthy } from '../util/python.js';
import type { WirePayload } from './payload.js';

/** kwargs that map to top-level wire keys and therefore never appear in `extra`. */
const LIFTED_KWARGS: ReadonlySet<string> = new Set(['tool_name', 'args', 'session_id', 'parent_session_id']);

export interface PayloadContext {
  /** The agent's working directory ("" if unknown). */
  cwd: string;
  /** Active profile name ("default" outside named profiles). */
  profile: string;
}

export function buildPayload(event: EventName, kwargs: Readonly<Record<string, unknown>>, ctx: PayloadContext): WirePayload {
  const args = kwargs.args;
  const sessionId = kwargs.session_id;
  const parentSessionId = kwargs.parent_session_id;
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(kwargs)) {
    if (LIFTED_KWARGS.has(key)) continue;
    // defineProperty keeps a "__proto__" kwarg as an ordinary key.
    Object.defineProperty(extra, key, { value: kwargs[key], enumerable: true, writable: true, configurable: true });
  }
  return {
    hook_event_name: event,
    // Verbatim like Hermes (a non-string tool_name is passed through as given), null when absent.
    tool_name: (kwargs.tool_name ?? null) as string | null,
    tool_input: isPlainObject(args) ? args : null,
    session_id: (pyTruthy(sessionId) ? sessionId : pyTruthy(parentSessionId) ? parentSessionId : '') as string,
    cwd: ctx.cwd,
    profile: ctx.profile,
    extra,
  };
}

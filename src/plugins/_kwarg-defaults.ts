// The kwargs Hermes always passes a callback, filled with its own defaults when the host left them
// out: the tool events' ids are `x or ""` at Hermes' call sites (model_tools.py), and the seed's own
// `audit_tool_call(tool_name, args, task_id, **kwargs)` raises TypeError without task_id. Pure.

import type { EventName } from '../events.js';

const TOOL_IDS = Object.freeze({ task_id: '', session_id: '', tool_call_id: '', turn_id: '', api_request_id: '' });

const DEFAULTS: Partial<Record<EventName, Readonly<Record<string, unknown>>>> = {
  pre_tool_call: TOOL_IDS,
  post_tool_call: TOOL_IDS,
  transform_tool_result: TOOL_IDS,
};

/** `kwargs` with each always-present kwarg of `event` that is missing or null set to Hermes' default. */
export function withHermesDefaults(event: EventName, kwargs: Record<string, unknown>): Record<string, unknown> {
  const defaults = DEFAULTS[event];
  if (!defaults) return kwargs;
  const missing = Object.keys(defaults).filter((k) => kwargs[k] === undefined || kwargs[k] === null);
  if (missing.length === 0) return kwargs;
  const out = { ...kwargs };
  for (const k of missing) out[k] = defaults[k];
  return out;
}

// The JSON body of one outbound delivery. Keys in Hermes' order:
// hook_event_name, profile, tool_name, tool_input, session_id, cwd, extra, delivery_id, timestamp.
// kwargs → wire follows the shell stdin rules (reference §3.1). Pure apart from the id and clock.

import { randomUUID } from 'node:crypto';
import { toWireValue } from './_wire-json.js';

export interface OutboundBody {
  hook_event_name: string;
  profile: string;
  tool_name: unknown;
  tool_input: Record<string, unknown> | null;
  /** kwargs.session_id if truthy, else parent_session_id if truthy, else "". */
  session_id: unknown;
  cwd: string;
  extra: Record<string, unknown>;
  delivery_id: string;
  timestamp: string;
}

const NOT_EXTRA = new Set(['tool_name', 'args', 'session_id', 'parent_session_id']);

/** uuid4 as 32 lowercase hex digits (Python `uuid.uuid4().hex`). */
export function newDeliveryId(): string {
  return randomUUID().replace(/-/g, '');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The wire fields derived from call-site kwargs (shared by every target of one notify). */
export function wireFieldsFromKwargs(kwargs: Record<string, unknown>): Pick<OutboundBody, 'tool_name' | 'tool_input' | 'session_id' | 'extra'> {
  const toolName = kwargs['tool_name'];
  const args = kwargs['args'];
  const sid = kwargs['session_id'];
  const parent = kwargs['parent_session_id'];
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(kwargs)) {
    if (NOT_EXTRA.has(key)) continue;
    const v = toWireValue(kwargs[key]);
    if (v !== undefined) extra[key] = v;
  }
  return {
    tool_name: toolName === undefined ? null : (toWireValue(toolName) ?? null),
    tool_input: isPlainObject(args) ? ((toWireValue(args) as Record<string, unknown> | undefined) ?? null) : null,
    // Python truthiness: "" / 0 / null fall through to parent_session_id, then "".
    session_id: (sid ? toWireValue(sid) : parent ? toWireValue(parent) : '') ?? '',
    extra,
  };
}

export function buildOutboundBody(
  event: string,
  fields: Pick<OutboundBody, 'tool_name' | 'tool_input' | 'session_id' | 'extra'>,
  ctx: { profile: string; cwd: string },
  deliveryId: string = newDeliveryId(),
  now: Date = new Date(),
): OutboundBody {
  return {
    hook_event_name: event,
    profile: ctx.profile,
    tool_name: fields.tool_name,
    tool_input: fields.tool_input,
    session_id: fields.session_id,
    cwd: ctx.cwd,
    extra: fields.extra,
    delivery_id: deliveryId,
    timestamp: now.toISOString(),
  };
}

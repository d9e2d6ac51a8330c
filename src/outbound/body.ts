// The JSON body of one outbound delivery: the stdin payload's fields (buildPayload: the kwargs →
// wire rules of reference §3.1) in Hermes' outbound key order — hook_event_name, profile,
// tool_name, tool_input, session_id, cwd, extra, delivery_id, timestamp — serialised like the
// stdin payload (Python's json.dumps separators; values JSON cannot hold become strings or
// markers, never an error). Pure apart from the id and clock.

import { randomUUID } from 'node:crypto';
import type { EventName } from '../events.js';
import { buildPayload, type PayloadContext } from '../protocol/build-payload.js';
import { toWireJson } from '../protocol/serialize.js';

/** uuid4 as 32 lowercase hex digits (Python `uuid.uuid4().hex`). */
export function newDeliveryId(): string {
  return randomUUID().replace(/-/g, '');
}

/**
 * The exact body text of one delivery of `event` (the bytes that are signed and sent). Built and
 * serialised at once, so kwargs mutated afterwards cannot leak in. `event` may also be `ping`.
 */
export function outboundBodyJson(
  event: EventName | 'ping',
  kwargs: Readonly<Record<string, unknown>>,
  ctx: PayloadContext,
  deliveryId: string = newDeliveryId(),
  now: Date = new Date(),
): string {
  // buildPayload only copies the event name into hook_event_name.
  const wire = buildPayload(event as EventName, kwargs, ctx);
  const body = {
    hook_event_name: wire.hook_event_name,
    profile: wire.profile,
    tool_name: wire.tool_name,
    tool_input: wire.tool_input,
    session_id: wire.session_id,
    cwd: wire.cwd,
    extra: wire.extra,
    delivery_id: deliveryId,
    timestamp: now.toISOString(),
  };
  // A bigint is a string here (JSON receivers parse numbers as doubles); on stdin it is a number.
  return toWireJson(body, { bigint: 'string' });
}

// Synthetic kwargs: what `hermes-hooks test <event>` (and doctor's smoke run) fire when no
// payload is given. These are *call-site kwargs* (`args`, not `tool_input`; `parent_session_id`,
// not the wire `session_id`). Where Hermes' own `hermes hooks test` table has an entry
// (reference §6) it is copied exactly, key order included; the other events are modelled on the
// call-site kwargs the reference (§2) and the Hermes docs list, with values that look like a real
// run. One file per family of events; this one joins them (a missing event fails the typecheck).

import { GATEWAY_KWARGS } from './_kwargs-gateway.js';
import { MODEL_KWARGS } from './_kwargs-model.js';
import { SESSION_KWARGS } from './_kwargs-session.js';
import type { Kwargs } from './_kwargs-shared.js';
import type { EventName } from './names.js';

const SYNTHETIC_KWARGS: Readonly<Record<EventName, Kwargs>> = { ...MODEL_KWARGS, ...SESSION_KWARGS, ...GATEWAY_KWARGS };

/** A fresh deep copy of the synthetic call-site kwargs for `event` (safe to mutate). */
export function syntheticKwargs(event: EventName): Record<string, unknown> {
  return structuredClone(SYNTHETIC_KWARGS[event]);
}

/** The keys of the event's synthetic kwargs (no copy): kwargs the event is known to take. */
export function syntheticKwargKeys(event: EventName): readonly string[] {
  return Object.keys(SYNTHETIC_KWARGS[event]);
}

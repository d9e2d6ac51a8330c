// Read the payload given on stdin for `run` and `test`: one JSON object, in the wire form a hook
// reads (any subset of the seven stdin keys) or as call-site kwargs. How it is read is the engine's
// (protocol/read-payload.ts), the same for every face; this only parses the text.

import { syntheticKwargs, type EventName } from '../events.js';
import { CliError } from './_io.js';
import { errorText } from '../errors.js';

export interface PayloadInput {
  /** The payload as given: handed to engine.emit as it is. */
  body: Record<string, unknown>;
  synthetic: boolean;
}

/** `text === null` (a TTY) or blank → the event's synthetic kwargs (`test`) or none (`run`). */
export function payloadFromStdin(event: EventName, text: string | null, opts: { synthetic: boolean }): PayloadInput {
  if (text === null || text.trim() === '') {
    return { body: opts.synthetic ? syntheticKwargs(event) : {}, synthetic: opts.synthetic };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new CliError(`invalid payload JSON on stdin: ${errorText(e)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`invalid payload on stdin: expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
  }
  return { body: value as Record<string, unknown>, synthetic: false };
}

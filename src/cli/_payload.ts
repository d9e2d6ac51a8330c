// Turn a wire-form payload given on stdin (any subset of the seven stdin keys) into the call-site
// kwargs the engine emits with, so hooks see exactly what the user gave, with the gaps filled.

import { syntheticKwargs, type EventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { CliError } from './_io.js';

const WIRE_KEYS = new Set(['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'cwd', 'profile', 'extra']);

export interface PayloadInput {
  kwargs: Record<string, unknown>;
  cwd?: string;
  profile?: string;
  synthetic: boolean;
  diagnostics: Diagnostic[];
}

/** `text === null` (a TTY) or blank → the event's synthetic kwargs. */
export function payloadFromStdin(event: EventName, text: string | null, opts: { synthetic: boolean }): PayloadInput {
  if (text === null || text.trim() === '') {
    return { kwargs: opts.synthetic ? syntheticKwargs(event) : {}, synthetic: opts.synthetic, diagnostics: [] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new CliError(`invalid payload JSON on stdin: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`invalid payload on stdin: expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
  }
  return wireToKwargs(event, value as Record<string, unknown>);
}

export function wireToKwargs(event: EventName, wire: Record<string, unknown>): PayloadInput {
  const diagnostics: Diagnostic[] = [];
  const note = (path: string, message: string): void => {
    diagnostics.push({ level: 'warning', path, line: null, column: null, message, file: '<stdin>' });
  };
  const kwargs: Record<string, unknown> = {};
  if (wire.hook_event_name !== undefined && wire.hook_event_name !== event) {
    note('hook_event_name', `payload says '${String(wire.hook_event_name)}' but the event tested is '${event}'; using '${event}'`);
  }
  if ('tool_name' in wire) kwargs.tool_name = wire.tool_name;
  if ('tool_input' in wire) {
    if (wire.tool_input === null || (typeof wire.tool_input === 'object' && !Array.isArray(wire.tool_input))) {
      if (wire.tool_input !== null) kwargs.args = wire.tool_input;
    } else {
      note('tool_input', 'tool_input must be a JSON object or null; hooks will see null');
    }
  }
  if (typeof wire.session_id === 'string') kwargs.session_id = wire.session_id;
  else if (wire.session_id !== undefined && wire.session_id !== null) note('session_id', 'session_id must be a string; ignored');
  if (wire.extra !== undefined && wire.extra !== null) {
    if (typeof wire.extra === 'object' && !Array.isArray(wire.extra)) Object.assign(kwargs, wire.extra);
    else note('extra', 'extra must be a JSON object; ignored');
  }
  for (const [k, v] of Object.entries(wire)) {
    if (WIRE_KEYS.has(k)) continue;
    note(k, `'${k}' is not a stdin key; passed to hooks under extra.${k}`);
    kwargs[k] = v;
  }
  const out: PayloadInput = { kwargs, synthetic: false, diagnostics };
  if (typeof wire.cwd === 'string') out.cwd = wire.cwd;
  if (typeof wire.profile === 'string') out.profile = wire.profile;
  return out;
}

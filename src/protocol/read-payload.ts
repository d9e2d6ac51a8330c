// One payload, one meaning on every face (issue 20 item 2): what a caller hands to emit — the wire
// form a hook reads on stdin (`tool_input`, `hook_event_name`, `extra` …) or the call-site kwargs a
// host emits with (`args`, `parent_session_id` …) — becomes the kwargs the engine emits with, so
// `run`, `test`, the library and `serve` decide the same payload the same way. The reverse of
// build-payload.ts. Every key that does not land where its sender meant is said in a diagnostic,
// never dropped silently. Pure; no zod (the CLI's run path does not load it).

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import type { Diagnostic, DiagnosticLevel } from '../types.js';

/** The seven stdin keys, in wire order. */
const WIRE_KEYS: ReadonlySet<string> = new Set(['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'cwd', 'profile', 'extra']);
/** Keys only the wire form has: any of them (and no `args`) marks a payload as the wire form. */
const WIRE_ONLY_KEYS: readonly string[] = ['tool_input', 'hook_event_name', 'extra'];

// The call-site kwargs Hermes passes (reference §2). A kwarg outside these still reaches hooks, under
// `extra`; on the tool events that is almost always a tool argument sent at the wrong level.
const COMMON_KWARGS = [
  'session_id',
  'parent_session_id',
  'task_id',
  'turn_id',
  'api_request_id',
  'platform',
  'session_key',
  'model',
  'telemetry_schema_version',
  'middleware_trace',
];
const TOOL_KWARGS = ['tool_name', 'args', 'tool_call_id', ...COMMON_KWARGS];
const KNOWN_KWARGS: Partial<Record<EventName, ReadonlySet<string>>> = {
  pre_tool_call: new Set(TOOL_KWARGS),
  post_tool_call: new Set([...TOOL_KWARGS, 'result', 'duration_ms', 'status', 'error_type', 'error_message']),
};

export interface PayloadReading {
  /** The call-site kwargs to emit with. */
  kwargs: Record<string, unknown>;
  /** Which form the payload was read as. */
  form: 'wire' | 'kwargs';
  /** The wire form's own `cwd` / `profile`, to show hooks instead of the engine's. */
  cwd?: string;
  profile?: string;
  /** Keys that did not land where a sender would expect, and how they were read. */
  diagnostics: Diagnostic[];
}

export interface ReadPayloadOptions {
  /** Names the payload in diagnostics (`<stdin>`, `request body`). */
  source?: string;
  /** The call-site kwargs the event is known to take, beyond the tool events' (the synthetic ones). */
  knownKwargs?: readonly string[];
}

/** Read `body` (wire form or kwargs) for `event`. Never throws. */
export function readPayload(event: EventName, body: Readonly<Record<string, unknown>>, opts: ReadPayloadOptions = {}): PayloadReading {
  const diagnostics: Diagnostic[] = [];
  const note = (level: DiagnosticLevel, path: string, message: string): void => {
    diagnostics.push({ level, path, line: null, column: null, message, ...(opts.source ? { file: opts.source } : {}) });
  };
  const wire = !('args' in body) && WIRE_ONLY_KEYS.some((k) => k in body);
  return wire ? fromWire(event, body, note, diagnostics) : fromKwargs(event, body, opts, note, diagnostics);
}

type Note = (level: DiagnosticLevel, path: string, message: string) => void;

function fromWire(event: EventName, wire: Readonly<Record<string, unknown>>, note: Note, diagnostics: Diagnostic[]): PayloadReading {
  const kwargs: Record<string, unknown> = {};
  if (wire.hook_event_name !== undefined && wire.hook_event_name !== event) {
    note('warning', 'hook_event_name', `payload says '${String(wire.hook_event_name)}' but the event is '${event}'; using '${event}'`);
  }
  if ('tool_name' in wire) kwargs.tool_name = wire.tool_name;
  if ('tool_input' in wire) {
    if (wire.tool_input === null || isPlainObject(wire.tool_input)) {
      if (wire.tool_input !== null) kwargs.args = wire.tool_input;
    } else {
      note('warning', 'tool_input', 'tool_input must be a JSON object or null; hooks will see null');
    }
  }
  if (typeof wire.session_id === 'string') kwargs.session_id = wire.session_id;
  else if (wire.session_id !== undefined && wire.session_id !== null) note('warning', 'session_id', 'session_id must be a string; ignored');
  if (wire.extra !== undefined && wire.extra !== null) {
    if (isPlainObject(wire.extra)) Object.assign(kwargs, wire.extra);
    else note('warning', 'extra', 'extra must be a JSON object; ignored');
  }
  for (const [k, v] of Object.entries(wire)) {
    if (WIRE_KEYS.has(k)) continue;
    note('warning', k, `'${k}' is not a stdin key; passed to hooks under extra.${k}`);
    Object.defineProperty(kwargs, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const out: PayloadReading = { kwargs, form: 'wire', diagnostics };
  if (typeof wire.cwd === 'string') out.cwd = wire.cwd;
  if (typeof wire.profile === 'string') out.profile = wire.profile;
  return out;
}

function fromKwargs(
  event: EventName,
  body: Readonly<Record<string, unknown>>,
  opts: ReadPayloadOptions,
  note: Note,
  diagnostics: Diagnostic[],
): PayloadReading {
  const toolKnown = KNOWN_KWARGS[event];
  const known = toolKnown ?? new Set([...COMMON_KWARGS, ...(opts.knownKwargs ?? [])]);
  for (const k of Object.keys(body)) {
    if (known.has(k)) continue;
    if (WIRE_KEYS.has(k) && k !== 'session_id' && k !== 'tool_name') {
      // Both forms at once: `args` decides, the wire key is passed on as it came.
      note('warning', k, `'${k}' is a stdin key, but this payload also has 'args' (a kwarg), so it is read as kwargs: hooks get ${k} under extra.${k}`);
    } else if (toolKnown) {
      const hint = 'args' in body ? '' : ` — a tool argument goes inside args: {"${k}": …}`;
      note('warning', k, `'${k}' is not a ${event} kwarg (it takes ${[...toolKnown].slice(0, 3).join(', ')} …): hooks get it under extra.${k}${hint}`);
    } else {
      note('info', k, `'${k}' is not a kwarg Hermes passes on ${event}; hooks get it under extra.${k}`);
    }
  }
  return { kwargs: { ...body }, form: 'kwargs', diagnostics };
}

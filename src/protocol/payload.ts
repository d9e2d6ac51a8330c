// The stdin payload every shell hook receives: one JSON object with exactly these seven keys, in
// this order (reference §3.1). Zod is the source of truth; protocol/payload.schema.json is generated.

import { z } from 'zod';
import { EVENT_NAMES, EVENTS, type EventName } from '../events.js';

/** A JSON object (a Python dict on the Hermes side). */
export const JsonObjectSchema = z.record(z.string(), z.unknown());

export const EventNameSchema = z.enum(EVENT_NAMES).describe('A Hermes hook event name.');

const TOOL_EVENTS = EVENT_NAMES.filter((e) => EVENTS[e].toolScoped);
const OTHER_EVENTS = EVENT_NAMES.filter((e) => !EVENTS[e].toolScoped);

const FIELD = {
  tool_input: JsonObjectSchema.nullable().describe("The tool's arguments (kwarg `args`) when they are a JSON object, else null."),
  session_id: z.string().describe('kwarg `session_id` if truthy, else `parent_session_id` if truthy, else "".'),
  cwd: z.string().describe('Working directory of the agent process ("" if it cannot be read).'),
  profile: z.string().describe('Active profile name; "default" outside named profiles.'),
  extra: JsonObjectSchema.describe('Every other call-site kwarg, in call order (never tool_name, args, session_id or parent_session_id).'),
};

const TOOL_NAME_STRING = z.string().describe('Name of the tool being called.');
const TOOL_NAME_NULLABLE = z.string().nullable().describe('kwarg `tool_name` (null when the event has none).');

function payloadShape<N extends z.ZodType, T extends z.ZodType>(name: N, toolName: T) {
  return z.strictObject({
    hook_event_name: name,
    tool_name: toolName,
    tool_input: FIELD.tool_input,
    session_id: FIELD.session_id,
    cwd: FIELD.cwd,
    profile: FIELD.profile,
    extra: FIELD.extra,
  });
}

/** Tool events (pre_tool_call, post_tool_call) always name the tool. */
export const ToolWirePayloadSchema = payloadShape(z.enum(TOOL_EVENTS as [EventName, ...EventName[]]).describe('A tool-scoped event.'), TOOL_NAME_STRING);

export const OtherWirePayloadSchema = payloadShape(
  z.enum(OTHER_EVENTS as [EventName, ...EventName[]]).describe('Any event that is not tool-scoped.'),
  TOOL_NAME_NULLABLE,
);

/** The stdin of every shell hook, for any event. */
export const WirePayloadSchema = z.union([ToolWirePayloadSchema, OtherWirePayloadSchema]);

/** The stdin of a shell hook (WirePayloadSchema). */
export interface WirePayload {
  hook_event_name: EventName;
  tool_name: string | null;
  tool_input: { [key: string]: unknown } | null;
  session_id: string;
  cwd: string;
  profile: string;
  extra: { [key: string]: unknown };
}

/** The stdin keys, in wire order. */
export const WIRE_PAYLOAD_KEYS = [
  'hook_event_name',
  'tool_name',
  'tool_input',
  'session_id',
  'cwd',
  'profile',
  'extra',
] as const satisfies readonly (keyof WirePayload)[];

/**
 * What `hermes-hooks test` accepts on stdin: any subset of the wire keys (missing ones are filled
 * from the event's synthetic payload). Unknown keys are refused so a typo is not silently dropped.
 */
export const PartialWirePayloadSchema = z
  .strictObject({
    hook_event_name: EventNameSchema,
    tool_name: z.string().nullable(),
    tool_input: JsonObjectSchema.nullable(),
    session_id: z.string(),
    cwd: z.string(),
    profile: z.string(),
    extra: JsonObjectSchema,
  })
  .partial();

/** Any subset of the payload keys (PartialWirePayloadSchema). */
export type PartialWirePayload = z.infer<typeof PartialWirePayloadSchema>;

function eventPayloadSchema(event: EventName) {
  return payloadShape(z.literal(event), EVENTS[event].toolScoped ? TOOL_NAME_STRING : TOOL_NAME_NULLABLE);
}

/** One schema per event: the payload with `hook_event_name` fixed to that event. */
export const EVENT_PAYLOAD_SCHEMAS: Readonly<Record<EventName, z.ZodType<WirePayload>>> = Object.freeze(
  Object.fromEntries(EVENT_NAMES.map((e) => [e, eventPayloadSchema(e)])) as unknown as Record<EventName, z.ZodType<WirePayload>>,
);

// The engine builds and writes payloads through this module.
export { buildPayload, type PayloadContext } from './build-payload.js';
export { serializePayload } from './serialize.js';

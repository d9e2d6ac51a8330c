// The JSON Schemas published in protocol/: which zod schema becomes which file, with its $id, title
// and description. scripts/gen-schemas.ts writes them; test/protocol/ checks they do not drift.

import { z } from 'zod';
import { DecisionSchema } from './decision.js';
import { HookOutputSchema } from './hook-output.js';
import { PartialWirePayloadSchema, WirePayloadSchema } from './payload.js';
import { TestReportSchema } from './test-report.js';

export const SCHEMA_BASE_URL = 'https://unpkg.com/hermes-hooks/protocol/';

export interface PublishedSchema {
  /** Short name; fixtures live under test/fixtures/protocol/{valid,invalid}/<name>/. */
  name: string;
  /** File name in protocol/. */
  file: string;
  title: string;
  description: string;
  schema: z.ZodType;
}

export const PUBLISHED_SCHEMAS: readonly PublishedSchema[] = [
  {
    name: 'payload',
    file: 'payload.schema.json',
    title: 'hermes-hooks stdin payload',
    description: 'The JSON object a shell hook reads on stdin: hook_event_name, tool_name, tool_input, session_id, cwd, profile, extra (in that order).',
    schema: WirePayloadSchema,
  },
  {
    name: 'directive',
    file: 'directive.schema.json',
    title: 'hermes-hooks directive (hook stdout)',
    description: 'The JSON object a hook may print on stdout, in the Hermes dialect or the Claude Code dialect. Unknown keys are ignored.',
    schema: HookOutputSchema,
  },
  {
    name: 'decision',
    file: 'decision.schema.json',
    title: 'hermes-hooks decision',
    description: 'The resolved answer of all hooks for one event, as printed by `hermes-hooks run`.',
    schema: DecisionSchema,
  },
  {
    name: 'test-report',
    file: 'test-report.schema.json',
    title: 'hermes-hooks test report',
    description: 'The single JSON object printed by `hermes-hooks test <event> --json`.',
    schema: TestReportSchema,
  },
  {
    name: 'test-input',
    file: 'test-input.schema.json',
    title: 'hermes-hooks test stdin',
    description: "What `hermes-hooks test` reads on stdin: any subset of the payload keys; missing ones are filled from the event's synthetic payload.",
    schema: PartialWirePayloadSchema,
  },
];

/** The JSON Schema document for one published schema: $schema, $id, title, description first. */
export function toPublishedJsonSchema(entry: PublishedSchema): Record<string, unknown> {
  const generated = z.toJSONSchema(entry.schema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, description: _ignored, ...rest } = generated;
  return {
    $schema,
    $id: SCHEMA_BASE_URL + entry.file,
    title: entry.title,
    description: entry.description,
    ...rest,
  };
}

// The resolved Decision for one emit: what `hermes-hooks run` prints and what `test --json` nests
// under "decision". Loose, because the engine may add keys beyond the ones listed here.

import { z } from 'zod';
import type { Decision } from '../types.js';
import { EventNameSchema, JsonObjectSchema } from './payload.js';

const hookIndex = z.number().int().min(0);

export const DecisionActionSchema = z.enum(['block', 'approve', 'allow', 'continue', 'handled', 'rewrite', 'skip']);

const decisionFields = {
  event: EventNameSchema,
  action: DecisionActionSchema.describe(
    'block / approve / allow / continue (pre_verify) / handled (post_gateway_admission) / rewrite (transform and rewrite events: use `result`) / skip ' +
      '(pre_gateway_dispatch: drop the message).',
  ),
  message: z.string().nullable().describe('Block message, approval prompt or continue message.'),
  args: JsonObjectSchema.nullable().describe('pre_tool_call: the merged tool arguments when a modify applied.'),
  context: z.string().nullable().describe('pre_llm_call: contexts joined with a blank line.'),
  decided_by: hookIndex
    .nullable()
    .describe(
      'Index of the hook that decided (block / approve / continue / handled / rewrite / skip; an explicit pre_gateway_dispatch allow; the last writer ' +
        'on merging events).',
    ),
  modified_by: z.array(hookIndex).describe('Indices of hooks whose modify was applied, in order.'),
  conflicts: z.array(z.string()).describe('Argument keys two modifies set to different values (sorted).'),
  rule_key: z.string().nullable().optional().describe('approve: rule key for the approval gate.'),
  notifications: z.array(z.string()).optional().describe('on_session_finalize: messages for the user.'),
  notices: z
    .array(
      z.strictObject({
        session_id: z.string().nullable(),
        session_key: z.string().nullable(),
        message: z.string(),
      }),
    )
    .optional()
    .describe('on_session_finalize: the same messages, each with the session (id and gateway key) it belongs to.'),
  reply: z.string().nullable().optional().describe('post_gateway_admission: the reply when handled.'),
  stop_turn: z.boolean().optional().describe('Tool-loop guardrail hard stop: end the turn.'),
  result: z
    .union([z.string(), JsonObjectSchema])
    .nullable()
    .optional()
    .describe(
      'Transform and rewrite events (present on them, null when no hook answered): what the host uses instead of the original — the replaced text ' +
        '(transform_tool_result, transform_terminal_output, transform_llm_output, pre_gateway_dispatch rewrite, pre_tts_synthesis), the ' +
        'classification (transform_api_error_classification) or the merged overrides (pre_transcription).',
    ),
};

/** The resolved answer of all hooks for one event, as `run` prints it (published as decision.schema.json). */
export const DecisionSchema = z.looseObject(decisionFields).describe('The resolved answer of all hooks for one event.');

/** In `test --json` the event is already at the top level, so the decision may omit it. */
export const ReportDecisionSchema = z.looseObject({ ...decisionFields, event: EventNameSchema.optional() }).describe('The resolved decision.');

// Compile-time check: every Decision is valid input for the schema (ignoring the loose index signature).
type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
const _fromType = (d: Decision): KnownKeys<z.input<typeof DecisionSchema>> => d;
void _fromType;

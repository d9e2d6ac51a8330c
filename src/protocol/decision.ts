// The resolved Decision for one emit: what `hermes-hooks run` prints and what `test --json` nests
// under "decision". Loose, because the engine may add keys beyond the ones listed here.

import { z } from 'zod';
import type { Decision } from '../types.js';
import { EventNameSchema, JsonObjectSchema } from './payload.js';

const hookIndex = z.number().int().min(0);

export const DecisionActionSchema = z.enum(['block', 'approve', 'allow', 'continue', 'handled']);

const decisionFields = {
  event: EventNameSchema,
  action: DecisionActionSchema.describe('block / approve / allow / continue (pre_verify) / handled (post_gateway_admission).'),
  message: z.string().nullable().describe('Block message, approval prompt or continue message.'),
  args: JsonObjectSchema.nullable().describe('pre_tool_call: the merged tool arguments when a modify applied.'),
  context: z.string().nullable().describe('pre_llm_call: contexts joined with a blank line.'),
  decided_by: hookIndex.nullable().describe('Index of the hook that decided (block / approve / continue / handled).'),
  modified_by: z.array(hookIndex).describe('Indices of hooks whose modify was applied, in order.'),
  conflicts: z.array(z.string()).describe('Argument keys two modifies set to different values (sorted).'),
  rule_key: z.string().nullable().optional().describe('approve: rule key for the approval gate.'),
  notifications: z.array(z.string()).optional().describe('on_session_finalize: messages for the user.'),
  reply: z.string().nullable().optional().describe('post_gateway_admission: the reply when handled.'),
  stop_turn: z.boolean().optional().describe('Tool-loop guardrail hard stop: end the turn.'),
};

export const DecisionSchema = z.looseObject(decisionFields).describe('The resolved answer of all hooks for one event.');

/** In `test --json` the event is already at the top level, so the decision may omit it. */
export const ReportDecisionSchema = z
  .looseObject({ ...decisionFields, event: EventNameSchema.optional() })
  .describe('The resolved decision.');

// Compile-time check: every Decision is valid input for the schema (ignoring the loose index signature).
type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
const _fromType = (d: Decision): KnownKeys<z.input<typeof DecisionSchema>> => d;
void _fromType;

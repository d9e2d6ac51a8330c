// The normalised Directive: what one hook said after its stdout and exit status were evaluated
// (src/directives/). Strict: this is our own output, so unknown keys are a bug.

import { z } from 'zod';
import type { Directive } from '../types.js';
import { JsonObjectSchema } from './payload.js';

export const DirectiveSchema = z
  .discriminatedUnion('action', [
    z.strictObject({ action: z.literal('block'), message: z.string() }),
    z.strictObject({ action: z.literal('modify'), args: JsonObjectSchema }),
    z.strictObject({ action: z.literal('approve'), message: z.string().optional(), rule_key: z.string().optional() }),
    z.strictObject({ action: z.literal('continue'), message: z.string() }),
    z.strictObject({ action: z.literal('context'), context: z.string() }),
    z.strictObject({ action: z.literal('notify'), message: z.string() }),
    z.strictObject({ action: z.literal('handled'), reply: z.string().optional() }),
    z.strictObject({ action: z.literal('rewrite'), text: z.string() }),
    z.strictObject({ action: z.literal('skip'), reason: z.string().nullable() }),
    z.strictObject({ action: z.literal('allow') }),
    z.strictObject({ action: z.literal('classify'), classification: JsonObjectSchema }),
    z.strictObject({ action: z.literal('override'), overrides: JsonObjectSchema }),
  ])
  .describe('What one hook said, normalised.');

// Compile-time check that the schema and the public type agree in both directions.
type Parsed = z.infer<typeof DirectiveSchema>;
const _toType = (d: Parsed): Directive => d;
const _fromType = (d: Directive): Parsed => d;
void _toType;
void _fromType;

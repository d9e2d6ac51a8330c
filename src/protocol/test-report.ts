// The `hermes-hooks test --json` report, exactly as DESIGN.md shows it. The top level is strict;
// hook entries, the decision and diagnostics are loose because the engine may add keys to them.

import { z } from 'zod';
import type { Diagnostic, HookOutcome } from '../types.js';
import { ReportDecisionSchema } from './decision.js';
import { DirectiveSchema } from './directive.js';
import { EventNameSchema, WirePayloadSchema } from './payload.js';

export const HookReportStatusSchema = z
  .enum([
    'ok',
    'nonzero_exit',
    'timeout',
    'launch_failed',
    'output_limit',
    'not_matched',
    'error',
    'suppressed',
    'skipped',
    'awaiting_approval',
  ])
  .describe(
    'How the hook ended (ok, nonzero_exit, timeout, launch_failed, output_limit) or why it did not run: ' +
      'not_matched (matcher), error / suppressed (in-process callbacks), skipped (no counterpart in its dialect), ' +
      'awaiting_approval (an unapproved fail_closed hook, which blocks instead).',
  );

export const HookReportSchema = z
  .looseObject({
    index: z.number().int().min(0).describe('Position in the resolution order (what decided_by refers to).'),
    command: z.string(),
    matcher: z.string().nullable(),
    timeout: z.number().nullable().describe('Seconds; null for in-process hooks without a bound.'),
    fail_closed: z.boolean(),
    consent: z
      .enum(['approved', 'not_approved', 'modified'])
      .nullable()
      .describe('Reported, not enforced, by `test`. null for hooks that need no consent (plugins).'),
    status: HookReportStatusSchema,
    exit_code: z.number().int().nullable(),
    signal: z.string().nullable(),
    duration_ms: z.number().min(0),
    stdout: z.string(),
    stderr: z.string(),
    error: z.string().nullable(),
    directive: DirectiveSchema.nullable(),
    kind: z.enum(['plugin', 'shell', 'builtin']).optional(),
    dialect: z.enum(['hermes', 'claude', 'codex', 'gemini', 'cursor']).optional().describe('The protocol the hook speaks.'),
    started_ms: z.number().optional().describe('Start time relative to the emit, in ms.'),
  })
  .describe('One hook: how it ran and what it said.');

export const DiagnosticReportSchema = z
  .looseObject({
    level: z.enum(['error', 'warning', 'info']),
    path: z.string().describe('Config path, e.g. hooks.pre_tool_call[1].timeout.'),
    line: z.number().int().nullable(),
    column: z.number().int().nullable(),
    message: z.string(),
    file: z.string().optional(),
  })
  .describe('A problem found in the config.');

export const TestReportSchema = z
  .strictObject({
    event: EventNameSchema,
    payload: WirePayloadSchema.describe('The stdin each hook received.'),
    hooks: z.array(HookReportSchema),
    decision: ReportDecisionSchema,
    diagnostics: z.array(DiagnosticReportSchema),
  })
  .describe('The report printed by `hermes-hooks test <event> --json`.');

export type TestReport = z.infer<typeof TestReportSchema>;
export type HookReport = z.infer<typeof HookReportSchema>;

// Compile-time checks: the engine's own types fit the report schema.
type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
const _hook = (h: HookOutcome): KnownKeys<z.input<typeof HookReportSchema>> => h;
const _diagnostic = (d: Diagnostic): KnownKeys<z.input<typeof DiagnosticReportSchema>> => d;
void _hook;
void _diagnostic;

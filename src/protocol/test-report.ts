// The `hermes-hooks test --json` report, exactly as DESIGN.md shows it. The top level is strict;
// hook entries, the decision and diagnostics are loose because the engine may add keys to them.

import { z } from 'zod';
import type { Diagnostic, Dialect, HookOutcome } from '../types.js';
import { CONSENT_STATES, NOT_RUN_REASONS } from '../consent-states.js';
import { AGENT_DIALECTS } from '../dialects/agents/index.js';
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
    'safe_mode',
    'not_converted',
    'refused',
  ])
  .describe(
    'How the hook ended (ok, nonzero_exit, timeout, launch_failed, output_limit: killed before it exited for writing without end, ' +
      'far past the output cap — output past the cap alone is drained, see stdout_dropped_bytes) or why it did not run: ' +
      'not_matched (matcher), error / suppressed (in-process callbacks), skipped (no counterpart in its dialect), ' +
      'awaiting_approval (an unapproved fail_closed hook, which blocks instead), ' +
      'safe_mode (HERMES_SAFE_MODE is set: listed, not run), ' +
      "not_converted (written in another agent's format under hooks:; on pre_tool_call it blocks the calls it would have checked), " +
      'refused (hooks_fail_closed: true and a pre_tool_call guard in the config cannot be read: it blocks, naming file:line and the fix).',
  );

export const HookReportSchema = z
  .looseObject({
    index: z.number().int().min(0).describe('Position in the resolution order (what decided_by refers to).'),
    command: z.string(),
    matcher: z.string().nullable(),
    timeout: z.number().nullable().describe('Seconds; null for in-process hooks without a bound.'),
    fail_closed: z.boolean(),
    consent: z.enum(CONSENT_STATES).nullable().describe('Reported, not enforced, by `test`. null for hooks that need no consent (plugins).'),
    status: HookReportStatusSchema,
    exit_code: z.number().int().nullable(),
    signal: z.string().nullable(),
    duration_ms: z.number().min(0),
    stdout: z.string(),
    stderr: z.string(),
    error: z.string().nullable(),
    warning: z
      .string()
      .nullable()
      .optional()
      .describe('A problem with a run that otherwise ended normally, e.g. stdout that is not a JSON object (ignored, or failed closed).'),
    directive: DirectiveSchema.nullable(),
    kind: z.enum(['plugin', 'shell', 'builtin']).optional(),
    dialect: z
      .enum(['hermes', ...AGENT_DIALECTS] as [Dialect, ...Dialect[]])
      .optional()
      .describe('The protocol the hook speaks.'),
    started_ms: z.number().optional().describe('Start time relative to the emit, in ms.'),
    left_processes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Shell hooks: processes the hook left running when it exited (the rest of its process group, and any process still holding its output), all ' +
          'killed when its answer was taken; 0 when none.',
      ),
    stdout_dropped_bytes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Shell hooks: bytes written to stdout past the output cap (1 MiB by default), drained and discarded; 0 when none. ' +
          'A cut stdout is not a directive; the exit status still counts.',
      ),
    stderr_dropped_bytes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Shell hooks: bytes written to stderr past the output cap, drained and discarded; 0 when none.'),
    config_path: z
      .string()
      .nullable()
      .optional()
      .describe('Shell hooks: the config path its diagnostics name (hooks.<event>[i], i counted per event); null for plugins and built-ins.'),
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

export const ProductionReportSchema = z
  .strictObject({
    decision: ReportDecisionSchema.describe('The Decision `hermes-hooks run` would print for this payload.'),
    differs: z.boolean().describe("true when that decision differs from this dry run's `decision`."),
    why: z.string().nullable().describe('One line: which hooks `run` would not run and why (consent, HERMES_SAFE_MODE); null when it runs them all.'),
    safe_mode: z.boolean().describe('HERMES_SAFE_MODE is set: `run` runs no user hook or plugin.'),
    not_run: z
      .array(
        z.strictObject({
          index: z.number().int().min(0),
          command: z.string(),
          reason: z.enum(NOT_RUN_REASONS),
          effect: z.enum(['skipped', 'blocks']).describe('skipped: contributes nothing; blocks: an unapproved fail_closed guard blocks every call it matches.'),
        }),
      )
      .describe('Hooks listed in `hooks` that `run` would not run.'),
  })
  .describe('What the production path (`hermes-hooks run`: consent and safe mode enforced) would do with the same payload.');

/** The report `hermes-hooks test <event> --json` prints (published as test-report.schema.json). */
export const TestReportSchema = z
  .strictObject({
    event: EventNameSchema,
    payload: WirePayloadSchema.describe('The stdin each hook received.'),
    hooks: z.array(HookReportSchema).describe('Configured and registered hooks for the event; the built-in tool-loop guardrail only when it gave a verdict.'),
    decision: ReportDecisionSchema,
    production: ProductionReportSchema,
    diagnostics: z.array(DiagnosticReportSchema),
  })
  .describe('The report printed by `hermes-hooks test <event> --json`.');

/** The report of `test --json` (TestReportSchema). */
export type TestReport = z.infer<typeof TestReportSchema>;
export type ProductionReport = z.infer<typeof ProductionReportSchema>;
/** One hook's entry in a TestReport. */
export type HookReport = z.infer<typeof HookReportSchema>;

// Compile-time checks: the engine's own types fit the report schema.
type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
const _hook = (h: HookOutcome): KnownKeys<z.input<typeof HookReportSchema>> => h;
const _diagnostic = (d: Diagnostic): KnownKeys<z.input<typeof DiagnosticReportSchema>> => d;
void _hook;
void _diagnostic;

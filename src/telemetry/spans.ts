// Pure: one emit as the spans and metric points OpenTelemetry gets — names, times, attributes,
// status — so what a trace says is decided here and tested without an SDK. otel.ts only hands
// these to the SDK. Attribute names: docs/telemetry.md (our own under `hermes_hooks.*`, the
// OpenTelemetry semantic conventions' where one fits: gen_ai.tool.name, process.exit.code, error.type).

import { isFailClosedBlock } from '../directives/messages.js';
import { exitIsAnswer } from '../engine/run-hooks.js';
import type { EmitRecord } from '../engine/options.js';
import type { HookOutcome, HookOutcomeStatus } from '../types.js';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanPlan {
  name: string;
  /** ms since the epoch */
  start: number;
  end: number;
  attributes: Attributes;
  /** null: unset (fine); a string: ERROR with that description. */
  error: string | null;
}

export interface EmitPlan {
  event: SpanPlan;
  hooks: SpanPlan[];
  /** One point per hook that ran, for the duration histogram (seconds). */
  durations: { seconds: number; attributes: Attributes }[];
  /** The decisions counter's attributes. */
  decision: Attributes;
}

/** Why a verdict is what it is: a guard said no, a guard could not answer, or neither. */
export type Cause = 'policy_denial' | 'hook_failure' | 'none';

/** Statuses of a hook that did not give its own answer: what it did instead is a failure. */
const FAILED: ReadonlySet<HookOutcomeStatus> = new Set(['timeout', 'launch_failed', 'output_limit', 'error', 'awaiting_approval', 'refused', 'not_converted']);

/** Hooks that did not run at all get no span: nothing happened. */
const NOT_RUN: ReadonlySet<HookOutcomeStatus> = new Set(['not_matched', 'skipped']);

/** A hook worth a span: it ran — not the built-in loop guard on a call it let pass without a word (it checks every call). */
const ran = (h: HookOutcome): boolean => !NOT_RUN.has(h.status) && !(h.kind === 'builtin' && h.directive === null && h.error === null);

const MESSAGE_MAX = 512;

/** What went wrong with one hook, or null when it answered (a documented non-zero exit is an answer). */
export function hookFailure(event: EmitRecord['emission']['event'], h: HookOutcome): string | null {
  if (FAILED.has(h.status)) return h.error ?? h.status;
  if (h.status === 'nonzero_exit' && !exitIsAnswer(event, h)) return `exited ${h.exit_code ?? h.signal}`;
  if (isFailClosedBlock(h.command, h.directive)) return h.directive?.action === 'block' ? h.directive.message : 'failed closed';
  return null;
}

/** The cause of a block: the deciding hook's own answer (policy_denial) or a hook that could not answer (hook_failure). */
export function causeOf(record: EmitRecord): Cause {
  const { decision, hooks, event } = record.emission;
  if (decision.action !== 'block') return 'none';
  const decider = decision.decided_by === null ? undefined : hooks[decision.decided_by];
  // No decider: hermes-hooks itself could not check the call (another agent's stdin sent as ours).
  if (decider === undefined) return 'hook_failure';
  return hookFailure(event, decider) === null ? 'policy_denial' : 'hook_failure';
}

/** Hooks that answered but whose answer neither decided nor was applied (a block overrides an approve or a modify). */
export function overriddenBy(record: EmitRecord): number[] {
  const { decision, hooks } = record.emission;
  if (decision.decided_by === null) return [];
  return hooks
    .filter((h) => h.directive !== null && h.index !== decision.decided_by && !decision.modified_by.includes(h.index) && h.directive.action !== decision.action)
    .map((h) => h.index);
}

const clip = (s: string): string => (s.length > MESSAGE_MAX ? `${s.slice(0, MESSAGE_MAX)}…` : s);

/** The agent's ids where the payload has them (gen-ai semantic conventions). */
function callAttributes(payload: Record<string, unknown>): Attributes {
  const a: Attributes = {};
  const tool = payload.tool_name;
  if (typeof tool === 'string' && tool !== '') a['gen_ai.tool.name'] = tool;
  const extra = payload.extra as Record<string, unknown> | undefined;
  const input = payload.tool_input as Record<string, unknown> | undefined;
  const callId = [extra?.tool_call_id, extra?.tool_use_id, input?.tool_call_id].find((v) => typeof v === 'string' && v !== '');
  if (typeof callId === 'string') a['gen_ai.tool.call.id'] = callId;
  const session = payload.session_id;
  if (typeof session === 'string' && session !== '') a['gen_ai.conversation.id'] = session;
  return a;
}

export function planEmit(record: EmitRecord): EmitPlan {
  const { emission, startedAt, durationMs } = record;
  const { event, decision, hooks, payload } = emission;
  const end = startedAt + durationMs;
  const cause = causeOf(record);
  const overridden = overriddenBy(record);
  const decider = decision.decided_by === null ? undefined : hooks[decision.decided_by];
  const failures = hooks.filter(ran).map((h) => ({ h, failure: hookFailure(event, h) }));
  const call = callAttributes(payload as Record<string, unknown>);
  const eventAttributes: Attributes = {
    'hermes_hooks.event': event,
    ...call,
    'hermes_hooks.decision': decision.action,
    'hermes_hooks.cause': cause,
    'hermes_hooks.hooks.run': failures.length,
    'hermes_hooks.hooks.failed': failures.filter((f) => f.failure !== null).length,
    'hermes_hooks.duration_ms': round(durationMs),
  };
  if (typeof payload.profile === 'string' && payload.profile !== '') eventAttributes['hermes_hooks.profile'] = payload.profile;
  if (decider) {
    eventAttributes['hermes_hooks.decided_by'] = decider.command;
    eventAttributes['hermes_hooks.decided_by.index'] = decider.index;
  }
  if (overridden.length > 0) eventAttributes['hermes_hooks.overridden'] = overridden.map((i) => hooks[i]?.command ?? String(i));
  if (decision.message) eventAttributes['hermes_hooks.decision.message'] = clip(decision.message);

  const hookSpans = failures.map(({ h, failure }): SpanPlan => {
    const start = Math.min(startedAt + h.started_ms, end);
    const a: Attributes = {
      'hermes_hooks.event': event,
      ...(call['gen_ai.tool.name'] !== undefined ? { 'gen_ai.tool.name': call['gen_ai.tool.name'] } : {}),
      'hermes_hooks.hook.index': h.index,
      'hermes_hooks.hook.command': h.command,
      'hermes_hooks.hook.kind': h.kind,
      'hermes_hooks.hook.dialect': h.dialect,
      'hermes_hooks.hook.fail_closed': h.fail_closed,
      'hermes_hooks.hook.status': h.status,
      'hermes_hooks.hook.directive': h.directive?.action ?? 'none',
      'hermes_hooks.hook.decided': h.index === decision.decided_by,
      'hermes_hooks.hook.overridden': overridden.includes(h.index),
      'hermes_hooks.hook.duration_ms': h.duration_ms,
    };
    if (h.matcher !== null) a['hermes_hooks.hook.matcher'] = h.matcher;
    if (h.timeout !== null) a['hermes_hooks.hook.timeout_s'] = h.timeout;
    if (h.consent !== null) a['hermes_hooks.hook.consent'] = h.consent;
    if (h.exit_code !== null) a['process.exit.code'] = h.exit_code;
    if (h.signal !== null) a['hermes_hooks.hook.signal'] = h.signal;
    if (failure !== null) a['error.type'] = h.status === 'ok' ? 'failed_closed' : h.status;
    return { name: 'hermes_hooks.hook', start, end: Math.min(start + h.duration_ms, end), attributes: a, error: failure === null ? null : clip(failure) };
  });

  return {
    event: {
      name: `hermes_hooks.event ${event}`,
      start: startedAt,
      end,
      attributes: eventAttributes,
      error: cause === 'hook_failure' ? clip(decision.message ?? 'a hook failed') : null,
    },
    hooks: hookSpans,
    durations: failures.map(({ h, failure }) => ({
      seconds: h.duration_ms / 1000,
      attributes: {
        'hermes_hooks.event': event,
        'hermes_hooks.hook.command': h.command,
        'hermes_hooks.hook.status': h.status,
        ...(failure !== null ? { 'error.type': h.status === 'ok' ? 'failed_closed' : h.status } : {}),
      },
    })),
    decision: {
      'hermes_hooks.event': event,
      'hermes_hooks.decision': decision.action,
      'hermes_hooks.cause': cause,
      ...(call['gen_ai.tool.name'] !== undefined ? { 'gen_ai.tool.name': call['gen_ai.tool.name'] } : {}),
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

// on_human_input_request / on_human_input_resolved (seed 002): hooks learn that Hermes waits for a
// human (sudo password, clarify question, approval) and how the wait ended — never what the human
// typed. The prompt is always force-redacted; answer-like keys never reach a hook; and every
// request gets exactly one resolved event. Pure bookkeeping: the host emits what these return.

import { randomUUID } from 'node:crypto';
import { redactDeep, redactSecrets } from './redact.js';

/** How a wait for a human ended, as the seed names the outcomes (never the answer itself). */
export const HUMAN_INPUT_OUTCOMES = ['answered', 'skipped', 'timeout', 'withdrawn', 'failed'] as const;
/** One of HUMAN_INPUT_OUTCOMES. */
export type HumanInputOutcome = (typeof HUMAN_INPUT_OUTCOMES)[number];

/**
 * A host's outcome as one of the five: missing → `answered` (the common case); `cancelled` /
 * `canceled` → `withdrawn` (the wait was taken back, the seed's word for it); anything else →
 * `failed`, so a hook never sees an outcome outside the documented set.
 */
export function normaliseOutcome(value: unknown): HumanInputOutcome {
  if (value === undefined || value === null || value === '') return 'answered';
  if (typeof value !== 'string') return 'failed';
  const v = value.trim().toLowerCase();
  if ((HUMAN_INPUT_OUTCOMES as readonly string[]).includes(v)) return v as HumanInputOutcome;
  if (v === 'cancelled' || v === 'canceled') return 'withdrawn';
  return 'failed';
}

// Keys that carry (or may carry) what the human answered. Dropped whatever their value.
const ANSWER_KEYS = new Set([
  'answer',
  'answers',
  'response',
  'responses',
  'reply',
  'value',
  'input',
  'user_input',
  'choice',
  'selection',
  'password',
  'passphrase',
  'secret',
  'token',
  'credentials',
]);
const ANSWER_KEY_PATTERN = /password|passphrase|secret|answer|credential/i;

/**
 * The kwargs a hook may see for a human-input event: answer-like keys dropped, `prompt`
 * force-redacted (secrets masked; a structured prompt has every string inside it masked).
 */
export function redactHumanInputKwargs(kwargs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(kwargs)) {
    if (ANSWER_KEYS.has(key.toLowerCase()) || ANSWER_KEY_PATTERN.test(key)) continue;
    out[key] = value;
  }
  if ('prompt' in out) out.prompt = typeof out.prompt === 'string' ? redactSecrets(out.prompt) : redactDeep(out.prompt);
  return out;
}

export interface PendingHumanInput {
  request_id: string;
  kind: unknown;
  /** The redacted request kwargs as emitted. */
  kwargs: Record<string, unknown>;
}

/**
 * Guarantees one on_human_input_resolved per on_human_input_request, keyed by request_id.
 * `request()` returns the kwargs to emit (null for a duplicate of a pending request);
 * `resolve()` returns the resolved kwargs once, null ever after (or for an unknown id);
 * `resolveAll()` closes every pending request at teardown.
 */
export class HumanInputTracker {
  private readonly open = new Map<string, Record<string, unknown>>();
  private readonly closed = new Set<string>();

  request(kwargs: Record<string, unknown>): Record<string, unknown> | null {
    const redacted = redactHumanInputKwargs(kwargs);
    const given = redacted.request_id;
    const id = typeof given === 'string' && given !== '' ? given : typeof given === 'number' ? String(given) : `hir_${randomUUID()}`;
    if (this.open.has(id) || this.closed.has(id)) return null;
    redacted.request_id = id;
    this.open.set(id, redacted);
    return { ...redacted };
  }

  /**
   * Close a request: `resolve(requestId, outcome, extra?)`, or `resolve(kwargs)` with the
   * on_human_input_resolved kwargs (`request_id`, `outcome`, …) as the host would emit them.
   */
  resolve(kwargs: Record<string, unknown>): Record<string, unknown> | null;
  resolve(requestId: string, outcome: HumanInputOutcome, extra?: Record<string, unknown>): Record<string, unknown> | null;
  resolve(
    idOrKwargs: string | Record<string, unknown>,
    outcomeArg?: HumanInputOutcome,
    extraArg: Record<string, unknown> = {},
  ): Record<string, unknown> | null {
    let requestId: string;
    let outcome: HumanInputOutcome;
    let extra: Record<string, unknown>;
    if (typeof idOrKwargs === 'string') {
      requestId = idOrKwargs;
      outcome = normaliseOutcome(outcomeArg);
      extra = extraArg;
    } else {
      requestId = requestIdOf(idOrKwargs);
      outcome = normaliseOutcome(idOrKwargs.outcome);
      extra = idOrKwargs;
    }
    const request = this.open.get(requestId);
    if (!request) return null;
    this.open.delete(requestId);
    this.remember(requestId);
    // Same fields as the request, plus the outcome: never the answer itself.
    const { outcome: _ignored, ...rest } = redactHumanInputKwargs(extra);
    void _ignored;
    return { ...request, ...rest, request_id: requestId, outcome };
  }

  /** True once `requestId` was resolved (a later resolve of it is a duplicate). */
  isResolved(requestId: string): boolean {
    return this.closed.has(requestId);
  }

  /**
   * A resolve whose request this tracker never saw (a dry run tests the resolved hooks alone): the
   * kwargs to emit, redacted, marked resolved so a second one is dropped; null if it was resolved already.
   */
  resolveUnpaired(kwargs: Record<string, unknown>): Record<string, unknown> | null {
    const requestId = requestIdOf(kwargs);
    if (requestId === '' || this.open.has(requestId) || this.closed.has(requestId)) return this.resolve(kwargs);
    this.remember(requestId);
    return { ...redactHumanInputKwargs(kwargs), request_id: requestId, outcome: normaliseOutcome(kwargs.outcome) };
  }

  pending(): PendingHumanInput[] {
    return [...this.open.entries()].map(([request_id, kwargs]) => ({ request_id, kind: kwargs.kind, kwargs: { ...kwargs } }));
  }

  /**
   * Teardown: closes every pending request and returns the resolved kwargs to emit. They are
   * already marked resolved — emit them as they are, not through resolve() again.
   */
  resolveAll(outcome: HumanInputOutcome): Record<string, unknown>[] {
    return [...this.open.keys()].map((id) => this.resolve(id, outcome)).filter((k): k is Record<string, unknown> => k !== null);
  }

  private remember(id: string): void {
    // Bounded: enough to refuse a late duplicate resolve without growing for ever.
    if (this.closed.size >= 10_000) this.closed.delete(this.closed.values().next().value as string);
    this.closed.add(id);
  }
}

/** The request id a resolve names ('' when it names none). */
export function requestIdOf(kwargs: Record<string, unknown>): string {
  const rid = kwargs.request_id;
  return typeof rid === 'number' ? String(rid) : typeof rid === 'string' ? rid : '';
}

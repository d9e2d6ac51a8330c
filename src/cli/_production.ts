// What `hermes-hooks run` would decide on the same payload, next to the dry run's decision. `test`
// runs every configured hook whatever its consent; `run` skips unapproved and modified hooks, lets an
// unapproved fail_closed guard block without running, and under HERMES_SAFE_MODE runs no user hook
// or plugin at all. Pure: it re-resolves the dry run's own directives under the run rule
// (consent/run-rule.ts), the one the engine follows.

import { isPlainObject } from '../json.js';
import type { NotRunReason } from '../consent-states.js';
import { awaitingApprovalMessage } from '../consent/policy.js';
import { whatRunDoes, type RunSubject } from '../consent/run-rule.js';
import { failsClosed } from '../directives/messages.js';
import type { RegistryEntry } from '../engine/registry.js';
import { resolve } from '../resolve/resolve.js';
import type { Decision, Directive, Emission, HookOutcome, JsonObject } from '../types.js';

export interface NotRun {
  index: number;
  command: string;
  /** Why `run` would not run it. */
  reason: NotRunReason;
  /** What it does instead: nothing (skipped), or block every call it matches (a fail_closed guard). */
  effect: 'skipped' | 'blocks';
}

export interface ProductionView {
  /** The Decision `hermes-hooks run` would print for this payload. */
  decision: Decision;
  /** true when that decision differs from the dry run's. */
  differs: boolean;
  /** One line: which hooks `run` would not run and why; null when it runs them all as the dry run did. */
  why: string | null;
  safe_mode: boolean;
  not_run: NotRun[];
}

export interface ProductionInput {
  emission: Emission;
  /** The registry the dry run used, in the emission's order (consent per shell hook). */
  entries: readonly RegistryEntry[];
  /** HERMES_SAFE_MODE is set in the environment `run` would get. */
  safeMode: boolean;
  /** HERMES_ACCEPT_HOOKS or hooks_auto_accept: `run` would approve and run unapproved hooks. */
  accept: boolean;
}

export function productionView(input: ProductionInput): ProductionView {
  const { emission, entries, safeMode, accept } = input;
  const notRun: NotRun[] = [];
  const directives = emission.hooks.map((h, i): Directive | null => {
    const entry = entries[i];
    if (h.status === 'not_matched' || h.status === 'skipped') return h.directive;
    const verdict = whatRunDoes(subjectOf(h, entry), { safeMode, accept });
    if (verdict.runs) return h.directive;
    notRun.push({ index: h.index, command: h.command, reason: verdict.why, effect: verdict.effect });
    return verdict.effect === 'blocks' && entry?.kind === 'shell' && entry.consent
      ? { action: 'block', message: awaitingApprovalMessage(entry.spec, entry.consent) }
      : null;
  });

  const dry = emission.decision;
  // The arguments hooks saw (tool_input is the call's args when they are an object).
  const args = isPlainObject(emission.payload.tool_input) ? (emission.payload.tool_input as JsonObject) : null;
  const decision = notRun.length === 0 ? dry : { ...resolve(emission.event, directives, args), ...(dry.stop_turn ? { stop_turn: true } : {}) };
  const differs = notRun.length > 0 && signature(decision) !== signature(dry);
  const heldToo = emission.hooks.some((h) => h.status === 'safe_mode');
  return { decision, differs, why: explain(notRun, safeMode, heldToo, differs, decision, dry), safe_mode: safeMode, not_run: notRun };
}

/**
 * A dry run's hook as the run rule sees it. Host-registered callbacks are the host's own code, not
 * user hooks; a shell hook's consent is the one the dry run reported.
 */
function subjectOf(h: HookOutcome, entry: RegistryEntry | undefined): RunSubject {
  if (h.kind === 'shell') {
    return entry?.kind === 'shell'
      ? { kind: 'shell', consent: h.consent, failClosed: failsClosed(entry.spec) }
      : { kind: 'shell', consent: null, failClosed: false };
  }
  if (h.kind === 'plugin') return entry?.kind === 'plugin' && entry.plugin === 'host' ? { kind: 'host' } : { kind: 'plugin' };
  return { kind: 'builtin' };
}

function explain(notRun: NotRun[], safeMode: boolean, heldToo: boolean, differs: boolean, decision: Decision, dry: Decision): string | null {
  if (!safeMode && notRun.length === 0) return null;
  if (safeMode && heldToo) return 'HERMES_SAFE_MODE is set: neither this dry run nor `hermes-hooks run` runs user hooks or plugins';
  const head = !differs
    ? '`hermes-hooks run` decides the same, but '
    : decision.action === dry.action
      ? `\`hermes-hooks run\` would ${decision.action.toUpperCase()} too, but differently: `
      : `\`hermes-hooks run\` would ${decision.action.toUpperCase()}, not ${dry.action.toUpperCase()}: `;
  if (safeMode) {
    const what = notRun.length ? `${notRun.length} hook(s) listed here do not run there` : 'no user hook or plugin runs there';
    return `${head}HERMES_SAFE_MODE is set: ${what}`;
  }
  const parts = notRun.map((n) => {
    const state = NOT_RUN_WORDS[n.reason];
    const effect = n.effect === 'blocks' ? ' and fail_closed: it blocks every call it matches without running' : ': it is skipped';
    return `#${n.index} (${n.command}) ${state}${effect}`;
  });
  return `${head}${parts.join('; ')} — approve with \`hermes-hooks approve\``;
}

/** How the summary says why a hook does not run (a Record: a new reason cannot go unworded). */
const NOT_RUN_WORDS: Record<NotRunReason, string> = {
  safe_mode: 'is not run under HERMES_SAFE_MODE',
  not_approved: 'is not approved',
  modified: 'is modified since approval',
};

/** The parts of a decision a host acts on. */
function signature(d: Decision): string {
  return JSON.stringify([d.action, d.message, d.args, d.context, d.rule_key ?? null, d.notifications ?? null, d.reply ?? null, d.result ?? null]);
}

/** Hooks a report lists: configured and registered ones; the built-in guardrail only when it spoke. */
export function reportedHooks(hooks: readonly HookOutcome[]): HookOutcome[] {
  return hooks.filter((h) => h.kind !== 'builtin' || h.directive !== null || h.error !== null);
}

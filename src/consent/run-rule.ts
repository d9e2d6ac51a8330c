// What `hermes-hooks run` does with one hook, in one place: the engine (at start-up and at each
// launch), `test`'s production view and `doctor` all ask here instead of restating it. Pure: it
// decides from the consent state already read; approving, prompting and the messages are policy.ts.
//
// The rule: HERMES_SAFE_MODE runs no user hook (shell hooks and plugins; the host's own callbacks
// and the built-in guardrail are not user hooks). Otherwise a shell hook runs when it is approved —
// pinned, or unpinned (a Hermes-written approval: Hermes runs it too) — or when blanket acceptance
// is on (it is then approved first). A hook that does not run is skipped, except a fail_closed
// pre_tool_call guard: it blocks every call it matches, so a guard never silently vanishes.

import { isTruthyEnv } from '../config/hooks.js';
import { RUNNING_CONSENT_STATES, type ConsentState, type NotRunReason, type RunningConsentState } from '../consent-states.js';

/** One hook as the rule sees it. A shell hook with `consent: null` is not consent-checked (it runs unless safe mode holds). */
export type RunSubject =
  | { kind: 'shell'; consent: ConsentState | null; failClosed: boolean }
  /** A plugin's callback: a user hook. */
  | { kind: 'plugin' }
  /** The host's own callback or the built-in guardrail: never held back. */
  | { kind: 'host' }
  | { kind: 'builtin' };

export interface RunRule {
  /** HERMES_SAFE_MODE is set. */
  safeMode: boolean;
  /** Blanket acceptance is on (acceptsUnapproved): an unapproved or modified hook is approved and run. */
  accept: boolean;
}

export type RunVerdict = { runs: true; via: 'approval' | 'accept' | 'not_checked' } | { runs: false; why: NotRunReason; effect: 'skipped' | 'blocks' };

export function whatRunDoes(hook: RunSubject, rule: RunRule): RunVerdict {
  if (hook.kind === 'host' || hook.kind === 'builtin') return { runs: true, via: 'not_checked' };
  if (rule.safeMode) return { runs: false, why: 'safe_mode', effect: 'skipped' };
  if (hook.kind === 'plugin' || hook.consent === null) return { runs: true, via: 'not_checked' };
  if (consentAllowsRun(hook.consent)) return { runs: true, via: 'approval' };
  if (rule.accept) return { runs: true, via: 'accept' };
  return { runs: false, why: hook.consent, effect: hook.failClosed ? 'blocks' : 'skipped' };
}

/** The states under which a hook runs when consent is enforced (Hermes runs unpinned approvals too). */
export function consentAllowsRun(state: ConsentState): state is RunningConsentState {
  return (RUNNING_CONSENT_STATES as readonly ConsentState[]).includes(state);
}

/** Where blanket acceptance can come from, as the engine's options and the config say it. */
export interface AcceptAsked {
  /** --accept-hooks (or the library's `acceptHooks`). */
  acceptHooks?: boolean;
  env: NodeJS.ProcessEnv;
  /** `hooks_auto_accept: true` in the config read. */
  autoAccept: boolean;
  /** The config is the profile's own config.yaml (hooks_auto_accept counts only there). */
  ownConfig: boolean;
}

/**
 * The blanket acceptances asked for, in words (`--accept-hooks` …), in the order messages list
 * them: `hooks_auto_accept: true` counts only in the profile's own config.yaml, never in a config
 * given with --config (a repository's file must not approve its own hooks).
 */
export function blanketAcceptSources(o: AcceptAsked): string[] {
  return [
    ...(o.autoAccept && o.ownConfig ? ['hooks_auto_accept: true'] : []),
    ...(o.acceptHooks === true ? ['--accept-hooks'] : []),
    ...(isTruthyEnv(o.env.HERMES_ACCEPT_HOOKS) ? ['HERMES_ACCEPT_HOOKS=1'] : []),
  ];
}

/**
 * Unapproved and changed hooks are approved and run: `acceptHooks` (--accept-hooks),
 * HERMES_ACCEPT_HOOKS=1, or `hooks_auto_accept: true` in the profile's own config.yaml (never in a
 * config given with --config). The one rule the engine and `test`'s production view both follow.
 */
export function acceptsUnapproved(
  o: AcceptAsked & {
    /**
     * The config file passes the trust rule (trust.ts). When it does not, nothing approves its hooks
     * blindly — not even --accept-hooks or HERMES_ACCEPT_HOOKS: the commands are whatever another
     * user wrote there. Only an approval already in the allowlist, `approve`, or the prompt counts.
     */
    configTrusted: boolean;
  },
): boolean {
  return o.configTrusted && blanketAcceptSources(o).length > 0;
}

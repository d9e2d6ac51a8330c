// What the engine does with each configured shell hook given consent: run it, skip it, or — for a
// fail_closed pre_tool_call hook that is not (or no longer) approved — block the calls it guards
// without running it, so a guard never silently vanishes (Hermes #100942). Every skip says why
// and how to fix it.

import type { ConsentInfo, ConsentSubject } from './state.js';
import { whatRunDoes } from './run-rule.js';
import { ConsentApproveError, type ConsentStore } from './store.js';
import { formatPrompt, promptOnTty, type PromptInfo } from './prompt.js';
import { pairKey } from './allowlist.js';
import { shellQuote } from '../shell-words.js';
import { failsClosed } from '../directives/messages.js';

export type { PromptInfo } from './prompt.js';
/** Blanket acceptance is decided in run-rule.ts; re-exported for the callers that import it from here. */
export { acceptsUnapproved } from './run-rule.js';
/** Quote for a POSIX shell so the hint can be pasted as-is (Python's shlex.quote). */
export { shellQuote };

export interface PolicySpec extends ConsentSubject {
  matcher?: string | null;
  fail_closed?: boolean;
}

export interface ConsentPolicyOptions {
  store: ConsentStore;
  /** --accept-hooks, HERMES_ACCEPT_HOOKS or hooks_auto_accept: approve and run. */
  accept: boolean;
  /** HERMES_SAFE_MODE: no user hook runs. */
  safeMode: boolean;
  /** stdin and stderr are TTYs and the host allows prompting. */
  interactive: boolean;
  /**
   * This host could prompt on a TTY another time (default true). false for paths that never prompt
   * (`run`, `serve`, engines created with `interactive: false`): their advice never mentions a prompt.
   */
  promptable?: boolean;
  /** The question; default promptOnTty. Only called when `interactive`. */
  prompt?: (question: PromptInfo) => Promise<boolean>;
  warn: (message: string) => void;
  /** How to tell the user to approve one hook; default `hermes-hooks approve --event E 'CMD'`. */
  approveHint?: (event: string, command: string) => string;
  /**
   * Blanket acceptance can apply to these hooks (default true); false when their config is not
   * trusted (trust.ts), so no message advises --accept-hooks / hooks_auto_accept for them.
   */
  blanketAccept?: boolean;
}

export type ConsentAction = 'run' | 'skip' | 'block';

export interface ConsentOutcome<S extends PolicySpec = PolicySpec> {
  spec: S;
  consent: ConsentInfo;
  action: ConsentAction;
  /** Why it was skipped, the block message, or how it got approved. */
  message?: string;
}

const AUTO_ACCEPT = '--accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true';
/** Said instead of AUTO_ACCEPT when the config is not trusted (consent/trust.ts). */
const NOT_BLANKET = '(its config file is not trusted, so nothing approves its hooks blindly)';

type How = 'accept' | 'prompt' | 'declined' | 'unattended' | 'refused';
interface PairDecision {
  approved: boolean;
  how: How;
  why?: string;
}

/** Decide per spec, in order. Each (event, command) is decided — and prompted — at most once. */
export async function applyConsentPolicy<S extends PolicySpec>(specs: readonly S[], options: ConsentPolicyOptions): Promise<ConsentOutcome<S>[]> {
  const { store } = options;
  const hint = options.approveHint ?? defaultApproveHint;
  const outcomes: ConsentOutcome<S>[] = [];

  if (options.safeMode) {
    const message = 'HERMES_SAFE_MODE is set: user hooks do not run';
    for (const spec of specs) outcomes.push({ spec, consent: await store.state(spec), action: 'skip', message });
    if (specs.length > 0) options.warn(`${message} (${specs.length} shell hook(s) skipped)`);
    return outcomes;
  }

  const decided = new Map<string, PairDecision>();
  const warned = new Set<string>();
  const warnOnce = (m: string): void => {
    if (warned.has(m)) return;
    warned.add(m);
    options.warn(m);
  };

  for (const spec of specs) {
    let consent = await store.state(spec);
    if (consent.untrusted !== null) {
      // Not askable: no approval makes a file others can replace safe to run.
      const { block, message } = consentRefusal(spec, consent);
      warnOnce(message);
      outcomes.push({ spec, consent, action: block ? 'block' : 'skip', message });
      continue;
    }
    const verdict = whatRunDoes({ kind: 'shell', consent: consent.state, failClosed: failsClosed(spec) }, { safeMode: false, accept: options.accept });
    if (verdict.runs && verdict.via === 'approval') {
      outcomes.push({ spec, consent, action: 'run' });
      continue;
    }
    const key = pairKey(spec.event, spec.command);
    let decision = decided.get(key);
    if (decision === undefined) {
      decision = await decidePair(spec, consent, verdict.runs, options);
      decided.set(key, decision);
    }

    if (decision.approved) {
      const before = consent.state;
      consent = await store.state(spec);
      const via = decision.how === 'accept' ? AUTO_ACCEPT : 'the prompt';
      outcomes.push({ spec, consent, action: 'run', message: `approved via ${via} (was ${before.replace('_', ' ')})` });
      continue;
    }

    const fix = hint(spec.event, spec.command);
    if (failsClosed(spec)) {
      const message = awaitingApprovalMessage(spec, consent, fix, decision.how === 'refused' ? decision.why : undefined, options.blanketAccept);
      warnOnce(message);
      outcomes.push({ spec, consent, action: 'block', message });
      continue;
    }
    const message =
      decision.how === 'refused'
        ? `shell hook for ${spec.event} (${spec.command}) is not approved — skipped: ${decision.why as string}`
        : skipMessage(spec, consent, decision.how === 'declined', fix, options.promptable ?? true, options.blanketAccept ?? true);
    warnOnce(message);
    outcomes.push({ spec, consent, action: 'skip', message });
  }
  return outcomes;
}

/**
 * An (event, command) that is not approved: approve it (blanket acceptance, or yes at the prompt)
 * and record that, or say why not. A refused allowlist can neither record nor prove an approval.
 */
async function decidePair(spec: PolicySpec, consent: ConsentInfo, accepted: boolean, options: ConsentPolicyOptions): Promise<PairDecision> {
  // An approval could not be recorded in (nor read from) a refused allowlist: do not ask.
  if (consent.allowlist_error !== null) return { approved: false, how: 'refused', why: consent.allowlist_error };
  let how: How = 'accept';
  if (!accepted) {
    if (!options.interactive) return { approved: false, how: 'unattended' };
    if (!(await ask(spec, consent, options))) return { approved: false, how: 'declined' };
    how = 'prompt';
  }
  try {
    const result = await options.store.approve({ event: spec.event, command: spec.command });
    if (result.warning !== null) options.warn(result.warning);
  } catch (err) {
    if (!(err instanceof ConsentApproveError)) throw err;
    // No pin, no approval: a missing script is not approved by --accept-hooks or the prompt either.
    return { approved: false, how: 'refused', why: err.message };
  }
  return { approved: true, how };
}

/**
 * What happens at launch to a hook that is not approved (or no longer): a fail_closed pre_tool_call
 * hook blocks the calls it guards, any other is skipped; the message says why and how to approve
 * it. `revoked`: it was approved earlier in this engine's life and its approval is gone now.
 */
export function consentRefusal(
  spec: PolicySpec,
  consent: ConsentInfo,
  opts: {
    revoked?: boolean;
    /** Why it could not be approved at launch (--accept-hooks with nothing to pin). */
    cannotApprove?: string;
    hint?: (event: string, command: string) => string;
    promptable?: boolean;
    /** See ConsentPolicyOptions.blanketAccept. */
    blanketAccept?: boolean;
  } = {},
): { block: boolean; message: string } {
  if (consent.untrusted !== null) return { block: failsClosed(spec), message: untrustedMessage(spec, consent.untrusted) };
  const blanket = opts.blanketAccept ?? true;
  const fix = (opts.hint ?? defaultApproveHint)(spec.event, spec.command);
  const revoked = opts.revoked === true && consent.state === 'not_approved' && !consent.allowlist_error;
  if (failsClosed(spec)) {
    const why = opts.cannotApprove ?? (revoked ? 'its approval was revoked' : undefined);
    return { block: true, message: awaitingApprovalMessage(spec, consent, fix, why, blanket) };
  }
  const who = `shell hook for ${spec.event} (${spec.command})`;
  if (opts.cannotApprove !== undefined) return { block: false, message: `${who} is not approved — skipped: ${opts.cannotApprove}` };
  if (revoked) {
    return {
      block: false,
      message:
        `${who} is no longer approved (its approval was revoked) — skipped. Approve it again with ` +
        `\`${fix}\`${blanket ? `, or use ${AUTO_ACCEPT}` : ` ${NOT_BLANKET}`}.`,
    };
  }
  return { block: false, message: skipMessage(spec, consent, false, fix, opts.promptable ?? true, blanket) };
}

async function ask(spec: PolicySpec, consent: ConsentInfo, options: ConsentPolicyOptions): Promise<boolean> {
  const base = {
    event: spec.event,
    command: spec.command,
    state: consent.state as PromptInfo['state'],
    script_path: consent.script_path,
    script_note: consent.script_note,
    script_sha256: consent.script_sha256,
    reason: consent.reason,
  };
  try {
    return await (options.prompt ?? promptOnTty)({ ...base, text: formatPrompt(base) });
  } catch (err) {
    options.warn(`consent prompt failed (${err instanceof Error ? err.message : String(err)}); treating it as "no"`);
    return false;
  }
}

/** The block message of an unapproved or modified fail_closed pre_tool_call hook (it blocks instead of running). */
export function awaitingApprovalMessage(
  spec: PolicySpec,
  consent: ConsentInfo,
  fix: string = defaultApproveHint(spec.event, spec.command),
  /** Why it could not be approved (a script with nothing to pin); default: from the consent state. */
  cannotApprove?: string,
  /** See ConsentPolicyOptions.blanketAccept. */
  blanketAccept = true,
): string {
  if (consent.untrusted !== null) return untrustedMessage(spec, consent.untrusted);
  const why = cannotApprove ?? consent.allowlist_error ?? (consent.state === 'modified' ? `modified since approval: ${changeOf(consent)}` : 'not approved yet');
  return (
    `hook ${spec.command} awaits approval (${why}): tool calls it guards are blocked until it is approved — ` +
    `run \`${fix}\`${blanketAccept ? ` (or use ${AUTO_ACCEPT})` : ` ${NOT_BLANKET}`}`
  );
}

/** A hook that runs a file failing the trust rule: a fail_closed guard blocks, any other is skipped; the fix is the trust rule's. */
export function untrustedMessage(spec: PolicySpec, untrusted: string): string {
  if (failsClosed(spec)) return `hook ${spec.command} is not run (${untrusted}): tool calls it guards are blocked until that is fixed`;
  return `shell hook for ${spec.event} (${spec.command}) is not run — skipped: ${untrusted}`;
}

function skipMessage(spec: PolicySpec, consent: ConsentInfo, declined: boolean, fix: string, promptable: boolean, blanket: boolean): string {
  const orAccept = blanket ? ` (or use ${AUTO_ACCEPT})` : ` ${NOT_BLANKET}`;
  const who = `shell hook for ${spec.event} (${spec.command})`;
  if (consent.state === 'modified') {
    return `${who} was modified since approval — skipped: ${changeOf(consent)}. ` + `Review the script, then approve it again with \`${fix}\`${orAccept}.`;
  }
  if (declined) {
    return `${who} was declined at the prompt — skipped. It will be asked again next start; or approve it with \`${fix}\`.`;
  }
  const prompt = promptable ? ', or approve at the TTY prompt next run' : '';
  return `${who} is not approved — skipped. Approve it with \`${fix}\`${blanket ? `, or use ${AUTO_ACCEPT}` : ` ${NOT_BLANKET}`}${prompt}.`;
}

function changeOf(consent: ConsentInfo): string {
  return consent.reason.replace(/^modified since approval: /, '');
}

export function defaultApproveHint(event: string, command: string): string {
  return `hermes-hooks approve --event ${event} ${shellQuote(command)}`;
}

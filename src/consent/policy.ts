// What the engine does with each configured shell hook given consent: run it, skip it, or — for a
// fail_closed pre_tool_call hook that is not (or no longer) approved — block the calls it guards
// without running it, so a guard never silently vanishes (Hermes #100942). Every skip says why
// and how to fix it.

import type { ConsentInfo, ConsentSubject } from './state.js';
import type { ConsentStore } from './store.js';
import { formatPrompt, promptOnTty, type PromptInfo } from './prompt.js';
import { pairKey } from './allowlist.js';
import { shellQuote } from './_shlex.js';

export type { PromptInfo } from './prompt.js';
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

/** Decide per spec, in order. Each (event, command) is decided — and prompted — at most once. */
export async function applyConsentPolicy<S extends PolicySpec>(
  specs: readonly S[],
  options: ConsentPolicyOptions,
): Promise<ConsentOutcome<S>[]> {
  const { store } = options;
  const hint = options.approveHint ?? defaultApproveHint;
  const outcomes: ConsentOutcome<S>[] = [];

  if (options.safeMode) {
    const message = 'HERMES_SAFE_MODE is set: user hooks do not run';
    for (const spec of specs) outcomes.push({ spec, consent: await store.state(spec), action: 'skip', message });
    if (specs.length > 0) options.warn(`${message} (${specs.length} shell hook(s) skipped)`);
    return outcomes;
  }

  const decided = new Map<string, { approved: boolean; how: 'accept' | 'prompt' | 'declined' | 'unattended' }>();
  const warned = new Set<string>();
  const warnOnce = (m: string): void => {
    if (warned.has(m)) return;
    warned.add(m);
    options.warn(m);
  };

  for (const spec of specs) {
    let consent = await store.state(spec);
    if (consent.state === 'approved') {
      outcomes.push({ spec, consent, action: 'run' });
      continue;
    }
    const key = pairKey(spec.event, spec.command);
    let decision = decided.get(key);
    if (decision === undefined) {
      if (options.accept) {
        decision = { approved: true, how: 'accept' };
      } else if (options.interactive) {
        const yes = await ask(spec, consent, options);
        decision = yes ? { approved: true, how: 'prompt' } : { approved: false, how: 'declined' };
      } else {
        decision = { approved: false, how: 'unattended' };
      }
      if (decision.approved) {
        const result = await store.approve({ event: spec.event, command: spec.command });
        if (result.warning !== null) options.warn(result.warning);
      }
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
    if (spec.fail_closed === true && spec.event === 'pre_tool_call') {
      const message = awaitingApprovalMessage(spec, consent, fix);
      warnOnce(message);
      outcomes.push({ spec, consent, action: 'block', message });
      continue;
    }
    const message = skipMessage(spec, consent, decision.how === 'declined', fix, options.promptable ?? true);
    warnOnce(message);
    outcomes.push({ spec, consent, action: 'skip', message });
  }
  return outcomes;
}

async function ask(spec: PolicySpec, consent: ConsentInfo, options: ConsentPolicyOptions): Promise<boolean> {
  const base = {
    event: spec.event,
    command: spec.command,
    state: consent.state as PromptInfo['state'],
    script_path: consent.script_path,
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
export function awaitingApprovalMessage(spec: PolicySpec, consent: ConsentInfo, fix: string = defaultApproveHint(spec.event, spec.command)): string {
  const why = consent.state === 'modified' ? `modified since approval: ${changeOf(consent)}` : 'not approved yet';
  return (
    `hook ${spec.command} awaits approval (${why}): tool calls it guards are blocked until it is approved — ` +
    `run \`${fix}\` (or use ${AUTO_ACCEPT})`
  );
}

function skipMessage(spec: PolicySpec, consent: ConsentInfo, declined: boolean, fix: string, promptable: boolean): string {
  const who = `shell hook for ${spec.event} (${spec.command})`;
  if (consent.state === 'modified') {
    return (
      `${who} was modified since approval — skipped: ${changeOf(consent)}. ` +
      `Review the script, then approve it again with \`${fix}\` (or use ${AUTO_ACCEPT}).`
    );
  }
  if (declined) {
    return `${who} was declined at the prompt — skipped. It will be asked again next start; or approve it with \`${fix}\`.`;
  }
  const prompt = promptable ? ', or approve at the TTY prompt next run' : '';
  return `${who} is not approved — skipped. Approve it with \`${fix}\`, or use ${AUTO_ACCEPT}${prompt}.`;
}

function changeOf(consent: ConsentInfo): string {
  return consent.reason.replace(/^modified since approval: /, '');
}

export function defaultApproveHint(event: string, command: string): string {
  return `hermes-hooks approve --event ${event} ${shellQuote(command)}`;
}

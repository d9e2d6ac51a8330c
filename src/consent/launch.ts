// Consent decided where the hook is launched. Before every spawn of a consent-enforced shell hook:
// is (event, command) approved in the allowlist as it is on disk NOW, and does the script still
// have the pinned sha256? So an edited script stops running at once, and an approve or revoke from
// another process takes effect at the next launch, in a long-lived engine as in a one-shot `run`.
//
// Cheap when nothing changed: the allowlist is re-read only when its identity (one stat) changed,
// the script re-hashed only when its identity changed (script-info.ts caches hashes by identity),
// and a hook that passed keeps its verdict until a re-stat shows a change.
//
// The check that counts is LaunchTicket.verify(): synchronous, called by spawnHook right before it
// starts the process, with no await in between. It re-stats the allowlist and the script and
// compares them with the identities that were read and hashed. The script is stat'ed once more
// right after the spawn (changed: the process is killed at once) and after the exit (changed:
// its answer is not trusted). A script that keeps changing (ctime within SETTLE_MS, e.g. flipped
// in a loop) is waited for, up to QUIET_WAIT_MS, then refused: bytes being rewritten are never
// vouched for.
//
// What remains (no OS interface closes it for an interpreter that opens its script by path): a
// write landing between that last stat and the moment the interpreter opens and reads the script
// — fork, exec and the interpreter's start-up: ~1–3 ms idle, tens of ms on a loaded machine —
// runs unapproved bytes (its answer is then discarded, but its side effects happened); bash also
// reads its script as it goes. And anything the script sources, imports or execs is not pinned.

import { quietMs, sameIdentity, SETTLE_MS, statIdentitySync, type FileIdentity } from '../file-identity.js';
import { consentRefusal, defaultApproveHint, type ConsentOutcome, type PolicySpec } from './policy.js';
import { consentOf, type ConsentInfo } from './state.js';
import { whatRunDoes } from './run-rule.js';
import { failsClosed } from '../directives/messages.js';
import type { ConsentStore } from './store.js';
import { errorText } from '../errors.js';
import { judgeRuns, type RunFile } from './what-runs.js';
import { proofHolds, trustProof, type TrustProof } from './_trust-proof.js';

/** How long a script that keeps changing is waited for before it is refused. */
export const QUIET_WAIT_MS = 500;

export interface LaunchGateOptions {
  store: ConsentStore;
  /** --accept-hooks / HERMES_ACCEPT_HOOKS / hooks_auto_accept: approve (and record) a changed script at launch. */
  accept: boolean;
  warn: (message: string) => void;
  approveHint?: (event: string, command: string) => string;
  /** This host could prompt another time (see ConsentPolicyOptions.promptable); default true. */
  promptable?: boolean;
  /** See ConsentPolicyOptions.blanketAccept (false: the config is not trusted). */
  blanketAccept?: boolean;
  /**
   * The gate of the config this one replaces. serve reloads when the allowlist changes, so a
   * revoke often reaches a new gate: what was approved before still makes a missing approval a
   * revoke, whether the reload or the next call came first.
   */
  previous?: LaunchGate | null;
}

export interface LaunchGo {
  run: true;
  /** The consent checked for this launch (approved, or unpinned: a Hermes-written approval). */
  consent: ConsentInfo;
  /** Synchronous, right before the spawn: still the allowlist that was read and the script that was hashed? */
  verify(): boolean;
  /** Synchronous: the script is still the one that was hashed (after the spawn, and after the run). */
  scriptUnchanged(): boolean;
}

export interface LaunchRefusal {
  run: false;
  consent: ConsentInfo;
  /** A fail_closed pre_tool_call hook: block the call (else skip the hook). */
  block: boolean;
  /** Why, and how to approve it. */
  message: string;
}

export type LaunchTicket = LaunchGo | LaunchRefusal;

interface Verified {
  consent: ConsentInfo;
  /** The pinned script and its identity when hashed; null for an approval that pins no script. */
  script: { path: string; identity: FileIdentity } | null;
  /** The scripts a `bash -c` string names, pinned too, with their identities when hashed. */
  named: { path: string; identity: FileIdentity }[];
  /** Every file the command runs: judged again by the trust rule at each launch that reuses this verdict. */
  runs: RunFile[];
  /** What the last passing judgement of `runs` read (null: judge them in full next time). */
  proofs?: (TrustProof | null)[];
}

interface HookState {
  /** The last verdict that let it run (settled script and allowlist), reused until a verify() fails. */
  verified: Verified | null;
  /** It ran (or was approved) earlier in this engine: a missing approval now means revoked. */
  wasApproved: boolean;
  /** The refusal last warned about, so each hook warns once per change of state, not per emit. */
  warned: string | null;
}

export class LaunchGate {
  private readonly store: ConsentStore;
  private readonly opts: LaunchGateOptions;
  private readonly states = new Map<PolicySpec, HookState>();
  /** event + command of the hooks the previous gate had let run (copied: no chain of old gates is kept). */
  private readonly approvedBefore: ReadonlySet<string>;

  constructor(opts: LaunchGateOptions) {
    this.store = opts.store;
    this.opts = opts;
    this.approvedBefore = new Set(opts.previous ? [...opts.previous.states].filter(([, st]) => st.wasApproved).map(([spec]) => hookKey(spec)) : []);
  }

  /** What start-up decided for a spec (applyConsentPolicy), so a hook it warned about is not warned about again. */
  noteStartup(outcome: ConsentOutcome): void {
    const st = this.state(outcome.spec);
    if (outcome.action === 'run' || this.approvedBefore.has(hookKey(outcome.spec))) st.wasApproved = true;
    else st.warned = refusalKind(outcome.consent, false);
  }

  /** Decide one launch. `fresh` skips the remembered verdict (the previous ticket failed verify()). */
  async check(spec: PolicySpec, opts: { fresh?: boolean } = {}): Promise<LaunchTicket> {
    const st = this.state(spec);
    if (opts.fresh) st.verified = null;
    // The last verdict stands while nothing moved; the ticket's verify() (re-stats right before
    // the spawn) is what finds out, and a failed verify comes back here with `fresh`.
    // The trust rule is judged again each time (a few lstats): a directory made writable since is caught.
    if (st.verified !== null && stillTrusted(st.verified)) return this.ticket(st.verified);
    st.verified = null;

    const giveUpAt = Date.now() + QUIET_WAIT_MS;
    let approvedNow = false;
    for (;;) {
      if (!this.store.matchesDisk(true)) await this.store.reload();
      const script = await this.store.inspect(spec.command);
      const consent = consentOf(spec, this.store.entries(), script, { allowlistError: this.store.refused });
      // A file others can replace is never run, nor approved blindly for running.
      if (consent.untrusted !== null) return this.refuse(spec, st, consent);
      // Blanket acceptance approves at most once per launch: what is there after that must hold.
      const verdict = whatRunDoes(
        { kind: 'shell', consent: consent.state, failClosed: failsClosed(spec) },
        { safeMode: false, accept: this.opts.accept && !approvedNow },
      );
      if (!verdict.runs || verdict.via !== 'approval') {
        if (verdict.runs) {
          // As at start-up: record the approval of what is there now, then check it like any other.
          approvedNow = true;
          try {
            const result = await this.store.approve({ event: spec.event, command: spec.command });
            if (result.warning !== null) this.opts.warn(result.warning);
          } catch (err) {
            // Nothing to pin, or a refused allowlist: it cannot be approved, so it does not run.
            return this.refuse(spec, st, consent, errorText(err));
          }
          continue;
        }
        return this.refuse(spec, st, consent);
      }
      const pinned = consent.pinned && script.path !== null && script.identity !== null;
      const settled = script.settled && script.named.every((n) => n.settled);
      if (pinned && !settled && !this.opts.accept) {
        // Changed moments ago: wait until it has been quiet long enough to vouch for its bytes.
        const ids = [script.identity as FileIdentity, ...script.named.flatMap((n) => (n.identity !== null ? [n.identity] : []))];
        const wait = SETTLE_MS - Math.min(...ids.map((id) => quietMs(id, Date.now()))) + 1;
        if (Date.now() + wait > giveUpAt) {
          return this.refuse(spec, st, changing(spec, consent, `rewritten less than ${SETTLE_MS} ms before every check for ${QUIET_WAIT_MS} ms`));
        }
        await sleep(wait);
        continue;
      }
      const verified: Verified = {
        consent,
        script: pinned ? { path: script.path as string, identity: script.identity as FileIdentity } : null,
        named: pinned ? script.named.flatMap((n) => (n.identity !== null ? [{ path: n.path, identity: n.identity }] : [])) : [],
        runs: script.runs,
      };
      st.wasApproved = true;
      st.warned = null;
      // Reused only when the hash is bound to the identity, and never for a bare name looked up on
      // PATH (a new file earlier on PATH would change what runs without touching this one).
      // The allowlist too must have been read settled, for the same reason as the script.
      if ((settled || !pinned) && script.token.includes('/') && this.store.matchesDisk(true)) st.verified = verified;
      return this.ticket(verified);
    }
  }

  /** The refusal for a hook whose script or allowlist changed between every check and its spawn. */
  unstable(spec: PolicySpec, last: ConsentInfo): LaunchRefusal {
    return this.refuse(spec, this.state(spec), changing(spec, last, 'changed between the consent check and the spawn, at every attempt'));
  }

  /**
   * The script changed after the check — while its process was being started, or while it ran —
   * so nobody knows which bytes ran: the process is killed (at launch) and its answer is not
   * trusted. On the tool gate that blocks, fail_closed or not: the answer thrown away might have
   * been a block, and whoever rewrote the guard mid-run must not get an allow out of it. On any
   * other event the directive is dropped, with a warning.
   */
  changedDuring(spec: PolicySpec, last: ConsentInfo, phase: 'launch' | 'run'): LaunchRefusal {
    const how = phase === 'launch' ? 'rewritten as it was being started; it was killed at once' : 'rewritten while it ran; its answer is ignored';
    const refusal = this.refuse(spec, this.state(spec), changing(spec, last, how));
    if (refusal.block || spec.event !== 'pre_tool_call') return refusal;
    const message =
      `hook ${spec.command} guards this tool call, but ${last.script_path ?? spec.command} was ${how}: ` +
      'the call is blocked, since what it would have answered is unknown';
    return { ...refusal, block: true, message };
  }

  private ticket(v: Verified): LaunchTicket {
    return {
      run: true,
      consent: v.consent,
      verify: () => this.store.matchesDisk() && scriptUnchanged(v),
      scriptUnchanged: () => scriptUnchanged(v),
    };
  }

  private refuse(spec: PolicySpec, st: HookState, consent: ConsentInfo, cannotApprove?: string): LaunchRefusal {
    st.verified = null;
    const revoked = consent.state === 'not_approved' && st.wasApproved;
    const { block, message } = consentRefusal(spec, consent, {
      revoked,
      ...(cannotApprove !== undefined ? { cannotApprove } : {}),
      hint: this.opts.approveHint ?? defaultApproveHint,
      promptable: this.opts.promptable ?? true,
      blanketAccept: this.opts.blanketAccept ?? true,
    });
    const kind = refusalKind(consent, revoked);
    if (st.warned !== kind) {
      st.warned = kind;
      this.opts.warn(message);
    }
    return { run: false, consent, block, message };
  }

  private state(spec: PolicySpec): HookState {
    let st = this.states.get(spec);
    if (st === undefined) {
      st = { verified: null, wasApproved: false, warned: null };
      this.states.set(spec, st);
    }
    return st;
  }
}

function hookKey(spec: PolicySpec): string {
  return `${spec.event}\u0000${spec.command}`;
}

/** A script whose bytes cannot be vouched for because they keep changing counts as modified. */
function changing(spec: PolicySpec, consent: ConsentInfo, how: string): ConsentInfo {
  return {
    ...consent,
    state: 'modified',
    reason: `modified since approval: ${consent.script_path ?? spec.command} keeps changing (${how})`,
  };
}

/**
 * The trust rule, judged again: by the proofs of the last judgement when every one still holds
 * (each path on the way has the same type, mode and owner: the same verdict), else in full. A file
 * that can have no proof (a link on the way, no file) is judged in full each time — once, not walked
 * again for a proof it cannot have.
 */
function stillTrusted(v: Verified): boolean {
  const proofs = v.proofs;
  if (proofs !== undefined && proofs.every((p) => p === null || proofHolds(p))) {
    const unproven = v.runs.filter((_, i) => proofs[i] === null);
    return unproven.length === 0 || judgeRuns(unproven) === null;
  }
  if (judgeRuns(v.runs) !== null) return false;
  v.proofs = v.runs.map((f) => trustProof(f.path));
  return true;
}

function scriptUnchanged(v: Verified): boolean {
  if (v.script !== null && !sameIdentity(statIdentitySync(v.script.path), v.script.identity)) return false;
  return v.named.every((n) => sameIdentity(statIdentitySync(n.path), n.identity));
}

/** One warning per kind of refusal: a modified script warns again only after it ran in between. */
function refusalKind(consent: ConsentInfo, revoked: boolean): string {
  if (consent.untrusted !== null) return `untrusted ${consent.untrusted}`;
  return revoked ? 'revoked' : consent.state;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));
}

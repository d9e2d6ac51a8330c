// The consent states of a shell hook, once. Every face derives from here — the engine's run rule,
// `test`'s report and its published JSON Schema, `run`'s "not run" reasons, `list`, `doctor`, the
// prompt, an agent's session-start problems — so a new state is one line here, and the compiler then
// names each face whose words for it are missing (they are Records keyed by these unions). It sits on
// the ground floor, not in consent/, because protocol/ (below consent/) publishes it.

/**
 * `approved`: the pinned script still has the approved sha256. `unpinned`: approved by Hermes (or
 * by hand) without a hash — it runs, as under Hermes, but nothing pins its bytes. `modified`: the
 * script changed since approval, or the approval pinned nothing. `not_approved`: no approval
 * counts (none recorded, or the allowlist was refused).
 */
export const CONSENT_STATES = ['approved', 'unpinned', 'not_approved', 'modified'] as const;
/** A hook's consent: `approved` / `unpinned` run; `not_approved` / `modified` wait for approval. */
export type ConsentState = (typeof CONSENT_STATES)[number];

/** The states under which a hook runs when consent is enforced (Hermes runs unpinned approvals too). */
export const RUNNING_CONSENT_STATES = ['approved', 'unpinned'] as const satisfies readonly ConsentState[];
export type RunningConsentState = (typeof RUNNING_CONSENT_STATES)[number];

/** The states that hold a hook back until it is approved (again). */
export type AwaitingConsentState = Exclude<ConsentState, RunningConsentState>;
const AWAITING: Record<AwaitingConsentState, true> = { not_approved: true, modified: true };
export const AWAITING_CONSENT_STATES = Object.keys(AWAITING) as AwaitingConsentState[];

/** Why `run` does not run a hook: HERMES_SAFE_MODE, or a state awaiting approval. */
export const NOT_RUN_REASONS = ['safe_mode', ...AWAITING_CONSENT_STATES] as ['safe_mode', ...AwaitingConsentState[]];
export type NotRunReason = 'safe_mode' | AwaitingConsentState;

// The deadline chain of a call through serve, each link derived from the one before it, so that
// whoever gives up first is the one that still answers: a hook that runs too long is killed
// before serve's deadline passes, serve answers (a tool gate: a block saying why) before the
// client gives up, and the client answers (a block) before the agent times the hook out and runs
// the tool unguarded. Printed wirings (print-config) and the bundled client read these numbers.

// Ground floor: the base figures live here, config/ (timeouts) and spawn/ (kill grace) read them.

/** A hook's `timeout:` when it sets none (or an unusable one), in seconds. */
export const DEFAULT_HOOK_TIMEOUT = 60;
/** The longest `timeout:` config accepts (larger ones are clamped to it), in seconds. */
export const MAX_HOOK_TIMEOUT = 300;
/** SIGTERM → SIGKILL delay for a hook's process group, in milliseconds. */
export const DEFAULT_KILL_GRACE_MS = 500;

/** The longest a hook may run (config clamps every `timeout:` to it), in seconds. */
export const HOOK_TIMEOUT_MAX_S = MAX_HOOK_TIMEOUT;

/**
 * serve's per-call deadline (`--request-timeout` default): the longest hook, its TERM → KILL grace,
 * and time to answer; a call still running then is cancelled and a tool gate answered with a block.
 */
export const SERVE_REQUEST_TIMEOUT_S = HOOK_TIMEOUT_MAX_S + Math.ceil(DEFAULT_KILL_GRACE_MS / 1000) + 4;

/** The bundled client's curl deadline (HERMES_HOOKS_TIMEOUT default): serve's answer has 5 s to arrive. */
export const CLIENT_TIMEOUT_S = SERVE_REQUEST_TIMEOUT_S + 5;

/** The hook timeout print-config writes into an agent's settings: the client blocks 5 s before it. */
export const AGENT_HOOK_TIMEOUT_S = CLIENT_TIMEOUT_S + 5;

/** The chain in one line, for --help and the README. */
export function deadlineChainText(): string {
  return (
    `hook ≤ ${HOOK_TIMEOUT_MAX_S}s (+ kill grace) < serve --request-timeout ${SERVE_REQUEST_TIMEOUT_S}s < client HERMES_HOOKS_TIMEOUT ` +
    `${CLIENT_TIMEOUT_S}s < agent hook timeout ${AGENT_HOOK_TIMEOUT_S}s`
  );
}

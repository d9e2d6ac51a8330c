// Registry of hook process groups that may still be running, so a host that exits (or an engine
// that closes) can kill them. Needed because hooks are spawned detached (their own process
// group), so they do not die with the host by themselves. (Stdin payload files need no
// cleanup: each is unlinked before its hook starts, see stdin-file.ts.)

/** One running hook, as registered by spawnHook. */
export interface LiveHook {
  /** Process-group id (= the direct child's pid). */
  readonly pgid: number;
  /**
   * Ends the run as cancelled: sends `signal` to the group now (escalating to SIGKILL later if it
   * is not SIGKILL and the event loop keeps running). Returns false if the group was already gone.
   */
  cancel(signal: NodeJS.Signals): boolean;
}

const live = new Set<LiveHook>();

export function registerLiveHook(hook: LiveHook): void {
  live.add(hook);
}

export function unregisterLiveHook(hook: LiveHook): void {
  live.delete(hook);
}

/** Number of registered hook groups (running, or being killed). */
export function liveHookCount(): number {
  return live.size;
}

/**
 * Signals every live hook group (default SIGKILL: this is the emergency path and there may be no
 * event loop left to escalate) and marks their runs cancelled. Returns how many groups existed.
 */
export function killLiveHooks(signal: NodeJS.Signals = 'SIGKILL'): number {
  let count = 0;
  for (const hook of [...live]) {
    if (hook.cancel(signal)) count += 1;
  }
  return count;
}

let installed = false;

function cleanup(): void {
  killLiveHooks('SIGKILL');
}

/** The signals that end a host by default. SIGHUP too: a closed terminal must not leave hooks running. */
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function onSignal(signal: NodeJS.Signals): void {
  cleanup();
  // Choice: we only replace Node's default behaviour when nobody else listens. If we are the sole
  // listener, we remove ourselves and re-raise the signal, so the host dies of it exactly as it
  // would have without us (a shell sees 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP). If the
  // host has its own handler, that handler owns the decision to exit; we have already killed the hooks.
  if (process.listenerCount(signal) === 1) {
    for (const s of FATAL_SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  }
}

/** On process `exit`, SIGINT, SIGTERM and SIGHUP, kill every live hook group (SIGKILL). Idempotent. */
export function installExitCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanup);
  for (const s of FATAL_SIGNALS) process.on(s, onSignal);
}

// The deadline/kill stage of a run: watches a started hook until its answer is taken, and ends
// what it leaves. The run settles at the first of: its pipes closed after the exit ('close'), the
// exit grace ran out with the pipes still held ('exit'), or the pipes were abandoned after a kill
// ('abandoned'). A stop (deadline, cancel, endless output, afterLaunch refusal) signals the whole
// group: TERM (or the given signal) now, KILL after the grace if any member is left, then the
// pipes are given up on `drainMs` later — and whoever outside the group still holds them (a
// `setsid` descendant, _leftovers.ts) gets the same.

import type { LaunchOutcome, Launched } from './_launch.js';
import { findLeftovers, type Leftovers, type OutputTrace, outputTrace, signalEach, stillHolding } from './_leftovers.js';
import { groupAlive, signalGroup } from './_process-group.js';
import { type LiveHook, registerLiveHook, unregisterLiveHook } from './live-hooks.js';

export type StopReason = 'timeout' | 'cancelled' | 'output_limit' | 'refused';

/** How a launched run ended; `outcome` is null when the pipes were abandoned before any exit status. */
export interface RunEnd {
  outcome: LaunchOutcome | null;
  via: 'close' | 'exit' | 'abandoned';
}

/**
 * How long a hook's output is still read after the hook itself exited, when something it left
 * behind keeps its pipes open. Long enough for what is already in the pipes: the hook's last
 * write is in the kernel buffer when it exits, and one poll of the event loop reads it (libuv
 * reads up to 32 × 64 KiB per wake-up) — under a millisecond idle, a few ms loaded; the settle
 * also waits for one more poll after this timer, so a loop blocked past the grace still reads it.
 * 100 ms also covers writers that finish with the hook (a `>(…)` process substitution, a last
 * `echo` from a background subshell). Short enough not to matter: only a hook that leaves
 * something holding its output pays it — one that leaves nothing settles when its pipes close,
 * at its exit — and it is a tenth of the smallest timeout (1 s), below what a user notices.
 */
export const EXIT_GRACE_MS = 100;
/** Once the pipes are abandoned, how long the direct child's exit status may still take. */
const EXIT_STATUS_GRACE_MS = 100;
/** How often a killed group is checked for members during the TERM → KILL grace. */
const GROUP_POLL_MS = 20;
/** Pipe drain once the whole group is gone (only an escaped descendant can hold them then). */
const EMPTY_GROUP_DRAIN_MS = 100;

export interface SupervisorTimings {
  /** SIGTERM → SIGKILL delay. */
  killGraceMs: number;
  /** After the SIGKILL step, abandon the pipes after this. */
  drainMs: number;
}

export class RunSupervisor {
  /** Why the run was stopped; null while it runs (or ended on its own). The first reason counts. */
  stopReason: StopReason | null = null;
  /** Resolves once, with how the run ended. */
  readonly ended: Promise<RunEnd>;

  /** Registered while the group may be running, so a host exit or engine close can kill it. */
  private readonly liveHook: LiveHook;
  /** Both pipes closed. */
  private closed = false;
  /** The hook's own process exited: its exit status is its answer from then on. */
  private exited = false;
  private settled = false;
  private escalating = false;
  private escalation: NodeJS.Timeout | undefined;
  private abandonPipes: NodeJS.Timeout | undefined;
  private exitGrace: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private abortSignal: AbortSignal | undefined;
  /** Processes outside the group found holding the hook's output; signalled with the group. */
  private holders: number[] = [];
  private trace: OutputTrace | null = null;
  private settle!: (end: RunEnd) => void;

  constructor(
    private readonly sub: Launched,
    private readonly pid: number,
    private readonly runId: string,
    private readonly timings: SupervisorTimings,
  ) {
    this.ended = new Promise<RunEnd>((resolve) => {
      this.settle = resolve;
    });
    void sub.exited.then((outcome) => {
      this.closed = true;
      // Something the hook left is still in its group: it gets the rest of the exit grace (a
      // `setsid helper &` may be a moment from leaving the group), then is killed and counted.
      if (this.exitGrace !== undefined && this.stopReason === null && groupAlive(pid)) return;
      this.settle({ outcome, via: 'close' });
    });
    void sub.processExited.then(() => {
      this.exited = true;
    });
    this.liveHook = { pgid: pid, cancel: (signal) => this.stop('cancelled', signal) };
    registerLiveHook(this.liveHook);
  }

  /** Stops the run for `reason`: signals the group (see escalate). False when it was already gone. */
  stop(reason: StopReason, first: NodeJS.Signals = 'SIGTERM'): boolean {
    // Endless output stops a hook that is still writing, never one that already answered by its
    // exit: what it left behind (still flooding its pipes) is killed when its answer is taken.
    if (reason === 'output_limit' && this.exited) return false;
    if (this.stopReason === null && !this.settled) this.stopReason = reason;
    return this.escalate(first);
  }

  /**
   * The deadline and the host's cancel stop the run. The hook's answer is final at its exit plus
   * EXIT_GRACE_MS: what it wrote is read by then, and nothing it left running (a background
   * child, a setsid daemon holding stdout) is waited for.
   */
  watch(timeoutMs: number, signal: AbortSignal | undefined): void {
    this.deadline = setTimeout(() => this.stop('timeout'), timeoutMs);
    this.abortSignal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
    void this.sub.processExited.then((outcome) => {
      if (this.settled || this.stopReason !== null) return;
      clearTimeout(this.deadline);
      // setImmediate: a poll phase (which reads what is in the pipes) runs between this timer and
      // the settle, even when the event loop was blocked past the grace.
      this.exitGrace = setTimeout(() => setImmediate(() => this.settle({ outcome, via: 'exit' })), EXIT_GRACE_MS);
    });
  }

  /**
   * Takes the run's end: timers off, and — when the hook exited on its own and the exit grace
   * ran out with something left — the rest of its group, and whoever outside it still holds its
   * output, is killed now (a helper meant to outlive the hook leaves the group: setsid, with its
   * output redirected). A run that settled at 'close' found its group empty then (one
   * kill(-pgid, 0), the usual case). Returns how many were left (`left_processes`).
   */
  conclude(end: RunEnd): number {
    this.settled = true;
    clearTimeout(this.deadline);
    clearTimeout(this.exitGrace);
    if (this.abandonPipes !== undefined) clearTimeout(this.abandonPipes);
    this.abortSignal?.removeEventListener('abort', this.onAbort);

    let left = 0;
    if (this.stopReason === null && end.via === 'exit') {
      const found = this.leftovers(!this.closed);
      this.holders = found.holders;
      // Without /proc the members cannot be counted: a live group is at least one.
      left = Math.max(found.members, groupAlive(this.pid) ? 1 : 0) + found.holders.length;
      if (left > 0) this.escalate('SIGTERM');
    }
    // Pipes still open now are held by something we do not wait for.
    if (!this.closed) this.destroyPipes();
    if (this.escalating) this.escalation?.unref();
    else unregisterLiveHook(this.liveHook);
    return left;
  }

  private readonly onAbort = (): void => {
    this.stop('cancelled');
  };

  /**
   * TERM (or the given signal) now; KILL after the grace if any member is left; then stop waiting
   * for EOF on pipes a stray descendant may hold. The group is polled during the grace, so a group
   * that died of the TERM does not cost the rest of it. Escalation outlives the settle on purpose
   * (a TERM-ignoring member must not survive just because the answer is in), but unref'd then:
   * the hook stays registered as live, so the exit cleanup still kills it if the host exits first.
   */
  private escalate(first: NodeJS.Signals): boolean {
    const existed = signalGroup(this.pid, first);
    signalEach(this.holders, first);
    if (this.escalating) return existed;
    this.escalating = true;
    registerLiveHook(this.liveHook);
    const graceEnds = performance.now() + (first === 'SIGKILL' ? 0 : this.timings.killGraceMs);
    this.escalation = setTimeout(() => this.escalationTick(graceEnds), first === 'SIGKILL' ? 0 : Math.min(GROUP_POLL_MS, this.timings.killGraceMs));
    return existed;
  }

  private escalationTick(graceEnds: number): void {
    const alive = this.anyLeft();
    if (alive && performance.now() < graceEnds) {
      this.escalation = setTimeout(() => this.escalationTick(graceEnds), GROUP_POLL_MS);
      if (this.settled) this.escalation.unref();
      return;
    }
    if (alive) {
      signalGroup(this.pid, 'SIGKILL');
      signalEach(this.holders, 'SIGKILL');
    }
    this.escalating = false;
    this.escalation = undefined;
    unregisterLiveHook(this.liveHook);
    if (this.settled) return;
    // Nobody left in the group: only an escaped (setsid) descendant can still hold the pipes,
    // and nothing more will come from the hook itself — a short drain is enough. Whoever holds
    // them then is ended too (by the socket it holds, see _leftovers.ts).
    const drainMs = this.timings.drainMs;
    this.abandonPipes = setTimeout(() => this.abandon(), alive ? drainMs : Math.min(drainMs, EMPTY_GROUP_DRAIN_MS));
  }

  private abandon(): void {
    const found = this.leftovers(true).holders;
    if (found.length > 0) {
      this.holders = found;
      this.escalate('SIGTERM');
    }
    this.destroyPipes();
    setTimeout(() => this.settle({ outcome: null, via: 'abandoned' }), EXIT_STATUS_GRACE_MS);
  }

  private anyLeft(): boolean {
    if (this.holders.length > 0) this.holders = stillHolding(this.holders, this.trace);
    return groupAlive(this.pid) || this.holders.length > 0;
  }

  /** Finds them: the rest of the group, and the run's descendants outside it holding its output. */
  private leftovers(pipesHeld: boolean): Leftovers {
    if (pipesHeld) this.trace = outputTrace([this.sub.stdout, this.sub.stderr], this.runId);
    return findLeftovers(this.pid, pipesHeld ? this.trace : null);
  }

  private destroyPipes(): void {
    this.sub.stdout?.destroy();
    this.sub.stderr?.destroy();
  }
}

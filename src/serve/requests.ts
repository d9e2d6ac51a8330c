// Every request in flight, whatever its transport: its AbortController (aborted when the client
// goes away, when its deadline passes, or when a drain runs out of time), so a shutdown can wait
// for them and nothing outlives the server. Aborting an emit kills its hooks' process groups.

import { HooksError } from '../errors.js';
import { DEFAULT_KILL_GRACE_MS } from '../spawn/run-hook.js';

export class ShuttingDown extends HooksError {
  constructor() {
    super('shutting_down', 'the server is shutting down; no new requests are taken');
  }
}

/** How long calls cancelled by a drain get to answer: their hooks' kill grace, and then some. */
const SETTLE_AFTER_ABORT_MS = DEFAULT_KILL_GRACE_MS + 2000;

export interface RequestTracker {
  /** Runs `fn` as one tracked request. `client` aborts it when the client is gone. */
  run<T>(fn: (signal: AbortSignal) => Promise<T>, client?: AbortSignal): Promise<T>;
  readonly inFlight: number;
  readonly served: number;
  /** When a request last started or ended (Date.now() ms); 0 before the first. */
  readonly lastActive: number;
  /** Refuse new requests from now on; resolve when none is in flight or after `ms` (then abort the rest). */
  drain(ms: number): Promise<{ aborted: number }>;
}

export function createRequestTracker(opts: { deadlineMs: number }): RequestTracker {
  const live = new Set<AbortController>();
  let served = 0;
  let lastActive = 0;
  let draining = false;
  let idle: (() => void) | null = null;

  return {
    async run(fn, client) {
      if (draining) throw new ShuttingDown();
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(new Error(`its per-call deadline of ${opts.deadlineMs / 1000}s, --request-timeout, passed`)), opts.deadlineMs);
      timer.unref();
      const onClient = (): void => ac.abort(new Error('client went away'));
      client?.addEventListener('abort', onClient, { once: true });
      if (client?.aborted) onClient();
      live.add(ac);
      lastActive = Date.now();
      try {
        return await fn(ac.signal);
      } finally {
        clearTimeout(timer);
        client?.removeEventListener('abort', onClient);
        live.delete(ac);
        served += 1;
        lastActive = Date.now();
        if (live.size === 0) idle?.();
      }
    },
    get inFlight() {
      return live.size;
    },
    get served() {
      return served;
    },
    get lastActive() {
      return lastActive;
    },
    async drain(ms) {
      draining = true;
      if (live.size > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, ms);
          idle = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
      const aborted = live.size;
      if (aborted === 0) return { aborted };
      const settled = new Promise<void>((resolve) => (idle = resolve));
      for (const ac of live) ac.abort(new Error(`serve is shutting down and its drain of ${ms / 1000}s, --drain-timeout, ran out`));
      // Cancelled hooks are killed (TERM, then KILL after the grace): wait for their calls to be
      // answered — a tool gate with a block — before the connections are closed. Bounded.
      await Promise.race([settled, new Promise<void>((resolve) => setTimeout(resolve, SETTLE_AFTER_ABORT_MS).unref())]);
      return { aborted };
    },
  };
}

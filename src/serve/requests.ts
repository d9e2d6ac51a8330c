// Every request in flight, whatever its transport: its AbortController (aborted when the client
// goes away, when its deadline passes, or when a drain runs out of time), so a shutdown can wait
// for them and nothing outlives the server. Aborting an emit kills its hooks' process groups.

import { HooksError } from '../errors.js';

export class ShuttingDown extends HooksError {
  constructor() {
    super('shutting_down', 'the server is shutting down; no new requests are taken');
  }
}

export interface RequestTracker {
  /** Runs `fn` as one tracked request. `client` aborts it when the client is gone. */
  run<T>(fn: (signal: AbortSignal) => Promise<T>, client?: AbortSignal): Promise<T>;
  readonly inFlight: number;
  readonly served: number;
  /** Refuse new requests from now on; resolve when none is in flight or after `ms` (then abort the rest). */
  drain(ms: number): Promise<{ aborted: number }>;
}

export function createRequestTracker(opts: { deadlineMs: number }): RequestTracker {
  const live = new Set<AbortController>();
  let served = 0;
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
      try {
        return await fn(ac.signal);
      } finally {
        clearTimeout(timer);
        client?.removeEventListener('abort', onClient);
        live.delete(ac);
        served += 1;
        if (live.size === 0) idle?.();
      }
    },
    get inFlight() {
      return live.size;
    },
    get served() {
      return served;
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
      for (const ac of live) ac.abort(new Error('server shutting down'));
      return { aborted };
    },
  };
}

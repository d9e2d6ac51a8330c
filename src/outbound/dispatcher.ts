// Background delivery of outbound webhooks. notify() builds and serialises the body now (so later
// mutation of kwargs cannot leak in) and queues it; delivery happens off the caller's path.
//
// Concurrency: one worker per target, each delivering its own deliveries strictly in order
// (Hermes has one worker for all; per-target workers keep a slow or dead endpoint from delaying
// the others while preserving order per endpoint). The bounded queue (default 256) is shared:
// it counts deliveries waiting across all targets, not the ones in flight.
//
// Retry: at most 2 attempts. Connection errors, timeouts, 5xx and other non-2xx are retried once
// after retryDelayMs; 4xx is final; 3xx is final and never followed. A retry reuses the same body,
// delivery id and signature, so receivers can dedupe on X-Hermes-Delivery.
//
// Process lifetime: sockets and timers of deliveries are unref'd, so an idle or busy dispatcher
// never keeps the host alive by itself; close() holds one ref'd timer for its flush bound so
// `await dispatcher.close()` really waits for the flush.
//
// The pieces share one state object (_state.ts): notify() is _queue.ts, the per-target workers
// and their retries _worker.ts, close() _close.ts, ping() _ping.ts.

import { closeDispatcher } from './_close.js';
import { pingTarget } from './_ping.js';
import { notifyTargets } from './_queue.js';
import { createDispatchState, type DispatchSettings } from './_state.js';
import type { Logger, OutboundDispatcher, OutboundDispatcherOptions, OutboundTarget } from './types.js';

// The engine imports the whole outbound surface from here.
export { parseOutboundConfig } from './config.js';
export { signBody, verifySignature } from './signature.js';
export { targetLabel } from './_state.js';
export type { DeliveryResult, Logger, OutboundDispatcher, OutboundDispatcherOptions, OutboundStats, OutboundTarget } from './types.js';

export const OUTBOUND_USER_AGENT = 'Hermes-Agent-Outbound-Webhook';
export const DEFAULT_QUEUE_SIZE = 256;
export const DEFAULT_RETRY_DELAY_MS = 1000;
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;

const stderrLogger: Logger = {
  warn: (msg) => {
    process.stderr.write(`[hermes-hooks] ${msg}\n`);
  },
};

/** A logger whose methods never throw: a broken logger must not break delivery or close(). */
function guarded(logger: Logger): Required<Logger> {
  const call = (fn: ((msg: string) => void) | undefined, msg: string): void => {
    try {
      fn?.call(logger, msg);
    } catch {
      // ignored on purpose
    }
  };
  return {
    warn: (msg) => call(logger.warn, msg),
    info: (msg) => call(logger.info, msg),
    debug: (msg) => call(logger.debug, msg),
  };
}

/** The options with every default applied and every bound clamped. */
function resolveSettings(opts: OutboundDispatcherOptions): DispatchSettings {
  return {
    logger: guarded(opts.logger ?? stderrLogger),
    queueSize: Math.max(1, Math.floor(opts.queueSize ?? DEFAULT_QUEUE_SIZE)),
    retryDelayMs: Math.max(0, opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS),
    flushTimeoutMs: Math.max(0, opts.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS),
    userAgent: opts.userAgent ?? OUTBOUND_USER_AGENT,
    ctx: { profile: opts.profile, cwd: opts.cwd },
  };
}

export function createOutboundDispatcher(targets: readonly OutboundTarget[], opts: OutboundDispatcherOptions): OutboundDispatcher {
  const state = createDispatchState(targets, resolveSettings(opts));
  return {
    notify: (event, kwargs) => notifyTargets(state, event, kwargs),
    close: () => closeDispatcher(state),
    stats: () => ({ ...state.counters }),
    ping: (target) => pingTarget(state.settings, target),
  };
}

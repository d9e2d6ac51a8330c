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

import { EVENTS, type EventName } from '../events.js';
import { newDeliveryId, outboundBodyJson } from './body.js';
import { compileMatcher, type ToolMatcher } from '../config/matcher.js';
import { postOnce, type AttemptResult } from './_post.js';
import { SIGNATURE_HEADER, signBody } from './signature.js';
import type {
  DeliveryOutcome,
  DeliveryResult,
  Logger,
  OutboundDispatcher,
  OutboundDispatcherOptions,
  OutboundStats,
  OutboundTarget,
} from './types.js';
import { errorText } from '../errors.js';

// The engine imports the whole outbound surface from here.
export { parseOutboundConfig } from './config.js';
export { signBody, verifySignature } from './signature.js';
export type { DeliveryResult, Logger, OutboundDispatcher, OutboundDispatcherOptions, OutboundStats, OutboundTarget } from './types.js';

export const OUTBOUND_USER_AGENT = 'Hermes-Agent-Outbound-Webhook';
export const DEFAULT_QUEUE_SIZE = 256;
export const DEFAULT_RETRY_DELAY_MS = 1000;
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;
const MAX_ATTEMPTS = 2;

interface Job {
  event: string;
  deliveryId: string;
  body: Buffer;
  headers: Record<string, string>;
}

interface Lane {
  target: OutboundTarget;
  label: string;
  matcher: ToolMatcher | null;
  queue: Job[];
  busy: boolean;
}

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

/** How a target is named in logs: its name, else its URL without credentials or query. */
export function targetLabel(target: OutboundTarget): string {
  if (target.name) return target.name;
  try {
    const u = new URL(target.url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}

function describeAttempt(r: AttemptResult): string {
  switch (r.kind) {
    case 'status':
      return `HTTP ${r.status}`;
    case 'timeout':
      return 'timed out';
    case 'connection_error':
      return `connection error (${r.error})`;
    case 'aborted':
      return 'abandoned';
  }
}

/** Whether a failed attempt is worth a second one. */
function retryable(r: AttemptResult): boolean {
  if (r.kind === 'timeout' || r.kind === 'connection_error') return true;
  if (r.kind !== 'status') return false;
  if (r.status >= 300 && r.status < 500) return false; // 3xx never followed; 4xx is the receiver's final word
  return true; // 5xx and anything else non-2xx
}

function outcomeOf(r: AttemptResult): DeliveryOutcome {
  if (r.kind === 'status') {
    if (r.status >= 200 && r.status < 300) return 'delivered';
    return r.status >= 300 && r.status < 400 ? 'redirect' : 'http_error';
  }
  return r.kind;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function headersFor(target: OutboundTarget, event: string, deliveryId: string, body: Buffer, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    'X-Hermes-Event': event,
    'X-Hermes-Delivery': deliveryId,
  };
  if (target.secret) headers[SIGNATURE_HEADER] = signBody(target.secret, body);
  return headers;
}

export function createOutboundDispatcher(targets: readonly OutboundTarget[], opts: OutboundDispatcherOptions): OutboundDispatcher {
  const logger = guarded(opts.logger ?? stderrLogger);
  const queueSize = Math.max(1, Math.floor(opts.queueSize ?? DEFAULT_QUEUE_SIZE));
  const retryDelayMs = Math.max(0, opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS);
  const flushTimeoutMs = Math.max(0, opts.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS);
  const userAgent = opts.userAgent ?? OUTBOUND_USER_AGENT;
  const ctx = { profile: opts.profile, cwd: opts.cwd };

  const counters: OutboundStats = { queued: 0, delivered: 0, failed: 0, dropped: 0, abandoned: 0, attempts: 0 };
  const lanes: Lane[] = targets.map((target) => ({
    target,
    label: targetLabel(target),
    matcher: target.matcher ? compileMatcher(target.matcher) : null,
    queue: [],
    busy: false,
  }));
  const lanesByEvent = new Map<EventName, Lane[]>();
  for (const lane of lanes) {
    for (const ev of lane.target.events) {
      const list = lanesByEvent.get(ev) ?? [];
      list.push(lane);
      lanesByEvent.set(ev, list);
    }
  }

  let pending = 0; // jobs waiting in lane queues (not in flight)
  let overflowing = false; // one warning per overflow episode, not one per dropped delivery
  let closing = false;
  let closePromise: Promise<OutboundStats> | null = null;
  const abandon = new AbortController(); // fired when close()'s flush bound runs out
  let idleWaiters: (() => void)[] = [];

  const debug = (msg: string): void => logger.debug(msg);
  const isIdle = (): boolean => pending === 0 && lanes.every((l) => !l.busy);
  const notifyIdle = (): void => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  async function deliver(lane: Lane, job: Job): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (abandon.signal.aborted) {
        counters.abandoned++;
        return;
      }
      const result = await postOnce({
        url: lane.target.url,
        body: job.body,
        headers: job.headers,
        timeoutMs: lane.target.timeout * 1000,
        signal: abandon.signal,
      });
      if (result.kind === 'aborted') {
        counters.abandoned++;
        return;
      }
      counters.attempts++;
      if (result.kind === 'status' && result.status >= 200 && result.status < 300) {
        counters.delivered++;
        debug(`outbound webhook ${lane.label}: delivered ${job.event} ${job.deliveryId} (HTTP ${result.status}, attempt ${attempt})`);
        return;
      }
      const what = describeAttempt(result);
      if (!retryable(result)) {
        counters.failed++;
        const why = result.kind === 'status' && result.status < 400 ? 'redirects are not followed' : 'not retried';
        logger.warn(`outbound webhook ${lane.label}: delivery ${job.deliveryId} (${job.event}) failed: ${what} (${why})`);
        return;
      }
      if (attempt === MAX_ATTEMPTS) {
        counters.failed++;
        logger.warn(`outbound webhook ${lane.label}: delivery ${job.deliveryId} (${job.event}) failed after ${MAX_ATTEMPTS} attempts: ${what}`);
        return;
      }
      debug(`outbound webhook ${lane.label}: ${job.event} ${job.deliveryId} attempt ${attempt} ${what}; retrying in ${retryDelayMs} ms`);
      await sleep(retryDelayMs, abandon.signal);
    }
  }

  function pump(lane: Lane): void {
    if (lane.busy || lane.queue.length === 0) return;
    lane.busy = true;
    void (async () => {
      try {
        for (let job = lane.queue.shift(); job; job = lane.queue.shift()) {
          pending--;
          overflowing = false;
          try {
            await deliver(lane, job);
          } catch (e) {
            counters.failed++;
            logger.warn(`outbound webhook ${lane.label}: delivery ${job.deliveryId} failed: ${errorText(e)}`);
          }
        }
      } finally {
        lane.busy = false;
        notifyIdle();
      }
    })();
  }

  function notify(event: EventName, kwargs: Record<string, unknown>): void {
    try {
      const candidates = lanesByEvent.get(event);
      if (!candidates || candidates.length === 0) return;
      const toolScoped = EVENTS[event]?.toolScoped ?? false;
      const args = kwargs ?? {};
      const matching = candidates.filter((lane) => !(toolScoped && lane.matcher && !lane.matcher.test(args['tool_name'])));
      if (matching.length === 0) return;
      if (closing) {
        counters.dropped += matching.length;
        debug(`outbound webhook: ${event} notified after close(); dropped`);
        return;
      }
      for (const lane of matching) {
        if (pending >= queueSize) {
          counters.dropped++;
          if (!overflowing) {
            overflowing = true;
            logger.warn(`outbound webhook queue is full (${queueSize} waiting); dropping ${event} deliveries until it drains`);
          }
          continue;
        }
        const deliveryId = newDeliveryId();
        const body = Buffer.from(outboundBodyJson(event, args, ctx, deliveryId), 'utf8');
        lane.queue.push({ event, deliveryId, body, headers: headersFor(lane.target, event, deliveryId, body, userAgent) });
        pending++;
        counters.queued++;
        pump(lane);
      }
    } catch (e) {
      logger.warn(`outbound webhook: could not queue ${String(event)}: ${errorText(e)}`);
    }
  }

  function close(): Promise<OutboundStats> {
    if (closePromise) return closePromise;
    closing = true;
    closePromise = new Promise<OutboundStats>((resolve) => {
      let bound: NodeJS.Timeout | null = null;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        if (bound) clearTimeout(bound);
        resolve({ ...counters });
      };
      if (isIdle()) return finish();
      idleWaiters.push(finish);
      // Ref'd on purpose: this timer is what keeps the process alive while close() flushes.
      bound = setTimeout(() => {
        let waiting = 0;
        for (const lane of lanes) {
          waiting += lane.queue.length;
          lane.queue.length = 0;
        }
        pending -= waiting;
        counters.abandoned += waiting;
        const inFlight = lanes.filter((l) => l.busy).length;
        logger.warn(
          `outbound webhooks: flush bound of ${flushTimeoutMs} ms reached; abandoning ${waiting} queued and ${inFlight} in-flight deliveries`,
        );
        abandon.abort(); // in-flight attempts and retry pauses end now; their workers go idle → finish()
        notifyIdle();
        // Belt and braces: never let close() outlive its bound by more than a moment.
        bound = setTimeout(finish, 1000);
      }, flushTimeoutMs);
    });
    return closePromise;
  }

  async function ping(target: OutboundTarget): Promise<DeliveryResult> {
    const started = performance.now();
    const deliveryId = newDeliveryId();
    const kwargs = { ping: true, message: 'hermes-hooks doctor test delivery', target: target.name ?? null };
    const body = Buffer.from(outboundBodyJson('ping', kwargs, ctx, deliveryId), 'utf8');
    let result: AttemptResult;
    try {
      result = await postOnce({
        url: target.url,
        body,
        headers: headersFor(target, 'ping', deliveryId, body, userAgent),
        timeoutMs: target.timeout * 1000,
      });
    } catch (e) {
      result = { kind: 'connection_error', error: errorText(e) };
    }
    const outcome = outcomeOf(result);
    return {
      ok: outcome === 'delivered',
      outcome,
      status_code: result.kind === 'status' ? result.status : null,
      error: outcome === 'delivered' ? null : describeAttempt(result),
      attempts: 1,
      delivery_id: deliveryId,
      signed: target.secret !== null,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  return { notify, close, stats: () => ({ ...counters }), ping };
}

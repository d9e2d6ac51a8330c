// One worker per lane: it takes the lane's jobs strictly in order and delivers each with at most
// MAX_ATTEMPTS attempts. Connection errors, timeouts, 5xx and other non-2xx are retried once after
// retryDelayMs; 4xx and 3xx are final. A retry reuses the same body, delivery id and signature.

import { errorText } from '../errors.js';
import { describeAttempt, retryable } from './_attempt.js';
import { postOnce } from './_post.js';
import { notifyIdle, type DispatchState, type Job, type Lane } from './_state.js';

const MAX_ATTEMPTS = 2;

/** Resolves after `ms`, or at once when `signal` fires; its timer never keeps the host alive. */
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

async function deliver(state: DispatchState, lane: Lane, job: Job): Promise<void> {
  const { counters, abandon } = state;
  const { logger, retryDelayMs } = state.settings;
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
      logger.debug(`outbound webhook ${lane.label}: delivered ${job.event} ${job.deliveryId} (HTTP ${result.status}, attempt ${attempt})`);
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
    logger.debug(`outbound webhook ${lane.label}: ${job.event} ${job.deliveryId} attempt ${attempt} ${what}; retrying in ${retryDelayMs} ms`);
    await sleep(retryDelayMs, abandon.signal);
  }
}

/** Start the lane's worker unless it is running or has nothing to do; it stops when the queue is empty. */
export function pump(state: DispatchState, lane: Lane): void {
  if (lane.busy || lane.queue.length === 0) return;
  lane.busy = true;
  void (async () => {
    try {
      for (let job = lane.queue.shift(); job; job = lane.queue.shift()) {
        state.pending--;
        state.overflowing = false;
        try {
          await deliver(state, lane, job);
        } catch (e) {
          state.counters.failed++;
          state.settings.logger.warn(`outbound webhook ${lane.label}: delivery ${job.deliveryId} failed: ${errorText(e)}`);
        }
      }
    } finally {
      lane.busy = false;
      notifyIdle(state);
    }
  })();
}

// close(): stop accepting, let the workers flush for at most flushTimeoutMs, then abandon what is
// left. Sockets and timers of deliveries are unref'd; close() holds one ref'd timer for its flush
// bound so `await dispatcher.close()` really waits for the flush.

import { isIdle, notifyIdle, type DispatchState } from './_state.js';
import type { OutboundStats } from './types.js';

/** Empty every lane's queue, count it abandoned, and end the in-flight attempts and retry pauses. */
function abandonRest(state: DispatchState): void {
  let waiting = 0;
  for (const lane of state.lanes) {
    waiting += lane.queue.length;
    lane.queue.length = 0;
  }
  state.pending -= waiting;
  state.counters.abandoned += waiting;
  const inFlight = state.lanes.filter((l) => l.busy).length;
  state.settings.logger.warn(
    `outbound webhooks: flush bound of ${state.settings.flushTimeoutMs} ms reached; abandoning ${waiting} queued and ${inFlight} in-flight deliveries`,
  );
  state.abandon.abort(); // in-flight attempts and retry pauses end now; their workers go idle → finish()
  notifyIdle(state);
}

/** Idempotent: every call returns the same promise of the final counters. */
export function closeDispatcher(state: DispatchState): Promise<OutboundStats> {
  if (state.closePromise) return state.closePromise;
  state.closing = true;
  state.closePromise = new Promise<OutboundStats>((resolve) => {
    let bound: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      if (bound) clearTimeout(bound);
      resolve({ ...state.counters });
    };
    if (isIdle(state)) return finish();
    state.idleWaiters.push(finish);
    // Ref'd on purpose: this timer is what keeps the process alive while close() flushes.
    bound = setTimeout(() => {
      abandonRest(state);
      // Belt and braces: never let close() outlive its bound by more than a moment.
      bound = setTimeout(finish, 1000);
    }, state.settings.flushTimeoutMs);
  });
  return state.closePromise;
}

// notify(): the body is built and serialised now (so later mutation of kwargs cannot leak in) and
// queued on every matching target's lane; delivery happens off the caller's path. The bounded
// queue is shared: it counts deliveries waiting across all targets, not the ones in flight.

import { EVENTS, type EventName } from '../events.js';
import { errorText } from '../errors.js';
import { newDeliveryId, outboundBodyJson } from './body.js';
import { headersFor, type DispatchState, type Lane } from './_state.js';
import { pump } from './_worker.js';

/** The lanes that want `event`: a tool event goes only to targets whose matcher takes the tool. */
function matchingLanes(state: DispatchState, event: EventName, args: Record<string, unknown>): readonly Lane[] {
  const candidates = state.lanesByEvent.get(event);
  if (!candidates || candidates.length === 0) return [];
  const toolScoped = EVENTS[event]?.toolScoped ?? false;
  return candidates.filter((lane) => !(toolScoped && lane.matcher && !lane.matcher.test(args['tool_name'])));
}

/** Queue one job on `lane`, or drop it (warning once per episode) when the shared queue is full. */
function enqueue(state: DispatchState, lane: Lane, event: EventName, args: Record<string, unknown>): void {
  const { counters, settings } = state;
  if (state.pending >= settings.queueSize) {
    counters.dropped++;
    if (!state.overflowing) {
      state.overflowing = true;
      settings.logger.warn(`outbound webhook queue is full (${settings.queueSize} waiting); dropping ${event} deliveries until it drains`);
    }
    return;
  }
  const deliveryId = newDeliveryId();
  const body = Buffer.from(outboundBodyJson(event, args, settings.ctx, deliveryId), 'utf8');
  lane.queue.push({ event, deliveryId, body, headers: headersFor(lane.target, event, deliveryId, body, settings.userAgent) });
  state.pending++;
  counters.queued++;
  pump(state, lane);
}

/** Never blocks, never throws. */
export function notifyTargets(state: DispatchState, event: EventName, kwargs: Record<string, unknown>): void {
  try {
    const args = kwargs ?? {};
    const matching = matchingLanes(state, event, args);
    if (matching.length === 0) return;
    if (state.closing) {
      state.counters.dropped += matching.length;
      state.settings.logger.debug(`outbound webhook: ${event} notified after close(); dropped`);
      return;
    }
    for (const lane of matching) enqueue(state, lane, event, args);
  } catch (e) {
    state.settings.logger.warn(`outbound webhook: could not queue ${String(event)}: ${errorText(e)}`);
  }
}

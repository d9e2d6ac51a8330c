// What one dispatcher's pieces (queue, workers, close, ping) share: its resolved settings, its
// counters, one lane per target (that target's queue and whether its worker is running), and the
// bookkeeping close() waits on. One explicit object instead of a closure, so each piece can live
// in its own module and take the state as a parameter.

import type { EventName } from '../events.js';
import { compileMatcher, type ToolMatcher } from '../config/matcher.js';
import type { PayloadContext } from '../protocol/build-payload.js';
import { SIGNATURE_HEADER, signBody } from './signature.js';
import type { Logger, OutboundStats, OutboundTarget } from './types.js';

/** One serialised delivery, waiting in its lane. */
export interface Job {
  event: string;
  deliveryId: string;
  body: Buffer;
  headers: Record<string, string>;
}

/** One target's queue and worker flag (its deliveries go strictly in order). */
export interface Lane {
  target: OutboundTarget;
  label: string;
  matcher: ToolMatcher | null;
  queue: Job[];
  busy: boolean;
}

/** The dispatcher options with every default applied. */
export interface DispatchSettings {
  logger: Required<Logger>;
  queueSize: number;
  retryDelayMs: number;
  flushTimeoutMs: number;
  userAgent: string;
  ctx: PayloadContext;
}

export interface DispatchState {
  readonly settings: DispatchSettings;
  readonly counters: OutboundStats;
  readonly lanes: readonly Lane[];
  readonly lanesByEvent: ReadonlyMap<EventName, readonly Lane[]>;
  /** Jobs waiting in lane queues (not in flight). */
  pending: number;
  /** One warning per overflow episode, not one per dropped delivery. */
  overflowing: boolean;
  closing: boolean;
  closePromise: Promise<OutboundStats> | null;
  /** Fired when close()'s flush bound runs out. */
  readonly abandon: AbortController;
  /** Called once every lane is empty and idle. */
  idleWaiters: (() => void)[];
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

export function createDispatchState(targets: readonly OutboundTarget[], settings: DispatchSettings): DispatchState {
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
  return {
    settings,
    counters: { queued: 0, delivered: 0, failed: 0, dropped: 0, abandoned: 0, attempts: 0 },
    lanes,
    lanesByEvent,
    pending: 0,
    overflowing: false,
    closing: false,
    closePromise: null,
    abandon: new AbortController(),
    idleWaiters: [],
  };
}

export function isIdle(state: DispatchState): boolean {
  return state.pending === 0 && state.lanes.every((l) => !l.busy);
}

export function notifyIdle(state: DispatchState): void {
  if (!isIdle(state)) return;
  const waiters = state.idleWaiters;
  state.idleWaiters = [];
  for (const w of waiters) w();
}

export function headersFor(target: OutboundTarget, event: string, deliveryId: string, body: Buffer, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    'X-Hermes-Event': event,
    'X-Hermes-Delivery': deliveryId,
  };
  if (target.secret) headers[SIGNATURE_HEADER] = signBody(target.secret, body);
  return headers;
}

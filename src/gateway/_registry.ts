// The emit/close machinery over loaded gateway handlers. One delivery queue per handler: it sees
// events in emit order, and a slow handler (a hanging agent:start) holds back only its own later
// events, never another handler's or the caller. Errors are logged, never thrown.

import type { Logger } from '../types.js';
import { deepCopy } from '../util/deep-copy.js';
import { describeError } from '../plugins/callback-runner.js';
import { handlersFor } from './_routing.js';
import type { GatewayHandler, GatewayHooks } from './types.js';

export const DEFAULT_GATEWAY_CLOSE_TIMEOUT_MS = 5_000;
/**
 * How long emitCollect waits for one handler's answer. Hermes waits forever; a hung decision hook
 * would hold the user's command (and a serve caller) with it, so past this it is skipped, said.
 */
export const DEFAULT_GATEWAY_COLLECT_TIMEOUT_MS = 30_000;

interface Registry {
  handlers: readonly GatewayHandler[];
  logger: Logger;
  inflight: Set<Promise<void>>;
  /** The tail of each handler's delivery queue. */
  queues: Map<GatewayHandler, Promise<void>>;
  closed: boolean;
  /** Set once close() stops waiting: failures caused by stopping the workers are expected then. */
  stopping: boolean;
  closing: Promise<void> | null;
}

export function createGatewayRegistry(handlers: readonly GatewayHandler[], logger: Logger): GatewayHooks {
  const r: Registry = { handlers, logger, inflight: new Set(), queues: new Map(), closed: false, stopping: false, closing: null };
  return {
    handlers: handlers.map((h) => ({ name: h.name, events: [...h.events], dir: h.dir })),
    emitGateway: (eventType, context) => emit(r, eventType, context),
    emitCollect: (eventType, context, opts = {}) => collect(r, eventType, context, opts.timeoutMs ?? DEFAULT_GATEWAY_COLLECT_TIMEOUT_MS),
    // Idempotent: a second close() shares the first one's wait.
    close: (timeoutMs = DEFAULT_GATEWAY_CLOSE_TIMEOUT_MS) => (r.closing ??= closeOnce(r, timeoutMs)),
  };
}

function emit(r: Registry, eventType: string, context: Record<string, unknown>): void {
  if (r.closed) {
    r.logger.debug?.(`[hooks] ${eventType} emitted after close; ignored`);
    return;
  }
  // Each handler gets its own copy, taken now: neither the host's later mutation nor another
  // handler's reaches it.
  for (const h of handlersFor(r.handlers, eventType)) enqueue(r, h, eventType, deepCopy(context ?? {}));
}

async function collect(r: Registry, eventType: string, context: Record<string, unknown>, timeoutMs: number): Promise<unknown[]> {
  if (r.closed) {
    r.logger.warn(`[hooks] ${eventType} collected after close; no handler asked`);
    return [];
  }
  // Hermes asks the handlers one after another, in order, and keeps the answers that are not None.
  const answers: unknown[] = [];
  for (const h of handlersFor(r.handlers, eventType)) {
    const answer = await answerOf(r, h, eventType, deepCopy(context ?? {}), timeoutMs);
    if (answer !== undefined && answer !== null) answers.push(answer);
  }
  return answers;
}

/** Runs one delivery; resolves with the handler's return value, undefined when it failed. */
async function deliver(r: Registry, h: GatewayHandler, eventType: string, context: Record<string, unknown>): Promise<unknown> {
  try {
    return await h.handle(eventType, context);
  } catch (e) {
    const text = `[hooks] Error in handler ${h.name} for '${eventType}': ${describeError(e)}`;
    if (r.stopping) r.logger.debug?.(text);
    else r.logger.warn(text);
    return undefined;
  }
}

function enqueue(r: Registry, h: GatewayHandler, eventType: string, context: Record<string, unknown>): Promise<unknown> {
  // The first delivery starts on a later macrotask, so even a synchronous handler never runs
  // inside emitGateway(); later ones follow the handler's previous delivery.
  const prev = r.queues.get(h) ?? new Promise<void>((resolve) => setImmediate(resolve));
  const result = prev.then(() => deliver(r, h, eventType, context));
  const task = result.then(() => undefined);
  r.queues.set(h, task);
  r.inflight.add(task);
  void task.finally(() => {
    r.inflight.delete(task);
    if (r.queues.get(h) === task) r.queues.delete(h);
  });
  return result;
}

/** A decision hook's answer, or undefined once `timeoutMs` passed (said: its decision is not counted). */
async function answerOf(r: Registry, h: GatewayHandler, eventType: string, context: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  const answer = await Promise.race([enqueue(r, h, eventType, context), new Promise<typeof late>((res) => (timer = setTimeout(() => res(late), timeoutMs)))]);
  clearTimeout(timer);
  if (answer !== late) return answer;
  r.logger.warn(`[hooks] ${h.name} did not answer '${eventType}' within ${timeoutMs / 1000}s; its decision is not counted (it keeps running)`);
  return undefined;
}

async function closeOnce(r: Registry, timeoutMs: number): Promise<void> {
  r.closed = true;
  if (r.inflight.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled([...r.inflight]).then(() => true),
      new Promise<boolean>((res) => (timer = setTimeout(() => res(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!finished) r.logger.warn(`[hooks] ${r.inflight.size} gateway hook emission(s) still running after ${timeoutMs / 1000}s; stopping`);
  }
  r.stopping = true;
  await Promise.allSettled(r.handlers.map((h) => h.close?.()));
}

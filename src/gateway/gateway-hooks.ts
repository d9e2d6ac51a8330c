// Gateway directory hooks (Hermes `HookRegistry`): every `<home>/hooks/<name>/` holding a
// HOOK.yaml and a handler is loaded once, in directory-name order (after the built-in boot-md
// hook when the host passes onBoot). Placing the files is the opt-in: no enable list, no consent,
// not affected by safe mode — the directory is inside the profile home's trust boundary, so it
// must pass the trust rule (consent/trust.ts): an untrusted hooks/ loads nothing, an untrusted hook
// folder, HOOK.yaml or handler is skipped, and each says why and how to fix it. Load the
// registry only on the gateway surface, never for the CLI. Emits are fire-and-forget; a broken
// hook never hurts the host. Each handler has its own queue: it sees events in emit order, and a
// handler that hangs delays only its own later events (never another handler, never the caller).
//
// Handler precedence in one directory: handler.mjs, then handler.js, then handler.py (run
// unchanged by the profile's one python3 worker, see _python-hooks.ts).

import type { Logger } from '../types.js';
import { deepCopy } from '../util/deep-copy.js';
import { describeError } from '../plugins/callback-runner.js';
import { loadDirectoryHooks } from './_directory-hooks.js';
import { handlersFor } from './_routing.js';
import { createBootMdHook, type BootRun } from './boot-md.js';
import type { GatewayHandler, GatewayHooks } from './types.js';

export type { GatewayHandler, GatewayHandlerInfo, GatewayHooks } from './types.js';

export const DEFAULT_GATEWAY_CLOSE_TIMEOUT_MS = 5_000;
/**
 * How long emitCollect waits for one handler's answer. Hermes waits forever; a hung decision hook
 * would hold the user's command (and a serve caller) with it, so past this it is skipped, said.
 */
export const DEFAULT_GATEWAY_COLLECT_TIMEOUT_MS = 30_000;
/** How long each handler.py may take to import, counted from the python worker being up. */
export const DEFAULT_GATEWAY_IMPORT_TIMEOUT_MS = 10_000;
/** How long the python interpreter may take to come up before any handler.py is imported. */
export const DEFAULT_GATEWAY_PYTHON_START_TIMEOUT_MS = 30_000;

export interface LoadGatewayHooksOptions {
  home: string;
  logger: Logger;
  /** Interpreter for handler.py hooks. Default `python3`. */
  python?: string;
  /** Environment of python workers (default process.env); HERMES_HOME is set to `home`. */
  env?: NodeJS.ProcessEnv;
  /** Receives BOOT.md's instructions on gateway:startup (see boot-md.ts). */
  onBoot?: (instructions: string, run: BootRun) => unknown;
  /** The boot session's reply when it is not `[SILENT]` (see boot-md.ts). */
  onBootReply?: (reply: string) => unknown;
  /**
   * Register the built-in boot-md hook first. Default: only when `onBoot` is given (a host that
   * drives createBootMdHook itself leaves both out).
   */
  bootMd?: boolean;
  /**
   * How long importing each handler.py may take, counted from the python worker being up (a slow
   * interpreter start does not count); one that takes longer is skipped, said. Default 10 s.
   */
  importTimeoutMs?: number;
  /** @deprecated The former name of `importTimeoutMs` (used when that is not given). */
  readyTimeoutMs?: number;
  /** How long the python interpreter may take to start, before any import. Default 30 s. */
  pythonStartTimeoutMs?: number;
}

export async function loadGatewayHooks(opts: LoadGatewayHooksOptions): Promise<GatewayHooks> {
  const { logger } = opts;
  const handlers: GatewayHandler[] = [];
  if (opts.bootMd ?? opts.onBoot !== undefined) handlers.push(createBootMdHook({ home: opts.home, onBoot: opts.onBoot, onBootReply: opts.onBootReply, logger }));
  const loaded = await loadDirectoryHooks({
    home: opts.home,
    logger,
    python: opts.python ?? 'python3',
    env: opts.env ?? process.env,
    startTimeoutMs: opts.pythonStartTimeoutMs ?? DEFAULT_GATEWAY_PYTHON_START_TIMEOUT_MS,
    importTimeoutMs: opts.importTimeoutMs ?? opts.readyTimeoutMs ?? DEFAULT_GATEWAY_IMPORT_TIMEOUT_MS,
  });
  handlers.push(...loaded);
  return createGatewayRegistry(handlers, logger);
}

/** The emit/close machinery over loaded handlers (exported for hosts that build handlers themselves). */
export function createGatewayRegistry(handlers: readonly GatewayHandler[], logger: Logger): GatewayHooks {
  const inflight = new Set<Promise<void>>();
  let closed = false;
  // Set once close() stops waiting: failures caused by stopping the workers are expected then.
  let stopping = false;
  let closing: Promise<void> | null = null;

  // One delivery queue per handler: it sees events in emit order, and a slow handler (a hanging
  // agent:start) holds back only its own later events, never another handler's or the caller.
  const queues = new Map<GatewayHandler, Promise<void>>();

  /** Runs one delivery; resolves with the handler's return value, undefined when it failed. */
  const deliver = async (h: GatewayHandler, eventType: string, context: Record<string, unknown>): Promise<unknown> => {
    try {
      return await h.handle(eventType, context);
    } catch (e) {
      const text = `[hooks] Error in handler ${h.name} for '${eventType}': ${describeError(e)}`;
      if (stopping) logger.debug?.(text);
      else logger.warn(text);
      return undefined;
    }
  };

  const enqueue = (h: GatewayHandler, eventType: string, context: Record<string, unknown>): Promise<unknown> => {
    // The first delivery starts on a later macrotask, so even a synchronous handler never runs
    // inside emitGateway(); later ones follow the handler's previous delivery.
    const prev = queues.get(h) ?? new Promise<void>((resolve) => setImmediate(resolve));
    const result = prev.then(() => deliver(h, eventType, context));
    const task = result.then(() => undefined);
    queues.set(h, task);
    inflight.add(task);
    void task.finally(() => {
      inflight.delete(task);
      if (queues.get(h) === task) queues.delete(h);
    });
    return result;
  };

  /** A decision hook's answer, or undefined once `timeoutMs` passed (said: its decision is not counted). */
  const answerOf = async (h: GatewayHandler, eventType: string, context: Record<string, unknown>, timeoutMs: number): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const late = Symbol('late');
    const answer = await Promise.race([
      enqueue(h, eventType, context),
      new Promise<typeof late>((r) => (timer = setTimeout(() => r(late), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (answer !== late) return answer;
    logger.warn(`[hooks] ${h.name} did not answer '${eventType}' within ${timeoutMs / 1000}s; its decision is not counted (it keeps running)`);
    return undefined;
  };

  return {
    handlers: handlers.map((h) => ({ name: h.name, events: [...h.events], dir: h.dir })),
    emitGateway(eventType, context) {
      if (closed) {
        logger.debug?.(`[hooks] ${eventType} emitted after close; ignored`);
        return;
      }
      const targets = handlersFor(handlers, eventType);
      // Each handler gets its own copy, taken now: neither the host's later mutation nor another
      // handler's reaches it.
      for (const h of targets) enqueue(h, eventType, deepCopy(context ?? {}));
    },
    async emitCollect(eventType, context, opts = {}) {
      if (closed) {
        logger.warn(`[hooks] ${eventType} collected after close; no handler asked`);
        return [];
      }
      const timeoutMs = opts.timeoutMs ?? DEFAULT_GATEWAY_COLLECT_TIMEOUT_MS;
      // Hermes asks the handlers one after another, in order, and keeps the answers that are not None.
      const answers: unknown[] = [];
      for (const h of handlersFor(handlers, eventType)) {
        const answer = await answerOf(h, eventType, deepCopy(context ?? {}), timeoutMs);
        if (answer !== undefined && answer !== null) answers.push(answer);
      }
      return answers;
    },
    close(timeoutMs = DEFAULT_GATEWAY_CLOSE_TIMEOUT_MS) {
      // Idempotent: a second close() shares the first one's wait.
      return (closing ??= closeOnce(timeoutMs));
    },
  };

  async function closeOnce(timeoutMs: number): Promise<void> {
    closed = true;
    if (inflight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.allSettled([...inflight]).then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (!finished) logger.warn(`[hooks] ${inflight.size} gateway hook emission(s) still running after ${timeoutMs / 1000}s; stopping`);
    }
    stopping = true;
    await Promise.allSettled(handlers.map((h) => h.close?.()));
  }
}

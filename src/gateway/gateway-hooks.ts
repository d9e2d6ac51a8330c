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
// unchanged through a python3 worker).

import { readdir, stat } from 'node:fs/promises';
import { checkTrust, distrustMessage, readTrustedFile } from '../consent/trust.js';
import path from 'node:path';
import type { Logger } from '../types.js';
import { deepCopy } from '../util/deep-copy.js';
import { describeError } from '../plugins/callback-runner.js';
import { importJsHandler } from './_js-handler.js';
import { parseGatewayHookManifest } from './_manifest.js';
import { startPythonHandler } from './_python-handler.js';
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
const HANDLER_FILES = ['handler.mjs', 'handler.js', 'handler.py'] as const;

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
  /** How long importing one handler.py may take. Default 10 s. */
  readyTimeoutMs?: number;
}

export async function loadGatewayHooks(opts: LoadGatewayHooksOptions): Promise<GatewayHooks> {
  const { logger } = opts;
  const handlers: GatewayHandler[] = [];
  if (opts.bootMd ?? opts.onBoot !== undefined) handlers.push(createBootMdHook({ home: opts.home, onBoot: opts.onBoot, onBootReply: opts.onBootReply, logger }));
  const loaded = await loadDirectoryHooks(opts);
  handlers.push(...loaded);
  return createGatewayRegistry(handlers, logger);
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function loadDirectoryHooks(opts: LoadGatewayHooksOptions): Promise<GatewayHandler[]> {
  const { logger } = opts;
  const hooksDir = path.join(opts.home, 'hooks');
  let names: string[];
  try {
    names = (await readdir(hooksDir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
  const trust = checkTrust(hooksDir, { kind: 'directory' });
  if (trust.findings.length > 0) {
    logger.warn(`[hooks] No gateway hook is loaded: the ${distrustMessage('gateway hooks directory', trust)}`);
    return [];
  }
  const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env), HERMES_HOME: opts.home, PYTHONIOENCODING: 'utf-8' };
  const skip = (dirName: string, why: string): Attempt => ({ skipped: `[hooks] Skipping ${dirName}: ${why}` });

  // Python workers start in parallel; results and log lines follow the directory names.
  const attempts = names.map(async (dirName): Promise<Attempt> => {
    const dir = path.join(hooksDir, dirName);
    try {
      if (!(await stat(dir)).isDirectory()) return null;
    } catch {
      return null;
    }
    const manifestFile = path.join(dir, 'HOOK.yaml');
    let handlerFile: string | null = null;
    for (const f of HANDLER_FILES) {
      if (await isFile(path.join(dir, f))) {
        handlerFile = f;
        break;
      }
    }
    // Hermes skips a directory missing either file silently.
    if (!(await isFile(manifestFile)) || !handlerFile) {
      logger.debug?.(`[hooks] ${dirName}: no HOOK.yaml + handler; not a hook directory`);
      return null;
    }
    // Placing the files is the opt-in: they must be files only you (or root) could have placed.
    const folder = checkTrust(dir, { kind: 'directory' });
    if (folder.findings.length > 0) return skip(dirName, `the ${distrustMessage('hook folder', folder)}`);
    const handlerTrust = checkTrust(path.join(dir, handlerFile));
    if (handlerTrust.findings.length > 0) return skip(dirName, `the ${distrustMessage('handler', handlerTrust)}`);
    const read = readTrustedFile(manifestFile);
    if (read.refused !== null) return skip(dirName, `the ${distrustMessage('manifest', read.refused)}`);
    if (read.text === null) return skip(dirName, `cannot read HOOK.yaml: ${read.error ?? 'it is gone'}`);
    const text = read.text;
    const parsed = parseGatewayHookManifest(text, manifestFile, dirName);
    if ('error' in parsed) return skip(dirName, parsed.error);
    const { name, events, inert } = parsed.manifest;
    const notes = inert.map((e) => `[hooks] ${dirName}: event '${e}' has no ':' and matches nothing (did you mean '${e}:*'?)`);
    const result =
      handlerFile === 'handler.py'
        ? await startPythonHandler({
            name,
            events,
            dir,
            python: opts.python ?? 'python3',
            env,
            logger,
            readyTimeoutMs: opts.readyTimeoutMs ?? 10_000,
          })
        : await importJsHandler(path.join(dir, handlerFile), { name, events, dir });
    if ('error' in result) return skip(dirName, result.error);
    return { handler: result.handler, notes };
  });
  const loaded: GatewayHandler[] = [];
  for (const attempt of await Promise.all(attempts)) {
    if (attempt === null) continue;
    if ('skipped' in attempt) {
      logger.warn(attempt.skipped);
      continue;
    }
    for (const note of attempt.notes) logger.warn(note);
    logger.info?.(`[hooks] Loaded hook '${attempt.handler.name}' for events: ${attempt.handler.events.join(', ')}`);
    loaded.push(attempt.handler);
  }
  return loaded;
}

type Attempt = { handler: GatewayHandler; notes: string[] } | { skipped: string } | null;

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

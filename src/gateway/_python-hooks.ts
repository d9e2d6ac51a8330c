// A profile's handler.py gateway hooks, run unchanged by gateway_bootstrap.py in ONE long-lived
// python3 worker (closer to Hermes, which runs them in-process: one interpreter start, module state
// kept between events). The worker imports each handler.py on that hook's own thread and says per
// hook whether it loaded; each request names its hook (by directory name, which is unique). The
// import deadline counts from the worker's "up" line, so a slow interpreter start (a pyenv shim)
// does not eat it, and one slow or broken handler is skipped alone.

import { fileURLToPath } from 'node:url';
import type { Logger } from '../types.js';
import { awaitReady, describeWorkerExit, pythonError, type PythonWorker, startPythonWorker } from '../spawn/python-worker.js';
import { jsonSafe } from '../json.js';
import type { GatewayHandler } from './types.js';

/** Shipped next to this module (the build copies it to dist/gateway/). */
export const GATEWAY_BOOTSTRAP_PATH = fileURLToPath(new URL('./gateway_bootstrap.py', import.meta.url));

/** One handler.py hook to host. */
export interface PythonHookSpec {
  /** Its directory name: names the hook in the protocol. */
  key: string;
  /** From HOOK.yaml: the module name (hermes_hook_<name>) and what the log lines say. */
  name: string;
  events: readonly string[];
  dir: string;
  file: string;
}

export interface PythonHooksOptions {
  python: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How long the interpreter may take to come up (before any import). */
  startTimeoutMs: number;
  /** How long each handler.py may take to import, counted from the worker being up. */
  importTimeoutMs: number;
}

export type PythonHookResult = { handler: GatewayHandler } | { error: string };

interface Pending {
  resolve: (result: unknown) => void;
  reject: (e: Error) => void;
}

type Readiness = { ready: true } | { ready: false; error: string };

/** What the handlers of one worker share. */
interface Shared {
  worker: PythonWorker;
  logger: Logger;
  names: Map<string, string>;
  pending: Map<number, Pending>;
  readiness: Map<string, (r: Readiness) => void>;
  up: (r: { ready: boolean }) => void;
  nextId: number;
  /** Hooks that loaded (named when the worker dies). */
  loaded: string[];
  closing: boolean;
  stopping: Promise<unknown> | null;
  /** How the worker ended, once it has. */
  exitWhy: string | null;
}

/** Starts the worker and loads every spec; a result per key (a handler, or why it is skipped). */
export async function startPythonHooks(specs: readonly PythonHookSpec[], opts: PythonHooksOptions): Promise<Map<string, PythonHookResult>> {
  const results = new Map<string, PythonHookResult>();
  if (specs.length === 0) return results;
  const args = specs.flatMap((s) => [s.key, s.name, s.file]);
  const worker = startPythonWorker({ python: opts.python, script: GATEWAY_BOOTSTRAP_PATH, args, env: opts.env });
  const shared = watchWorker(worker, specs, opts.logger);
  const readies = new Map(specs.map((s) => [s.key, new Promise<Readiness>((r) => shared.readiness.set(s.key, r))]));

  const up = await awaitReady(worker, new Promise<{ ready: boolean }>((r) => (shared.up = r)), {
    timeoutMs: opts.startTimeoutMs,
    timeout: `${opts.python} did not start`,
    needs: 'handler.py',
    notLoaded: 'the python worker did not start',
  });
  if ('error' in up) {
    shared.closing = true;
    for (const s of specs) results.set(s.key, { error: up.error });
    return results;
  }

  worker.setActive(true);
  const deadline = deadlineAfter(opts.importTimeoutMs);
  const settled = await Promise.all(specs.map((s) => awaitImport(shared, readies.get(s.key)!, deadline.reached, opts.importTimeoutMs)));
  deadline.cancel();
  // One handler.py can end the whole process while the others load (os._exit at import time).
  const died = shared.exitWhy !== null ? { error: `python worker ${shared.exitWhy} while the handler.py hooks were loading` } : null;
  for (const [i, s] of specs.entries()) {
    const r = died ?? settled[i]!;
    if ('error' in r) results.set(s.key, r);
    else {
      shared.loaded.push(s.name);
      results.set(s.key, { handler: hookHandler(shared, s) });
    }
  }
  worker.setActive(shared.pending.size > 0);
  if (shared.loaded.length === 0) await stopWorker(shared);
  return results;
}

/** Routes the worker's lines: up, per-hook readiness, per-hook output, replies; and its death. */
function watchWorker(worker: PythonWorker, specs: readonly PythonHookSpec[], logger: Logger): Shared {
  const shared: Shared = {
    worker,
    logger,
    names: new Map(specs.map((s) => [s.key, s.name])),
    pending: new Map(),
    readiness: new Map(),
    up: () => {},
    nextId: 1,
    loaded: [],
    closing: false,
    stopping: null,
    exitWhy: null,
  };
  // Output that bypassed Python (os.write, a subprocess) cannot be told apart in one process.
  const unattributed = specs.length === 1 ? specs[0]!.name : 'python worker';
  worker.onOutput((line) => logger.info?.(`[hooks] ${unattributed}: ${line}`));
  worker.onMessage((m) => routeMessage(shared, m));
  void worker.exited.then((exit) => onWorkerExit(shared, describeWorkerExit(exit)));
  return shared;
}

function routeMessage(shared: Shared, m: unknown): void {
  if (typeof m !== 'object' || m === null) return;
  const msg = m as {
    up?: unknown;
    hook?: unknown;
    ready?: unknown;
    log?: unknown;
    line?: unknown;
    id?: unknown;
    ok?: unknown;
    error?: unknown;
    result?: unknown;
  };
  if (msg.up === true) return shared.up({ ready: true });
  if (typeof msg.log === 'string') {
    shared.logger.info?.(`[hooks] ${shared.names.get(msg.log) ?? msg.log}: ${String(msg.line ?? '')}`);
    return;
  }
  if (typeof msg.hook === 'string' && 'ready' in msg) {
    const error = typeof msg.error === 'string' ? msg.error : 'handler.py could not be loaded';
    shared.readiness.get(msg.hook)?.(msg.ready === true ? { ready: true } : { ready: false, error });
    return;
  }
  const p = typeof msg.id === 'number' ? shared.pending.get(msg.id) : undefined;
  if (!p) return;
  shared.pending.delete(msg.id as number);
  if (shared.pending.size === 0) shared.worker.setActive(false);
  if (msg.ok === true) p.resolve(msg.result);
  else p.reject(pythonError(typeof msg.error === 'string' ? msg.error : 'handler failed'));
}

function onWorkerExit(shared: Shared, why: string): void {
  for (const p of shared.pending.values()) p.reject(new Error(`python worker ${why}`));
  shared.pending.clear();
  shared.exitWhy = why;
  for (const settle of shared.readiness.values()) settle({ ready: false, error: `python worker ${why} while importing handler.py` });
  // Said once for all its hooks; before they loaded, the loader reports each failure as a skip.
  const names = shared.loaded;
  if (names.length > 0 && !shared.closing) {
    shared.logger.warn(`[hooks] ${names.join(', ')}: python worker ${why}; ${names.length === 1 ? 'the hook is' : 'these hooks are'} disabled`);
  }
}

function deadlineAfter(ms: number): { reached: Promise<'timeout'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const reached = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  return { reached, cancel: () => clearTimeout(timer) };
}

async function awaitImport(shared: Shared, ready: Promise<Readiness>, deadline: Promise<'timeout'>, ms: number): Promise<{ ok: true } | { error: string }> {
  const r = await Promise.race([ready, deadline]);
  if (r === 'timeout') return { error: `handler.py did not finish importing within ${ms / 1000}s (the other hooks are not held up)` };
  return r.ready ? { ok: true } : { error: r.error };
}

function hookHandler(shared: Shared, spec: PythonHookSpec): GatewayHandler {
  return {
    name: spec.name,
    events: spec.events,
    dir: spec.dir,
    handle: (eventType, context) => request(shared, spec.key, eventType, context),
    // Every hook of the worker shares it: the first close stops it, the others wait for that.
    close: () => stopWorker(shared),
  };
}

/** Resolves with handle()'s return value (undefined when it returned None): decision hooks read it. */
function request(shared: Shared, hook: string, eventType: string, context: Record<string, unknown>): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const id = shared.nextId++;
    shared.pending.set(id, { resolve, reject });
    shared.worker.setActive(true);
    if (!shared.worker.send({ id, hook, event: eventType, context: jsonSafe(context) ?? {} })) {
      shared.pending.delete(id);
      if (shared.pending.size === 0) shared.worker.setActive(false);
      reject(new Error('python worker is not running'));
    }
  });
}

async function stopWorker(shared: Shared): Promise<void> {
  shared.closing = true;
  await (shared.stopping ??= shared.worker.stop());
}

// A gateway hook whose handler is handler.py: run unchanged by gateway_bootstrap.py in a
// long-lived python3 worker (one per hook directory), one JSON line per event.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../engine/logger.js';
import { describeWorkerExit, pythonError, startPythonWorker } from '../spawn/python-worker.js';
import { jsonSafe } from '../_json.js';
import type { GatewayHandler } from './types.js';

/** Shipped next to this module (the build copies it to dist/gateway/). */
export const GATEWAY_BOOTSTRAP_PATH = fileURLToPath(new URL('./gateway_bootstrap.py', import.meta.url));

export interface PythonHandlerOptions {
  name: string;
  events: readonly string[];
  dir: string;
  python: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How long importing handler.py may take. */
  readyTimeoutMs: number;
}

interface Pending {
  resolve: () => void;
  reject: (e: Error) => void;
}

export async function startPythonHandler(opts: PythonHandlerOptions): Promise<{ handler: GatewayHandler } | { error: string }> {
  const { name, logger } = opts;
  const file = path.join(opts.dir, 'handler.py');
  const worker = startPythonWorker({ python: opts.python, script: GATEWAY_BOOTSTRAP_PATH, args: [file, name], env: opts.env });
  const recentStderr: string[] = [];
  worker.onOutput((line) => {
    recentStderr.push(line);
    if (recentStderr.length > 20) recentStderr.shift();
    logger.info?.(`[hooks] ${name}: ${line}`);
  });

  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closing = false;
  let loaded = false;
  let ready!: (m: { ready: boolean; error?: unknown }) => void;
  const readyMsg = new Promise<{ ready: boolean; error?: unknown }>((r) => (ready = r));
  worker.onMessage((m) => {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as { ready?: unknown; id?: unknown; ok?: unknown; error?: unknown };
    if ('ready' in msg) return ready({ ready: msg.ready === true, error: msg.error });
    const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
    if (!p) return;
    pending.delete(msg.id as number);
    if (pending.size === 0) worker.setActive(false);
    if (msg.ok === true) p.resolve();
    else p.reject(pythonError(typeof msg.error === 'string' ? msg.error : 'handler failed'));
  });
  void worker.exited.then((exit) => {
    const why = describeWorkerExit(exit);
    for (const p of pending.values()) p.reject(new Error(`python worker ${why}`));
    pending.clear();
    // Before it was ready the loader reports the failure as a skip; after, say the hook is gone.
    if (loaded && !closing) logger.warn(`[hooks] ${name}: python worker ${why}; the hook is disabled`);
  });

  worker.setActive(true);
  let timer: NodeJS.Timeout | undefined;
  const first = await Promise.race([
    readyMsg,
    worker.exited,
    new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), opts.readyTimeoutMs))),
  ]);
  clearTimeout(timer);
  worker.setActive(false);

  const fail = async (error: string): Promise<{ error: string }> => {
    closing = true;
    await worker.stop(200);
    return { error };
  };
  if (first === 'timeout') return fail(`handler.py did not finish importing within ${opts.readyTimeoutMs / 1000}s`);
  if ('code' in first) {
    if (first.error) return fail(`${first.error}: python3 is needed to run handler.py (install Python 3, or pass the \`python\` option)`);
    const tail = recentStderr.slice(-3).join(' | ');
    return fail(`python worker ${describeWorkerExit(first)} before it was ready${tail ? `: ${tail}` : ''}`);
  }
  if (!first.ready) return fail(typeof first.error === 'string' ? first.error : 'handler.py could not be loaded');

  loaded = true;
  const handler: GatewayHandler = {
    name,
    events: opts.events,
    dir: opts.dir,
    handle(eventType, context) {
      return new Promise<void>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.setActive(true);
        if (!worker.send({ id, event: eventType, context: jsonSafe(context) ?? {} })) {
          pending.delete(id);
          if (pending.size === 0) worker.setActive(false);
          reject(new Error('python worker is not running'));
        }
      });
    },
    async close() {
      closing = true;
      await worker.stop();
    },
  };
  return { handler };
}

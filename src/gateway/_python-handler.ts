// A gateway hook whose handler is handler.py: run unchanged by gateway_bootstrap.py in a
// long-lived python3 worker (one per hook directory), one JSON line per event.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../types.js';
import { awaitReady, describeWorkerExit, pythonError, startPythonWorker } from '../spawn/python-worker.js';
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
  resolve: (result: unknown) => void;
  reject: (e: Error) => void;
}

export async function startPythonHandler(opts: PythonHandlerOptions): Promise<{ handler: GatewayHandler } | { error: string }> {
  const { name, logger } = opts;
  const file = path.join(opts.dir, 'handler.py');
  const worker = startPythonWorker({ python: opts.python, script: GATEWAY_BOOTSTRAP_PATH, args: [file, name], env: opts.env });
  worker.onOutput((line) => logger.info?.(`[hooks] ${name}: ${line}`));

  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closing = false;
  let loaded = false;
  let ready!: (m: { ready: boolean; error?: unknown }) => void;
  const readyMsg = new Promise<{ ready: boolean; error?: unknown }>((r) => (ready = r));
  worker.onMessage((m) => {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as { ready?: unknown; id?: unknown; ok?: unknown; error?: unknown; result?: unknown };
    if ('ready' in msg) return ready({ ready: msg.ready === true, error: msg.error });
    const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
    if (!p) return;
    pending.delete(msg.id as number);
    if (pending.size === 0) worker.setActive(false);
    if (msg.ok === true) p.resolve(msg.result);
    else p.reject(pythonError(typeof msg.error === 'string' ? msg.error : 'handler failed'));
  });
  void worker.exited.then((exit) => {
    const why = describeWorkerExit(exit);
    for (const p of pending.values()) p.reject(new Error(`python worker ${why}`));
    pending.clear();
    // Before it was ready the loader reports the failure as a skip; after, say the hook is gone.
    if (loaded && !closing) logger.warn(`[hooks] ${name}: python worker ${why}; the hook is disabled`);
  });

  const first = await awaitReady(worker, readyMsg, {
    timeoutMs: opts.readyTimeoutMs,
    timeout: 'handler.py did not finish importing',
    needs: 'handler.py',
    notLoaded: 'handler.py could not be loaded',
  });
  if (!('ready' in first)) {
    closing = true;
    return { error: first.error };
  }

  loaded = true;
  const handler: GatewayHandler = {
    name,
    events: opts.events,
    dir: opts.dir,
    handle(eventType, context) {
      // Resolves with handle()'s return value (undefined when it returned None): decision hooks read it.
      return new Promise<unknown>((resolve, reject) => {
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

// A JS plugin runs in its own worker thread (_plugin-worker.mjs), so a timeout can actually stop
// it: when a call is abandoned after plugins.hook_callback_timeout, the thread is terminated —
// which ends even a synchronous `while (true) {}` — and a fresh one (module imported, register(ctx)
// run again) is started for the next call. The host's event loop never runs plugin code.
// The cost: one thread per plugin (~10 MB), and a message round trip per call (bench/plugins).

import { Worker } from 'node:worker_threads';
import type { Logger } from '../types.js';
import { jsonSafe } from '../_json.js';
import { armsItsBound } from './callback-runner.js';
import type { RemoteRegistration } from './_python-plugin.js';

const WORKER_URL = new URL('./_plugin-worker.mjs', import.meta.url);

export interface JsPluginOptions {
  name: string;
  dir: string;
  home: string;
  entryFile: string;
  logger: Logger;
  /** How long importing the module and register(ctx) may take (each start and restart). */
  readyTimeoutMs: number;
}

export interface StartedJsPlugin {
  registrations: RemoteRegistration[];
  close(): Promise<void>;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface ReadyMessage {
  ready: boolean;
  error?: string;
  hooks?: { event: string; name: string | null; callable: boolean }[];
}

interface Live {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: Promise<ReadyMessage>;
}

export async function startJsPlugin(opts: JsPluginOptions): Promise<StartedJsPlugin | { error: string }> {
  const { name, logger } = opts;
  let live: Live | null = null;
  let closed = false;
  let nextId = 1;
  let registered = -1;

  const spawn = (): Live => {
    const worker = new Worker(WORKER_URL, {
      workerData: { entryFile: opts.entryFile, plugin: name, dir: opts.dir, home: opts.home },
      stdout: true,
      stderr: true,
    });
    // The plugin's console output is the host's log, never the host's stdout (a decision may be there).
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim() !== '') logger.info?.(`[plugins] ${name}: ${line}`);
      });
    }
    const pending = new Map<number, Pending>();
    const me: Live = { worker, pending, ready: null as unknown as Promise<ReadyMessage> };
    const idle = (): void => {
      if (pending.size === 0) worker.unref();
    };
    me.ready = new Promise<ReadyMessage>((resolveReady) => {
      // The bound starts when the thread says it runs, before it imports the plugin: booting a
      // thread is the engine's cost, not the plugin's, and on a loaded machine it alone can take
      // longer than a tight bound. The thread's start cannot hang (it has no user code).
      let starting = true;
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        if (!starting) return;
        timer = setTimeout(() => {
          done({ ready: false, error: `register() failed: TimeoutError: register() did not finish within ${opts.readyTimeoutMs / 1000}s` });
          void worker.terminate();
        }, opts.readyTimeoutMs);
      };
      const done = (m: ReadyMessage): void => {
        if (!starting) return;
        starting = false;
        clearTimeout(timer);
        resolveReady(m);
        idle();
      };
      worker.on('message', (m: { started?: boolean; ready?: boolean; log?: string; message?: string; id?: number; ok?: boolean; value?: unknown; error?: { type: string; message: string } }) => {
        if ('started' in m) return arm();
        if ('ready' in m) return done(m as ReadyMessage);
        if (typeof m.log === 'string') {
          const fn = (logger as unknown as Record<string, ((s: string) => void) | undefined>)[m.log] ?? logger.warn;
          return fn.call(logger, String(m.message));
        }
        if (typeof m.id !== 'number') return;
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        idle();
        if (m.ok) p.resolve(m.value ?? null);
        else p.reject(namedError(m.error?.type ?? 'Error', m.error?.message ?? 'callback failed'));
      });
      worker.on('error', (e) => {
        // An uncaught throw outside any call (a stray timer in the plugin): the thread is gone.
        if (starting) done({ ready: false, error: `importing ${opts.entryFile} failed: ${e.name}: ${e.message}` });
        else logger.warn(`[plugins] ${name}: worker thread failed: ${e.name}: ${e.message}; it is restarted at the next call`);
      });
      worker.on('exit', () => {
        if (starting) done({ ready: false, error: `the worker thread of ${name} exited before register() finished` });
        if (live === me) live = null;
        for (const p of pending.values()) p.reject(new Error(`the worker thread of plugin ${name} stopped`));
        pending.clear();
      });
    });
    return me;
  };

  const first = spawn();
  live = first;
  const ready = await first.ready;
  if (!ready.ready) {
    live = null;
    await first.worker.terminate();
    return { error: ready.error ?? 'register() failed' };
  }
  const hooks = ready.hooks ?? [];
  registered = hooks.length;

  const call = async (hook: number, kwargs: Record<string, unknown>, signal: AbortSignal, arm?: () => void): Promise<unknown> => {
    if (closed) throw new Error(`plugin ${name} is closed`);
    let me = live;
    if (me === null) {
      me = live = spawn();
      const again = await me.ready;
      if (!again.ready) {
        if (live === me) live = null;
        throw new Error(`plugin ${name} could not be restarted: ${again.error ?? 'register() failed'}`);
      }
      if ((again.hooks ?? []).length !== registered) {
        logger.warn(`[plugins] ${name}: register(ctx) registered ${again.hooks?.length ?? 0} hooks after a restart, ${registered} at first; calls follow the first registration order`);
      }
    }
    // Its bound starts now that a thread has the plugin loaded (a restart is not the callback's time).
    arm?.();
    const current = me;
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const onAbort = (): void => {
        // Abandoned: stop the thread whatever it is doing (a sync loop cannot be stopped otherwise).
        if (live === current) live = null;
        void current.worker.terminate();
      };
      current.pending.set(id, {
        resolve: (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
      });
      current.worker.ref();
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) return onAbort();
      try {
        current.worker.postMessage({ id, hook, kwargs });
      } catch {
        // Functions or host objects in kwargs cannot be cloned: send what JSON can say of them.
        current.worker.postMessage({ id, hook, kwargs: jsonSafe(kwargs) ?? {} });
      }
    });
  };

  return {
    registrations: hooks.map((h, i) => ({
      event: h.event,
      fn: h.name,
      callable: h.callable,
      callback: armsItsBound((kwargs, { signal, arm }) => call(i, kwargs, signal, arm)),
    })),
    async close() {
      closed = true;
      const w = live;
      live = null;
      if (w) await w.worker.terminate();
    },
  };
}

function namedError(type: string, message: string): Error {
  const err = new Error(message);
  err.name = type;
  return err;
}

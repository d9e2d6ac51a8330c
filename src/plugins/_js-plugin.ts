// A JS plugin runs in its own worker thread (_plugin-worker.mjs), so a timeout can actually stop
// it: when a call is abandoned after plugins.hook_callback_timeout, the thread is terminated —
// which ends even a synchronous `while (true) {}` — and a fresh one (module imported, register(ctx)
// run again) is started for the next call. The host's event loop never runs plugin code.
// The cost: one thread per plugin (~10 MB), and a message round trip per call (bench/plugins).

import { Worker } from 'node:worker_threads';
import type { Logger } from '../types.js';
import { jsonSafe } from '../json.js';
import { armsItsBound } from './callback-runner.js';
import type { RemoteRegistration } from './_python-plugin.js';
import { pluginOutput } from './_output.js';

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

/** One plugin across its threads' restarts. */
interface PluginState {
  opts: JsPluginOptions;
  live: Live | null;
  closed: boolean;
  nextId: number;
  /** Hooks the first register(ctx) registered (calls follow that order). */
  registered: number;
}

/** What a thread posts: its start, its ready line, a log line from ctx.logger, or a call's reply. */
interface ThreadMessage {
  started?: boolean;
  ready?: boolean;
  log?: string;
  message?: string;
  id?: number;
  ok?: boolean;
  value?: unknown;
  error?: { type: string; message: string };
}

export async function startJsPlugin(opts: JsPluginOptions): Promise<StartedJsPlugin | { error: string }> {
  const p: PluginState = { opts, live: null, closed: false, nextId: 1, registered: -1 };
  const first = spawnThread(p);
  p.live = first;
  const ready = await first.ready;
  if (!ready.ready) {
    p.live = null;
    await first.worker.terminate();
    return { error: ready.error ?? 'register() failed' };
  }
  const hooks = ready.hooks ?? [];
  p.registered = hooks.length;
  return {
    registrations: hooks.map((h, i) => ({
      event: h.event,
      fn: h.name,
      callable: h.callable,
      callback: armsItsBound((kwargs, { signal, arm }) => callThread(p, i, kwargs, signal, arm)),
    })),
    async close() {
      p.closed = true;
      const w = p.live;
      p.live = null;
      if (w) await w.worker.terminate();
    },
  };
}

function spawnThread(p: PluginState): Live {
  const { opts } = p;
  const worker = new Worker(WORKER_URL, {
    workerData: { entryFile: opts.entryFile, plugin: opts.name, dir: opts.dir, home: opts.home },
    stdout: true,
    stderr: true,
  });
  // The plugin's console output is the host's log, never the host's stdout (a decision may be there).
  for (const stream of [worker.stdout, worker.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim() !== '') pluginOutput(opts.logger, `[plugins] ${opts.name}: ${line}`);
    });
  }
  const me: Live = { worker, pending: new Map(), ready: null as unknown as Promise<ReadyMessage> };
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
      if (me.pending.size === 0) worker.unref();
    };
    worker.on('message', (m: ThreadMessage) => {
      if ('started' in m) return arm();
      if ('ready' in m) return done(m as ReadyMessage);
      onThreadMessage(p, me, m);
    });
    worker.on('error', (e) => {
      // An uncaught throw outside any call (a stray timer in the plugin): the thread is gone.
      if (starting) done({ ready: false, error: `importing ${opts.entryFile} failed: ${e.name}: ${e.message}` });
      else opts.logger.warn(`[plugins] ${opts.name}: worker thread failed: ${e.name}: ${e.message}; it is restarted at the next call`);
    });
    worker.on('exit', () => {
      if (starting) done({ ready: false, error: `the worker thread of ${opts.name} exited before register() finished` });
      if (p.live === me) p.live = null;
      for (const call of me.pending.values()) call.reject(new Error(`the worker thread of plugin ${opts.name} stopped`));
      me.pending.clear();
    });
  });
  return me;
}

/** A log line from the plugin's ctx.logger, or a call's reply. */
function onThreadMessage(p: PluginState, me: Live, m: ThreadMessage): void {
  const { logger } = p.opts;
  if (typeof m.log === 'string') {
    const fn = (logger as unknown as Record<string, ((s: string) => void) | undefined>)[m.log] ?? logger.warn;
    return fn.call(logger, String(m.message));
  }
  if (typeof m.id !== 'number') return;
  const call = me.pending.get(m.id);
  if (!call) return;
  me.pending.delete(m.id);
  if (me.pending.size === 0) me.worker.unref();
  if (m.ok) call.resolve(m.value ?? null);
  else call.reject(namedError(m.error?.type ?? 'Error', m.error?.message ?? 'callback failed'));
}

/** The live thread, or a new one started for this call (its register() run again). */
async function liveThread(p: PluginState): Promise<Live> {
  if (p.live !== null) return p.live;
  const me = (p.live = spawnThread(p));
  const again = await me.ready;
  if (!again.ready) {
    if (p.live === me) p.live = null;
    throw new Error(`plugin ${p.opts.name} could not be restarted: ${again.error ?? 'register() failed'}`);
  }
  if ((again.hooks ?? []).length !== p.registered) {
    p.opts.logger.warn(
      `[plugins] ${p.opts.name}: register(ctx) registered ${again.hooks?.length ?? 0} hooks after a restart, ${p.registered} at first; calls follow ` +
        `the first registration order`,
    );
  }
  return me;
}

async function callThread(p: PluginState, hook: number, kwargs: Record<string, unknown>, signal: AbortSignal, arm?: () => void): Promise<unknown> {
  if (p.closed) throw new Error(`plugin ${p.opts.name} is closed`);
  const current = await liveThread(p);
  // Its bound starts now that a thread has the plugin loaded (a restart is not the callback's time).
  arm?.();
  return new Promise((resolve, reject) => {
    const id = p.nextId++;
    const onAbort = (): void => {
      // Abandoned: stop the thread whatever it is doing (a sync loop cannot be stopped otherwise).
      if (p.live === current) p.live = null;
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
}

function namedError(type: string, message: string): Error {
  const err = new Error(message);
  err.name = type;
  return err;
}

// A Hermes Python plugin (plugin.yaml + __init__.py with register(ctx)) run unchanged by
// plugin_bootstrap.py in a long-lived python3 worker, one per plugin. Each call is one JSON line;
// the worker runs it on its own thread, so a callback that never returns is abandoned by the
// callback runner's timeout (the host's event loop is never involved) and its late reply, if it
// ever comes, settles the abandoned call.

import { fileURLToPath } from 'node:url';
import type { Logger } from '../types.js';
import { awaitReady, describeWorkerExit, pythonError, type PythonWorker, startPythonWorker } from '../spawn/python-worker.js';
import { jsonSafe } from '../_json.js';
import { armsItsBound } from './callback-runner.js';
import type { PluginCallback } from './types.js';

/** Shipped next to this module (the build copies it to dist/plugins/ and dist/cli/). */
export const PLUGIN_BOOTSTRAP_PATH = fileURLToPath(new URL('./plugin_bootstrap.py', import.meta.url));

export interface RemoteRegistration {
  event: string;
  /** The callback's function name; null for a lambda. */
  fn: string | null;
  /** False when register_hook was given something that is not callable. */
  callable: boolean;
  callback: PluginCallback;
}

export interface StartedPythonPlugin {
  registrations: RemoteRegistration[];
  /** ctx methods register(ctx) called that this engine does not offer (register_tool, …). */
  unsupported: string[];
  close(): Promise<void>;
}

export interface PythonPluginOptions {
  name: string;
  dir: string;
  python: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How long importing __init__.py and register(ctx) may take. */
  readyTimeoutMs: number;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** Counted in `active` (keeps the host alive); false once the caller abandoned it. */
  active: boolean;
}

interface ReadyMessage {
  ready: boolean;
  error?: unknown;
  hooks?: unknown;
  unsupported?: unknown;
}

interface Live {
  worker: PythonWorker;
  pending: Map<number, Pending>;
  /** Takes a call off the books (replied, or the worker died). */
  settle(id: number): Pending | undefined;
  /** A call counts toward keeping the host alive (on) or no longer, once abandoned (off). */
  activate(p: Pending, on: boolean): void;
}

export async function startPythonPlugin(opts: PythonPluginOptions): Promise<StartedPythonPlugin | { error: string }> {
  const { name, logger } = opts;
  let closing = false;
  let nextId = 1;
  let live: Live | null = null;
  let registered = -1;
  /** One restart at a time; a failed one is retried by the next call. */
  let restarting: Promise<void> | null = null;
  let restartError: string | null = null;

  /** Start a worker and wait for its ready line (import + register(ctx)). */
  const spawn = async (): Promise<{ live: Live; ready: ReadyMessage } | { error: string }> => {
    const worker = startPythonWorker({ python: opts.python, script: PLUGIN_BOOTSTRAP_PATH, args: [opts.dir, name], env: opts.env });
    worker.onOutput((line) => logger.info?.(`[plugins] ${name}: ${line}`));
    const pending = new Map<number, Pending>();
    let active = 0;
    let loaded = false;
    const settle = (id: number): Pending | undefined => {
      const p = pending.get(id);
      if (!p) return undefined;
      pending.delete(id);
      if (p.active) {
        p.active = false;
        if (--active === 0) worker.setActive(false);
      }
      return p;
    };
    const activate = (p: Pending, on: boolean): void => {
      if (on) {
        if (active++ === 0) worker.setActive(true);
      } else if (p.active) {
        p.active = false;
        if (--active === 0) worker.setActive(false);
      }
    };
    const me: Live = { worker, pending, settle, activate };
    let ready!: (m: ReadyMessage) => void;
    const readyMsg = new Promise<ReadyMessage>((r) => (ready = r));
    worker.onMessage((m) => {
      if (typeof m !== 'object' || m === null) return;
      const msg = m as { ready?: unknown; id?: unknown; ok?: unknown; value?: unknown; error?: unknown };
      if ('ready' in msg) return ready(msg as ReadyMessage);
      if (typeof msg.id !== 'number') return;
      const p = settle(msg.id);
      if (!p) return;
      if (msg.ok === true) p.resolve(msg.value ?? null);
      else p.reject(pythonError(typeof msg.error === 'string' ? msg.error : 'callback failed'));
    });
    void worker.exited.then((exit) => {
      const why = describeWorkerExit(exit);
      for (const id of [...pending.keys()]) settle(id)?.reject(new Error(`python worker ${why}`));
      if (live === me) live = null;
      if (loaded && !closing) {
        logger.warn(`[plugins] ${name}: python worker ${why}; a new one is started for the next call`);
        // Start it now, not inside the next call: importing the plugin again must not eat into
        // that call's hook_callback_timeout (and so fail it closed and suppress it).
        restarting ??= restart();
      }
    });

    const first = await awaitReady(worker, readyMsg, {
      timeoutMs: opts.readyTimeoutMs,
      timeout: 'importing __init__.py and register(ctx) did not finish',
      needs: 'a Python plugin',
      notLoaded: '__init__.py could not be loaded',
    });
    if (!('ready' in first)) return first;
    loaded = true;
    return { live: me, ready: first };
  };

  const started = await spawn();
  if ('error' in started) return started;
  live = started.live;

  const restart = async (): Promise<void> => {
    try {
      const again = await spawn();
      if ('error' in again) {
        restartError = again.error;
        return;
      }
      restartError = null;
      // Closed while it started: it is not ours to keep.
      if (closing) return void (await again.live.worker.stop());
      live = again.live;
      const n = Array.isArray(again.ready.hooks) ? again.ready.hooks.length : 0;
      if (n !== registered) logger.warn(`[plugins] ${name}: register(ctx) registered ${n} hooks after a restart, ${registered} at first; calls follow the first registration order`);
    } finally {
      restarting = null;
    }
  };

  const call = async (hook: number, kwargs: Record<string, unknown>, signal: AbortSignal, arm?: () => void): Promise<unknown> => {
    if (closing) throw new Error(`plugin ${name} is closed`);
    // The worker died (os._exit, a crash): wait for the new one, as a JS plugin's thread is restarted.
    if (live === null) await (restarting ??= restart());
    if (live === null) throw new Error(`plugin ${name} could not be restarted: ${restartError ?? 'its worker exited'}`);
    arm?.();
    const current = live;
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const p: Pending = { resolve, reject, active: true };
      current.pending.set(id, p);
      current.activate(p, true);
      // Abandoned after the timeout: still pending (its late reply settles it, which is how the
      // runner counts still-running calls), but no longer a reason to keep the host alive.
      signal.addEventListener('abort', () => current.activate(p, false), { once: true });
      if (!current.worker.send({ id, hook, kwargs: jsonSafe(kwargs) ?? {} })) {
        current.settle(id);
        reject(new Error('python worker is not running'));
      }
    });
  };

  const registrations: RemoteRegistration[] = [];
  const list = Array.isArray(started.ready.hooks) ? (started.ready.hooks as { event?: unknown; name?: unknown; callable?: unknown }[]) : [];
  registered = list.length;
  list.forEach((h, i) => {
    registrations.push({
      event: typeof h.event === 'string' ? h.event : String(h.event),
      fn: typeof h.name === 'string' && h.name !== '' ? h.name : null,
      callable: h.callable !== false,
      callback: armsItsBound((kwargs, { signal, arm }) => call(i, kwargs, signal, arm)),
    });
  });
  const unsupported = Array.isArray(started.ready.unsupported) ? started.ready.unsupported.filter((u): u is string => typeof u === 'string') : [];
  return {
    registrations,
    unsupported,
    async close() {
      closing = true;
      await restarting;
      const w = live;
      live = null;
      if (w) await w.worker.stop();
    },
  };
}

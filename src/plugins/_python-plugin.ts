// A Hermes Python plugin (plugin.yaml + __init__.py with register(ctx)) run unchanged by
// plugin_bootstrap.py in a long-lived python3 worker, one per plugin. Each call is one JSON line;
// the worker runs it on its own thread, so a callback that never returns is abandoned by the
// callback runner's timeout (the host's event loop is never involved) and its late reply, if it
// ever comes, settles the abandoned call.

import { fileURLToPath } from 'node:url';
import type { Logger } from '../types.js';
import { awaitReady, describeWorkerExit, pythonError, type PythonWorker, startPythonWorker, type WorkerExit } from '../spawn/python-worker.js';
import { jsonSafe } from '../json.js';
import { armsItsBound } from './callback-runner.js';
import type { PluginCallback } from './types.js';
import { pluginOutput } from './_output.js';

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
  /** Pending calls that keep the host alive. */
  active: number;
  /** Its ready line came: a later exit is a crash to restart from, not a load failure. */
  loaded: boolean;
}

/** One plugin across its workers' restarts. */
interface PluginState {
  opts: PythonPluginOptions;
  closing: boolean;
  nextId: number;
  live: Live | null;
  /** Hooks the first register(ctx) registered (calls follow that order). */
  registered: number;
  /** One restart at a time; a failed one is retried by the next call. */
  restarting: Promise<void> | null;
  restartError: string | null;
}

export async function startPythonPlugin(opts: PythonPluginOptions): Promise<StartedPythonPlugin | { error: string }> {
  const p: PluginState = { opts, closing: false, nextId: 1, live: null, registered: -1, restarting: null, restartError: null };
  const started = await spawnWorker(p);
  if ('error' in started) return started;
  p.live = started.live;
  const list = Array.isArray(started.ready.hooks) ? (started.ready.hooks as { event?: unknown; name?: unknown; callable?: unknown }[]) : [];
  p.registered = list.length;
  const registrations: RemoteRegistration[] = list.map((h, i) => ({
    event: typeof h.event === 'string' ? h.event : String(h.event),
    fn: typeof h.name === 'string' && h.name !== '' ? h.name : null,
    callable: h.callable !== false,
    callback: armsItsBound((kwargs, { signal, arm }) => callWorker(p, i, kwargs, signal, arm)),
  }));
  const unsupported = Array.isArray(started.ready.unsupported) ? started.ready.unsupported.filter((u): u is string => typeof u === 'string') : [];
  return {
    registrations,
    unsupported,
    async close() {
      p.closing = true;
      await p.restarting;
      const w = p.live;
      p.live = null;
      if (w) await w.worker.stop();
    },
  };
}

/** Takes a call off the books (replied, or the worker died). */
function settle(me: Live, id: number): Pending | undefined {
  const p = me.pending.get(id);
  if (!p) return undefined;
  me.pending.delete(id);
  activate(me, p, false);
  return p;
}

/** A call counts toward keeping the host alive (on) or no longer, once abandoned (off). */
function activate(me: Live, p: Pending, on: boolean): void {
  if (on) {
    p.active = true;
    if (me.active++ === 0) me.worker.setActive(true);
  } else if (p.active) {
    p.active = false;
    if (--me.active === 0) me.worker.setActive(false);
  }
}

/** Start a worker and wait for its ready line (import + register(ctx)). */
async function spawnWorker(p: PluginState): Promise<{ live: Live; ready: ReadyMessage } | { error: string }> {
  const { name, logger } = p.opts;
  const worker = startPythonWorker({ python: p.opts.python, script: PLUGIN_BOOTSTRAP_PATH, args: [p.opts.dir, name], env: p.opts.env });
  worker.onOutput((line) => pluginOutput(logger, `[plugins] ${name}: ${line}`));
  const me: Live = { worker, pending: new Map(), active: 0, loaded: false };
  let ready!: (m: ReadyMessage) => void;
  const readyMsg = new Promise<ReadyMessage>((r) => (ready = r));
  worker.onMessage((m) => {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as { ready?: unknown; id?: unknown; ok?: unknown; value?: unknown; error?: unknown };
    if ('ready' in msg) return ready(msg as ReadyMessage);
    if (typeof msg.id !== 'number') return;
    const call = settle(me, msg.id);
    if (!call) return;
    if (msg.ok === true) call.resolve(msg.value ?? null);
    else call.reject(pythonError(typeof msg.error === 'string' ? msg.error : 'callback failed'));
  });
  void worker.exited.then((exit) => onWorkerExit(p, me, exit));

  const first = await awaitReady(worker, readyMsg, {
    timeoutMs: p.opts.readyTimeoutMs,
    timeout: 'importing __init__.py and register(ctx) did not finish',
    needs: 'a Python plugin',
    notLoaded: '__init__.py could not be loaded',
  });
  if (!('ready' in first)) return first;
  me.loaded = true;
  return { live: me, ready: first };
}

function onWorkerExit(p: PluginState, me: Live, exit: WorkerExit): void {
  const why = describeWorkerExit(exit);
  for (const id of [...me.pending.keys()]) settle(me, id)?.reject(new Error(`python worker ${why}`));
  if (p.live === me) p.live = null;
  if (me.loaded && !p.closing) {
    p.opts.logger.warn(`[plugins] ${p.opts.name}: python worker ${why}; a new one is started for the next call`);
    // Start it now, not inside the next call: importing the plugin again must not eat into
    // that call's hook_callback_timeout (and so fail it closed and suppress it).
    p.restarting ??= restartWorker(p);
  }
}

async function restartWorker(p: PluginState): Promise<void> {
  try {
    const again = await spawnWorker(p);
    if ('error' in again) {
      p.restartError = again.error;
      return;
    }
    p.restartError = null;
    // Closed while it started: it is not ours to keep.
    if (p.closing) return void (await again.live.worker.stop());
    p.live = again.live;
    const n = Array.isArray(again.ready.hooks) ? again.ready.hooks.length : 0;
    if (n !== p.registered) {
      p.opts.logger.warn(
        `[plugins] ${p.opts.name}: register(ctx) registered ${n} hooks after a restart, ${p.registered} at first; calls follow the first registration order`,
      );
    }
  } finally {
    p.restarting = null;
  }
}

async function callWorker(p: PluginState, hook: number, kwargs: Record<string, unknown>, signal: AbortSignal, arm?: () => void): Promise<unknown> {
  const { name } = p.opts;
  if (p.closing) throw new Error(`plugin ${name} is closed`);
  // The worker died (os._exit, a crash): wait for the new one, as a JS plugin's thread is restarted.
  if (p.live === null) await (p.restarting ??= restartWorker(p));
  if (p.live === null) throw new Error(`plugin ${name} could not be restarted: ${p.restartError ?? 'its worker exited'}`);
  arm?.();
  const current = p.live;
  return new Promise((resolve, reject) => {
    const id = p.nextId++;
    const call: Pending = { resolve, reject, active: false };
    current.pending.set(id, call);
    activate(current, call, true);
    // Abandoned after the timeout: still pending (its late reply settles it, which is how the
    // runner counts still-running calls), but no longer a reason to keep the host alive.
    signal.addEventListener('abort', () => activate(current, call, false), { once: true });
    if (!current.worker.send({ id, hook, kwargs: jsonSafe(kwargs) ?? {} })) {
      settle(current, id);
      reject(new Error('python worker is not running'));
    }
  });
}

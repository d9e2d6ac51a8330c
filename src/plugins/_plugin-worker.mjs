// The worker thread one JS plugin runs in (started by _js-plugin.ts). Plain JavaScript shipped as
// is: the build copies it next to the compiled loader. It imports the plugin's entry module,
// calls register(ctx), reports what was registered ({started} first, then {ready, hooks}), then runs calls: {id, hook, kwargs} in,
// {id, ok, value} or {id, ok: false, error: {type, message}} out. The host terminates this thread
// when a call outlives plugins.hook_callback_timeout, which stops even a synchronous endless loop.

import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

const { entryFile, plugin, dir, home } = workerData;
const post = (m) => parentPort.postMessage(m);
// The thread is up: the host's register() bound starts now (booting a thread is not the plugin's time).
post({ started: true });

function describe(e) {
  if (e instanceof Error) {
    const ctor = e.constructor && e.constructor.name;
    const type = typeof ctor === 'string' && ctor !== '' && ctor !== 'Error' ? ctor : e.name || 'Error';
    return { type, message: String(e.message) };
  }
  let message;
  try {
    message = typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e));
  } catch {
    message = String(e);
  }
  return { type: 'Error', message };
}

const log = (level) => (...parts) => post({ log: level, message: parts.map(String).join(' ') });
const hooks = [];
let open = true;
const ctx = {
  plugin,
  dir,
  home,
  logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  registerHook(event, callback) {
    if (!open) {
      log('warn')(`[plugins] ${plugin}: registerHook('${String(event)}') after register() returned is ignored`);
      return;
    }
    hooks.push({ event: String(event), callback });
  },
};

async function start() {
  let mod;
  try {
    mod = await import(pathToFileURL(entryFile).href);
  } catch (e) {
    const d = describe(e);
    return post({ ready: false, error: `importing ${entryFile} failed: ${d.type}: ${d.message}` });
  }
  const fromDefault = mod.default;
  const register =
    typeof mod.register === 'function' ? mod.register : typeof fromDefault?.register === 'function' ? fromDefault.register : null;
  if (register === null) return post({ ready: false, error: `${entryFile} does not export a register(ctx) function` });
  try {
    await register.call(mod, ctx);
  } catch (e) {
    const d = describe(e);
    return post({ ready: false, error: `register() failed: ${d.type}: ${d.message}` });
  } finally {
    open = false;
  }
  post({
    ready: true,
    hooks: hooks.map((h) => ({
      event: h.event,
      name: typeof h.callback === 'function' && h.callback.name && h.callback.name !== 'anonymous' ? h.callback.name : null,
      callable: typeof h.callback === 'function',
    })),
  });
}

// Listening from the start also keeps the thread alive while register() awaits something that
// never settles (the host's bound then ends it, not an empty event loop).
parentPort.on('message', async ({ id, hook, kwargs }) => {
  const controller = new AbortController();
  let reply;
  try {
    const value = await hooks[hook].callback(kwargs, { signal: controller.signal });
    reply = { id, ok: true, value };
  } catch (e) {
    reply = { id, ok: false, error: describe(e) };
  }
  try {
    post(reply);
  } catch (e) {
    // A returned function, symbol or class with private state cannot leave the thread.
    post({ id, ok: false, error: { type: 'DataCloneError', message: `the callback returned a value that cannot be copied out of its worker: ${describe(e).message}` } });
  }
});

void start();

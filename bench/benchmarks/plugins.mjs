// Plugin callback cost per call: a plugin runs where a timeout can stop it (a JS plugin in its
// own worker thread, a Python plugin in a python3 worker), which costs a message round trip per
// call over a host callback that runs in the host's own thread. Measured as the wall time of one
// pre_tool_call emit with one callback answering null, interleaved: host callback (the floor:
// engine.registerHook), JS plugin in a worker thread, Python plugin in a python3 worker. Also the
// price of a stuck call: a JS callback spinning in `for (;;) {}` with hook_callback_timeout: 1 is
// stopped (thread terminated), and the next call pays a fresh thread plus register(ctx).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { DIST_INDEX_URL } from '../lib/paths.mjs';
import { KWARGS, makeWorkspace } from '../lib/fixtures.mjs';
import { rotate, round, summarize } from '../lib/stats.mjs';

const JS_PLUGIN = `export function register(ctx) {
  ctx.registerHook('pre_tool_call', function observe({ tool_name }) {
    if (tool_name.startsWith('spin')) for (;;) {}
    return null;
  });
}
`;
const PY_PLUGIN = `def observe(tool_name, args):
    return None


def register(ctx):
    ctx.register_hook("pre_tool_call", observe)
`;

function plugin(home, name, files) {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${name}\n`);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
}

benchMain(async ({ quick }) => {
  const calls = quick ? 200 : 2000;
  const restarts = quick ? 2 : 4;
  const ws = makeWorkspace('plugins');
  try {
    const lib = await import(DIST_INDEX_URL);
    const open = (home) =>
      lib.createHookEngine({ home, acceptHooks: true, interactive: false, exitCleanup: false, logger: lib.silentLogger, events: ['pre_tool_call'] });
    const hostHome = ws.home('host', 'hooks: {}\n');
    const jsHome = ws.home('js', 'plugins:\n  enabled: [js]\n  hook_callback_timeout: 1\n');
    plugin(jsHome, 'js', { 'index.mjs': JS_PLUGIN });
    const pyHome = ws.home('py', 'plugins:\n  enabled: [py]\n');
    plugin(pyHome, 'py', { '__init__.py': PY_PLUGIN });

    const engines = { host_callback: await open(hostHome), js_worker_thread: await open(jsHome), python_worker: await open(pyHome) };
    engines.host_callback.registerHook('pre_tool_call', function observe() {
      return null;
    });
    const wall = Object.fromEntries(Object.keys(engines).map((n) => [n, []]));
    const names = Object.keys(engines);
    // Warm up each path, then interleave in blocks of 10 calls.
    for (const n of names) for (let i = 0; i < 50; i++) await engines[n].emit('pre_tool_call', KWARGS);
    for (let b = 0; b < calls / 10; b++) {
      for (const n of rotate(names, b)) {
        for (let i = 0; i < 10; i++) {
          const t0 = performance.now();
          const e = await engines[n].emit('pre_tool_call', KWARGS);
          wall[n].push(performance.now() - t0);
          if (e.hooks[0]?.status !== 'ok') throw new Error(`${n}: ${e.hooks[0]?.status} ${e.hooks[0]?.error}`);
        }
      }
    }

    // A stuck call, then the first call after it (a fresh thread: import + register(ctx)). Each
    // spin is another tool: suppression after a timeout is per tool.
    const stuck = [];
    const firstAfter = [];
    for (let i = 0; i < restarts; i++) {
      let t0 = performance.now();
      const e = await engines.js_worker_thread.emit('pre_tool_call', { ...KWARGS, tool_name: `spin${i}` });
      stuck.push(performance.now() - t0);
      if (e.hooks[0]?.status !== 'timeout') throw new Error(`spin: ${e.hooks[0]?.status}`);
      t0 = performance.now();
      await engines.js_worker_thread.emit('pre_tool_call', KWARGS);
      firstAfter.push(performance.now() - t0);
    }
    for (const e of Object.values(engines)) await e.close({ finalize: false });

    const stats = Object.fromEntries(Object.entries(wall).map(([n, w]) => [n, { wall_ms: summarize(w, 3) }]));
    stats.js_spinning_call = { wall_ms: summarize(stuck, 1) };
    stats.js_first_call_after_restart = { wall_ms: summarize(firstAfter, 1) };
    const host = stats.host_callback.wall_ms.median;
    const js = stats.js_worker_thread.wall_ms.median;
    const py = stats.python_worker.wall_ms.median;
    return {
      name: 'plugins',
      title: 'Plugin callback cost per call: worker thread / python3 worker vs a host callback',
      params: { calls, restarts, hook_callback_timeout_s: 1 },
      variants: stats,
      figures: [
        figure('JS plugin in a worker thread: cost per call over a host callback (median emit)', round(js - host, 3), 'ms', {
          limit: `host callback emit ${round(host, 3)} ms (p95 ${stats.host_callback.wall_ms.p95}); worker-thread emit ${round(js, 3)} ms (p95 ${stats.js_worker_thread.wall_ms.p95})`,
        }),
        figure('Python plugin in a python3 worker: cost per call over a host callback (median emit)', round(py - host, 3), 'ms', {
          limit: `python worker emit ${round(py, 3)} ms (p95 ${stats.python_worker.wall_ms.p95})`,
        }),
        figure('sync for(;;) with hook_callback_timeout 1: emit returns after (max)', round(stats.js_spinning_call.wall_ms.max / 1000, 3), 's', {
          target: '≤ 1.5',
          pass: stats.js_spinning_call.wall_ms.max <= 1500,
          limit: `first call after the restart (new thread + register): ${stats.js_first_call_after_restart.wall_ms.median} ms median`,
        }),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

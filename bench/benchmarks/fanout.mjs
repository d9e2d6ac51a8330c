// Fan-out: 16 hooks of 200 ms each on one event vs 16 bare spawns of them in parallel, and the
// same emit with concurrency 1 (what a runner that runs hooks one after another costs).
import { performance } from 'node:perf_hooks';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { createEnginePair } from '../lib/engine-variants.mjs';
import { measureInterleaved } from '../lib/interleave.mjs';
import { hooksYaml, KWARGS, makeWorkspace } from '../lib/fixtures.mjs';
import { spawnBare } from '../lib/proc.mjs';
import { round, summarize } from '../lib/stats.mjs';

const TARGET_RATIO = 1.15;
const HOOKS = 16;
const SLEEP_HOOK = `#!/bin/sh
# a 200 ms hook: read the payload, work for 200 ms, say nothing
read -r _payload || :
sleep 0.2
`;

benchMain(async ({ quick }) => {
  const runs = quick ? 6 : 15;
  const warmup = 2;
  const serialRuns = quick ? 1 : 2;
  const ws = makeWorkspace('fanout');
  try {
    const hook = ws.script('sleep200.sh', SLEEP_HOOK);
    // 16 distinct commands (the argument only tells them apart).
    const commands = Array.from({ length: HOOKS }, (_, i) => `${hook} ${i + 1}`);
    const home = ws.home('home', hooksYaml('pre_tool_call', commands));
    const { lib, engine, engineBase } = await createEnginePair(home);
    const serial = await lib.createHookEngine({ home, acceptHooks: true, interactive: false, exitCleanup: false, logger: lib.silentLogger, concurrency: 1 });
    const first = await engine.emit('pre_tool_call', KWARGS);
    const shell = first.hooks.filter((h) => h.kind === 'shell');
    if (shell.length !== HOOKS || shell.some((h) => h.status !== 'ok'))
      throw new Error(`fan-out hooks did not all run: ${JSON.stringify(shell.map((h) => h.status))}`);
    const payload = lib.serializePayload(first.payload);

    const checkEmit = (e) => {
      const bad = e.hooks.filter((h) => h.kind === 'shell' && h.status !== 'ok');
      if (bad.length) throw new Error(`fan-out emit: ${bad.length} hooks not ok`);
    };
    const variants = {
      bare_parallel: async () => {
        const rs = await Promise.all(commands.map((_, i) => spawnBare(hook, [String(i + 1)], payload)));
        if (rs.some((r) => r.code !== 0)) throw new Error('bare fan-out: a hook failed');
      },
      emit: async () => checkEmit(await engine.emit('pre_tool_call', KWARGS)),
      ...(engineBase ? { emit_baseline: async () => checkEmit(await engineBase.emit('pre_tool_call', KWARGS)) } : {}),
    };
    const { names, wall, cpu } = await measureInterleaved(variants, { warmup, runs });
    const serialWall = [];
    for (let i = 0; i < serialRuns; i++) {
      const t0 = performance.now();
      checkEmit(await serial.emit('pre_tool_call', KWARGS));
      serialWall.push(performance.now() - t0);
    }
    for (const e of [engine, engineBase, serial]) await e?.close({ finalize: false });

    const stats = Object.fromEntries(names.map((n) => [n, { wall_ms: summarize(wall[n], 1), host_cpu_ms: summarize(cpu[n], 2) }]));
    stats.emit_concurrency_1 = { wall_ms: summarize(serialWall, 1) };
    const ratio = stats.emit.wall_ms.median / stats.bare_parallel.wall_ms.median;
    const ratioBase = stats.emit_baseline ? stats.emit_baseline.wall_ms.median / stats.bare_parallel.wall_ms.median : null;
    const ratioSerial = stats.emit_concurrency_1.wall_ms.median / stats.bare_parallel.wall_ms.median;
    return {
      name: 'fanout',
      title: `Fan-out: ${HOOKS} hooks of 200 ms on one event vs ${HOOKS} bare spawns in parallel`,
      params: { hooks: HOOKS, hook_ms: 200, runs, warmup, serial_runs: serialRuns, interleaved: true, engine_concurrency: 16 },
      variants: stats,
      ratio_emit_vs_bare: round(ratio, 3),
      ratio_emit_baseline_vs_bare: ratioBase === null ? null : round(ratioBase, 3),
      ratio_concurrency_1_vs_bare: round(ratioSerial, 2),
      figures: [
        figure(`fan-out ${HOOKS}×200 ms: emit / bare parallel, median wall`, round(ratio, 3), '×', {
          target: `≤ ${TARGET_RATIO}`,
          pass: ratio <= TARGET_RATIO,
          limit: `bare parallel ${stats.bare_parallel.wall_ms.median} ms (p95 ${stats.bare_parallel.wall_ms.p95}); emit ${stats.emit.wall_ms.median} ms (p95 ${stats.emit.wall_ms.p95})`,
        }),
        ...(ratioBase === null
          ? []
          : [figure('fan-out, baseline build / bare', round(ratioBase, 3), '×', { limit: `${stats.emit_baseline.wall_ms.median} ms`, note: 'before' })]),
        figure('fan-out with concurrency 1 (hooks one after another)', stats.emit_concurrency_1.wall_ms.median, 'ms', {
          limit: `${round(ratioSerial, 2)}× the bare parallel run`,
          note: 'for comparison',
        }),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

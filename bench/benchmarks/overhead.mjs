// Per-hook overhead: engine.emit with one trivial hook vs a bare child_process.spawn of the same
// script with the same stdin bytes, interleaved run by run. More variants: the bare spawn in its
// own process group (what killing grandchildren requires), and, with HH_BENCH_BASELINE, the engine
// built from an earlier checkout (before → after in one run).
import { benchMain, figure } from '../lib/bench-main.mjs';
import { BASELINE, createEnginePair } from '../lib/engine-variants.mjs';
import { measureInterleaved } from '../lib/interleave.mjs';
import { hooksYaml, KWARGS, makeWorkspace, TRIVIAL_HOOK } from '../lib/fixtures.mjs';
import { singleHookVariants } from '../lib/proc.mjs';
import { round, summarize } from '../lib/stats.mjs';

const TARGET_RATIO = 1.15;

benchMain(async ({ quick }) => {
  const runs = quick ? 60 : 300;
  const warmup = quick ? 10 : 30;
  const ws = makeWorkspace('overhead');
  try {
    const hook = ws.script('trivial.sh', TRIVIAL_HOOK);
    const home = ws.home('home', hooksYaml('pre_tool_call', [hook]));
    const { lib, engine, engineBase } = await createEnginePair(home);

    // The bare spawn gets exactly the bytes the engine's hook gets on stdin.
    const first = await engine.emit('pre_tool_call', KWARGS);
    if (first.hooks[0]?.status !== 'ok') throw new Error(`trivial hook did not run: ${JSON.stringify(first.hooks[0])}`);
    const payload = lib.serializePayload(first.payload);

    const variants = singleHookVariants({ hook, payload, engine, engineBase, kwargs: KWARGS });
    const { names, wall, cpu } = await measureInterleaved(variants, { warmup, runs });
    await engine.close({ finalize: false });
    await engineBase?.close({ finalize: false });

    const stats = Object.fromEntries(names.map((n) => [n, { wall_ms: summarize(wall[n], 3), host_cpu_ms: summarize(cpu[n], 3) }]));
    const ratio = stats.emit.wall_ms.median / stats.bare.wall_ms.median;
    const base = stats.emit_baseline ?? null;
    const ratioDetached = stats.emit.wall_ms.median / stats.bare_detached.wall_ms.median;
    return {
      name: 'overhead',
      title: 'Per-hook overhead: engine.emit with one trivial hook vs a bare spawn',
      params: { runs, warmup, interleaved: true, hook: 'trivial.sh (sh built-ins: read stdin, print {})', baseline: BASELINE },
      variants: stats,
      ratio_emit_vs_bare: round(ratio, 3),
      ratio_emit_baseline_vs_bare: base ? round(base.wall_ms.median / stats.bare.wall_ms.median, 3) : null,
      ratio_emit_vs_bare_detached: round(ratioDetached, 3),
      figures: [
        figure('emit / bare spawn, median wall', round(ratio, 3), '×', {
          target: `≤ ${TARGET_RATIO}`,
          pass: ratio <= TARGET_RATIO,
          limit: `bare spawn ${stats.bare.wall_ms.median} ms (p95 ${stats.bare.wall_ms.p95}); emit ${stats.emit.wall_ms.median} ms (p95 ${stats.emit.wall_ms.p95})`,
        }),
        figure('emit / bare spawn in its own process group (detached)', round(ratioDetached, 3), '×', {
          limit: `bare detached spawn ${stats.bare_detached.wall_ms.median} ms (p95 ${stats.bare_detached.wall_ms.p95})`,
          note: 'the floor for a runner that can kill grandchildren',
        }),
        figure('host CPU per emit / per bare spawn', round(stats.emit.host_cpu_ms.median / stats.bare.host_cpu_ms.median, 3), '×', {
          limit: `emit ${stats.emit.host_cpu_ms.median} ms; bare ${stats.bare.host_cpu_ms.median} ms (medians)`,
        }),
        ...(base
          ? [
              figure('baseline build: emit / bare spawn', round(base.wall_ms.median / stats.bare.wall_ms.median, 3), '×', {
                limit: `baseline emit ${base.wall_ms.median} ms (p95 ${base.wall_ms.p95}), host CPU ${base.host_cpu_ms.median} ms`,
                note: `before → after: ${round(base.wall_ms.median - stats.emit.wall_ms.median, 3)} ms wall, ${round(base.host_cpu_ms.median - stats.emit.host_cpu_ms.median, 3)} ms CPU saved`,
              }),
            ]
          : []),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

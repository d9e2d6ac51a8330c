// Per-hook overhead: engine.emit with one trivial hook vs a bare child_process.spawn of the same
// script with the same stdin bytes, interleaved run by run. Two more variants: the bare spawn in
// its own process group (what killing grandchildren requires), and the very same engine with its
// one execa call swapped for plain child_process.spawn, to price execa exactly.
import { benchMain, figure } from '../lib/bench-main.mjs';
import { createEnginePair } from '../lib/engine-variants.mjs';
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
    const { lib, engine, engineCp } = await createEnginePair(home);

    // The bare spawn gets exactly the bytes the engine's hook gets on stdin.
    const first = await engine.emit('pre_tool_call', KWARGS);
    if (first.hooks[0]?.status !== 'ok') throw new Error(`trivial hook did not run: ${JSON.stringify(first.hooks[0])}`);
    const payload = lib.serializePayload(first.payload);

    const variants = singleHookVariants({ hook, payload, engine, engineCp, kwargs: KWARGS });
    const { names, wall, cpu } = await measureInterleaved(variants, { warmup, runs });
    const { launches: cpLaunches } = await import('../lib/launch-child-process.mjs');
    if (cpLaunches < warmup + runs) throw new Error(`the child_process variant launched ${cpLaunches} hooks, expected ${warmup + runs}`);
    await engine.close({ finalize: false });
    await engineCp.close({ finalize: false });

    const stats = Object.fromEntries(names.map((n) => [n, { wall_ms: summarize(wall[n], 3), host_cpu_ms: summarize(cpu[n], 3) }]));
    const ratio = stats.emit.wall_ms.median / stats.bare.wall_ms.median;
    const ratioCp = stats.emit_child_process.wall_ms.median / stats.bare.wall_ms.median;
    const ratioDetached = stats.emit.wall_ms.median / stats.bare_detached.wall_ms.median;
    const execaWall = stats.emit.wall_ms.median - stats.emit_child_process.wall_ms.median;
    const execaCpu = stats.emit.host_cpu_ms.median - stats.emit_child_process.host_cpu_ms.median;
    return {
      name: 'overhead',
      title: 'Per-hook overhead: engine.emit with one trivial hook vs a bare spawn',
      params: { runs, warmup, interleaved: true, hook: 'trivial.sh (sh built-ins: read stdin, print {})', cp_variant_launches: cpLaunches },
      variants: stats,
      ratio_emit_vs_bare: round(ratio, 3),
      ratio_emit_child_process_vs_bare: round(ratioCp, 3),
      ratio_emit_vs_bare_detached: round(ratioDetached, 3),
      execa_cost_per_run: { wall_ms: round(execaWall, 3), host_cpu_ms: round(execaCpu, 3) },
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
        figure('same engine on child_process instead of execa / bare', round(ratioCp, 3), '×', {
          limit: `emit on child_process ${stats.emit_child_process.wall_ms.median} ms (p95 ${stats.emit_child_process.wall_ms.p95})`,
          note: 'benchmark-only variant',
        }),
        figure('execa’s cost per hook run', round(execaWall, 3), 'ms wall', {
          note: `${round(execaCpu, 3)} ms host CPU (medians, emit − emit on child_process)`,
        }),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

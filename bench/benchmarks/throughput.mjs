// Throughput: emits per second with one stdin-reading guard (`input=$(cat)`, print a deny) vs bare spawns per second, with the same
// number of operations in flight, in alternating timed windows: one in flight (an agent emitting
// its events one after another) and 2 × nproc in flight (a busy host saturating the machine).
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { BASELINE, createEnginePair } from '../lib/engine-variants.mjs';
import { DENY_HOOK, hooksYaml, KWARGS, makeWorkspace } from '../lib/fixtures.mjs';
import { cpuSince, singleHookVariants } from '../lib/proc.mjs';
import { median, rotate, round } from '../lib/stats.mjs';

const TARGET_RATIO = 0.85;

/** Runs `op` in `inFlight` loops for `ms`; returns completed operations per second. */
async function window(op, inFlight, ms) {
  let done = 0;
  const t0 = performance.now();
  const end = t0 + ms;
  const loop = async () => {
    while (performance.now() < end) {
      await op();
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  return (done * 1000) / (performance.now() - t0);
}

benchMain(async ({ quick }) => {
  const windows = quick ? 3 : 6;
  const windowMs = quick ? 400 : 500;
  const nproc = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const levels = [1, Math.max(2, 2 * nproc)];
  const ws = makeWorkspace('throughput');
  try {
    const hook = ws.script('deny.sh', DENY_HOOK);
    const home = ws.home('home', hooksYaml('pre_tool_call', [hook]));
    const { lib, engine, engineBase } = await createEnginePair(home);
    const first = await engine.emit('pre_tool_call', KWARGS);
    const payload = lib.serializePayload(first.payload);
    const variants = singleHookVariants({ hook, payload, engine, engineBase, kwargs: KWARGS });
    const names = Object.keys(variants);
    const byLevel = {};
    const figures = [];
    for (const inFlight of levels) {
      for (const name of names) await window(variants[name], inFlight, 300); // warm-up
      const rates = Object.fromEntries(names.map((n) => [n, []]));
      const cpuPerOp = Object.fromEntries(names.map((n) => [n, []]));
      for (let i = 0; i < windows; i++) {
        for (const name of rotate(names, i)) {
          const c0 = process.cpuUsage();
          const r = await window(variants[name], inFlight, windowMs);
          rates[name].push(r);
          cpuPerOp[name].push(cpuSince(c0) / ((r * windowMs) / 1000));
        }
      }
      const stats = Object.fromEntries(
        names.map((n) => [
          n,
          {
            per_second_median: round(median(rates[n]), 1),
            windows: rates[n].map((r) => round(r, 1)),
            host_cpu_ms_per_op: round(median(cpuPerOp[n]), 2),
          },
        ]),
      );
      const ratio = stats.emit.per_second_median / stats.bare.per_second_median;
      const ratioBase = stats.emit_baseline ? stats.emit_baseline.per_second_median / stats.bare.per_second_median : null;
      const ratioDetached = stats.bare_detached.per_second_median / stats.bare.per_second_median;
      byLevel[`in_flight_${inFlight}`] = {
        variants: stats,
        ratio_emit_vs_bare: round(ratio, 3),
        ratio_emit_baseline_vs_bare: ratioBase === null ? null : round(ratioBase, 3),
        ratio_bare_detached_vs_bare: round(ratioDetached, 3),
      };
      figures.push(
        figure(`throughput, ${inFlight} in flight: emits/s ÷ bare spawns/s`, round(ratio, 3), '×', {
          target: `≥ ${TARGET_RATIO}`,
          pass: ratio >= TARGET_RATIO,
          limit: `bare ${stats.bare.per_second_median}/s (${stats.bare.host_cpu_ms_per_op} ms host CPU/op); emit ${stats.emit.per_second_median}/s (${stats.emit.host_cpu_ms_per_op} ms/op); bare in its own process group ${stats.bare_detached.per_second_median}/s`,
        }),
        ...(ratioBase === null
          ? []
          : [
              figure(`throughput, ${inFlight} in flight, baseline build ÷ bare`, round(ratioBase, 3), '×', {
                limit: `${stats.emit_baseline.per_second_median}/s (${stats.emit_baseline.host_cpu_ms_per_op} ms host CPU/op)`,
                note: 'before',
              }),
            ]),
      );
    }
    await engine.close({ finalize: false });
    await engineBase?.close({ finalize: false });
    return {
      name: 'throughput',
      title: 'Throughput: emits per second with one stdin-reading guard vs bare spawns per second',
      params: {
        in_flight_levels: levels,
        windows,
        window_ms: windowMs,
        interleaved: true,
        hook: 'deny.sh (bash: input=$(cat), print a deny)',
        baseline: BASELINE,
      },
      levels: byLevel,
      figures,
    };
  } finally {
    ws.cleanup();
  }
});

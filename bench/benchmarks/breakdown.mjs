// Where a hook run's cost goes, layer by layer, on the two hooks that matter: the stdin-reading
// guard (bash, `input=$(cat)`, print a deny) and a near-empty hook (sh built-ins, print {}). Each
// variant adds one layer to the previous one, all interleaved run by run, so the paired medians
// (each round against its own bare spawn) price each layer:
//   bare               child_process.spawn(hook), payload written to a stdin pipe, done at 'close'
//   detached_file      + own process group, + the private unlinked stdin file as fd 0 (the engine's)
//   detached_file_exit   the same, done at 'exit' instead of 'close' (what waiting for EOF costs)
//   spawn_hook         + spawnHook: argv split, exec-format check, deadline timer, live-group
//                        registry, bounded capture, the HookRun (src/spawn/run-hook.ts)
//   emit_no_consent    + the engine: payload, pool, dialect, evaluation, resolution, guardrails
//   emit               + the consent check at launch (src/consent/launch.ts) — the product
//   emit_baseline      the product of HH_BENCH_BASELINE (before → after), when given
// The pure steps are also timed alone in a tight loop (µs per call), and host CPU per run is
// reported next to wall time.
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { BASELINE, createEnginePair } from '../lib/engine-variants.mjs';
import { DENY_HOOK, hooksYaml, KWARGS, makeWorkspace, TRIVIAL_HOOK } from '../lib/fixtures.mjs';
import { measureInterleaved } from '../lib/interleave.mjs';
import { DIST } from '../lib/paths.mjs';
import { spawnBare } from '../lib/proc.mjs';
import { median, round, summarize } from '../lib/stats.mjs';

/** Issue 14: paired median over the bare spawn, per hook. */
const TARGET_OVER_MS = { deny: 1.0, empty: 0.5 };
const TARGET_P95_SLACK_MS = 2;
const TARGET_CPU_RATIO = 1.3;

const { openStdinCopySync, closeQuietly } = await import(pathToFileURL(`${DIST}/spawn/stdin-file.js`).href);

/** The engine's way of starting a hook, without the engine: detached, stdin file as fd 0. */
function spawnDetachedFile(file, bytes, { until = 'close' } = {}) {
  return new Promise((resolve, reject) => {
    const fd = openStdinCopySync(bytes);
    let child;
    try {
      child = spawn(file, [], { stdio: [fd, 'pipe', 'pipe'], detached: true });
    } finally {
      closeQuietly(fd);
    }
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', () => {});
    child.once('error', reject);
    child.once(until, (code) => resolve({ code, stdout: Buffer.concat(out).toString() }));
  });
}

/** µs per call of `fn`, median of 5 batches after a warm-up batch. */
function microUs(fn, n = 2000) {
  for (let i = 0; i < n; i++) fn();
  const batches = [];
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    batches.push(((performance.now() - t0) * 1000) / n);
  }
  return round(median(batches), 2);
}

async function measureHook(ws, name, body, { runs, warmup }) {
  const hook = ws.script(`${name}.sh`, body);
  const yaml = hooksYaml('pre_tool_call', [hook]);
  const home = ws.home(`${name}-home`, yaml);
  const { lib, engine, engineBase } = await createEnginePair(home);
  const dry = await lib.createHookEngine({ home, acceptHooks: true, interactive: false, exitCleanup: false, logger: lib.silentLogger, enforceConsent: false });
  const first = await engine.emit('pre_tool_call', KWARGS);
  if (first.hooks[0]?.status !== 'ok') throw new Error(`${name}: hook did not run: ${JSON.stringify(first.hooks[0])}`);
  const expected = first.decision.action;
  const payload = lib.serializePayload(first.payload);
  const bytes = Buffer.from(payload, 'utf8');

  const okCode = (label) => (r) => {
    if (r.code !== 0) throw new Error(`${name}/${label}: exit ${r.code}`);
  };
  const okEmit = (label, e) => async () => {
    const r = await e.emit('pre_tool_call', KWARGS);
    if (r.hooks[0].status !== 'ok' || r.decision.action !== expected) throw new Error(`${name}/${label}: ${r.hooks[0].status} ${r.decision.action}`);
  };
  const variants = {
    bare: async () => okCode('bare')(await spawnBare(hook, [], payload)),
    detached_file: async () => okCode('detached_file')(await spawnDetachedFile(hook, bytes)),
    detached_file_exit: async () => okCode('detached_file_exit')(await spawnDetachedFile(hook, bytes, { until: 'exit' })),
    spawn_hook: async () => {
      const r = await lib.spawnHook({ command: hook, stdin: bytes, timeoutMs: 30_000 });
      if (r.status !== 'ok') throw new Error(`${name}/spawn_hook: ${r.status}`);
    },
    emit_no_consent: okEmit('emit_no_consent', dry),
    emit: okEmit('emit', engine),
    ...(engineBase ? { emit_baseline: okEmit('emit_baseline', engineBase) } : {}),
  };
  const { names, wall, cpu } = await measureInterleaved(variants, { warmup, runs });
  for (const e of [engine, engineBase, dry]) await e?.close({ finalize: false });

  const paired = (n) => round(median(wall[n].map((w, i) => w - wall.bare[i])), 3);
  const stats = Object.fromEntries(
    names.map((n) => [n, { wall_ms: summarize(wall[n], 3), host_cpu_ms: summarize(cpu[n], 3), paired_over_bare_ms: n === 'bare' ? 0 : paired(n) }]),
  );

  // The pure steps alone, on this hook's real run.
  const run = await lib.spawnHook({ command: hook, stdin: bytes, timeoutMs: 30_000 });
  const spec = { event: 'pre_tool_call', command: hook, fail_closed: false, timeout: 30 };
  const directive = lib.evaluateRun(spec, run);
  const micro_us = {
    build_and_serialize_payload: microUs(() => lib.serializePayload(lib.buildPayload('pre_tool_call', KWARGS, { cwd: process.cwd(), profile: 'default' }))),
    evaluate_run: microUs(() => lib.evaluateRun(spec, run)),
    resolve: microUs(() => lib.resolve('pre_tool_call', [directive], KWARGS.args)),
    stdin_file_open_close: microUs(() => closeQuietly(openStdinCopySync(bytes)), 500),
  };
  return { hook: name, decision: expected, stats, micro_us };
}

benchMain(async ({ quick }) => {
  const runs = quick ? 40 : 150;
  const warmup = quick ? 10 : 200; // a long-lived host's steady state; a fresh process's first emit is cli-start's
  const ws = makeWorkspace('breakdown');
  const loadBefore = os.loadavg().map((x) => round(x, 2));
  try {
    const hooks = {
      deny: await measureHook(ws, 'deny', DENY_HOOK, { runs, warmup }),
      empty: await measureHook(ws, 'empty', TRIVIAL_HOOK, { runs, warmup }),
    };
    const figures = [];
    for (const [key, h] of Object.entries(hooks)) {
      const s = h.stats;
      const label = key === 'deny' ? 'stdin-reading guard' : 'near-empty hook';
      const over = s.emit.paired_over_bare_ms;
      const p95Limit = s.bare.wall_ms.p95 + TARGET_P95_SLACK_MS;
      const cpuRatio = s.emit.host_cpu_ms.median / s.bare.host_cpu_ms.median;
      const layers = ['detached_file', 'detached_file_exit', 'spawn_hook', 'emit_no_consent', 'emit', 'emit_baseline']
        .filter((n) => s[n])
        .map((n) => `${n} ${s[n].paired_over_bare_ms}`)
        .join(', ');
      figures.push(
        figure(`${label}: emit − bare spawn, paired median`, over, 'ms', {
          target: `≤ ${TARGET_OVER_MS[key]}`,
          pass: over <= TARGET_OVER_MS[key],
          limit: `bare ${s.bare.wall_ms.median} ms (p95 ${s.bare.wall_ms.p95}); emit ${s.emit.wall_ms.median} ms (p95 ${s.emit.wall_ms.p95}); paired over bare: ${layers}`,
        }),
        figure(`${label}: emit p95`, s.emit.wall_ms.p95, 'ms', {
          target: `≤ bare p95 + ${TARGET_P95_SLACK_MS} (${round(p95Limit, 3)})`,
          pass: s.emit.wall_ms.p95 <= p95Limit,
        }),
        figure(`${label}: host CPU per emit ÷ per bare spawn`, round(cpuRatio, 3), '×', {
          target: `≤ ${TARGET_CPU_RATIO}`,
          pass: cpuRatio <= TARGET_CPU_RATIO,
          limit: `emit ${s.emit.host_cpu_ms.median} ms, bare ${s.bare.host_cpu_ms.median} ms, spawn_hook ${s.spawn_hook.host_cpu_ms.median} ms, emit without consent ${s.emit_no_consent.host_cpu_ms.median} ms${s.emit_baseline ? `, baseline emit ${s.emit_baseline.host_cpu_ms.median} ms` : ''}`,
        }),
      );
      if (s.emit_baseline) {
        figures.push(
          figure(`${label}: baseline build's emit − bare spawn, paired median`, s.emit_baseline.paired_over_bare_ms, 'ms', {
            limit: `baseline emit ${s.emit_baseline.wall_ms.median} ms (p95 ${s.emit_baseline.wall_ms.p95}), host CPU ${s.emit_baseline.host_cpu_ms.median} ms (${round(s.emit_baseline.host_cpu_ms.median / s.bare.host_cpu_ms.median, 3)}× bare)`,
            note: 'before',
          }),
        );
      }
    }
    return {
      name: 'breakdown',
      title: 'Where a hook run goes: layer by layer over a bare spawn, stdin-reading guard and near-empty hook',
      params: { runs, warmup, interleaved: true, baseline: BASELINE, loadavg_at_start: loadBefore, loadavg_at_end: os.loadavg().map((x) => round(x, 2)) },
      hooks,
      figures,
    };
  } finally {
    ws.cleanup();
  }
});

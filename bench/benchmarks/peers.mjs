// hermes-hooks beside a peer's hook runner, in one process, interleaved run by run: Gemini CLI's
// HookRunner (+ its HookAggregator), from @google/gemini-cli-core, installed on demand into a temp
// directory — never into the repo or its lockfile. `node bench/run.mjs --only peers`; not part of
// the default run and never of `npm test`. Offline (the install fails): says so and skips.
//
// Scripts: the stdin-reading guard (bash, `input=$(cat)`, print a deny) and a near-empty hook,
// timed against a bare spawn of the script; then, with a 1 s timeout, a hook whose grandchild holds
// stdout, a hook that ignores SIGTERM, and a hook that prints endlessly — outcome, wall time and
// processes left behind (each script records its pids; leftovers are counted, then killed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { BASELINE, loadEngines } from '../lib/engine-variants.mjs';
import { DENY_HOOK, makeWorkspace, TRIVIAL_HOOK } from '../lib/fixtures.mjs';
import { measureInterleaved } from '../lib/interleave.mjs';
import { spawnBare } from '../lib/proc.mjs';
import { median, round, summarize } from '../lib/stats.mjs';

export const PEER_PACKAGE = '@google/gemini-cli-core';
export const PEER_VERSION = '0.61.0';
/** How long a misbehaving-hook run may take before the harness stops waiting for it. */
const SETTLE_CAP_MS = 10_000;

/** Installs the peer into <tmp>/hermes-bench-peers/<name>-<version> (reused); returns its dir or throws. */
function installPeer() {
  const dir = join(os.tmpdir(), 'hermes-bench-peers', `gemini-cli-core-${PEER_VERSION}`);
  const pkg = join(dir, 'node_modules', PEER_PACKAGE, 'package.json');
  if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === PEER_VERSION) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name":"hermes-bench-peer","private":true}\n');
  process.stderr.write(`peers: installing ${PEER_PACKAGE}@${PEER_VERSION} into ${dir} …\n`);
  execFileSync('npm', ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${PEER_PACKAGE}@${PEER_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 300_000,
  });
  return dir;
}

/** Still running: signalable and not a zombie (an exited child that init has not reaped yet). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err.code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return existsSync('/proc') ? false : true;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function misbehaving(pidFile) {
  return {
    grandchild: `#!/bin/bash\n# a grandchild holds stdout for 8 s\nsleep 8 & echo $! >> ${pidFile}\necho $$ >> ${pidFile}\nwait\n`,
    ignores_sigterm: `#!/bin/bash\n# ignores SIGTERM, keeps going for 8 s\ntrap '' TERM\necho $$ >> ${pidFile}\nend=$((SECONDS + 8))\nwhile [ $SECONDS -lt $end ]; do sleep 0.2; done\n`,
    endless_output: `#!/bin/bash\n# prints endlessly\necho $$ >> ${pidFile}\nyes & echo $! >> ${pidFile}\nwait\n`,
  };
}

/** Emits before the steady-state measurement: past V8's tier-up of the emit path (measured: +0.8 → +0.4 ms by ~2000). */
export const STEADY_WARM = 2000;
/** Issue 33's per-hook targets. */
const TARGET_OVER_MS = 0.5;
const TARGET_CPU_RATIO = 1.15;

/** Per variant: wall and host CPU summaries, and the paired median over the bare spawn of the same round. */
function latencySummary({ names, wall, cpu }) {
  const paired = (n) => round(median(wall[n].map((w, i) => w - wall.bare[i])), 3);
  return Object.fromEntries(
    names.map((n) => [n, { wall_ms: summarize(wall[n], 3), host_cpu_ms: summarize(cpu[n], 3), paired_over_bare_ms: n === 'bare' ? 0 : paired(n) }]),
  );
}

/** Warms each runner STEADY_WARM times, then measures them beside the bare spawn. */
async function measureSteady(variants, runs) {
  for (let i = 0; i < STEADY_WARM; i++) for (const [n, run] of Object.entries(variants)) if (n !== 'bare') await run();
  return latencySummary(await measureInterleaved(variants, { warmup: 5, runs }));
}

function steadyFigures(label, S) {
  const cpuRatio = round(S.hermes_hooks.host_cpu_ms.median / S.bare.host_cpu_ms.median, 3);
  const detail = (n) =>
    `median ${S[n].wall_ms.median} ms, host CPU ${S[n].host_cpu_ms.median} ms; bare ${S.bare.wall_ms.median} ms (CPU ${S.bare.host_cpu_ms.median} ms); after ${STEADY_WARM} emits`;
  return [
    figure(`${label}, steady state: hermes hooks − bare spawn, paired median`, S.hermes_hooks.paired_over_bare_ms, 'ms', {
      target: `≤ ${TARGET_OVER_MS}`,
      pass: S.hermes_hooks.paired_over_bare_ms <= TARGET_OVER_MS,
      limit: detail('hermes_hooks'),
    }),
    figure(`${label}, steady state: hermes hooks host CPU ÷ bare spawn`, cpuRatio, '×', {
      target: `≤ ${TARGET_CPU_RATIO}`,
      pass: cpuRatio <= TARGET_CPU_RATIO,
      limit: `hermes hooks ${S.hermes_hooks.host_cpu_ms.median} ms, bare ${S.bare.host_cpu_ms.median} ms host CPU per run (medians)`,
    }),
  ];
}

benchMain(async ({ quick }) => {
  let peerDir;
  try {
    peerDir = installPeer();
  } catch (err) {
    const reason = `${PEER_PACKAGE}@${PEER_VERSION} could not be installed (${String(err.stderr ?? err.message)
      .trim()
      .split('\n')
      .pop()})`;
    process.stderr.write(`peers: skipped: ${reason}\n`);
    return { name: 'peers', title: 'Peers: skipped', skipped: reason, figures: [figure('peer benchmark', 'skipped', '', { note: reason })] };
  }
  const peerRoot = join(peerDir, 'node_modules', PEER_PACKAGE, 'dist', 'src', 'hooks');
  const { HookRunner } = await import(pathToFileURL(join(peerRoot, 'hookRunner.js')).href);
  const { HookAggregator } = await import(pathToFileURL(join(peerRoot, 'hookAggregator.js')).href);
  const { lib, base } = await loadEngines();
  // The peer logs a debug line per hook through console.debug, which Gemini CLI's ConsolePatcher
  // routes to its debug drawer; here it would print into the results. A no-op is the cheapest
  // stand-in (it flatters the peer slightly).
  console.debug = () => {};

  const runs = quick ? 30 : 100;
  const warmup = quick ? 5 : 15;
  const ws = makeWorkspace('peers');
  const loadBefore = os.loadavg().map((x) => round(x, 2));
  // A peer may crash its host on a misbehaving hook (an endless string): record it, do not die of it.
  const crashes = [];
  const onCrash = (err) => crashes.push(String(err?.message ?? err));
  process.on('uncaughtException', onCrash);
  try {
    const gemini = new HookRunner({
      isTrustedFolder: () => true,
      sanitizationConfig: { enableEnvironmentVariableRedaction: false },
      storage: { getPlansDir: () => ws.dir },
    });
    const aggregator = new HookAggregator();
    const geminiInput = () => ({
      session_id: 'bench-session',
      transcript_path: '',
      cwd: ws.dir,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls -la' },
    });
    const geminiRun = async (command, timeoutMs = 30_000) => {
      const result = await gemini.executeHook({ type: 'command', command, timeout: timeoutMs }, 'BeforeTool', geminiInput());
      const agg = aggregator.aggregateResults([result], 'BeforeTool');
      return { result, blocked: agg.finalOutput?.isBlockingDecision?.() ?? false };
    };
    const engineFor = async (name, commands, timeout = 30, extra = '', build = lib) => {
      const lines = ['hooks:', '  pre_tool_call:'];
      for (const c of commands) lines.push(`    - command: ${JSON.stringify(c)}`, `      timeout: ${timeout}`, ...(extra ? [`      ${extra}`] : []));
      const home = ws.home(name, `${lines.join('\n')}\n`);
      return build.createHookEngine({ home, acceptHooks: true, interactive: false, exitCleanup: false, logger: build.silentLogger });
    };
    const KW = { tool_name: 'terminal', args: { command: 'ls -la' }, session_id: 'bench-session', task_id: 't' };

    // 1. Latency on the well-behaved hooks.
    const geminiDeny = ws.script('deny-gemini.sh', DENY_HOOK.replace('"decision": "block"', '"decision": "deny"'));
    const scripts = {
      deny: { hermes: ws.script('deny.sh', DENY_HOOK), gemini: geminiDeny },
      empty: { hermes: ws.script('empty.sh', TRIVIAL_HOOK), gemini: null },
    };
    scripts.empty.gemini = scripts.empty.hermes;
    const latency = {};
    const figures = [];
    for (const [key, s] of Object.entries(scripts)) {
      const engine = await engineFor(`${key}-home`, [s.hermes]);
      const engineGemini = await engineFor(`${key}-gemini-home`, [s.gemini], 30, 'dialect: gemini');
      // HH_BENCH_BASELINE: the same emit on the build before a change, interleaved (before → after in one run).
      const engineBefore = base ? await engineFor(`${key}-before-home`, [s.hermes], 30, '', base) : null;
      const first = await engine.emit('pre_tool_call', KW);
      const payload = lib.serializePayload(first.payload);
      const expectBlock = key === 'deny';
      const check = (label, blocked) => {
        if (blocked !== expectBlock) throw new Error(`${key}/${label}: blocked=${blocked}`);
      };
      const variants = {
        bare: async () => {
          const r = await spawnBare(s.hermes, [], payload);
          if (r.code !== 0) throw new Error(`${key}/bare: exit ${r.code}`);
        },
        gemini_hook_runner: async () => check('gemini', (await geminiRun(s.gemini)).blocked),
        hermes_hooks: async () => check('hermes-hooks', (await engine.emit('pre_tool_call', KW)).decision.action === 'block'),
        hermes_hooks_gemini_dialect: async () =>
          check('hermes-hooks gemini dialect', (await engineGemini.emit('pre_tool_call', KW)).decision.action === 'block'),
        ...(engineBefore
          ? { hermes_hooks_before: async () => check('hermes-hooks before', (await engineBefore.emit('pre_tool_call', KW)).decision.action === 'block') }
          : {}),
      };
      const measured = await measureInterleaved(variants, { warmup, runs });
      // The same emit once V8 has compiled the hot path (a long-lived host: serve, an embedding
      // harness), measured beside a bare spawn again. Ours only: the peer's runner leaves a hook
      // waiting on stdin now and then, which makes thousands of its runs too long for this bench.
      const steady = quick ? null : await measureSteady({ bare: variants.bare, hermes_hooks: variants.hermes_hooks }, runs);
      await engine.close({ finalize: false });
      await engineGemini.close({ finalize: false });
      await engineBefore?.close({ finalize: false });
      latency[key] = latencySummary(measured);
      const L = latency[key];
      const label = key === 'deny' ? 'stdin-reading guard' : 'near-empty hook';
      if (steady) latency[`${key}_steady`] = steady;
      for (const n of ['gemini_hook_runner', 'hermes_hooks', 'hermes_hooks_gemini_dialect', ...(engineBefore ? ['hermes_hooks_before'] : [])]) {
        figures.push(
          figure(`${label}: ${n.replaceAll('_', ' ')} − bare spawn, paired median`, L[n].paired_over_bare_ms, 'ms', {
            limit: `median ${L[n].wall_ms.median} ms, p95 ${L[n].wall_ms.p95}, host CPU ${L[n].host_cpu_ms.median} ms; bare ${L.bare.wall_ms.median} ms (p95 ${L.bare.wall_ms.p95}, CPU ${L.bare.host_cpu_ms.median} ms)`,
          }),
        );
      }
      if (steady) figures.push(...steadyFigures(label, steady));
    }

    // 2. Misbehaving hooks, 1 s timeout: outcome, wall time, processes left.
    const slowRuns = quick ? 1 : 3;
    const outcomes = {};
    const pidFile = ws.file('pids');
    for (const [key, body] of Object.entries(misbehaving(pidFile))) {
      const script = ws.script(`${key}.sh`, body);
      const engine = await engineFor(`${key}-home`, [script], 1);
      const runners = {
        gemini_hook_runner: async () => {
          const { result, blocked } = await geminiRun(script, 1000);
          return `${result.error ? `error: ${result.error.message}` : `exit ${result.exitCode}`}${blocked ? ', blocked' : ''}; stdout kept ${(result.stdout ?? '').length} chars`;
        },
        hermes_hooks: async () => {
          const r = await engine.emit('pre_tool_call', KW);
          const h = r.hooks[0];
          return `${h.status}${h.signal ? ` (${h.signal})` : ''}, decision ${r.decision.action}; stdout kept ${h.stdout.length} chars`;
        },
      };
      outcomes[key] = {};
      for (const n of Object.keys(runners)) outcomes[key][n] = [];
      for (let i = 0; i < slowRuns; i++) {
        for (const n of i % 2 ? Object.keys(runners).reverse() : Object.keys(runners)) {
          writeFileSync(pidFile, '');
          crashes.length = 0;
          const rss0 = process.memoryUsage().rss;
          let peakRss = rss0;
          const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
          const t0 = performance.now();
          const pending = runners[n]().then(
            (o) => ({ outcome: o, wall: performance.now() - t0 }),
            (e) => ({ outcome: `threw: ${e.message}`, wall: performance.now() - t0 }),
          );
          let r = await Promise.race([pending, sleep(SETTLE_CAP_MS).then(() => null)]);
          await sleep(200); // let a finished run's group go
          const pids = readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number);
          const left = pids.filter(alive);
          for (const pid of left) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              /* gone */
            }
          }
          if (r === null) {
            const late = await Promise.race([pending, sleep(5_000).then(() => null)]);
            r = {
              outcome: `did not settle within ${SETTLE_CAP_MS / 1000} s${late ? ` (then: ${late.outcome}, once its processes were killed)` : ''}`,
              wall: null,
            };
          }
          clearInterval(sampler);
          outcomes[key][n].push({
            outcome: r.outcome,
            wall_ms: r.wall === null ? null : round(r.wall, 1),
            processes_left: left.length,
            rss_growth_mb: round((peakRss - rss0) / 2 ** 20, 1),
            ...(crashes.length ? { host_exceptions: [...new Set(crashes)] } : {}),
          });
        }
      }
      await engine.close({ finalize: false });
      for (const n of Object.keys(runners)) {
        const o = outcomes[key][n];
        const walls = o.map((x) => x.wall_ms).filter((x) => x !== null);
        figures.push(
          figure(`${key.replaceAll('_', ' ')}, timeout 1 s: ${n.replaceAll('_', ' ')}`, walls.length ? round(median(walls), 1) : `> ${SETTLE_CAP_MS}`, 'ms', {
            limit: `${o[0].outcome}; processes left: ${o.map((x) => x.processes_left).join('/')}; host RSS growth ${o.map((x) => x.rss_growth_mb).join('/')} MB${o[0].host_exceptions ? `; host exception: ${o[0].host_exceptions[0]}` : ''}`,
          }),
        );
      }
    }
    return {
      name: 'peers',
      title: `hermes-hooks beside ${PEER_PACKAGE}@${PEER_VERSION} HookRunner, one process, interleaved`,
      params: {
        runs,
        warmup,
        slow_runs: slowRuns,
        settle_cap_ms: SETTLE_CAP_MS,
        peer: `${PEER_PACKAGE}@${PEER_VERSION}`,
        peer_dir: peerDir,
        baseline: BASELINE,
        loadavg_at_start: loadBefore,
        loadavg_at_end: os.loadavg().map((x) => round(x, 2)),
      },
      latency,
      outcomes,
      figures,
    };
  } finally {
    process.off('uncaughtException', onCrash);
    ws.cleanup();
  }
});

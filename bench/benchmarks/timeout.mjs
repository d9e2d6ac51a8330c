// Timeout bound: a hook whose grandchild holds its stdout open, timeout 1 s. A runner that waits
// for EOF hangs until the grandchild goes; ours kills the hook's process group at the deadline.
// Three grandchildren: one that dies on SIGTERM, one that ignores SIGTERM (needs the SIGKILL
// step), and one that escaped the group with setsid (cannot be killed; its pipes are abandoned).
// The physical limit, measured in the same run: a bare spawn of `sleep 30` killed at 1 s.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { DIST_INDEX_URL } from '../lib/paths.mjs';
import { hooksYaml, KWARGS, makeWorkspace } from '../lib/fixtures.mjs';
import { rotate, round, summarize } from '../lib/stats.mjs';

const TARGET_S = 1.6;
const TIMEOUT_S = 1;

// Each grandchild writes its pid to $BENCH_PIDS/ so the benchmark can clean up what escaped.
const HOOKS = {
  grandchild_holds_stdout: `#!/bin/sh
# exits at once, but a background grandchild keeps stdout open for 30 s
sh -c 'echo $$ > "$BENCH_PIDS/$$"; exec sleep 30' &
echo '{}'
`,
  grandchild_ignores_sigterm: `#!/bin/sh
# the grandchild holding stdout ignores SIGTERM: only the SIGKILL step ends it
sh -c 'trap "" TERM; echo $$ > "$BENCH_PIDS/$$"; exec sleep 30' &
echo '{}'
`,
  grandchild_escaped_setsid: `#!/bin/sh
# the grandchild holding stdout left the process group (setsid): no group signal reaches it
setsid sh -c 'echo $$ > "$BENCH_PIDS/$$"; exec sleep 30' &
echo '{}'
`,
};

function killLeftovers(dir) {
  for (const f of readdirSync(dir)) {
    try {
      process.kill(Number(readFileSync(`${dir}/${f}`, 'utf8').trim()), 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(`${dir}/${f}`, { force: true });
  }
}

/** The floor: spawn `sleep 30`, kill it at the timeout, wait for 'close'. */
function bareKilledAtTimeout() {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn('sleep', ['30'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_S * 1000);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - t0);
    });
  });
}

benchMain(async ({ quick }) => {
  const runs = quick ? 2 : 4;
  const ws = makeWorkspace('timeout');
  const pids = ws.file('pids');
  mkdirSync(pids);
  try {
    const lib = await import(DIST_INDEX_URL);
    const names = Object.keys(HOOKS);
    const engines = {};
    for (const name of names) {
      const hook = ws.script(`${name}.sh`, HOOKS[name]);
      const home = ws.home(name, hooksYaml('pre_tool_call', [hook], { timeout: TIMEOUT_S }));
      engines[name] = await lib.createHookEngine({
        home,
        acceptHooks: true,
        interactive: false,
        exitCleanup: false,
        logger: lib.silentLogger,
        env: { ...process.env, BENCH_PIDS: pids },
      });
    }
    const wall = Object.fromEntries([...names, 'bare_killed_at_timeout'].map((n) => [n, []]));
    const statuses = Object.fromEntries(names.map((n) => [n, new Set()]));
    for (let i = 0; i < runs; i++) {
      for (const name of rotate([...names, 'bare_killed_at_timeout'], i)) {
        if (name === 'bare_killed_at_timeout') {
          wall[name].push(await bareKilledAtTimeout());
          continue;
        }
        const t0 = performance.now();
        const e = await engines[name].emit('pre_tool_call', KWARGS);
        wall[name].push(performance.now() - t0);
        statuses[name].add(e.hooks.find((h) => h.kind === 'shell')?.status);
        killLeftovers(pids);
      }
    }
    for (const e of Object.values(engines)) await e.close({ finalize: false });
    killLeftovers(pids);

    const stats = Object.fromEntries(Object.entries(wall).map(([n, w]) => [n, { wall_ms: summarize(w, 1) }]));
    for (const n of names) stats[n].hook_status = [...statuses[n]];
    const worstInGroup = Math.max(stats.grandchild_holds_stdout.wall_ms.max, stats.grandchild_ignores_sigterm.wall_ms.max) / 1000;
    const escaped = stats.grandchild_escaped_setsid.wall_ms.max / 1000;
    return {
      name: 'timeout',
      title: 'Timeout bound: hook whose grandchild holds stdout, timeout 1 s',
      params: { timeout_s: TIMEOUT_S, runs, kill_grace_ms: 500, drain_ms: 500 },
      variants: stats,
      figures: [
        figure('timeout 1 s, grandchild holds stdout: emit returns after (max)', round(stats.grandchild_holds_stdout.wall_ms.max / 1000, 3), 's', {
          target: `≤ ${TARGET_S}`,
          pass: stats.grandchild_holds_stdout.wall_ms.max / 1000 <= TARGET_S,
          limit: `bare spawn killed at 1 s: ${round(stats.bare_killed_at_timeout.wall_ms.median / 1000, 3)} s`,
        }),
        figure('… grandchild ignores SIGTERM (SIGKILL 500 ms later), max', round(stats.grandchild_ignores_sigterm.wall_ms.max / 1000, 3), 's', {
          target: `≤ ${TARGET_S}`,
          pass: stats.grandchild_ignores_sigterm.wall_ms.max / 1000 <= TARGET_S,
        }),
        figure('… grandchild escaped the group with setsid, max', round(escaped, 3), 's', {
          target: `≤ ${TARGET_S}`,
          pass: escaped <= TARGET_S,
          note: 'design bound: timeout + 1 s (SIGKILL step 500 ms, then pipes abandoned 500 ms later)',
          retry: false,
        }),
      ],
      worst_in_group_s: round(worstInGroup, 3),
    };
  } finally {
    killLeftovers(pids);
    ws.cleanup();
  }
});

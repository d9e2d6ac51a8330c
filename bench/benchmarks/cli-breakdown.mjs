// Where the CLI's start-up goes, in one interleaved run: Node's floor, the ESM loader, loading
// the bundle alone (`--version`), the big packages imported unbundled, and `run` four ways —
// tsc's unbundled output, bundled without and with its code cache (as shipped), and the baseline
// build's (HH_BENCH_BASELINE, before → after). No targets: this explains cli-start.
import { benchMain, figure } from '../lib/bench-main.mjs';
import { approvedTrivialHome, cliVariant, measure } from '../lib/cli-variants.mjs';
import { BASELINE } from '../lib/engine-variants.mjs';
import { BENCH, BIN } from '../lib/paths.mjs';
import { makeWorkspace } from '../lib/fixtures.mjs';
import { round, summarize } from '../lib/stats.mjs';

benchMain(async ({ quick }) => {
  const runs = quick ? 5 : 12;
  const ws = makeWorkspace('cli-breakdown');
  try {
    // Approved once, as a user would; the measured `run`s are the production path.
    const { home, payload } = await approvedTrivialHome(ws);
    const noCacheBin = await cliVariant(ws.file('cli-no-cache'), { cache: false });
    const run = (bin) => ['node', bin, 'run', 'pre_tool_call', '--home', home];
    const commands = {
      node_e_0: ['node', '-e', '0'],
      esm_empty_module: ['node', `${BENCH}/lib/probes/empty.mjs`],
      cli_version: ['node', BIN, '--version'],
      import_zod_unbundled: ['node', `${BENCH}/lib/probes/import.mjs`, 'zod'],
      import_yaml_unbundled: ['node', `${BENCH}/lib/probes/import.mjs`, 'yaml'],
      cli_run_unbundled: run(`${BENCH}/lib/probes/cli-unbundled.mjs`),
      cli_run_bundle_no_code_cache: run(noCacheBin),
      cli_run: run(BIN),
      ...(BASELINE ? { cli_run_baseline: run(`${BASELINE}/dist/cli/bin.js`) } : {}),
    };
    const rows = await measure(commands, { runs, warmup: 2, stdin: payload, usageDir: ws.dir });
    const stats = Object.fromEntries(
      Object.entries(rows).map(([n, r]) => [n, { wall_ms: summarize(r.wall, 1), cpu_ms: r.cpu.length ? summarize(r.cpu, 1) : null }]),
    );
    const over = (n) => round(stats[n].wall_ms.median - stats.node_e_0.wall_ms.median, 1);
    const cpuOver = (n) => round(stats[n].cpu_ms.median - stats.node_e_0.cpu_ms.median, 1);
    return {
      name: 'cli-breakdown',
      title: 'Where the CLI start-up goes',
      params: { runs, warmup: 2, interleaved: true, cpu: 'user+sys of the Node process itself (getrusage at exit)' },
      breakdown: stats,
      over_node_e_0_ms: Object.fromEntries(Object.keys(commands).map((n) => [n, { wall: over(n), cpu: cpuOver(n) }])),
      figures: [
        figure('`run` unbundled (tsc output), over node -e 0', over('cli_run_unbundled'), 'ms', {
          limit: `bundled without code cache ${over('cli_run_bundle_no_code_cache')} ms; shipped (bundle + code cache) ${over('cli_run')} ms`,
          note: 'before → after',
        }),
        ...(BASELINE
          ? [
              figure('`run` of the baseline build, over node -e 0', over('cli_run_baseline'), 'ms', {
                limit: `now ${over('cli_run')} ms: ${round(over('cli_run_baseline') - over('cli_run'), 1)} ms wall, ${round(cpuOver('cli_run_baseline') - cpuOver('cli_run'), 1)} ms CPU saved`,
                note: 'before → after',
              }),
            ]
          : []),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

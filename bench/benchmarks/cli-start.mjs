// CLI start, which every host pays per event when it calls `hermes-hooks run`: `run` and `test`
// with one trivial hook vs `node -e 0` plus a bare spawn of the hook, interleaved. Where the time
// goes is cli-breakdown.mjs.
import { benchMain, figure } from '../lib/bench-main.mjs';
import { approvedTrivialHome, measure } from '../lib/cli-variants.mjs';
import { BASELINE } from '../lib/engine-variants.mjs';
import { BIN } from '../lib/paths.mjs';
import { makeWorkspace } from '../lib/fixtures.mjs';
import { median, round, summarize } from '../lib/stats.mjs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const TARGET_MS = 60;
/** `run` ≤ this × (node -e 0 + bare hook), measured in the same run (issue 14). */
const TARGET_FACTOR = 1.5;

benchMain(async ({ quick }) => {
  const runs = quick ? 8 : 30;
  const ws = makeWorkspace('cli-start');
  try {
    // Approved once, as a user would; the measured `run`s are the production path.
    const { hook, home, payload } = await approvedTrivialHome(ws);
    // A local OTLP receiver for the `run` with OpenTelemetry on (what turning it on costs).
    const collector = createServer((req, res) => req.resume().on('end', () => res.end()));
    await new Promise((r) => collector.listen(0, '127.0.0.1', r));
    // The bench measures CPU of `node` commands only: a one-line wrapper sets the variable and starts bin.js.
    const withOtel = ws.script(
      'with-otel.mjs',
      `process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:${collector.address().port}';\nawait import(${JSON.stringify(pathToFileURL(BIN).href)});\n`,
    );

    const commands = {
      node_e_0: ['node', '-e', '0'],
      bare_hook: [hook],
      cli_run: ['node', BIN, 'run', 'pre_tool_call', '--home', home],
      cli_test: ['node', BIN, 'test', 'pre_tool_call', '--home', home, '--json'],
      cli_version: ['node', BIN, '--version'],
      cli_run_otel: ['node', withOtel, 'run', 'pre_tool_call', '--home', home],
      ...(BASELINE
        ? {
            cli_run_baseline: ['node', `${BASELINE}/dist/cli/bin.js`, 'run', 'pre_tool_call', '--home', home],
            cli_version_baseline: ['node', `${BASELINE}/dist/cli/bin.js`, '--version'],
          }
        : {}),
    };
    const rows = await measure(commands, { runs, warmup: 3, stdin: payload, usageDir: ws.dir }).finally(() => collector.close());
    const stats = Object.fromEntries(
      Object.entries(rows).map(([n, r]) => [n, { wall_ms: summarize(r.wall, 1), cpu_ms: r.cpu.length ? summarize(r.cpu, 1) : null }]),
    );
    const pair = stats.node_e_0.wall_ms.median + stats.bare_hook.wall_ms.median;
    const over = (name) => stats[name].wall_ms.median - pair;
    // Paired: each round's own node -e 0 and bare hook, so a busy moment hits both sides.
    const paired = (name) => median(rows[name].wall.map((w, i) => w - rows.node_e_0.wall[i] - rows.bare_hook.wall[i]));
    const otelOver = stats.cli_run_otel.wall_ms.median - stats.cli_run.wall_ms.median;
    const cpuOver = (name) => stats[name].cpu_ms.median - stats.node_e_0.cpu_ms.median;
    const row = (name, label) =>
      figure(label, round(over(name), 1), 'ms', {
        target: `< ${TARGET_MS}`,
        pass: over(name) < TARGET_MS,
        limit: `node -e 0 ${stats.node_e_0.wall_ms.median} ms + bare hook ${stats.bare_hook.wall_ms.median} ms vs ${stats[name].wall_ms.median} ms (p95 ${stats[name].wall_ms.p95}); paired median ${round(paired(name), 1)} ms over; CPU ${round(cpuOver(name), 1)} ms over node -e 0`,
      });
    return {
      name: 'cli-start',
      title: 'CLI start: `run` / `test` with one trivial hook vs `node -e 0` + a bare spawn of the hook',
      params: { runs, warmup: 3, interleaved: true, cpu: 'user+sys of the Node process itself (getrusage at exit)' },
      variants: stats,
      pair_ms: round(pair, 1),
      over_pair_ms: { run: round(over('cli_run'), 1), test: round(over('cli_test'), 1) },
      over_pair_paired_median_ms: { run: round(paired('cli_run'), 1), test: round(paired('cli_test'), 1) },
      cpu_over_node_e_0_ms: { run: round(cpuOver('cli_run'), 1), test: round(cpuOver('cli_test'), 1) },
      figures: [
        row('cli_run', '`run` start: median − (node -e 0 + bare hook)'),
        row('cli_test', '`test --json` start: median − (node -e 0 + bare hook)'),
        figure('`run` start ÷ (node -e 0 + bare hook)', round(stats.cli_run.wall_ms.median / pair, 3), '×', {
          target: `≤ ${TARGET_FACTOR}`,
          pass: stats.cli_run.wall_ms.median / pair <= TARGET_FACTOR,
          limit: `${stats.cli_run.wall_ms.median} ms vs ${round(pair, 1)} ms`,
        }),
        figure('`--version` start − node -e 0', round(stats.cli_version.wall_ms.median - stats.node_e_0.wall_ms.median, 1), 'ms', {
          limit: `${stats.cli_version.wall_ms.median} ms (p95 ${stats.cli_version.wall_ms.p95})`,
        }),
        figure('`run` with OpenTelemetry on (local OTLP receiver) − `run`', round(otelOver, 1), 'ms', {
          limit: `${stats.cli_run_otel.wall_ms.median} ms (p95 ${stats.cli_run_otel.wall_ms.p95}); CPU ${round(cpuOver('cli_run_otel'), 1)} ms over node -e 0`,
          note: 'the SDK loaded, the spans and metrics exported before exit',
        }),
        ...(BASELINE
          ? [
              figure(
                '`--version` start of the baseline build − node -e 0',
                round(stats.cli_version_baseline.wall_ms.median - stats.node_e_0.wall_ms.median, 1),
                'ms',
                {
                  limit: `${stats.cli_version_baseline.wall_ms.median} ms (p95 ${stats.cli_version_baseline.wall_ms.p95})`,
                  note: 'before',
                },
              ),
              figure('`run` start of the baseline build ÷ (node -e 0 + bare hook)', round(stats.cli_run_baseline.wall_ms.median / pair, 3), '×', {
                limit: `${stats.cli_run_baseline.wall_ms.median} ms (p95 ${stats.cli_run_baseline.wall_ms.p95}); CPU ${round(cpuOver('cli_run_baseline'), 1)} ms over node -e 0`,
                note: 'before',
              }),
            ]
          : []),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

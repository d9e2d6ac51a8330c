// Memory: peak RSS of the CLI (`hermes-hooks run`) while its hook prints endlessly. The hook is
// killed at the 1 MiB output cap; the CLI must not buffer what it does not keep. The limits,
// measured in the same run: `node -e 0`, and a bare Node script that reads 1 MiB of the same
// endless output and kills the writer.
import { benchMain, figure } from '../lib/bench-main.mjs';
import { BIN } from '../lib/paths.mjs';
import { hooksYaml, makeWorkspace } from '../lib/fixtures.mjs';
import { runCommand } from '../lib/proc.mjs';
import { rotate, round, summarize } from '../lib/stats.mjs';

const TARGET_MB = 150;

const HOOKS = {
  stdout_endless: `#!/bin/sh
# prints endlessly on stdout
exec yes 'hermes-hooks benchmark: endless output'
`,
  stdout_and_stderr_endless: `#!/bin/sh
# prints endlessly on both streams
yes 'endless stderr' >&2 &
exec yes 'endless stdout'
`,
};

const BARE_READER = `
const { spawn } = require('node:child_process');
const c = spawn(process.argv[1], [], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let n = 0; const chunks = [];
c.stderr.resume();
c.stdout.on('data', (d) => { chunks.push(d); n += d.length; if (n >= 1048576) { try { process.kill(-c.pid, 'SIGKILL'); } catch {} c.stdout.destroy(); c.stderr.destroy(); } });
`;

benchMain(async ({ quick }) => {
  const runs = quick ? 2 : 5;
  const ws = makeWorkspace('memory');
  try {
    const homes = {};
    const hooks = {};
    for (const [name, body] of Object.entries(HOOKS)) {
      hooks[name] = ws.script(`${name}.sh`, body);
      homes[name] = ws.home(name, hooksYaml('pre_tool_call', [hooks[name]], { timeout: 30 }));
    }
    const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' } });
    const commands = {
      node_e_0: ['node', '-e', '0'],
      bare_reads_1MiB: ['node', '-e', BARE_READER, hooks.stdout_endless],
    };
    for (const name of Object.keys(HOOKS)) {
      commands[`cli_run_${name}`] = ['node', BIN, 'run', 'pre_tool_call', '--home', homes[name], '--accept-hooks'];
    }
    const names = Object.keys(commands);
    const rss = Object.fromEntries(names.map((n) => [n, []]));
    const wall = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < runs; i++) {
      for (const name of rotate(names, i)) {
        const r = await runCommand(commands[name], { stdin: payload, usageDir: ws.dir });
        if (name.startsWith('cli_run_')) {
          if (r.code !== 0 || !r.stderr.includes('output limit')) throw new Error(`${name}: exit ${r.code}, stderr ${r.stderr.slice(0, 300)}`);
        }
        if (r.max_rss_kb === null) throw new Error(`${name}: no usage recorded`);
        rss[name].push(r.max_rss_kb / 1024);
        wall[name].push(r.wall_ms);
      }
    }
    const stats = Object.fromEntries(names.map((n) => [n, { peak_rss_mb: summarize(rss[n], 1), wall_ms: summarize(wall[n], 1) }]));
    const worst = Math.max(...Object.keys(HOOKS).map((n) => stats[`cli_run_${n}`].peak_rss_mb.max));
    return {
      name: 'memory',
      title: 'Memory: peak RSS of `hermes-hooks run` while a hook prints endlessly',
      params: { runs, output_cap_bytes: 1048576, measured_by: 'getrusage ru_maxrss of the CLI process (children not included)' },
      variants: stats,
      figures: [
        figure('CLI peak RSS, hook printing endlessly (max)', round(worst, 1), 'MB', {
          target: `≤ ${TARGET_MB}`,
          pass: worst <= TARGET_MB,
          limit: `node -e 0: ${stats.node_e_0.peak_rss_mb.median} MB; bare Node reading 1 MiB: ${stats.bare_reads_1MiB.peak_rss_mb.median} MB`,
        }),
      ],
    };
  } finally {
    ws.cleanup();
  }
});

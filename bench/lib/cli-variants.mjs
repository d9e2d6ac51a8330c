// Copies of the shipped CLI for the start-up breakdown, and the interleaved command runner.
import { copyFileSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { hooksYaml, TRIVIAL_HOOK } from './fixtures.mjs';
import { BIN, ROOT } from './paths.mjs';
import { runCommand } from './proc.mjs';
import { rotate } from './stats.mjs';

/**
 * A copy of the shipped CLI in `dir`: bin.js and its loader, the bundle, and (unless `cache` is
 * false) a code cache recorded for that bundle.
 */
export async function cliVariant(dir, { cache = true } = {}) {
  mkdirSync(dir, { recursive: true });
  process.chdir(ROOT); // the build helpers work relative to the package root
  for (const f of ['bin.js', '_bundle.js']) copyFileSync(`${ROOT}/dist/cli/${f}`, `${dir}/${f}`);
  const build = await import(pathToFileURL(`${ROOT}/scripts/postbuild.mjs`).href);
  copyFileSync(`${ROOT}/dist/cli/_main.cjs`, `${dir}/_main.cjs`);
  if (cache) await build.writeCodeCache(dir);
  return `${dir}/bin.js`;
}

/** Runs every command `runs` times, interleaved (rotating who goes first), after `warmup` rounds. */
export async function measure(commands, { runs, warmup, stdin, usageDir }) {
  const names = Object.keys(commands);
  const rows = Object.fromEntries(names.map((n) => [n, { wall: [], cpu: [] }]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const name of rotate(names, i)) {
      const r = await runCommand(commands[name], { stdin, usageDir });
      if (r.code !== 0) throw new Error(`${name}: exit ${r.code}: ${r.stderr.slice(0, 400)}`);
      if (i >= warmup) {
        rows[name].wall.push(r.wall_ms);
        if (r.cpu_ms !== null) rows[name].cpu.push(r.cpu_ms);
      }
    }
  }
  return rows;
}

/**
 * A profile home with one trivial pre_tool_call hook, approved once as a user would, and the
 * payload hosts pipe to `run` — the set-up of the CLI start benchmarks.
 */
export async function approvedTrivialHome(ws) {
  const hook = ws.script('trivial.sh', TRIVIAL_HOOK);
  const home = ws.home('home', hooksYaml('pre_tool_call', [hook]));
  const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls -la' }, session_id: 'bench' });
  const approve = await runCommand(['node', BIN, 'approve', '--all', '--home', home], {});
  if (approve.code !== 0) throw new Error(`approve failed: ${approve.stderr}`);
  return { hook, home, payload };
}

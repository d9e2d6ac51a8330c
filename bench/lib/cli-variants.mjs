// Copies of the shipped CLI for the start-up breakdown, and the interleaved command runner.
import { copyFileSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BENCH, ROOT } from './paths.mjs';
import { runCommand } from './proc.mjs';
import { rotate } from './stats.mjs';

/**
 * A copy of the shipped CLI in `dir`: bin.js and its loader, the bundle, and (unless `cache` is
 * false) a code cache recorded for that bundle. `childProcess` rebuilds the bundle with the
 * benchmark-only child_process launch instead of execa.
 */
export async function cliVariant(dir, { cache = true, childProcess = false } = {}) {
  mkdirSync(dir, { recursive: true });
  process.chdir(ROOT); // the build helpers work relative to the package root
  for (const f of ['bin.js', '_bundle.js']) copyFileSync(`${ROOT}/dist/cli/${f}`, `${dir}/${f}`);
  const build = await import(pathToFileURL(`${ROOT}/scripts/postbuild.mjs`).href);
  if (childProcess) {
    const launchCp = `${BENCH}/lib/launch-child-process.mjs`;
    await build.buildCliBundle(dir, [
      {
        name: 'launch-child-process',
        setup(b) {
          b.onResolve({ filter: /\/_launch\.js$/ }, (args) => (args.importer.includes('/src/spawn/') ? { path: launchCp } : undefined));
        },
      },
    ]);
  } else {
    copyFileSync(`${ROOT}/dist/cli/_main.cjs`, `${dir}/_main.cjs`);
  }
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


// The interleaved measurement loop: every round runs each variant once, in an order that rotates
// from round to round, so a busy moment on the machine hits all variants alike. Warm-up rounds
// are run and dropped.
import { performance } from 'node:perf_hooks';
import { cpuSince } from './proc.mjs';
import { rotate } from './stats.mjs';

/** Returns per-variant wall-clock ms and host CPU ms of each measured run. */
export async function measureInterleaved(variants, { warmup, runs }) {
  const names = Object.keys(variants);
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const name of rotate(names, i)) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await variants[name]();
      const dt = performance.now() - t0;
      const dc = cpuSince(c0);
      if (i >= warmup) {
        wall[name].push(dt);
        cpu[name].push(dc);
      }
    }
  }
  return { names, wall, cpu };
}

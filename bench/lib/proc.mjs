// Spawning measured processes: bare hook spawns (the physical limit every benchmark compares
// against) and whole commands with wall time, CPU time and peak RSS.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EXIT_USAGE } from './paths.mjs';

/**
 * The bare way to run a hook: child_process.spawn with default options, the payload written to its
 * stdin pipe, stdout and stderr collected, done at 'close'. No process group, no deadline, no cap.
 * `detached: true` adds the one thing a runner cannot do without if it is to kill a hook's
 * grandchildren: its own process group (setsid in the child).
 */
export function spawnBare(file, args, payload, { detached = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], detached });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', () => {});
    child.stdin.on('error', () => {}); // a hook that exits without reading: EPIPE is not an error
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out).toString() }));
    child.stdin.end(payload);
  });
}

let usageSeq = 0;

/**
 * Runs `argv` to completion. `argv[0] === 'node'` runs this Node binary with the exit-usage preload
 * so the result carries the process's own CPU time and peak RSS. Resolves with
 * { wall_ms, cpu_ms, max_rss_kb, code, signal, stdout, stderr }.
 */
export function runCommand(argv, { stdin = '', env = process.env, usageDir, cwd } = {}) {
  const isNode = argv[0] === 'node';
  const usageFile = isNode && usageDir ? `${usageDir}/usage-${process.pid}-${++usageSeq}.json` : null;
  const file = isNode ? process.execPath : argv[0];
  const args = isNode ? (usageFile ? ['-r', EXIT_USAGE, ...argv.slice(1)] : argv.slice(1)) : argv.slice(1);
  const childEnv = usageFile ? { ...env, BENCH_USAGE_FILE: usageFile } : env;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv, cwd });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.stdin.on('error', () => {});
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const wall = performance.now() - t0;
      let usage = { cpu_ms: null, max_rss_kb: null };
      if (usageFile) {
        try {
          usage = JSON.parse(readFileSync(usageFile, 'utf8'));
          rmSync(usageFile, { force: true });
        } catch {
          // the process died before its exit handler ran
        }
      }
      resolve({
        wall_ms: wall,
        cpu_ms: usage.cpu_ms,
        max_rss_kb: usage.max_rss_kb,
        code,
        signal,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
    child.stdin.end(stdin);
  });
}

/** Host CPU (user + system) in ms consumed by this process since `start` (a process.cpuUsage()). */
export function cpuSince(start) {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/**
 * The single-hook variants overhead and throughput compare: a bare spawn of the hook with the
 * engine's stdin bytes (plain, and in its own process group), one emit on the engine, and one on
 * the baseline engine when there is one (HH_BENCH_BASELINE).
 */
export function singleHookVariants({ hook, payload, engine, engineBase = null, kwargs, status = 'ok' }) {
  const emitOk = async (e, label) => {
    const r = await e.emit('pre_tool_call', kwargs);
    if (r.hooks[0].status !== status) throw new Error(`${label}: ${r.hooks[0].status}`);
  };
  return {
    bare: async () => {
      const r = await spawnBare(hook, [], payload);
      if (r.code !== 0) throw new Error(`bare hook exited ${r.code}`);
    },
    bare_detached: async () => {
      const r = await spawnBare(hook, [], payload, { detached: true });
      if (r.code !== 0) throw new Error(`bare detached hook exited ${r.code}`);
    },
    emit: () => emitOk(engine, 'emit'),
    ...(engineBase ? { emit_baseline: () => emitOk(engineBase, 'emit (baseline)') } : {}),
  };
}

// Facts about the machine and the code measured, recorded in every results file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ROOT } from './paths.mjs';

function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(`${ROOT}/node_modules/${name}/package.json`, 'utf8')).version;
  } catch {
    return null;
  }
}

function gitHead() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !==
      '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}

export function machineFacts() {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    nproc: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    cpu_model: cpus[0]?.model ?? null,
    total_mem_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    node: process.version,
    v8: process.versions.v8,
    loadavg_at_start: os.loadavg().map((x) => Math.round(x * 100) / 100),
    yaml: pkgVersion('yaml'),
    zod: pkgVersion('zod'),
    esbuild: pkgVersion('esbuild'),
    commit: gitHead(),
  };
}

export function loadNow() {
  return os.loadavg().map((x) => Math.round(x * 100) / 100);
}

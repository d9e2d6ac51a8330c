// Shared by the torture suite: temp profile homes, the real engine with a capturing logger, the
// built CLI, and a /proc scan that finds every process a test started (tagged through an env var
// every hook and grandchild inherits), counting zombies as dead — PID 1 here may not reap promptly.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../../src/engine/create-engine.js';
import type { Logger } from '../../src/engine/logger.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'torture');
export const CLI = join(ROOT, 'dist', 'cli', 'bin.js');

/** The CLI tests run the built binary; `npm ci` builds it. Say so plainly when it is missing. */
export function requireBuiltCli(): string {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: the torture suite runs the built CLI — run \`npm run build\` (npm ci does it) first`);
  }
  return CLI;
}

const temps: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hh-torture-${prefix}-`));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Writes an executable script. */
export function script(path: string, text: string): string {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** A unique value for TORTURE_TAG: every process a test starts carries `TORTURE_TAG=<tag>`. */
export function newTag(name: string): string {
  return `${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface CaptureLogger extends Logger {
  warnings: string[];
}

export function captureLogger(): CaptureLogger {
  const warnings: string[] = [];
  return { warnings, warn: (m) => void warnings.push(m), info: () => {}, debug: () => {} };
}

/** A temp profile home with this config.yaml, and the real engine over it (consent accepted, no prompt). */
export async function engineFor(yaml: string, tag: string, opts: HookEngineOptions = {}): Promise<{ engine: HookEngine; home: string; logger: CaptureLogger }> {
  const home = tempDir('home');
  writeFileSync(join(home, 'config.yaml'), yaml);
  const logger = captureLogger();
  const engine = await createHookEngine({
    home,
    env: { ...process.env, HERMES_SAFE_MODE: '', HERMES_ACCEPT_HOOKS: '', TORTURE_TAG: tag },
    acceptHooks: true,
    interactive: false,
    logger,
    ...opts,
  });
  return { engine, home, logger };
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  cmdline: string[];
  env: Map<string, string>;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0] ?? '?';
    // A zombie (or a dying process) is dead for our purposes; its environ reads empty anyway.
    if (state === 'Z' || state === 'X') return null;
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    const env = new Map<string, string>();
    for (const kv of environ.split('\0')) {
      const eq = kv.indexOf('=');
      if (eq > 0) env.set(kv.slice(0, eq), kv.slice(eq + 1));
    }
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    if (cmdline[cmdline.length - 1] === '') cmdline.pop();
    return { pid, ppid: Number(rest[1]), pgid: Number(rest[2]), sid: Number(rest[3]), state, cmdline, env };
  } catch {
    return null; // exited meanwhile
  }
}

/** Every live (non-zombie) process carrying TORTURE_TAG=<tag>, except this test process. */
export function taggedProcesses(tag: string): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const info = readProc(pid);
    if (info && info.env.get('TORTURE_TAG') === tag) out.push(info);
  }
  return out;
}

/**
 * Live hook processes of this process right now: direct children that lead their own process group
 * (spawnHook starts every hook detached). Reads only /proc/<pid>/stat, so it is cheap enough to poll.
 */
export function hookLeaders(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === process.pid && Number(pgid) === Number(name) && state !== 'Z' && state !== 'X') out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (cond()) return true;
    await sleep(stepMs);
  }
  return cond();
}

/** Waits until no tagged process is left; returns the survivors (empty on success). */
export async function waitNoneLeft(tag: string, timeoutMs: number): Promise<ProcInfo[]> {
  let left: ProcInfo[] = [];
  await waitFor(() => (left = taggedProcesses(tag)).length === 0, timeoutMs, 100);
  return left;
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Last resort so a failing test never leaks its sleepers into the rest of the run. */
export function killTagged(tag: string): void {
  for (const p of taggedProcesses(tag)) killQuietly(p.pid);
}

export function describeProcs(procs: readonly ProcInfo[]): string {
  return procs.map((p) => `${p.pid} pgid=${p.pgid} sid=${p.sid} ${p.cmdline.join(' ')}`).join('\n');
}

let python: string | null = null;

/**
 * The real python3 binary. `python3` on PATH may be a pyenv shim (a bash script that costs more
 * than the hook itself), so shebangs name the interpreter directly.
 */
export function realPython(): string {
  if (python !== null) return python;
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const exe = r.stdout?.trim();
  if (r.status !== 0 || !exe) throw new Error(`python3 is needed by the torture suite: ${r.stderr || r.error}`);
  python = exe;
  return exe;
}

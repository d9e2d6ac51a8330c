import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLiveHooks, liveHookCount } from '../../src/spawn/live-hooks.js';
import { spawnHook } from '../../src/spawn/run-hook.js';
import { FIXTURES, fixture, groupMembers, isRunning, killQuietly, waitFor } from './_helpers.js';

const REPO = resolve(FIXTURES, '..', '..', '..');
/** Stated margin for timers and process exits on a loaded 2-core machine (as in test/torture). */
const TIMER_MARGIN_MS = 1500;
/** How much earlier than asked a Node timer may fire, measured against performance.now(). */
const TIMER_EARLY_MS = 5;

let tmp: string;
/** Every hook pid a host reported, killed after all tests as a safety net (never before asserting). */
const reported: number[] = [];
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'live-hooks-test-'));
});
afterAll(() => {
  reported.forEach(killQuietly);
  rmSync(tmp, { recursive: true, force: true });
});

interface HostExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  pids: number[];
}

/** Runs the host fixture, waits until its hook is running, optionally signals it, and reports. */
async function runHost(mode: string, send: NodeJS.Signals | null): Promise<HostExit> {
  const pidFile = join(tmp, `pids-${mode}-${send ?? 'none'}`);
  const host = spawn(process.execPath, ['--import', 'tsx', fixture('host-exit-cleanup.ts'), mode], {
    cwd: REPO,
    env: { ...process.env, PID_FILE: pidFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  host.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  host.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => host.on('exit', (code, signal) => res({ code, signal })));
  let pids: number[];
  try {
    const ready = await waitFor(() => stdout.includes('ready') || host.exitCode !== null, 20_000);
    expect(ready, `host never got ready; stderr: ${stderr}`).toBe(true);
    pids = readFileSync(pidFile, 'utf8').trim().split(/\s+/).map(Number);
    reported.push(...pids);
    expect(pids).toHaveLength(2);
    if (send) host.kill(send);
    const { code, signal } = await exited;
    return { code, signal, stdout, pids };
  } finally {
    killQuietly(host.pid!);
  }
}

/** Whether SIGKILL is pending for `pid` (sent, not yet acted on), from /proc/<pid>/status. */
function sigkillPending(pid: number): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false; // gone: isRunning says so
  }
  const bit = 1n << 8n; // signal 9, counted from 1
  return ['SigPnd', 'ShdPnd'].some((field) => {
    const m = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status);
    return m !== null && (BigInt(`0x${m[1]}`) & bit) !== 0n;
  });
}

async function expectGone(pids: number[]): Promise<void> {
  expect(await waitFor(() => pids.every((p) => !isRunning(p)), 3000), `still running: ${pids.filter(isRunning)}`).toBe(true);
}

describe('installExitCleanup', () => {
  it('kills running hook groups on SIGTERM and then dies of SIGTERM when no one else listens', async () => {
    const r = await runHost('sole', 'SIGTERM');
    expect(r.stdout).toBe('ready listeners=1\n'); // installing twice added one listener
    expect(r).toMatchObject({ code: null, signal: 'SIGTERM' });
    await expectGone(r.pids);
  });

  it('does the same on SIGINT', async () => {
    const r = await runHost('sole', 'SIGINT');
    expect(r).toMatchObject({ code: null, signal: 'SIGINT' });
    await expectGone(r.pids);
  });

  it('leaves the exit decision to a host that has its own signal handler', async () => {
    const r = await runHost('listener', 'SIGTERM');
    // Our cleanup and the host's handler both listen; the host's handler ran and decided the exit.
    expect(r.stdout).toBe('ready listeners=2\nhost handler 2\n');
    expect(r).toMatchObject({ code: 7, signal: null });
    await expectGone(r.pids);
  });

  it('kills running hook groups when the host exits by itself', async () => {
    const r = await runHost('exit', null);
    expect(r).toMatchObject({ code: 3, signal: null });
    await expectGone(r.pids);
  });

  it('is what kills them: without it, detached hooks outlive the host', async () => {
    const r = await runHost('no-cleanup', 'SIGTERM');
    expect(r).toMatchObject({ code: null, signal: 'SIGTERM' });
    // A kill sent before the host died would already be pending (or done): none is, none was sent.
    expect(r.pids.map((p) => [isRunning(p), sigkillPending(p)])).toEqual(r.pids.map(() => [true, false]));
    r.pids.forEach(killQuietly);
  });
});

describe('killLiveHooks', () => {
  it('escalates a SIGTERM it sent to SIGKILL for a group that ignores it', async () => {
    expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    const ready = join(tmp, 'trap-installed');
    const pending = spawnHook({
      command: fixture('trap-term-ready.sh'),
      stdin: '{}',
      timeoutMs: 30_000,
      killGraceMs: 200,
      extraEnv: { READY_FILE: ready },
    });
    // Signal only once the hook has installed its trap (it creates the file right after `trap`).
    expect(await waitFor(() => existsSync(ready), 5000)).toBe(true);
    expect(liveHookCount()).toBe(1);
    const killedAt = performance.now();
    expect(killLiveHooks('SIGTERM')).toBe(1);
    const r = await pending;
    const settled = performance.now() - killedAt;
    expect(r).toMatchObject({ status: 'timeout', error: 'cancelled', signal: 'SIGKILL' });
    // It outlived the TERM for the whole grace, then the KILL and at most the drain ended it.
    expect(settled).toBeGreaterThanOrEqual(200 - TIMER_EARLY_MS);
    expect(settled).toBeLessThan(200 + 500 + TIMER_MARGIN_MS);
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('returns 0 when nothing is running', async () => {
    expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    expect(killLiveHooks()).toBe(0);
  });
});

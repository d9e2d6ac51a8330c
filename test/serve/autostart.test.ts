// Start on first use, exit when idle: the bundled client, finding no serve at its socket (none
// there, or one left by a serve that was killed), starts one itself — detached, --idle-exit — and
// sends the call to it; two clients racing start exactly one; a serve that idled out is started
// again by the next call; HERMES_HOOKS_AUTOSTART=0 keeps the old block. Real serve, real client.

import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { approvedHome, baseEnv, BIN, cleanupTemps, postJson, clientAt, CLIENTS, servesOf, startServe, tempDir, waitFor, writeScript } from './_helpers.js';

const servePids: number[] = [];
afterAll(() => {
  for (const pid of servePids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  cleanupTemps();
});

// No session_id: an open session keeps serve up until --idle-timeout finalizes it.
const GATE = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });

/** A home whose one guard blocks every tool call (after `delay`, e.g. 'sleep 2'), and the client's environment for it. */
async function blockingHome(extra: Record<string, string> = {}, delay = ''): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
  const dir = tempDir();
  const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\n${delay}\necho '{"action":"block","message":"nope from the guard"}'\n`);
  const home = await approvedHome({ pre_tool_call: [guard] });
  const bin = writeScript(join(dir, 'hermes-hooks'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  return { home, env: baseEnv({ HERMES_HOME: home, HERMES_HOOKS_BIN: bin, ...extra }) };
}

function denied(stdout: string): string {
  const out = JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  return `${out.hookSpecificOutput.permissionDecision}: ${out.hookSpecificOutput.permissionDecisionReason}`;
}

describe.each(CLIENTS)('the client starts serve on first use ($name client)', ({ path }) => {
  const runClient = clientAt(path);

  it('two clients racing against no serve: exactly one serve starts, both calls are answered by it', async () => {
    const { home, env } = await blockingHome();
    const [a, b] = await Promise.all([runClient(['claude', 'PreToolUse'], GATE, env), runClient(['claude', 'PreToolUse'], GATE, env)]);
    servePids.push(...servesOf(home));
    for (const r of [a, b]) {
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(denied(r.stdout)).toContain('nope from the guard');
    }
    expect(servesOf(home)).toHaveLength(1);
    expect(existsSync(join(home, 'hermes-hooks.sock.starting'))).toBe(false);
    const log = readFileSync(join(home, 'hermes-hooks-serve.log'), 'utf8');
    expect(log).toContain('serving HTTP on unix socket');
  }, 60_000);

  it('the call that started serve waits out a guard slower than a second: its deadline counts from its own start', async () => {
    const { home, env } = await blockingHome({}, 'sleep 2');
    const r = await runClient(['claude', 'PreToolUse'], GATE, env);
    servePids.push(...servesOf(home));
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(denied(r.stdout)).toContain('nope from the guard');
  }, 60_000);

  it("the serve it starts holds none of the client's descriptors: a pipe the caller gave it as fd 3 ends with the client", async () => {
    const { home, env } = await blockingHome();
    const child = spawn(path, ['codex', 'PreToolUse'], { env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const extra = child.stdio[3] as NodeJS.ReadableStream;
    extra.resume();
    const ended = new Promise<void>((resolve) => extra.on('end', resolve).on('close', resolve));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdout!.resume();
    child.stderr!.resume();
    child.stdin!.end(GATE);
    expect(await exited).toBe(2);
    servePids.push(...servesOf(home));
    // The serve it started is still up (idle exit 900 s), yet the pipe has ended: serve does not hold it.
    await ended;
    expect(servesOf(home)).toHaveLength(1);
  }, 60_000);

  it('a serve that idled out (--idle-exit) removed its socket; the next call starts another', async () => {
    const { home, env } = await blockingHome({ HERMES_HOOKS_IDLE_EXIT: '1' });
    const first = await runClient(['codex', 'PreToolUse'], GATE, env);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('nope from the guard');
    const [pid] = servesOf(home);
    servePids.push(pid!);
    expect(await waitFor(() => servesOf(home).length === 0, 15_000)).toBe(true);
    expect(existsSync(join(home, 'hermes-hooks.sock'))).toBe(false);
    expect(readFileSync(join(home, 'hermes-hooks-serve.log'), 'utf8')).toContain(
      'idle for 1s with no request in flight and no open session (--idle-exit): shutting down',
    );
    const again = await runClient(['codex', 'PreToolUse'], GATE, env);
    expect([again.code, again.stderr]).toEqual([2, 'nope from the guard\n']);
    const now = servesOf(home);
    servePids.push(...now);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(pid);
  }, 60_000);

  it('a socket left by a killed serve: the client starts a new one and sends the call to it', async () => {
    const { home, env } = await blockingHome();
    const old = await startServe(home, [], { env });
    old.child.kill('SIGKILL');
    await old.exited;
    expect(existsSync(join(home, 'hermes-hooks.sock'))).toBe(true);
    const r = await runClient(['codex', 'PreToolUse'], GATE, env);
    servePids.push(...servesOf(home));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope from the guard');
    expect(servesOf(home)).toHaveLength(1);
  }, 60_000);

  it('a home too long for a socket: the client starts serve, both find the short socket under $XDG_RUNTIME_DIR', async () => {
    const { home, env } = await blockingHome();
    const runtime = tempDir();
    const long = join(tempDir(), 'a-long-profile-home-name'.repeat(5));
    symlinkSync(home, long);
    const r = await runClient(['codex', 'PreToolUse'], GATE, { ...env, HERMES_HOME: long, XDG_RUNTIME_DIR: runtime });
    servePids.push(...servesOf(long));
    expect([r.code, r.stderr]).toEqual([2, 'nope from the guard\n']);
    expect(servesOf(long)).toHaveLength(1);
    expect(readdirSync(join(runtime, 'hermes-hooks')).filter((f) => f.endsWith('.sock'))).toEqual([
      `${createHash('sha256').update(realpathSync(home)).digest('hex').slice(0, 16)}.sock`,
    ]);
  }, 60_000);

  it('HERMES_HOOKS_AUTOSTART=0: no serve is started, the tool gate blocks saying why; a serve that cannot start blocks too', async () => {
    const { home, env } = await blockingHome({ HERMES_HOOKS_AUTOSTART: '0' });
    const off = await runClient(['claude', 'PreToolUse'], GATE, env);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('no hermes-hooks serve is running');
    expect(servesOf(home)).toHaveLength(0);
    const broken = await runClient(['claude', 'PreToolUse'], GATE, { ...env, HERMES_HOOKS_AUTOSTART: '1', HERMES_HOOKS_BIN: '/nonexistent/hermes-hooks' });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('starting one failed: /nonexistent/hermes-hooks is not installed');
    expect(broken.stderr).toContain('blocking this call');
  }, 30_000);
});

describe('serve --idle-exit', () => {
  it('an open session keeps serve up; once it is finalized (--idle-timeout) and SEC pass, serve exits 0 and removes its socket', async () => {
    const { home, env } = await blockingHome();
    const served = await startServe(home, ['--idle-exit', '1', '--idle-timeout', '3'], { env });
    const t0 = Date.now();
    const r = await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's1' });
    expect(r.status).toBe(200);
    expect(await served.exited).toBe(0);
    // Held up past its 1 s --idle-exit by the open session, until --idle-timeout (3 s) finalized it.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(3000);
    expect(served.stderr()).toContain('idle for 1s with no request in flight and no open session (--idle-exit): shutting down');
    expect(existsSync(join(home, 'hermes-hooks.sock'))).toBe(false);
  }, 30_000);
});

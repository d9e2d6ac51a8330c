// Issue 29: no other user can answer for serve. Claude Code's http wiring sends each call, bearer
// token included, to whoever listens on its loopback port: doctor --agent claude says ✗ when
// another user holds it, serve --http names that user when it cannot bind, and a serve on --http
// never idle-exits (a port it left free could be bound by anyone). Real listeners, a second uid.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { asUser, ATTACKER, ROOT } from '../_as-user.js';
import { runBin, runMain } from '../cli/_helpers.js';
import { httpPortChecks } from '../../src/agent-wiring/http-port.js';
import { cleanupTemps, http, makeHome, startServe, stopServe, tempDir, waitFor } from './_helpers.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
afterAll(cleanupTemps);

/** A TCP listener on 127.0.0.1 (any free port) run as `uid`; resolves with its port. */
async function listenerAs(uid: number): Promise<number> {
  const code =
    "const s = require('net').createServer((c) => c.end('HTTP/1.1 200 OK\\r\\ncontent-length: 2\\r\\n\\r\\n{}')).listen(0, '127.0.0.1', () => console.log(s.address().port))";
  const [cmd, ...args] = asUser(uid, [process.execPath, '-e', code]);
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  expect(await waitFor(() => /^\d+\n/.test(out), 20_000)).toBe(true);
  return Number(out.trim());
}

/** `doctor --agent claude --json` over what `print-config claude --http --url …:port` printed. */
async function doctorOverHttpWiring(port: number): Promise<{ ok: boolean | null; message: string }[]> {
  const hh = makeHome('hooks: {}\n');
  const home = tempDir();
  mkdirSync(join(home, '.claude'));
  const printed = await runMain(['print-config', 'claude', '--http', '--url', `http://127.0.0.1:${port}`, '--home', hh]);
  writeFileSync(join(home, '.claude/settings.json'), printed.stdout);
  const r = await runMain(['doctor', '--agent', 'claude', '--home', hh, '--project', tempDir(), '--json'], {
    env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' },
  });
  return (JSON.parse(r.stdout) as { general: { ok: boolean | null; message: string }[] }).general.filter((c) => c.message.includes(`port ${port}`));
}

describe("the http wiring's port", () => {
  it('held by another user: doctor --agent claude ✗ names the uid; serve --http there names it too', async () => {
    if (!ROOT) {
      // No second user: the judge itself, over what /proc would say.
      const [c] = httpPortChecks(['http://127.0.0.1:8765/v1/agent/claude/PreToolUse'], () => [{ address: '127.0.0.1', uid: 4242, user: null }], 1000);
      expect(c).toMatchObject({ ok: false });
      expect(c!.message).toContain('port 8765 is held by uid 4242, not you: it could answer for serve');
      return;
    }
    const port = await listenerAs(ATTACKER);
    const checks = await doctorOverHttpWiring(port);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.ok).toBe(false);
    expect(checks[0]!.message).toMatch(new RegExp(`^port ${port} is held by uid ${ATTACKER}( \\(\\S+\\))?, not you: it could answer for serve`));
    expect(checks[0]!.message).toContain("print-config claude', no --http");

    const served = await runBin(['serve', '--home', makeHome('hooks: {}\n'), '--http', `127.0.0.1:${port}`], { killAfterMs: 30_000 });
    expect(served.code).toBe(1);
    expect(served.stderr).toMatch(
      new RegExp(`serve: 127\\.0\\.0\\.1:${port} is held by uid ${ATTACKER}( \\(\\S+\\))?, not you: whatever listens there answers the http hooks`),
    );
  }, 60_000);

  it('held by our own serve: ✓; nothing listening: a warning that calls block and anyone may take the port', async () => {
    const served = await startServe(makeHome('hooks: {}\n'), ['--http', '127.0.0.1:0']);
    const port = served.port!;
    try {
      const checks = await doctorOverHttpWiring(port);
      expect(checks.map((c) => c.ok)).toEqual([true]);
      expect(checks[0]!.message).toContain(`port ${port} is held by uid ${process.getuid!()}`);
    } finally {
      await stopServe(served);
    }
    const free = await doctorOverHttpWiring(port);
    expect(free.map((c) => c.ok)).toEqual([null]);
    expect(free[0]!.message).toContain(
      `nothing listens on port ${port}: Claude Code's http tool calls are blocked (onFailure) until serve runs, and any local user may bind the port first`,
    );
  }, 60_000);
});

describe('serve --http never idle-exits', () => {
  it('--idle-exit is dropped (and said) with --http: it outlives a socket-only serve that idled out with a longer --idle-exit', async () => {
    const withHttp = await startServe(makeHome('hooks: {}\n'), ['--http', '127.0.0.1:0', '--idle-exit', '0.1']);
    try {
      expect(withHttp.stderr()).toContain('--idle-exit 0.1 is ignored with --http: a serve that listens on a TCP port never idle-exits');
      // Started after, idle for less time, with a longer --idle-exit: it goes, the http one stays.
      const plain = await startServe(makeHome('hooks: {}\n'), ['--idle-exit', '0.3']);
      expect(await plain.exited).toBe(0);
      expect(plain.stderr()).toContain('(--idle-exit): shutting down');
      const health = await http({ port: withHttp.port! }, 'GET', '/v1/health', { headers: { authorization: `Bearer ${withHttp.token}` } });
      expect(health.status).toBe(200);
      expect(withHttp.stderr()).not.toContain('shutting down');
    } finally {
      expect(await stopServe(withHttp)).toBe(0);
    }
  }, 60_000);
});

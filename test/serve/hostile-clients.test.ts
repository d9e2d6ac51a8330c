// serve against hostile clients (small numbers; the 1 000-connection measurement is bench/hostile):
// connections held open without a complete request fill the cap and a legitimate tool-gate call is
// still answered by its hook; the headers deadline closes them; the token is checked before a byte
// of the body is read; the oldest body gives way when too many arrive at once; and when every place
// is taken by a request being answered, a tool gate is answered with a block, never dropped.

import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  approvedHome,
  baseEnv,
  BIN,
  cleanupTemps,
  http,
  makeHome,
  runClient,
  startServe,
  stopServe,
  tempDir,
  waitFor,
  writeScript,
  type Served,
} from './_helpers.js';

afterAll(cleanupTemps);

const RM = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });

/** A guard whose block says it ran: an answer from it is the hook's, not serve's. */
async function guardedHome(extra: Record<string, (string | Record<string, unknown>)[]> = {}): Promise<{ home: string; dir: string }> {
  const dir = tempDir();
  const hook = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat > /dev/null\necho '{"action":"block","message":"the guard hook ran"}'\n`);
  return { home: await approvedHome({ pre_tool_call: [hook], ...extra }), dir };
}

interface Hostile {
  socket: Socket;
  kind?: string;
  /** Everything the server sent. */
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

type Target = { port: number } | { path: string };

/** A raw connection that sends `head` and then, if asked, one more byte per `dripMs`. */
function hostile(target: Target, head: string, dripMs?: number): Hostile {
  const socket = 'port' in target ? connect(target.port, '127.0.0.1') : connect(target.path);
  let got = '';
  let closed = false;
  socket.on('data', (c: Buffer) => (got += c.toString('utf8')));
  socket.on('error', () => {});
  const done = new Promise<void>((r) => socket.once('close', () => ((closed = true), r())));
  socket.once('connect', () => {
    if (head) socket.write(head);
    if (dripMs !== undefined) {
      const t = setInterval(() => (socket.writable ? socket.write('x') : clearInterval(t)), dripMs);
      socket.once('close', () => clearInterval(t));
    }
  });
  return { socket, received: () => got, closed: done, isClosed: () => closed };
}

const partialHeaders = (port: number): string => `POST /v1/agent/claude/PreToolUse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `;
const bodyHeaders = (path: string, host: string, length: number, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n${extra}\r\n`;

function health(served: Served) {
  return http({ socketPath: served.socket! }, 'GET', '/v1/health');
}

const client = (args: string[], stdin: string) => runClient(args, stdin);

function claudeOverHttp(served: Served, body = RM) {
  return http({ port: served.port! }, 'POST', '/v1/agent/claude/PreToolUse', { body, headers: { authorization: `Bearer ${served.token}` } });
}

describe('serve: hostile clients', () => {
  it('connections held open without a complete request fill the cap: a tool-gate call is still answered by its hook, over --http and through the client', async () => {
    const { home } = await guardedHome();
    const sock = join(tempDir(), 's.sock');
    const served = await startServe(home, ['--socket', sock, '--http', '127.0.0.1:0', '--max-connections', '16', '--headers-timeout', '60']);
    const port = served.port!;
    // 48 hostile connections held open for 16 places (at most 8 may wait for their headers):
    // partial headers, headers without a token then a dripped body, and idle ones.
    const held: Hostile[] = [];
    for (let i = 0; i < 48; i++) {
      const kind = ['partial', 'dripped', 'idle'][i % 3]!;
      const h =
        kind === 'partial'
          ? hostile({ port }, partialHeaders(port))
          : kind === 'dripped'
            ? hostile({ port }, bodyHeaders('/v1/agent/claude/PreToolUse', `127.0.0.1:${port}`, 100_000), 200)
            : hostile({ port }, '');
      held.push({ ...h, kind });
    }
    expect(await waitFor(() => /serve is shedding load: closed \d+ connection\(s\) still without a complete request/.test(served.stderr()), 20_000)).toBe(true);

    // The legitimate calls, with the waiting places full of held connections: each answered by the
    // guard hook itself (the oldest held connection gives way).
    const viaHttp = await claudeOverHttp(served);
    expect(viaHttp.status).toBe(200);
    expect(JSON.parse(viaHttp.body).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'the guard hook ran' });
    const viaClient = await client(['codex', 'PreToolUse', sock], RM);
    expect([viaClient.code, viaClient.stdout, viaClient.stderr]).toEqual([2, '', 'the guard hook ran\n']);
    const h = JSON.parse((await health(served)).body).connections;
    expect(h).toMatchObject({ max: 16 });
    expect(h.shed).toBeGreaterThan(0);
    expect(h.open).toBeLessThanOrEqual(16 + 32);

    // A body from a client without the token is never read: 401 and the connection is closed.
    const dripped = held.filter((x) => x.kind === 'dripped' && x.received() !== '');
    expect(dripped.length).toBeGreaterThan(0);
    for (const d of dripped) expect(d.received()).toMatch(/^HTTP\/1\.1 401 [^]*connection: close/i);

    for (const x of held) x.socket.destroy();
    expect(await stopServe(served)).toBe(0);
    // 40 connections closed to make room, said in a line per 10 s at most (the test takes seconds).
    expect(served.stderr().match(/serve is shedding load/g)!.length).toBeLessThanOrEqual(2);
    expect(served.stderr()).toMatch(/closed (\d{2}) connection\(s\) still without a complete request to make room/);
  }, 90_000);

  it('--headers-timeout closes connections that never complete their headers; a partial request is told why', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--http', '127.0.0.1:0', '--headers-timeout', '1']);
    const port = served.port!;
    const idle = [0, 1, 2].map(() => hostile({ port }, ''));
    const partial = [0, 1, 2].map(() => hostile({ port }, partialHeaders(port)));
    const all = [...idle, ...partial];
    // Generous: the deadline is 1 s; anything under 20 s proves they were closed by it.
    const closedInTime = await Promise.race([Promise.all(all.map((x) => x.closed)).then(() => true), new Promise((r) => setTimeout(() => r(false), 20_000))]);
    expect(closedInTime).toBe(true);
    for (const x of idle) expect(x.received()).toBe('');
    for (const x of partial) expect(x.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[^]*no complete request headers within 1s \(--headers-timeout\)/);
    // Said on stderr, at most one line per 10 s: the six may be counted over two lines.
    const timedOut = (): number =>
      [...served.stderr().matchAll(/serve closed (\d+) connection\(s\) that sent no complete request headers within 1s \(--headers-timeout; now /g)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
    expect(await waitFor(() => timedOut() === 6, 20_000)).toBe(true);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('the token is checked before the body: no 100 Continue and no body read without it, the 401 comes at once', async () => {
    const { home } = await guardedHome();
    const served = await startServe(home, ['--http', '127.0.0.1:0']);
    const port = served.port!;
    const host = `127.0.0.1:${port}`;
    // Headers only, a body of 1 MB announced and never sent: the answer does not wait for it.
    const noToken = hostile({ port }, bodyHeaders('/v1/agent/claude/PreToolUse', host, 1_000_000, 'expect: 100-continue\r\n'));
    await noToken.closed;
    expect(noToken.received()).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(noToken.received()).not.toContain('100 Continue');
    // With the token, the 100 comes, then the body is read and the hook answers.
    const withToken = hostile(
      { port },
      bodyHeaders(
        '/v1/agent/claude/PreToolUse',
        host,
        Buffer.byteLength(RM),
        `expect: 100-continue\r\nauthorization: Bearer ${served.token}\r\nconnection: close\r\n`,
      ),
    );
    expect(await waitFor(() => withToken.received().startsWith('HTTP/1.1 100 Continue\r\n'), 10_000, 10)).toBe(true);
    withToken.socket.write(RM);
    await withToken.closed;
    expect(withToken.received()).toContain('the guard hook ran');
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it("too many bodies arriving at once: the oldest is cut short and answered with a block (the agent's own, or a block decision)", async () => {
    const { home } = await guardedHome();
    const served = await startServe(home, ['--max-connections', '16']); // at most 4 bodies arriving
    const path = served.socket!;
    const sendingBody = async (n: number): Promise<boolean> => {
      for (let i = 0; i < 400; i++) {
        if (JSON.parse((await health(served)).body).connections.sending_body === n) return true;
        await new Promise((r) => setTimeout(r, 25));
      }
      return false;
    };
    const agentCall = hostile({ path }, `${bodyHeaders('/v1/agent/claude/PreToolUse', 'x', 1000)}{"tool_name":`, 500);
    expect(await sendingBody(1)).toBe(true);
    const emitCall = hostile({ path }, `${bodyHeaders('/v1/emit/pre_tool_call', 'x', 1000)}{"tool_name":`, 500);
    expect(await sendingBody(2)).toBe(true);
    const later = [0, 1, 2, 3].map(() => hostile({ path }, `${bodyHeaders('/v1/emit/post_tool_call', 'x', 1000)}{`, 500));
    await Promise.all([agentCall.closed, emitCall.closed]);

    const [agentHead, agentBody] = agentCall.received().split('\r\n\r\n');
    expect(agentHead).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*connection: close/i);
    expect(agentHead).toMatch(/x-hermes-hooks-exit: 0/);
    expect(JSON.parse(agentBody!).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(
        /^hermes-hooks cannot decide, so it blocks this call: serve takes at most 4 request bodies arriving at once; this one had been arriving for [\d.]+s and was cut short/,
      ),
    });
    const [emitHead, emitBody] = emitCall.received().split('\r\n\r\n');
    expect(emitHead).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*retry-after: 1/i);
    expect(JSON.parse(emitBody!)).toMatchObject({
      event: 'pre_tool_call',
      hooks: [],
      decision: {
        action: 'block',
        message: expect.stringMatching(/^hermes-hooks serve did not check this call, so it blocks it: serve takes at most 4 request bodies/),
      },
    });
    expect(await waitFor(() => /cut \d request body\(ies\) short, oldest first/.test(served.stderr()), 10_000)).toBe(true);
    for (const x of later) x.socket.destroy();
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('every place taken by requests being answered: a tool gate is answered with a block at once, anything else 503, and serve says so', async () => {
    const dir = tempDir();
    const started = join(dir, 'started');
    const slow = writeScript(join(dir, 'slow.sh'), `#!/bin/bash\ncat > /dev/null\necho $$ >> ${started}\nsleep 60\n`);
    const { home } = await guardedHome({ post_tool_call: [slow] });
    const served = await startServe(home, ['--max-connections', '16', '--drain-timeout', '1']);
    const count = (): number => (existsSync(started) ? readFileSync(started, 'utf8').split('\n').filter(Boolean).length : 0);
    // 16 slow requests fill every place, each running its hook. Eight at a time: more new
    // connections at once than may wait for their headers (half the cap) would close the oldest.
    const slowCalls: Promise<unknown>[] = [];
    for (const n of [8, 16]) {
      while (slowCalls.length < n)
        slowCalls.push(http({ socketPath: served.socket! }, 'POST', '/v1/emit/post_tool_call', { body: '{"tool_name":"terminal"}' }).catch((e: Error) => e));
      expect(await waitFor(() => count() === n, 30_000)).toBe(true);
    }
    // Health itself is now over the cap: shed (503), saying why.
    const shedHealth = (await health(served)).body;
    expect(JSON.parse(shedHealth).error.message).toBe('serve is at its connection limit (16) and every connection holds a request being answered');

    const emit = await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', {
      body: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }),
    });
    expect(emit.status).toBe(200);
    expect(JSON.parse(emit.body).decision).toMatchObject({
      action: 'block',
      message: expect.stringMatching(/^hermes-hooks serve did not check this call, so it blocks it: serve is at its connection limit \(16\)/),
    });
    const viaClient = await client(['codex', 'PreToolUse', served.socket!], RM);
    expect(viaClient.code).toBe(2);
    expect(viaClient.stderr).toMatch(/^hermes-hooks cannot decide, so it blocks this call: serve is at its connection limit \(16\)/);
    const other = await http({ socketPath: served.socket! }, 'POST', '/v1/emit/post_tool_call', { body: '{}' });
    expect([other.status, other.headers['retry-after']]).toEqual([503, '1']);
    expect(await waitFor(() => /answered \d+ request\(s\) over the cap unchecked/.test(served.stderr()), 15_000)).toBe(true);

    expect(await stopServe(served)).toBe(0);
    await Promise.all(slowCalls);
  }, 90_000);

  it('the cap follows the open-file limit, is said in --help, and a --max-connections over the limit is refused', async () => {
    const underLimit = (args: string[]): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const c = spawn('bash', ['-c', `ulimit -n 400 && exec "${process.execPath}" "${BIN}" "$@"`, 'bash', ...args], {
          env: baseEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        c.stdout.on('data', (d: Buffer) => (out += d));
        c.stderr.on('data', (d: Buffer) => (out += d));
        c.once('close', (code) => resolve({ code, out }));
      });
    // 400 − 128 kept for the process − 4 × 16 hooks − 32 overflow = 176.
    const help = await underLimit(['serve', '--help']);
    expect(help.out).toContain('here 176 (limit 400, --concurrency 16)');
    const home = makeHome('hooks: {}\n');
    const refused = await underLimit(['serve', '--home', home, '--max-connections', '300']);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(
      'hermes-hooks: serve: --max-connections 300 is more than the open-file limit allows (400 open files; 224 are kept for the process, 16 hooks and the overflow): at most 176; raise the limit (ulimit -n) or lower --max-connections\n',
    );
  }, 60_000);
});

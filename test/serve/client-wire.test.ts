// The bundled clients on the wire, against a stand-in serve (an HTTP server on a Unix socket of
// ours, in this process) that answers as a test needs: the request they send, an answer that comes
// in pieces or slowly, an interim 100, stderr percent-decoded, a non-200 answer. The perl client
// also carries any bytes both ways exactly, a 5 MB payload included (the bash one cannot: its
// here-string adds a newline and its variables hold no NUL).

import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Socket } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { baseEnv, cleanupTemps, CLIENT, CLIENTS, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer };
type Answer = (seen: Seen, res: ServerResponse) => void | Promise<void>;

/** A stand-in serve on a fresh socket: `answer` writes each reply; `seen` lists the requests. */
async function standIn(answer: Answer): Promise<{ sock: string; seen: Seen[]; close: () => Promise<void> }> {
  const sock = join(tempDir(), 'hermes-hooks.sock');
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      void answer(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(sock, r));
  return { sock, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Runs `client args` with `stdin` (bytes) → exit code and the raw bytes of stdout and stderr. */
function run(
  client: string,
  args: string[],
  stdin: Buffer,
  env = baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }),
): Promise<{ code: number | null; out: Buffer; err: Buffer }> {
  return new Promise((resolve) => {
    const c = spawn(client, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    c.stdout.on('data', (d: Buffer) => out.push(d));
    c.stderr.on('data', (d: Buffer) => err.push(d));
    c.once('close', (code) => resolve({ code, out: Buffer.concat(out), err: Buffer.concat(err) }));
    c.stdin.on('error', () => {});
    c.stdin.end(stdin);
  });
}

/** A stand-in speaking raw bytes: `answer` gets each connection once its request's head is in. */
async function rawStandIn(answer: (conn: Socket) => void | Promise<void>): Promise<{ sock: string; close: () => Promise<void> }> {
  const sock = join(tempDir(), 'hermes-hooks.sock');
  const server = createNetServer((conn) => {
    let got = '';
    const onData = (d: Buffer): void => {
      got += d.toString('latin1');
      if (!got.includes('\r\n\r\n')) return;
      conn.off('data', onData);
      conn.resume();
      void answer(conn);
    };
    conn.on('data', onData);
    conn.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(sock, r));
  return { sock, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GATE = Buffer.from(JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' }));

describe.each(CLIENTS)('the $name client on the wire', ({ path: client }) => {
  it('sends POST /v1/agent/AGENT/EVENT with the body, its length and no Expect; prints the body and exits with the exit header', async () => {
    const serve = await standIn((_s, res) => {
      res.setHeader('x-hermes-hooks-exit', '3');
      res.end('{"ok":true}\n');
    });
    try {
      const r = await run(client, ['codex', 'PreToolUse', serve.sock], GATE);
      expect([r.code, r.out.toString(), r.err.toString()]).toEqual([3, '{"ok":true}\n', '']);
      const [seen] = serve.seen;
      expect([seen!.method, seen!.url, seen!.headers['content-type'], seen!.headers.expect]).toEqual([
        'POST',
        '/v1/agent/codex/PreToolUse',
        'application/json',
        undefined,
      ]);
      expect(Number(seen!.headers['content-length'])).toBe(seen!.body.length);
      expect(JSON.parse(seen!.body.toString())).toEqual(JSON.parse(GATE.toString()));
    } finally {
      await serve.close();
    }
  }, 30_000);

  it("writes serve's stderr percent-decoded, ending in one newline", async () => {
    const text = 'blocked: 100% sure — “rm -rf /” \\ no\tway';
    const serve = await standIn((s, res) => {
      res.setHeader('x-hermes-hooks-exit', '2');
      res.setHeader('x-hermes-hooks-stderr', encodeURIComponent(s.url.endsWith('Stop') ? `${text}\n` : text));
      res.end();
    });
    try {
      for (const event of ['PreToolUse', 'Stop']) {
        const r = await run(client, ['claude', event, serve.sock], GATE);
        expect([r.code, r.out.toString(), r.err.toString('utf8')]).toEqual([2, '', `${text}\n`]);
      }
    } finally {
      await serve.close();
    }
  }, 30_000);

  it('an answer that comes in pieces, slowly (inside the deadline), after an interim 100: read whole, chunked or not', async () => {
    const body = `{"decision":"${'x'.repeat(70_000)}"}\n`;
    const serve = await standIn(async (s, res) => {
      res.writeContinue();
      await sleep(200);
      res.setHeader('x-hermes-hooks-exit', '0');
      if (s.url.endsWith('sized')) res.setHeader('content-length', Buffer.byteLength(body));
      res.write(body.slice(0, 10));
      await sleep(300);
      res.write(body.slice(10, 40_000));
      await sleep(300);
      res.end(body.slice(40_000));
    });
    try {
      for (const event of ['sized', 'chunked']) {
        const t0 = Date.now();
        const r = await run(client, ['codex', event, serve.sock], GATE, baseEnv({ HERMES_HOOKS_AUTOSTART: '0', HERMES_HOOKS_TIMEOUT: '5' }));
        expect([r.code, r.err.toString()]).toEqual([0, '']);
        expect(r.out.toString()).toBe(body);
        expect(Date.now() - t0).toBeGreaterThanOrEqual(800);
      }
    } finally {
      await serve.close();
    }
  }, 30_000);

  it('an answer other than 200 with an exit header: the status and body, a gate blocks', async () => {
    const serve = await standIn((_s, res) => {
      res.statusCode = 404;
      res.end('no such agent');
    });
    try {
      const r = await run(client, ['gemini', 'BeforeTool', serve.sock], GATE);
      expect([r.code, r.out.toString(), r.err.toString()]).toEqual([
        2,
        '',
        `hermes-hooks-client: hermes-hooks serve answered HTTP 404: no such agent; blocking this call (exit 2) rather than letting it through unguarded\n`,
      ]);
    } finally {
      await serve.close();
    }
  }, 30_000);
});

describe.each(CLIENTS)('the $name client and an answer that is not whole', ({ path: client }) => {
  const blocked = (r: { code: number | null; err: Buffer }, why: string | RegExp) => {
    expect(r.code).toBe(2);
    expect(r.err.toString()).toMatch(why);
    expect(r.err.toString()).toMatch(/; blocking this call \(exit 2\) rather than letting it through unguarded\n$/);
  };

  it('a body that ends where the connection does (no length, no chunks) is read to its end', async () => {
    const serve = await rawStandIn(async (conn) => {
      conn.write('HTTP/1.1 200 OK\r\nx-hermes-hooks-exit: 0\r\n\r\n{"part":');
      await sleep(200);
      conn.end('1}\n');
    });
    try {
      const r = await run(client, ['codex', 'PreToolUse', serve.sock], GATE);
      expect([r.code, r.out.toString(), r.err.toString()]).toEqual([0, '{"part":1}\n', '']);
    } finally {
      await serve.close();
    }
  }, 30_000);

  it('no answer at all, an answer cut short, a deadline that is not a number: the gate blocks, saying so', async () => {
    const serve = await rawStandIn((conn) => {
      conn.destroy();
    });
    const short = await rawStandIn((conn) => {
      conn.end('HTTP/1.1 200 OK\r\nx-hermes-hooks-exit: 0\r\ncontent-length: 100\r\n\r\n{"cut":');
    });
    try {
      blocked(await run(client, ['codex', 'PreToolUse', serve.sock], GATE), `hermes-hooks serve on ${serve.sock} closed the connection without an answer`);
      blocked(await run(client, ['codex', 'PreToolUse', short.sock], GATE), `hermes-hooks-client: cannot talk to hermes-hooks serve on ${short.sock} (`);
      const env = baseEnv({ HERMES_HOOKS_AUTOSTART: '0', HERMES_HOOKS_TIMEOUT: 'soon' });
      blocked(await run(client, ['codex', 'PreToolUse', short.sock], GATE, env), `hermes-hooks-client: cannot talk to hermes-hooks serve on ${short.sock} (`);
    } finally {
      await Promise.all([serve.close(), short.close()]);
    }
  }, 30_000);
});

describe('the perl client compiles clean', () => {
  it('under strict and warnings, the part below __DATA__ (compiled only when needed) included', () => {
    // It loads neither at run time (~2 ms a call): they are checked here instead.
    const whole = join(tempDir(), 'hermes-hooks-client.pl');
    writeFileSync(whole, readFileSync(CLIENT, 'utf8').replace(/^__DATA__$/m, ''));
    const r = spawnSync('perl', ['-Mstrict', '-Mwarnings', '-M-warnings=once', '-c', whole], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, `${whole} syntax OK\n`]);
  });
});

describe('the perl client carries bytes exactly', () => {
  const echo: Answer = (s, res) => {
    res.setHeader('x-hermes-hooks-exit', '0');
    res.end(s.body);
  };

  it('UTF-8 and other high bytes with no trailing newline, both ways', async () => {
    const serve = await standIn(echo);
    try {
      const payload = Buffer.concat([
        Buffer.from('{"t":"ünïcødé ✓ 🚀 \\u0000"}', 'utf8'),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x80, 0x7f, 0x01, 0x0d, 0x0a, 0x0d]),
      ]);
      const r = await run(CLIENT, ['codex', 'PostToolUse', serve.sock], payload);
      expect([r.code, r.err.toString()]).toEqual([0, '']);
      expect(serve.seen[0]!.body.equals(payload)).toBe(true);
      expect(r.out.equals(payload)).toBe(true);
    } finally {
      await serve.close();
    }
  }, 30_000);

  it('a 5 MB payload, both ways', async () => {
    const serve = await standIn(echo);
    try {
      const payload = Buffer.from(`{"big":"${'0123456789abcdef'.repeat((5 * 1024 * 1024) / 16)}"}`);
      const r = await run(CLIENT, ['codex', 'PostToolUse', serve.sock], payload);
      expect([r.code, r.err.toString()]).toEqual([0, '']);
      expect(serve.seen[0]!.body.equals(payload)).toBe(true);
      expect(r.out.length).toBe(payload.length);
      expect(r.out.equals(payload)).toBe(true);
    } finally {
      await serve.close();
    }
  }, 30_000);
});

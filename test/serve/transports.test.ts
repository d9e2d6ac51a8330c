// The transport list (src/serve/transport.ts, lifecycle.ts): every transport asked for starts,
// is announced and listed by health; one that cannot start undoes those started before it (the
// socket file removed), so the next serve starts on the same socket. Real servers and ports.

import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../cli/_helpers.js';
import { cleanupTemps, http, makeHome, rpcClient, startServe, stopServe, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

/** A plain TCP listener on 127.0.0.1 holding a port serve will ask for. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer((c) => c.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

describe('serve transports', () => {
  it('socket, http and stdio together: each announced in order and listed by health, wherever it is asked', async () => {
    const socket = join(tempDir(), 's.sock');
    const served = await startServe(makeHome('hooks: {}\n'), ['--socket', socket, '--http', '127.0.0.1:0', '--stdio']);
    try {
      const order = [...served.stderr().matchAll(/serving (HTTP on unix socket|HTTP on http|JSON-RPC)/g)].map((m) => m[1]);
      expect(order).toEqual(['HTTP on unix socket', 'HTTP on http', 'JSON-RPC']);
      const want = [`unix:${socket}`, `http://127.0.0.1:${served.port}`, 'stdio'];
      const overSocket = JSON.parse((await http({ socketPath: socket }, 'GET', '/v1/health')).body) as Record<string, unknown>;
      expect(overSocket.transports).toEqual(want);
      expect(overSocket.connections).toMatchObject({ max: expect.any(Number) });
      const overTcp = await http({ port: served.port! }, 'GET', '/v1/health', { headers: { authorization: `Bearer ${served.token}` } });
      expect((JSON.parse(overTcp.body) as Record<string, unknown>).transports).toEqual(want);
      const rpc = rpcClient(served);
      const answer = await rpc.call('health', {});
      expect((answer.result as Record<string, unknown>).transports).toEqual(want);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
    expect(existsSync(socket)).toBe(false);
  }, 60_000);

  it('--http cannot bind: serve exits 1 and the socket it had already opened is gone; the next serve starts there', async () => {
    const socket = join(tempDir(), 's.sock');
    const home = makeHome('hooks: {}\n');
    const held = await holdPort();
    try {
      const r = await runBin(['serve', '--home', home, '--socket', socket, '--http', `127.0.0.1:${held.port}`], { killAfterMs: 30_000 });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`serving HTTP on unix socket ${socket}`);
      expect(r.stderr).toContain(String(held.port));
      expect(existsSync(socket)).toBe(false);
    } finally {
      held.server.close();
    }
    const again = await startServe(home, ['--socket', socket]);
    expect(again.socket).toBe(socket);
    expect(await stopServe(again)).toBe(0);
  }, 60_000);
});

// The dispatcher must never keep a host process alive by itself, yet `await close()` must really
// wait for the flush. Proven with a real child process.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './_http-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const FIXTURE = path.join(ROOT, 'test/fixtures/outbound/lifetime.ts');

function runChild(url: string, mode: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = execFile(TSX, [FIXTURE, url, mode], { cwd: ROOT, timeout: 25_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, ms: performance.now() - started });
    });
    child.stdin?.end();
  });
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('process lifetime', () => {
  it('an in-flight delivery to a hanging server does not keep the process alive', async () => {
    const s = await startServer(() => {
      /* never answer */
    });
    servers.push(s);
    const r = await runChild(s.url, 'no-close');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('returned\n');
    // The target's timeout is 60 s; exiting well before proves nothing held the event loop.
    expect(r.ms).toBeLessThan(20_000);
  });

  it('await close() keeps the process alive until a slow delivery has arrived', async () => {
    const s = await startServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.end();
      }, 1000);
    });
    servers.push(s);
    const r = await runChild(s.url, 'close');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ queued: 1, delivered: 1, failed: 0, dropped: 0, abandoned: 0, attempts: 1 });
    expect(s.received).toHaveLength(1);
  });
});

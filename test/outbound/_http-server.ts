// Real HTTP servers on 127.0.0.1 (ephemeral ports) that record what they receive.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** performance.now() when the body had fully arrived. */
  at: number;
}

export type Responder = (req: Received, res: http.ServerResponse, n: number) => void;

export interface TestServer {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests have fully arrived (rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Default responder: 200 with a tiny JSON body. */
export const ok: Responder = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"ok":true}');
};

export async function startServer(respond: Responder = ok): Promise<TestServer> {
  const received: Received[] = [];
  let waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
        at: performance.now(),
      };
      received.push(rec);
      const ready = waiters.filter((w) => received.length >= w.n);
      waiters = waiters.filter((w) => received.length < w.n);
      for (const w of ready) w.resolve();
      respond(rec, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    waitFor(n, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server got ${received.length} of ${n} requests`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (bound then released). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A logger that remembers what it was told. */
export function memoryLogger(): { warn(msg: string): void; debug(msg: string): void; warnings: string[]; debugs: string[] } {
  const warnings: string[] = [];
  const debugs: string[] = [];
  return { warn: (m) => warnings.push(m), debug: (m) => debugs.push(m), warnings, debugs };
}

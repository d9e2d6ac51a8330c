// `serve --http HOST:PORT`: HTTP/1.1 (http.ts) on TCP, loopback unless --allow-remote; every request
// needs the bearer token, and the Host header must name our own address (auth.ts).

import type { Server } from 'node:http';
import { allowedHosts, type AuthPolicy } from './auth.js';
import { createHttpServer } from './http.js';
import type { Transport } from './transport.js';

export function createHttpTransport(cfg: { host: string; port: number; allowRemote: boolean; token: string }): Transport {
  let server: Server | null = null;
  return {
    name: 'http',
    holdsConnections: true,
    async start(ctx) {
      const { host, allowRemote } = cfg;
      const policy: AuthPolicy = { token: cfg.token, hosts: null };
      const s = createHttpServer(ctx, policy);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(cfg.port, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
      // DNS rebinding: only Host values naming our own address (unless remote access was asked for).
      policy.hosts = allowRemote ? null : allowedHosts(host, port);
      server = s;
      const shown = host.includes(':') ? `[${host}]` : host;
      return {
        label: `http://${shown}:${port}`,
        announce: `serving HTTP on http://${shown}:${port} (Authorization: Bearer <token> required)`,
        tcp: { host, port },
      };
    },
    stop() {
      server?.close();
      server?.closeIdleConnections();
    },
    async close() {
      server?.closeAllConnections();
    },
  };
}

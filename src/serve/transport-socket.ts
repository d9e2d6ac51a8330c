// `serve --socket`: HTTP/1.1 (http.ts) on a Unix socket created mode 0600. The file mode is the
// authorisation (no token); the socket file is ours to remove (socket-file.ts), and only ours.

import type { Server } from 'node:http';
import { createHttpServer } from './http.js';
import { listenOnSocket, removeSocket } from './socket-file.js';
import type { Transport } from './transport.js';

export function createSocketTransport(path: string): Transport {
  let server: Server | null = null;
  let ino: number | null = null;
  const remove = (): void => {
    if (ino !== null) removeSocket(path, ino);
  };
  return {
    name: 'socket',
    holdsConnections: true,
    async start(ctx) {
      const s = createHttpServer(ctx, { token: null, hosts: null });
      ino = (await listenOnSocket(s, path)).ino;
      server = s;
      return { label: `unix:${path}`, announce: `serving HTTP on unix socket ${path} (mode 0600)` };
    },
    stop() {
      server?.close();
      server?.closeIdleConnections();
    },
    async close() {
      server?.closeAllConnections();
      remove();
    },
    abandon: remove,
  };
}

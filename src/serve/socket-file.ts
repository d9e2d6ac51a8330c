// The Unix socket file: never started over a live server, a stale file from a crash is removed,
// and the socket is created mode 0600 (umask 177 around the bind, chmod after it).

import { chmodSync, lstatSync, rmSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import type { Server } from 'node:http';

export { SOCKET_FILE_NAME } from './socket-path.js';

/** Removes a stale socket at `path`; throws when a server answers there or the path is not a socket. */
async function clearStaleSocket(path: string): Promise<void> {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket; refusing to replace it (move it away or pass --socket another path)`);
  if (await socketAnswers(path)) throw new Error(`a server is already listening on ${path}; stop it first, or pass --socket another path`);
  unlinkSync(path);
}

/** Does a server accept connections on the Unix socket `path`? */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Listens on `path` with mode 0600 from the first instant. */
export async function listenOnSocket(server: Server, path: string): Promise<{ ino: number }> {
  await clearStaleSocket(path);
  const old = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(old);
  }
  chmodSync(path, 0o600);
  // The bundled client's mark of a serve that did not answer here (it then stops waiting for a
  // while): this is a new serve, so it gets every call again.
  rmSync(`${path}${UNANSWERED_SUFFIX}`, { force: true });
  return { ino: lstatSync(path).ino };
}

/** The bundled client's mark next to a socket whose serve let a call run out its deadline. */
export const UNANSWERED_SUFFIX = '.unanswered';

/** Removes our socket file, and only ours (another server may have replaced it since). */
export function removeSocket(path: string, ino: number): void {
  try {
    if (lstatSync(path).ino === ino) unlinkSync(path);
  } catch {
    // already gone
  }
}

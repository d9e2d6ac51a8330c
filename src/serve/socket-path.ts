// Where serve listens by default, and where the bundled client looks: <home>/hermes-hooks.sock,
// unless that is too long for a Unix socket (sun_path is 104–108 bytes with its NUL); then a short
// path named after the home, in the user's runtime directory or a private one under /tmp:
//   $XDG_RUNTIME_DIR/hermes-hooks/<16 hex of sha256(home's real path)>.sock
//   /tmp/hermes-hooks-<uid>/<same>.sock
// The client (scripts-examples/hosts/hermes-hooks-client) computes the same path the same way.

import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkTrust, distrustMessage } from '../consent/trust.js';

export const SOCKET_FILE_NAME = 'hermes-hooks.sock';

/** The longest socket path serve binds (the client uses the same bound). */
export const SOCKET_PATH_MAX_BYTES = 100;

/** The home's real path when it exists (symlinks resolved, as the client's `cd -P`), else as given. */
function realHome(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return resolve(home);
  }
}

/** The directory short socket paths live in: $XDG_RUNTIME_DIR/hermes-hooks, else /tmp/hermes-hooks-<uid>. */
export function shortSocketDir(env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? 0): string {
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime && runtime.startsWith('/') ? join(runtime, 'hermes-hooks') : `/tmp/hermes-hooks-${uid}`;
}

/** serve's default socket for the profile `home` (see the top of this file). */
export function defaultSocketPath(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const inHome = join(home, SOCKET_FILE_NAME);
  if (Buffer.byteLength(inHome) <= SOCKET_PATH_MAX_BYTES) return inHome;
  const id = createHash('sha256').update(realHome(home)).digest('hex').slice(0, 16);
  return join(shortSocketDir(env), `${id}.sock`);
}

/**
 * Creates the short socket's directory (0700) if missing, and refuses one another user could swap
 * the socket in (the consent trust rule: yours or root's, not writable by others, all the way up).
 */
export function ensureSocketDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const verdict = checkTrust(dir, { kind: 'directory' });
  if (verdict.findings.length > 0) throw new Error(distrustMessage('the socket directory', verdict));
}

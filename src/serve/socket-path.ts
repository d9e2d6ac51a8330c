// Where serve listens by default, and where the bundled client looks: <home>/hermes-hooks.sock,
// unless that is too long for a Unix socket (sun_path is 104–108 bytes with its NUL); then a short
// path named after the home, <dir>/<16 hex of sha256(home's real path)>.sock, in the first of
//   $XDG_RUNTIME_DIR/hermes-hooks         (when XDG_RUNTIME_DIR is an absolute path)
//   /tmp/hermes-hooks-<uid>
//   $HOME/.cache/hermes-hooks             (when HOME is absolute: no other user can make it)
//   /tmp/hermes-hooks-<uid>-1 … -4
// that is free (does not exist: serve makes it 0700) or is ours: a real directory owned by us and
// not writable by group or others. One that is not — another user made /tmp/hermes-hooks-<uid>
// first, to make every call block or to answer in our place — is skipped and said, never used;
// a candidate whose socket path would be over 100 bytes is skipped too. Both bundled clients
// (scripts-examples/hosts/hermes-hooks-client and .bash) compute the same path the same way, on
// the same filesystem: a directory serve made is the one they pick next.

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkTrust, distrustMessage } from '../consent/trust.js';
import { whoIs } from './port-owner.js';

export const SOCKET_FILE_NAME = 'hermes-hooks.sock';

/** The longest socket path serve binds (the client uses the same bound). */
export const SOCKET_PATH_MAX_BYTES = 100;

/** How many numbered /tmp fallbacks follow $HOME/.cache/hermes-hooks. */
export const NUMBERED_FALLBACKS = 4;

/** The home's real path when it exists (symlinks resolved, as the client's `cd -P`), else as given. */
function realHome(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return resolve(home);
  }
}

/** The directories a short socket may live in, in the order they are tried (see the top of this file). */
export function shortSocketDirs(env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? 0): string[] {
  const dirs: string[] = [];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && runtime.startsWith('/')) dirs.push(join(runtime, 'hermes-hooks'));
  dirs.push(`/tmp/hermes-hooks-${uid}`);
  // Concatenated, not joined: the clients build it the same way, byte for byte.
  if (env.HOME && env.HOME.startsWith('/')) dirs.push(`${env.HOME}/.cache/hermes-hooks`);
  for (let n = 1; n <= NUMBERED_FALLBACKS; n++) dirs.push(`/tmp/hermes-hooks-${uid}-${n}`);
  return dirs;
}

/** The first short socket directory tried (for --help: where it usually is). */
export function shortSocketDir(env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? 0): string {
  return shortSocketDirs(env, uid)[0]!;
}

/** A directory passed over, and why (`/tmp/hermes-hooks-1000 belongs to uid 1002 (mallory)`). */
export interface SkippedDir {
  dir: string;
  why: string;
}

export interface SocketChoice {
  /** The socket path; null when every candidate directory was skipped. */
  socket: string | null;
  /** Candidates passed over, in order. */
  skipped: SkippedDir[];
}

/** Why `dir` cannot hold our socket, or null when it is free or ours. */
function takenBecause(dir: string, uid: number): string | null {
  let st;
  try {
    st = lstatSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `${dir} cannot be examined (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid) return `${dir} belongs to ${whoIs(st.uid)}, not to you`;
  if ((st.mode & 0o022) !== 0) return `${dir} is writable by other users (mode ${(st.mode & 0o7777).toString(8)})`;
  return null;
}

/** serve's default socket for the profile `home`, and the directories skipped on the way (see the top of this file). */
export function chooseSocket(home: string, env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? 0): SocketChoice {
  const inHome = join(home, SOCKET_FILE_NAME);
  if (Buffer.byteLength(inHome) <= SOCKET_PATH_MAX_BYTES) return { socket: inHome, skipped: [] };
  const name = shortSocketName(home);
  const skipped: SkippedDir[] = [];
  for (const dir of shortSocketDirs(env, uid)) {
    const socket = `${dir}/${name}`;
    const tooLong = Buffer.byteLength(socket) > SOCKET_PATH_MAX_BYTES;
    const why = tooLong ? `${dir} would make the socket path over ${SOCKET_PATH_MAX_BYTES} bytes` : takenBecause(dir, uid);
    if (why === null) return { socket, skipped };
    skipped.push({ dir, why });
  }
  return { socket: null, skipped };
}

/** serve's default socket for the profile `home`; when every directory is taken, the first one (its check then says why). */
export function defaultSocketPath(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const choice = chooseSocket(home, env);
  if (choice.socket !== null) return choice.socket;
  return `${shortSocketDir(env)}/${shortSocketName(home)}`;
}

/** `<16 hex of sha256(home's real path)>.sock`. */
function shortSocketName(home: string): string {
  return `${createHash('sha256').update(realHome(home)).digest('hex').slice(0, 16)}.sock`;
}

/** The warning for skipped directories, naming who holds them. */
export function skippedText(skipped: readonly SkippedDir[]): string {
  return skipped.map((s) => s.why).join('; ');
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

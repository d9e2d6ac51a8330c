// Read the allowlist the way sshd reads authorized_keys: a file that decides what runs as the user
// must be the user's own. Refused (with the reason) when the final target — symlinks are followed,
// as ssh does, and the target is what gets checked — is not a regular file, is owned by someone
// other than the user (or root), or is writable by group or others. Opened with O_NONBLOCK and
// checked with fstat on the open descriptor before a byte is read, so a FIFO at the path cannot
// hang the host and a swap between check and read cannot slip in another file.

import { constants, statSync, type BigIntStats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';

export interface SecureRead {
  /** The file's text; null when it does not exist, is refused or could not be read. */
  text: string | null;
  /** Why the file is refused (it then approves nothing); null otherwise. */
  refused: string | null;
  /** An I/O error other than "does not exist"; null otherwise. */
  error: string | null;
}

/**
 * The file's identity: device, inode, size, mtime, ctime (chmod/chown move it), mode and owner of
 * the final target; `missing` when absent; null when it cannot be stat'ed (then always re-read).
 */
export async function fileIdentity(file: string): Promise<string | null> {
  try {
    return identityKey(await stat(file, { bigint: true }));
  } catch (err) {
    return codeOf(err) === 'ENOENT' ? 'missing' : null;
  }
}

/** fileIdentity, synchronously: for the last check right before a hook starts. */
export function fileIdentitySync(file: string): string | null {
  return statWithIdentitySync(file).identity;
}

/** One stat: the file's identity key and the stats it came from (null when absent or not stat'able). */
export function statWithIdentitySync(file: string): { identity: string | null; stats: BigIntStats | null } {
  try {
    const stats = statSync(file, { bigint: true });
    return { identity: identityKey(stats), stats };
  } catch (err) {
    return { identity: codeOf(err) === 'ENOENT' ? 'missing' : null, stats: null };
  }
}

function identityKey(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}:${st.uid}`;
}

export async function readOwnFile(file: string, euid: number | undefined = process.geteuid?.()): Promise<SecureRead> {
  let fh;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT') return { text: null, refused: null, error: null };
    if (code === 'ELOOP') return { text: null, refused: `${file} is refused: it is a symlink loop`, error: null };
    return { text: null, refused: null, error: err instanceof Error ? err.message : String(err) };
  }
  try {
    const st = await fh.stat();
    const target = await realpath(file).catch(() => file);
    const what = target === file ? file : `${file} (a symlink to ${target})`;
    const refuse = (why: string, fix: string): SecureRead => ({
      text: null,
      refused: `${what} is refused: ${why}, so no approval in it counts — ${fix}`,
      error: null,
    });
    if (!st.isFile()) return refuse(`it is ${kindOf(st)}, not a regular file`, `replace it with a regular file (or remove it and approve again)`);
    if (euid !== undefined && st.uid !== euid && st.uid !== 0) {
      return refuse(`it is owned by uid ${st.uid}, not by you (uid ${euid})`, `check its content, then take it over (cp it to a new file of yours and mv that over ${file})`);
    }
    if ((st.mode & 0o022) !== 0) {
      const who = (st.mode & 0o020) !== 0 && (st.mode & 0o002) !== 0 ? 'group and others' : (st.mode & 0o020) !== 0 ? 'group' : 'others';
      return refuse(`it is writable by ${who} (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})`, `check its content, then run chmod go-w '${target}'`);
    }
    return { text: await fh.readFile('utf8'), refused: null, error: null };
  } catch (err) {
    return { text: null, refused: null, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'another kind of file';
}

function codeOf(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err ? String(err.code) : undefined;
}

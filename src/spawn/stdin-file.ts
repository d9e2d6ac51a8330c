// Each hook's stdin: its own private copy of the payload as a regular file, passed as fd 0 and
// already unlinked when the child starts.
//
// Why a regular file, not a pipe: Node's default 'pipe' stdio on Linux is a socketpair, and hooks
// that read `/dev/stdin` (`cat /dev/stdin`, `jq … < /dev/stdin`) fail on a socket with ENXIO. A
// regular file works for every way of reading stdin (`/dev/stdin` reopens it through /proc even
// once unlinked), never blocks the writer and can never EPIPE when a hook exits without reading.
//
// Why one copy per hook: a hook can reopen its stdin for writing through /proc/self/fd/0 (same
// inode). With one file shared by the hooks of an emit, hook A could rewrite what a fail_closed
// guard reads a moment later. A copy per hook is its own inode: A can only change A's.
//
// Why unlinked before spawn: the child's descriptor keeps the inode alive, so nothing of a payload
// is left on disk when the host dies, even of SIGKILL. The name exists only between two syscalls:
// create (O_EXCL, O_NOFOLLOW, mode 0400 — nobody can open it for writing by name, not even us)
// → open a read-only descriptor → unlink → write the bytes through the creating descriptor →
// close it. The child gets the read-only descriptor, at offset 0.
//
// On Linux the file has no name at all: O_TMPFILE creates it unnamed in the directory, and the
// read-only descriptor is opened through /proc/self/fd — four syscalls instead of seven and no
// random name, ~0.015 ms less per hook run (measured). Where either is refused (an old kernel, a
// filesystem without O_TMPFILE, no /proc), the named file above is used, as on other systems.
//
// Why sync fs calls: for the small payloads hooks get, the named file's seven syscalls cost ~0.03 ms on tmpfs,
// versus ~0.4 ms through the libuv threadpool (measured), and this sits on the hot path of every
// hook run. Payloads above SYNC_WRITE_LIMIT are written off the event loop (the file is already
// unlinked while they are written).

import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, statSync, unlinkSync, write, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Above this, the payload is written off the event loop. */
export const SYNC_WRITE_LIMIT = 256 * 1024;
export const STDIN_FILE_PREFIX = 'hermes-hooks-stdin-';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
const CREATE_ATTEMPTS = 5;
/** O_TMPFILE (with O_DIRECTORY) where its value is known: Linux on x64 and arm64. 0 elsewhere. */
const O_TMPFILE = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64') ? 0o20200000 : 0;
let namelessWorks = O_TMPFILE !== 0;

/** Tests: use named files as where O_TMPFILE is missing (`false` restores the default). */
export function _forceNamedStdinFiles(on: boolean): void {
  namelessWorks = !on && O_TMPFILE !== 0;
}

let baseDir: string | undefined;

// Names stay unguessable (so nobody can plant them ahead of a hook and make its launch fail), but
// the random bytes are drawn 64 names at a time: one getrandom per hook run cost ~25 µs (measured).
const NAME_BYTES = 6;
const POOL_NAMES = 64;
let namePool = Buffer.alloc(0);
let namePoolAt = 0;

function randomName(): string {
  if (namePoolAt + NAME_BYTES > namePool.length) {
    namePool = randomBytes(NAME_BYTES * POOL_NAMES);
    namePoolAt = 0;
  }
  const name = namePool.toString('hex', namePoolAt, namePoolAt + NAME_BYTES);
  namePoolAt += NAME_BYTES;
  return name;
}

/**
 * Where payload files are created (for an instant): `$TMPDIR` when the user set it, else
 * `/dev/shm` on Linux (tmpfs: ~8x cheaper than a disk-backed /tmp, measured), else `os.tmpdir()`.
 */
export function stdinFileDir(): string {
  if (baseDir !== undefined) return baseDir;
  baseDir = tmpdir();
  if (process.platform === 'linux' && !process.env.TMPDIR) {
    try {
      if (statSync('/dev/shm').isDirectory()) baseDir = '/dev/shm';
    } catch {
      // no /dev/shm: keep os.tmpdir()
    }
  }
  return baseDir;
}

export function toStdinBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** The payload's size in bytes, without encoding it. */
export function byteLength(data: string | Uint8Array): number {
  return typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.byteLength;
}

interface Created {
  /** Read-only descriptor for the child. */
  readFd: number;
  /** The creating (write-only) descriptor; the caller writes the bytes and closes it. */
  writeFd: number;
}

/** The private file without a name (Linux), or null where that is not available here. */
function createNameless(): Created | null {
  if (!namelessWorks) return null;
  let writeFd: number;
  try {
    writeFd = openSync(stdinFileDir(), O_TMPFILE | constants.O_RDWR, 0o400);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Not supported here: never again. Anything else (full, read-only…): the named path decides.
    if (code === 'EOPNOTSUPP' || code === 'EISDIR' || code === 'EINVAL' || code === 'ENOTSUP') namelessWorks = false;
    return null;
  }
  try {
    // A descriptor of its own (its own offset), read-only; /proc/self/fd/N is a symlink by nature.
    return { readFd: openSync(`/proc/self/fd/${writeFd}`, constants.O_RDONLY), writeFd };
  } catch {
    closeQuietly(writeFd);
    namelessWorks = false; // no /proc
    return null;
  }
}

/** Creates the private file, opens it read-only and unlinks it. Throws with a reason. */
function createUnlinked(): Created {
  const nameless = createNameless();
  if (nameless !== null) return nameless;
  let lastError: unknown;
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; ) {
    const dir = stdinFileDir();
    const file = join(dir, `${STDIN_FILE_PREFIX}${process.pid}-${randomName()}`);
    let writeFd: number;
    try {
      writeFd = openSync(file, CREATE_FLAGS, 0o400);
    } catch (err) {
      lastError = err;
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        attempt += 1;
        continue;
      }
      // /dev/shm refused (full, read-only, gone): use os.tmpdir() from now on, and try again there.
      if (dir === tmpdir()) throw err;
      baseDir = tmpdir();
      continue;
    }
    let readFd = -1;
    try {
      readFd = openSync(file, READ_FLAGS);
      // The name lives in a shared directory: make sure it still named our file when we opened it.
      const w = fstatSync(writeFd);
      const r = fstatSync(readFd);
      if (w.ino !== r.ino || w.dev !== r.dev) throw new Error(`${file} was replaced while it was being opened`);
    } catch (err) {
      closeQuietly(writeFd);
      if (readFd >= 0) closeQuietly(readFd);
      unlinkQuietly(file);
      throw err;
    }
    unlinkQuietly(file);
    return { readFd, writeFd };
  }
  throw lastError instanceof Error ? lastError : new Error('cannot create a stdin file');
}

function writeAllSync(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
}

function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number): void => {
      if (offset >= bytes.byteLength) {
        resolve();
        return;
      }
      write(fd, bytes, offset, bytes.byteLength - offset, null, (err, n) => (err ? reject(err) : step(offset + n)));
    };
    step(0);
  });
}

/**
 * A read-only descriptor on a fresh private copy of `data`, already unlinked, for exactly one
 * child. The caller closes it right after spawning. Synchronous: for small payloads.
 */
export function openStdinCopySync(data: string | Uint8Array): number {
  const bytes = toStdinBytes(data);
  const { readFd, writeFd } = createUnlinked();
  try {
    writeAllSync(writeFd, bytes);
  } catch (err) {
    closeQuietly(readFd);
    throw err;
  } finally {
    closeQuietly(writeFd);
  }
  return readFd;
}

/** As openStdinCopySync; a payload above SYNC_WRITE_LIMIT is written off the event loop. */
export async function openStdinCopy(data: string | Uint8Array): Promise<number> {
  const bytes = toStdinBytes(data);
  if (bytes.byteLength <= SYNC_WRITE_LIMIT) return openStdinCopySync(bytes);
  const { readFd, writeFd } = createUnlinked();
  try {
    await writeAll(writeFd, bytes);
  } catch (err) {
    closeQuietly(readFd);
    throw err;
  } finally {
    closeQuietly(writeFd);
  }
  return readFd;
}

/** Closes a descriptor without throwing (the child already has its own copy). */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

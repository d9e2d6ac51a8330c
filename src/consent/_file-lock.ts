// A cross-process lock for the allowlist's read-modify-write. Node has no flock, so: a lock file
// created with O_EXCL holding {pid, start, hostname, token}; waiters retry with capped backoff.
// The lock is only ever held for one read-modify-write (milliseconds), so a lock is broken as
// stale when: it is older than `staleMs`; its mtime is in the future (a clock cannot explain that,
// only a forged or copied file can); or, on this host, its pid is dead, is a different process
// than the one that took it (the pid's start time from /proc differs — pids are recycled, and in
// a container pid 1 is always alive), or is this very process while it does not hold it. Breaking is itself serialized through a second O_EXCL file so two
// breakers cannot remove each other's fresh lock. Callers in one process queue on a promise chain
// first, so they do not spin on the file.
//
// Never point this at Hermes' `shell-hooks-allowlist.json.lock`: Hermes flocks that file and
// leaves it in place forever, so an O_EXCL lock on it would never be acquired.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import { HooksError } from '../errors.js';

export interface FileLockOptions {
  /** Give up waiting after this long (default 20 s). */
  timeoutMs?: number;
  /** A lock older than this is considered abandoned whoever holds it (default 10 s). */
  staleMs?: number;
}

interface LockOwner {
  pid: number;
  /** The pid's start time (clock ticks since boot, /proc/<pid>/stat field 22); null where unknown. */
  start: string | null;
  hostname: string;
  token: string;
  created_at: string;
}

export class LockTimeoutError extends HooksError {
  constructor(message: string) {
    super('lock_timeout', message);
  }
}

const inProcess = new Map<string, Promise<unknown>>();
/** Tokens of the locks this process holds right now (another path string may name the same file). */
const heldHere = new Set<string>();

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const previous = inProcess.get(lockPath) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const token = await acquire(lockPath, opts);
      try {
        return await fn();
      } finally {
        await release(lockPath, token);
      }
    });
  const tail = run.catch(() => undefined);
  inProcess.set(lockPath, tail);
  void tail.then(() => {
    if (inProcess.get(lockPath) === tail) inProcess.delete(lockPath);
  });
  return run;
}

async function acquire(lockPath: string, opts: FileLockOptions): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const staleMs = opts.staleMs ?? 10_000;
  const owner: LockOwner = {
    pid: process.pid,
    start: processStart(process.pid),
    hostname: os.hostname(),
    token: randomUUID(),
    created_at: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let delay = 4;
  for (;;) {
    try {
      const fh = await open(lockPath, 'wx', 0o600);
      try {
        heldHere.add(owner.token);
        await fh.writeFile(JSON.stringify(owner));
      } finally {
        await fh.close();
      }
      return owner.token;
    } catch (err) {
      if (codeOf(err) !== 'EEXIST') throw err;
    }
    if (await breakIfStale(lockPath, staleMs)) continue;
    if (Date.now() >= deadline) {
      const holder = await readOwner(lockPath);
      const who = holder ? ` (held by pid ${holder.pid} on ${holder.hostname} since ${holder.created_at})` : '';
      throw new LockTimeoutError(`timed out after ${timeoutMs / 1000}s waiting for the lock ${lockPath}${who}`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  // Only remove the lock if it is still ours (it may have been broken as stale and re-taken).
  const owner = await readOwner(lockPath);
  if (owner?.token === token) await unlink(lockPath).catch(() => undefined);
  heldHere.delete(token);
}

async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  const seen = await snapshot(lockPath);
  if (seen === null) return true; // released meanwhile: just retry now
  if (!isStale(seen, staleMs)) return false;
  const breaker = `${lockPath}.break`;
  try {
    await (await open(breaker, 'wx', 0o600)).close();
  } catch (err) {
    if (codeOf(err) !== 'EEXIST') throw err;
    // A breaker that died mid-break leaves this behind; it is only ever held for a moment.
    const st = await stat(breaker).catch(() => null);
    if (st && Math.abs(Date.now() - st.mtimeMs) > 5_000) await unlink(breaker).catch(() => undefined);
    return false;
  }
  try {
    const again = await snapshot(lockPath);
    if (again === null) return true;
    if (again.ino !== seen.ino || again.text !== seen.text) return false; // someone else's new lock
    await unlink(lockPath).catch(() => undefined);
    return true;
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

interface Snapshot {
  ino: number;
  ageMs: number;
  text: string;
  owner: LockOwner | null;
}

async function snapshot(lockPath: string): Promise<Snapshot | null> {
  try {
    const st = await stat(lockPath);
    const text = await readFile(lockPath, 'utf8');
    return { ino: st.ino, ageMs: Date.now() - st.mtimeMs, text, owner: parseOwner(text) };
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return null;
    throw err;
  }
}

/** Allowed clock skew for a lock written a moment ago (mtime granularity, NFS clocks). */
const FUTURE_SLACK_MS = 2_000;

function isStale(seen: Snapshot, staleMs: number): boolean {
  if (seen.ageMs > staleMs || seen.ageMs < -FUTURE_SLACK_MS) return true;
  // A lock mid-creation has no owner yet: only its age can make it stale.
  const owner = seen.owner;
  if (owner === null || owner.hostname !== os.hostname()) return false;
  if (owner.pid === process.pid) return !heldHere.has(owner.token);
  if (!pidAlive(owner.pid)) return true;
  // Alive, but is it the process that took the lock? A recycled or forged pid is not.
  const start = processStart(owner.pid);
  return owner.start !== null && start !== null && start !== owner.start;
}

/** Start time of a live pid from /proc (Linux); null when /proc cannot tell. */
function processStart(pid: number): string | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`: comm may hold spaces and parens, so count fields after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start !== undefined && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

async function readOwner(lockPath: string): Promise<LockOwner | null> {
  try {
    return parseOwner(await readFile(lockPath, 'utf8'));
  } catch {
    return null;
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(v.pid) && (v.pid as number) > 0 && typeof v.hostname === 'string' && typeof v.token === 'string') {
      const start = typeof v.start === 'string' && /^\d+$/.test(v.start) ? v.start : null;
      return { pid: v.pid as number, start, hostname: v.hostname, token: v.token, created_at: String(v.created_at ?? '?') };
    }
  } catch {
    // empty or partial: the owner is still writing it
  }
  return null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return codeOf(err) === 'EPERM';
  }
}

function codeOf(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err ? String(err.code) : undefined;
}

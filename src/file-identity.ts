// A file's identity — device, inode, size, mtime and ctime in nanoseconds — to tell cheaply (one
// stat) whether a file is still the one that was hashed or read (consent) or judged (the spawn
// layer's exec-format check).
//
// The catch is the timestamps' granularity: Linux stamps files from a coarse clock (one jiffy,
// 1–10 ms), so a same-size rewrite within the same tick leaves the identity unchanged ("racy
// git"). An identity therefore only vouches for bytes read at a time when the file had already
// been quiet for SETTLE_MS: any later write stamps a ctime newer than the one recorded, and
// nobody but root can set ctime.

import { statSync, type BigIntStats } from 'node:fs';

export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** Far above any timestamp granularity, and above the period of a script flipped in a loop. */
export const SETTLE_MS = 100;

export function identityOf(st: BigIntStats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

/** The identity of `file` now (following symlinks, like exec and open do); null when it cannot be stat'ed. */
export function statIdentitySync(file: string): FileIdentity | null {
  try {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st === undefined ? null : identityOf(st);
  } catch {
    return null;
  }
}

export function sameIdentity(a: FileIdentity | null, b: FileIdentity | null): boolean {
  if (a === null || b === null) return a === b;
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Milliseconds since the file last changed (its ctime), at wall-clock time `atMs`. */
export function quietMs(id: FileIdentity, atMs: number): number {
  return atMs - Number(id.ctimeNs / 1_000_000n);
}

/** The file had not changed for SETTLE_MS at `atMs`: bytes read after `atMs` belong to this identity. */
export function settledAt(id: FileIdentity, atMs: number): boolean {
  return quietMs(id, atMs) >= SETTLE_MS;
}

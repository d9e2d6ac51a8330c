// What a hook leaves behind when its answer is taken: the members of its process group still
// alive, and processes outside the group (a `setsid` daemon) that still hold its stdout or stderr.
// Linux /proc only; elsewhere nothing is found and the caller falls back to the group signal alone.
//
// How a holder is recognised: the hook's stdout and stderr are the child ends of two socketpairs
// (Node's 'pipe' stdio). Their two ends have different inode numbers, so the child's end is read
// once, right after the spawn, from /proc/<pid>/fd/1 and /fd/2 (`socket:[N]`, ~5 µs each). A
// process that holds that exact socket inherited it from the hook (or was handed it on purpose):
// inode numbers are unique among live sockets, so no unrelated process can match. Only processes
// of our own effective uid are signalled, even when we are root: a descendant that switched user
// is left alone (its pipe is still closed on our side, so its next write fails with EPIPE/SIGPIPE).

import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/** The hook's end of its stdout and stderr, as /proc shows them (`socket:[N]`); null when unknown. */
export interface OutputEnds {
  stdout: string | null;
  stderr: string | null;
}

export interface Leftovers {
  /** Live (not zombie) members of the hook's process group. */
  members: number;
  /** Processes outside the group holding the hook's stdout or stderr. */
  holders: number[];
}

export const NO_ENDS: OutputEnds = { stdout: null, stderr: null };

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** The sockets the child holds as fd 1 and 2; call right after the spawn, before it can exit. */
export function outputEndsOf(pid: number): OutputEnds {
  const stdout = link(`/proc/${pid}/fd/1`);
  // A child that already exited (or no /proc) tells nothing: then no holder is searched for.
  if (stdout === null) return NO_ENDS;
  const stderr = link(`/proc/${pid}/fd/2`);
  return {
    stdout: stdout.startsWith('socket:') || stdout.startsWith('pipe:') ? stdout : null,
    stderr: stderr !== null && (stderr.startsWith('socket:') || stderr.startsWith('pipe:')) ? stderr : null,
  };
}

function holds(pid: number, ends: OutputEnds): boolean {
  for (const fd of [1, 2]) {
    const target = link(`/proc/${pid}/fd/${fd}`);
    if (target !== null && (target === ends.stdout || target === ends.stderr)) return true;
  }
  return false;
}

function ownedByUs(pid: number): boolean {
  try {
    return statSync(`/proc/${pid}`).uid === process.geteuid?.();
  } catch {
    return false;
  }
}

/**
 * One pass over /proc: the group's live members, and — when `ends` is given — the processes
 * outside the group that hold one of them as fd 1 or 2. Only run when something was left (a few
 * ms for a few hundred processes), never on a hook that left nothing.
 */
export function findLeftovers(pgid: number, ends: OutputEnds | null): Leftovers {
  const found: Leftovers = { members: 0, holders: [] };
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  const self = process.pid;
  const searchHolders = ends !== null && (ends.stdout !== null || ends.stderr !== null);
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(entry);
    if (pid === self) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    const state = rest[0];
    if (state === 'Z' || state === 'X') continue;
    if (Number(rest[2]) === pgid) {
      found.members += 1;
    } else if (searchHolders && holds(pid, ends) && ownedByUs(pid)) {
      found.holders.push(pid);
    }
  }
  return found;
}

/** The holders that still hold the hook's output (a recycled pid cannot: it would not hold that socket). */
export function stillHolding(holders: readonly number[], ends: OutputEnds): number[] {
  return holders.filter((pid) => holds(pid, ends));
}

/** Sends `sig` to each pid; one that is gone (or not ours to signal) is skipped. */
export function signalEach(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // gone already
    }
  }
}

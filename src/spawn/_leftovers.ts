// What a hook leaves behind when its answer is taken: the members of its process group still
// alive, and processes outside the group (a `setsid` daemon) that still hold its stdout or stderr.
// Linux /proc only; elsewhere nothing is found and the caller falls back to the group signal alone.
//
// How a holder outside the group is recognised — both must hold, so nothing else is ever signalled:
//   - it is this run's own descendant: its environment carries this run's HERMES_HOOK_RUN_ID
//     (every hook gets one; a process inherits it unless it clears its environment);
//   - it holds the hook's stdout or stderr as its fd 1 or 2. Those are the child ends of two
//     socketpairs (Node's 'pipe' stdio); the kernel numbers the two ends of a pair one after the
//     other and Node keeps the first, so the hook's end is our end's inode + 1. (Reading the
//     hook's own fds right after the spawn would race a hook that is already gone; this does not.)
// Only processes of our own effective uid are signalled, even as root. What is not found (an
// allocation that did not number the pair in sequence, a descendant that cleared its environment
// or switched user) is left running; its pipe is closed on our side, so its next write fails.

import { fstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** Every hook run's id, in its environment: `<host pid>.<n>`. */
export const RUN_ID_VARIABLE = 'HERMES_HOOK_RUN_ID';

let runs = 0;

/** A new run id, unique within this host process (and, with the pid, across the live ones). */
export function nextRunId(): string {
  runs += 1;
  return `${process.pid}.${runs}`;
}

/** How to recognise what holds a run's output: the /proc link of each of its ends, and its id. */
export interface OutputTrace {
  links: string[];
  runId: string;
}

export interface Leftovers {
  /** Live (not zombie) members of the hook's process group. */
  members: number;
  /** Processes outside the group, descended from the run, holding its stdout or stderr. */
  holders: number[];
}

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** The descriptor of our end of a child's stdout/stderr (Node keeps it on the stream's handle). */
function fdOf(stream: Readable | null): number | null {
  const fd = (stream as unknown as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/**
 * How to recognise the holders of a run's stdout and stderr, read from our ends of them; null
 * when there is nothing to go by (no /proc, or the streams are gone). Call before destroying them.
 */
export function outputTrace(streams: readonly (Readable | null)[], runId: string): OutputTrace | null {
  const links: string[] = [];
  for (const stream of streams) {
    const fd = fdOf(stream);
    if (fd === null) continue;
    try {
      links.push(`socket:[${fstatSync(fd).ino + 1}]`);
    } catch {
      // closed meanwhile
    }
  }
  return links.length === 0 ? null : { links, runId };
}

function holdsOutput(pid: number, trace: OutputTrace): boolean {
  for (const fd of [1, 2]) {
    const target = link(`/proc/${pid}/fd/${fd}`);
    if (target !== null && trace.links.includes(target)) return true;
  }
  return false;
}

function descendsFromRun(pid: number, runId: string): boolean {
  const entry = `${RUN_ID_VARIABLE}=${runId}\0`;
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    return environ.startsWith(entry) || environ.includes(`\0${entry}`);
  } catch {
    return false;
  }
}

function ownedByUs(pid: number): boolean {
  try {
    return statSync(`/proc/${pid}`).uid === process.geteuid?.();
  } catch {
    return false;
  }
}

/**
 * One pass over /proc: the group's live members, and — given a trace — the run's descendants
 * outside the group that hold its output. Only run when something was left (a few ms for a few
 * hundred processes), never for a hook that left nothing.
 */
export function findLeftovers(pgid: number, trace: OutputTrace | null): Leftovers {
  const found: Leftovers = { members: 0, holders: [] };
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  const self = process.pid;
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
    } else if (trace !== null && holdsOutput(pid, trace) && descendsFromRun(pid, trace.runId) && ownedByUs(pid)) {
      found.holders.push(pid);
    }
  }
  return found;
}

/** The holders that still hold the run's output (a recycled pid cannot: it would not hold that socket). */
export function stillHolding(holders: readonly number[], trace: OutputTrace | null): number[] {
  return trace === null ? [] : holders.filter((pid) => holdsOutput(pid, trace));
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

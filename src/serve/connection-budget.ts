// How many connections serve can afford: each holds an open file, and so does every running hook;
// what is left of the process's open-file limit, after its own reserve, is the budget.

import { readFileSync } from 'node:fs';

/** Open files kept for the rest of the process: Node itself, stdio, watchers, plugin workers, webhook sockets. */
export const FD_RESERVE = 128;
/** Open files per running hook: its stdout and stderr pipes, its stdin file, libuv's exec pipe while spawning. */
export const FD_PER_HOOK = 4;
/** Connections over the cap let in only to be answered as shed (every connection was answering). */
export const OVERFLOW = 32;
/** The default cap when the open-file limit allows it (~10–20 KB of memory per idle connection). */
export const DEFAULT_MAX_CONNECTIONS = 2048;
/** The fewest connections a cap may allow: below it, a host with a few parallel calls would be shed. */
export const MIN_MAX_CONNECTIONS = 16;

/** This process's open-file limit (Node raises the soft limit to the hard one at start), or null when unknown (no /proc). */
export function openFileLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!m) return null;
    return m[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(m[1]);
  } catch {
    return null;
  }
}

/**
 * The most connections the open-file limit allows with `concurrency` hooks running (null: limit
 * unknown): the limit less the process's own reserve, the hooks' files and the overflow.
 */
export function connectionBudget(limit: number | null, concurrency: number): number | null {
  if (limit === null) return null;
  return limit - FD_RESERVE - FD_PER_HOOK * concurrency - OVERFLOW;
}

/** The default cap: DEFAULT_MAX_CONNECTIONS, lowered to the budget (limit unknown: as for a limit of 1024). */
export function defaultMaxConnections(limit: number | null, concurrency: number): number {
  const budget = connectionBudget(limit ?? 1024, concurrency)!;
  return Math.max(MIN_MAX_CONNECTIONS, Math.min(DEFAULT_MAX_CONNECTIONS, budget));
}

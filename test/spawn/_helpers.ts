// Shared helpers for spawn tests: fixture paths and process liveness checks that see zombies as dead.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'hooks');

export const fixture = (name: string): string => join(FIXTURES, name);

/** True when `pid` exists and is not a zombie (an unreaped zombie is dead for our purposes). */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Pids of live (non-zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // rest: state ppid pgrp …
      if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') members.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return members;
}

function readdirProc(): string[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n));
}

export async function waitFor(cond: () => boolean, timeoutMs: number, stepMs = 25): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return cond();
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Kills a pid left behind on purpose by a test; ignores "already gone". */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

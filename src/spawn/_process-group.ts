// Signals to a hook's whole process group. Hooks are spawned detached, so the child's pid is also
// its process-group id and `-pid` reaches every descendant that stayed in the group (execa 9 and
// `subprocess.kill()` only ever reach the direct child). POSIX only.
//
// Every finished hook asks once whether its group is gone (groupAlive), and the answer is almost
// always "gone": process.kill() reports that by throwing an ErrnoException, whose stack capture
// made that one check cost ~3× the syscall (measured 39 µs vs 14 µs on a loaded 2-core machine).
// process._kill — what process.kill() itself calls — returns the negative errno instead; it is
// used when present, and process.kill() otherwise.

import { constants } from 'node:os';

type RawKill = (pid: number, signal: number) => number;
const rawKill: RawKill | null = (() => {
  const k = (process as unknown as { _kill?: unknown })._kill;
  return typeof k === 'function' ? (k as RawKill).bind(process) : null;
})();

/** kill(2) without an exception: 0, or the negative errno. */
function kill(pid: number, signal: NodeJS.Signals | 0): number {
  const signo = signal === 0 ? 0 : constants.signals[signal];
  if (rawKill !== null) return rawKill(pid, signo);
  try {
    process.kill(pid, signal);
    return 0;
  } catch (err) {
    return -(constants.errno[(err as NodeJS.ErrnoException).code as keyof typeof constants.errno] ?? constants.errno.ESRCH);
  }
}

/** Sends `signal` to the group led by `pgid`. Returns false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  return kill(-pgid, signal) !== -constants.errno.ESRCH;
}

/** True while any process (even a stopped one) is still in the group. */
export function groupAlive(pgid: number): boolean {
  // EPERM means a member exists but changed credentials: it is alive.
  const err = kill(-pgid, 0);
  return err === 0 || err === -constants.errno.EPERM;
}

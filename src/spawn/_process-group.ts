// Signals to a hook's whole process group. Hooks are spawned detached, so the child's pid is also
// its process-group id and `-pid` reaches every descendant that stayed in the group (execa 9 and
// `subprocess.kill()` only ever reach the direct child). POSIX only.

/** Sends `signal` to the group led by `pgid`. Returns false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: every member is gone
  }
}

/** True while any process (even a stopped one) is still in the group. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM means a member exists but changed credentials: it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Benchmark-only stand-in for src/spawn/_launch.ts: the same contract (start `file` detached with
// the payload file as fd 0 and two pipes, report how it ended) on plain child_process.spawn
// instead of execa. It exists to measure what execa costs; the product keeps execa.
import { spawn } from 'node:child_process';

/** How many hooks this variant launched (proves that the variant engine really uses it). */
export let launches = 0;

export function launch(file, args, { stdinFd, env, cwd }) {
  launches += 1;
  const child = spawn(file, args, {
    stdio: [stdinFd, 'pipe', 'pipe'],
    detached: true, // own process group, as the real launch
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const exited = new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: err.code, message: err.message }));
    // 'close' = exited and both pipes ended, which is when execa settles too.
    child.once('close', (code, signal) => resolve({ exitCode: code ?? undefined, signal: signal ?? undefined }));
  });
  return { pid: child.pid, stdout: child.stdout, stderr: child.stderr, exited };
}

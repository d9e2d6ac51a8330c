// Run a Python 3 snippet as a real process: JSON in on stdin, JSON out on stdout. Used to compare
// our ports (difflib, re, int()) with the real thing instead of with hand-written expectations.

import { spawnSync } from 'node:child_process';

export function runPython<T>(script: string, input: unknown): T {
  const res = spawnSync('python3', ['-c', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`python3 exited ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}

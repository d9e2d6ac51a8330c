// Torture: SIGINT and SIGTERM to the built CLI (`test` and `run`) while its hooks sleep and have
// forked grandchildren — including a hook whose whole tree ignores SIGTERM and SIGINT. The CLI must
// die of the signal promptly (as a shell sees it: 130 / 143 or killed by the signal) and leave no
// hook process behind (every process it started carries TORTURE_TAG; zombies count as dead).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeProcs,
  FIXTURES,
  killTagged,
  newTag,
  realPython,
  removeTemps,
  requireBuiltCli,
  taggedProcesses,
  tempDir,
  waitFor,
  waitNoneLeft,
} from './_helpers.js';

const tags: string[] = [];

afterAll(() => {
  for (const t of tags) killTagged(t);
  removeTemps();
});

const q = (s: string): string => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function configYaml(): string {
  const hooks = [
    `${q(join(FIXTURES, 'tree.sh'))} 1`,
    `${q(join(FIXTURES, 'tree.sh'))} 2`,
    `${q(join(FIXTURES, 'stubborn.sh'))} 3`,
    `${q(realPython())} ${q(join(FIXTURES, 'tree.py'))} 4`,
  ];
  return `hooks:\n  pre_tool_call:\n${hooks.map((c) => `    - command: ${JSON.stringify(c)}\n      timeout: 120\n`).join('')}`;
}
/** `sleep 300` processes the four hooks start: three per bash hook, one from the python hook. */
const SLEEPERS = 3 + 3 + 3 + 1;

/** spawn/run-hook.ts DEFAULT_KILL_GRACE_MS: SIGTERM, then SIGKILL this much later. */
const KILL_GRACE_MS = 500;
/** Node's own exit after the groups are dead, on a loaded 2-core machine. */
const EXIT_MARGIN_MS = 2000;

const CASES = [
  { sub: 'test', signal: 'SIGINT', code: 130 },
  { sub: 'test', signal: 'SIGTERM', code: 143 },
  { sub: 'run', signal: 'SIGINT', code: 130 },
  { sub: 'run', signal: 'SIGTERM', code: 143 },
] as const;

describe('signals to the CLI mid-run', () => {
  for (const { sub, signal, code } of CASES) {
    it(`${signal} to \`hermes-hooks ${sub}\` kills every hook process and exits promptly`, async () => {
      const cli = requireBuiltCli();
      const tag = newTag(`sig-${sub}`);
      tags.push(tag);
      const home = tempDir('home');
      writeFileSync(join(home, 'config.yaml'), configYaml());
      const args = sub === 'test' ? ['test', 'pre_tool_call', '--home', home] : ['run', 'pre_tool_call', '--home', home, '--accept-hooks'];
      const child = spawn(process.execPath, [cli, ...args], {
        env: { ...process.env, HERMES_SAFE_MODE: '', HERMES_ACCEPT_HOOKS: '', NO_COLOR: '1', TORTURE_TAG: tag },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res, rej) => {
        child.on('error', rej);
        child.on('exit', (c, s) => res({ code: c, signal: s }));
      });
      child.stdin.end(sub === 'run' ? JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' } }) : '');

      const sleepers = (): number => taggedProcesses(tag).filter((p) => p.cmdline.join(' ') === 'sleep 300').length;
      const ready = await waitFor(() => sleepers() >= SLEEPERS, 60_000, 50);
      expect(ready, `hooks never all started; CLI said: ${output}`).toBe(true);
      // Every hook is in mid-run; its tree is complete or completing.
      const before = taggedProcesses(tag).filter((p) => p.pid !== child.pid);
      expect(before.length).toBeGreaterThanOrEqual(SLEEPERS + 4);

      const t0 = performance.now();
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      const end = await exited;
      clearTimeout(timer);
      const ms = performance.now() - t0;

      // Dies of the signal, as a shell expects (Node re-raises it after cleanup).
      expect(end.signal === signal || end.code === code, `exit ${JSON.stringify(end)}; output: ${output}`).toBe(true);
      // Prompt: the hooks sleep 300 s and one ignores SIGTERM, so the CLI waits out the 500 ms
      // TERM → KILL grace and no more; the rest is a stated margin for process exit on 2 cores.
      expect(ms, 'CLI exit after the signal (ms)').toBeLessThan(KILL_GRACE_MS + EXIT_MARGIN_MS);
      const left = await waitNoneLeft(tag, 15_000);
      expect(left, `left behind after ${signal} to ${sub}:\n${describeProcs(left)}`).toEqual([]);
    }, 120_000);
  }
});

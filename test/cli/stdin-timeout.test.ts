// `run` and `test` read the whole payload before any hook runs. A host that writes it and never
// closes the pipe must not hold the call forever: past --stdin-timeout (or HERMES_HOOKS_STDIN_TIMEOUT)
// the read gives up. On the tool gate that is a block in the caller's shape (the Decision, exit 2;
// the agent's own block with --dialect); elsewhere an error, exit 1. Real processes whose stdin is a
// pipe held open, part of a payload written into it.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { baseEnv, BIN, cleanupTemps, hooksYaml, makeHome, ROOT, writeScript, type BinResult } from './_helpers.js';
import { agentReads } from './dialects-helpers.js';

vi.setConfig({ testTimeout: 60_000 });
afterAll(cleanupTemps);

/** The CLI with stdin a pipe that gets `written` and is never closed; killed (signal set) after 30 s. */
function runHoldingStdin(argv: string[], written: string, env: NodeJS.ProcessEnv = baseEnv()): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.stdin.write(written);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      child.stdin.destroy();
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** A profile whose pre_tool_call and post_tool_call hooks allow: only the stdin bound can block. */
function allowingHome(): string {
  const home = makeHome();
  const hook = writeScript(join(home, 'allow.sh'), '#!/bin/sh\ncat >/dev/null\nexit 0\n');
  return makeHome(hooksYaml({ pre_tool_call: [hook], post_tool_call: [hook] }, 'hooks_auto_accept: true\n'));
}

const PARTIAL = '{"tool_name":"terminal","tool_input":{"command":"ls"'; // the rest never comes
const PROBLEM = (s: string, bytes: number): string =>
  `stdin was not closed within ${s} s (${bytes} byte(s) read): the payload is read to its end before any hook runs — ` +
  'close stdin after writing it, or raise --stdin-timeout SECONDS / HERMES_HOOKS_STDIN_TIMEOUT';

describe('run: a stdin that never closes', () => {
  it('on pre_tool_call: the Decision is a block saying why, exit 2', async () => {
    const r = await runHoldingStdin(['run', 'pre_tool_call', '--home', allowingHome(), '--stdin-timeout', '0.5'], PARTIAL);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    const decision = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(decision).toMatchObject({ event: 'pre_tool_call', action: 'block', decided_by: null });
    expect(decision.message).toBe(`hermes-hooks cannot decide, so it blocks this call: ${PROBLEM('0.5', PARTIAL.length)} (fix that)`);
    expect(r.stderr).toBe(`hermes-hooks: ${PROBLEM('0.5', PARTIAL.length)}\n`);
  });

  it('on an observer event: an error naming the bound, exit 1, nothing on stdout', async () => {
    const env = baseEnv({ HERMES_HOOKS_STDIN_TIMEOUT: '0.4' });
    const r = await runHoldingStdin(['run', 'post_tool_call', '--home', allowingHome()], '', env);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`hermes-hooks: ${PROBLEM('0.4', 0)}\n`);
  });

  it('with --dialect claude on PreToolUse: Claude Code reads its own block', async () => {
    const r = await runHoldingStdin(['run', 'PreToolUse', '--dialect', 'claude', '--home', allowingHome(), '--stdin-timeout', '0.5'], '{"hook_event_name":');
    expect(r.signal).toBeNull();
    const remedy = 'fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide';
    const reason = `hermes-hooks cannot decide, so it blocks this call: ${PROBLEM('0.5', 19)} (${remedy})`;
    expect(agentReads('claude', 'PreToolUse', { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr })).toEqual({ kind: 'block', reason });
  });

  it('a stdin closed in time is read as before (the bound is not a delay)', async () => {
    const env = baseEnv({ HERMES_HOOKS_STDIN_TIMEOUT: '20' });
    const r = await new Promise<BinResult>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'run', 'pre_tool_call', '--home', allowingHome()], { cwd: ROOT, env });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stdin.end(`${PARTIAL}}}`);
      child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: '' }));
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow' });
  });

  it('a bad bound is an error naming where it came from', async () => {
    const r = await runHoldingStdin(['run', 'pre_tool_call', '--home', allowingHome(), '--stdin-timeout', 'soon'], '');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("hermes-hooks: --stdin-timeout: expected a number of seconds (0 = no limit), got 'soon'\n");
  });
});

describe('test: the same bound', () => {
  it('a pipe that never closes is an error, exit 1', async () => {
    const r = await runHoldingStdin(['test', 'pre_tool_call', '--home', allowingHome(), '--stdin-timeout', '0.5'], PARTIAL);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`hermes-hooks: ${PROBLEM('0.5', PARTIAL.length)}\n`);
  });
});

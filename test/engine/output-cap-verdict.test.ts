// Issue 29 item 1: the output cap bounds memory, never a verdict. A guard that echoes a padded
// command to stderr and exits 2 (the README's Claude-style guard), or writes 2 MB to stdout and
// exits 2, is a block: its output past the cap is drained and counted, it runs to its exit, and
// its exit status counts — through engine.emit, `run PreToolUse --dialect claude`, `run
// pre_tool_call`, and the bundled client → serve. A cut stdout is not a directive. Real hooks,
// real processes, the default 1 MiB cap.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../src/spawn/run-hook.js';
import { baseEnv, cleanupTemps, runBin, writeScript } from '../cli/_helpers.js';
import { approvedHome, CLIENT, clientAt, startServe, stopServe } from '../serve/_helpers.js';
import { groupMembers, isRunning, waitFor } from '../spawn/_helpers.js';
import { capture, tempHome, testEngine } from './_helpers.js';

afterAll(cleanupTemps);

// The guard of README "Claude Code", as the Claude Code hooks guide writes them.
const README_GUARD = `#!/usr/bin/env bash
command=$(jq -r '.tool_input.command')
if echo "$command" | grep -qE 'rm -rf /|git push (--force|-f)'; then
  echo "Blocked: '$command' is not allowed here" >&2; exit 2
fi
`;

/** A command padded past the cap: the guard's echo of it to stderr is > 1 MiB. */
const PADDED = `rm -rf / ${'a'.repeat(DEFAULT_MAX_OUTPUT_BYTES + 150_000)}`;
const ECHOED = `Blocked: '${PADDED}' is not allowed here\n`;
/** What a block takes from stderr: its first 400 characters. */
const GUARD_MESSAGE = ECHOED.slice(0, 400);

const STDOUT_2MB = `#!/bin/bash
cat >/dev/null
head -c 2000000 /dev/zero | tr '\\0' x
echo 'too big to pass' >&2
exit 2
`;

function guardHome(script: string, opts: { dialect?: string; failClosed?: boolean } = {}): { home: string; command: string } {
  const home = tempHome('hh-cap-');
  const command = writeScript(join(home, 'guard.sh'), script);
  const extra = `${opts.dialect ? `      dialect: ${opts.dialect}\n` : ''}${opts.failClosed ? '      fail_closed: true\n' : ''}`;
  writeFileSync(join(home, 'config.yaml'), `hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: ${command}\n      timeout: 30\n${extra}`);
  return { home, command };
}

describe.each([false, true])('engine.emit, fail_closed: %s', (failClosed) => {
  it('the README guard echoing a command padded past the cap to stderr, exit 2: blocked with its first 400 chars', async () => {
    const { home } = guardHome(README_GUARD, { dialect: 'claude', failClosed });
    const engine = await testEngine(home, { logger: capture() });
    const { decision, hooks } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: PADDED } });
    const hook = hooks[0]!;
    expect(hook).toMatchObject({ status: 'nonzero_exit', exit_code: 2, signal: null, stdout_dropped_bytes: 0 });
    // Memory stays bounded: the cap kept, the rest counted and dropped.
    expect(Buffer.byteLength(hook.stderr)).toBe(DEFAULT_MAX_OUTPUT_BYTES);
    expect(hook.stderr_dropped_bytes).toBe(Buffer.byteLength(ECHOED) - DEFAULT_MAX_OUTPUT_BYTES);
    expect(decision).toMatchObject({ action: 'block', message: GUARD_MESSAGE, decided_by: 0 });
  });

  it('a Hermes hook writing 2 MB to stdout then exiting 2: blocked; the cut stdout is no directive, and said', async () => {
    const { home, command } = guardHome(STDOUT_2MB, { failClosed });
    const logger = capture();
    const engine = await testEngine(home, { logger });
    const { decision, hooks } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    const hook = hooks[0]!;
    expect(hook).toMatchObject({ status: 'nonzero_exit', exit_code: 2, stderr: 'too big to pass\n', stderr_dropped_bytes: 0 });
    expect(hook.stdout.length).toBe(DEFAULT_MAX_OUTPUT_BYTES);
    expect(hook.stdout_dropped_bytes).toBe(2_000_000 - DEFAULT_MAX_OUTPUT_BYTES);
    expect(decision).toMatchObject({ action: 'block', message: 'too big to pass', decided_by: 0 });
    const dropped = 2_000_000 - DEFAULT_MAX_OUTPUT_BYTES;
    expect(logger.lines).toEqual([
      `shell hook (event=pre_tool_call command=${command}): stdout exceeded the capture limit (${dropped} bytes dropped), so it was not read as an answer`,
    ]);
  });

  it('exit 0 with a block whose stdout ran past the cap: not a directive — fail open, or blocked as unreadable output', async () => {
    const script = `#!/bin/bash\ncat >/dev/null\nprintf '{"action":"block","message":"%s"}' "$(head -c 1100000 /dev/zero | tr '\\0' x)"\n`;
    const { home, command } = guardHome(script, { failClosed });
    const engine = await testEngine(home, { logger: capture() });
    const { decision, hooks } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    const dropped = 1_100_000 + '{"action":"block","message":""}'.length - DEFAULT_MAX_OUTPUT_BYTES;
    expect(hooks[0]).toMatchObject({ status: 'ok', exit_code: 0, stdout_dropped_bytes: dropped });
    if (failClosed) {
      expect(decision).toMatchObject({
        action: 'block',
        message: `hook ${command} failed closed: unreadable output: stdout exceeded the capture limit (${dropped} bytes dropped), so it is not a directive`,
      });
    } else {
      expect(decision.action).toBe('allow');
    }
  });
});

describe('a guard that writes past the cap and never exits', () => {
  it('still ends at its timeout, its group killed; fail_closed blocks for the timeout, else fails open', async () => {
    const script = `#!/bin/bash\ncat >/dev/null\necho "$$" > "$HERMES_HOME/pid"\nhead -c 1500000 /dev/zero >&2\nexec sleep 1000\n`;
    for (const failClosed of [false, true]) {
      const { home, command } = guardHome(script, { failClosed });
      const fcLine = failClosed ? '      fail_closed: true\n' : '';
      writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${command}\n      timeout: 2\n${fcLine}`);
      const engine = await testEngine(home, { logger: capture() });
      const { decision, hooks } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
      const hook = hooks[0]!;
      expect(hook).toMatchObject({ status: 'timeout', exit_code: null, stderr_dropped_bytes: 1_500_000 - DEFAULT_MAX_OUTPUT_BYTES });
      // Killed at the deadline (timeout + TERM→KILL + drain, with a generous margin), the cap did not end it.
      expect(hook.duration_ms).toBeLessThan(2000 + 1000 + 3000);
      const pid = Number(readFileSync(join(home, 'pid'), 'utf8'));
      expect(await waitFor(() => groupMembers(pid).length === 0 && !isRunning(pid), 3000)).toBe(true);
      expect(decision).toMatchObject(failClosed ? { action: 'block', message: `hook ${command} failed closed: timed out after 2s` } : { action: 'allow' });
    }
  }, 30_000);
});

describe('the CLI and serve, as an agent calls them', () => {
  const claudeStdin = (cwd: string): string =>
    JSON.stringify({ session_id: 's1', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: PADDED } });
  const DENY = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: GUARD_MESSAGE.trimEnd() } };

  it('`run PreToolUse --dialect claude` with the README guard and a padded command: denied, as Claude Code itself denies', async () => {
    const { home } = guardHome(README_GUARD, { dialect: 'claude' });
    const r = await runBin(['run', 'PreToolUse', '--dialect', 'claude'], { stdin: claudeStdin(home), env: baseEnv({ HERMES_HOME: home }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(DENY);
  });

  it('`run pre_tool_call` with a Hermes hook writing 2 MB to stdout and exiting 2: exit 2, blocked', async () => {
    const { home } = guardHome(STDOUT_2MB);
    const stdin = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' } });
    const r = await runBin(['run', 'pre_tool_call'], { stdin, env: baseEnv({ HERMES_HOME: home }) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'too big to pass', decided_by: 0 });
  });

  it('the bundled client → serve with the README guard and a padded command: denied', async () => {
    const dir = tempHome('hh-cap-serve-');
    const guard = writeScript(join(dir, 'guard.sh'), README_GUARD);
    const home = await approvedHome({ pre_tool_call: [{ command: guard, dialect: 'claude', timeout: 30 }] });
    const sock = join(home, 'hermes-hooks.sock');
    const served = await startServe(home, ['--socket', sock]);
    try {
      const r = await clientAt(CLIENT)(['claude', 'PreToolUse', sock], claudeStdin(home));
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)).toEqual(DENY);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 30_000);
});

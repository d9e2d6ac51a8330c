// Issue 24 item 3: a hook's answer is taken when it exits. A guard that leaves a background child
// holding its stdout (in its group, or escaped with setsid) is answered at its exit plus a short
// grace — its block honoured, fail_closed or not — its leftovers killed and counted, never
// reported as a timeout. Real hooks, real processes, through the engine and through
// `run --dialect claude` as Claude Code would call it.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, cleanupTemps, isAlive, runBin, runMain, writeScript } from '../cli/_helpers.js';
import { waitFor } from '../spawn/_helpers.js';
import { capture, tempHome, testEngine } from './_helpers.js';

afterAll(cleanupTemps);

/** Far below the hooks' 5 s timeout: the answer did not wait for the deadline. */
const WELL_BEFORE_TIMEOUT_MS = 4000;
const KEEP = 'a helper meant to outlive its hook must leave its process group and its output: setsid CMD </dev/null >/dev/null 2>&1 &)';

const SETSID_BLOCK = `setsid sleep 30 &
echo "daemon=$!" >&2
echo '{"action":"block","message":"guard says no"}'
exit 0`;

// Prints nothing useful itself; its grandchild goes on writing to stdout after the exit.
const WRITER = `( i=0; while :; do i=$((i + 1)); echo "line $i"; sleep 0.05; done ) &
echo "writer=$!" >&2
exit 0`;

function pidIn(text: string, key: string): number {
  const m = new RegExp(`${key}=(\\d+)`).exec(text);
  if (!m) throw new Error(`no ${key}= in ${JSON.stringify(text)}`);
  return Number(m[1]);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

async function guard(body: string, failClosed: boolean) {
  const home = tempHome('hh-exit-');
  const hook = writeScript(join(home, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\n${body}\n`);
  writeFileSync(
    join(home, 'config.yaml'),
    `hooks:\n  pre_tool_call:\n    - command: ${hook}\n      timeout: 5\n${failClosed ? '      fail_closed: true\n' : ''}`,
  );
  const logger = capture();
  const engine = await testEngine(home, { logger });
  const started = performance.now();
  const emission = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } });
  return { ...emission, hook: emission.hooks[0]!, elapsed: performance.now() - started, logger, command: hook };
}

describe.each([false, true])('fail_closed: %s', (failClosed) => {
  it('a guard that starts a setsid daemon and prints a block: blocked by its own message, at once, daemon killed', async () => {
    const { decision, hook, elapsed, logger, command } = await guard(SETSID_BLOCK, failClosed);
    const daemon = pidIn(hook.stderr, 'daemon');
    try {
      expect(decision).toMatchObject({ action: 'block', message: 'guard says no', decided_by: 0 });
      expect(hook).toMatchObject({ status: 'ok', exit_code: 0, error: null, left_processes: 1 });
      expect(elapsed).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
      expect(logger.lines).toEqual([
        `shell hook (event=pre_tool_call command=${command}) exited 0; left 1 process, killed (its answer was taken at its exit; a helper meant to outlive its hook must leave its process group and its output: setsid CMD </dev/null >/dev/null 2>&1 &)`,
      ]);
      expect(logger.lines.join('\n')).not.toMatch(/timed out/);
      expect(await waitFor(() => !isAlive(daemon), 3000)).toBe(true);
    } finally {
      killQuietly(daemon);
    }
  });

  it('a guard whose grandchild keeps writing after the exit is answered at once; what it wrote is not a directive', async () => {
    const { decision, hook, elapsed, command } = await guard(WRITER, failClosed);
    const writer = pidIn(hook.stderr, 'writer');
    try {
      expect(hook).toMatchObject({ status: 'ok', exit_code: 0 });
      expect(hook.left_processes).toBeGreaterThanOrEqual(1);
      expect(elapsed).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
      if (failClosed) {
        // The grandchild's lines are not a JSON object: a fail_closed guard blocks, for that reason — not a timeout.
        expect(decision).toMatchObject({ action: 'block', message: `hook ${command} failed closed: unparseable stdout (expected a JSON object)` });
      } else {
        expect(decision.action).toBe('allow');
      }
      expect(await waitFor(() => !isAlive(writer), 3000)).toBe(true);
    } finally {
      killQuietly(writer);
    }
  });
});

// Issue 29 item 2: the answer was to come from a background child, killed at the exit.
const ANSWER_FROM_CHILD = `( sleep 0.3; echo '{"action":"block","message":"too late"}' ) &
exit 0`;

describe('a guard that answers from a background child (issue 29)', () => {
  it('fail_closed: blocked, saying why and how to fix it', async () => {
    const { decision, hook, elapsed, command } = await guard(ANSWER_FROM_CHILD, true);
    expect(hook).toMatchObject({ status: 'ok', exit_code: 0, stdout: '' });
    expect(hook.left_processes).toBeGreaterThanOrEqual(1);
    const n = hook.left_processes;
    const what = n === 1 ? '1 process it left running was' : `${n} processes it left running were`;
    expect(decision).toMatchObject({
      action: 'block',
      message: `hook ${command} failed closed: exited 0 with no answer; ${what} killed — answer before exiting, or \`wait\` for the child`,
      decided_by: 0,
    });
    expect(elapsed).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
  });

  it('not fail_closed: fails open as Hermes, with the warning about what was left', async () => {
    const { decision, hook, logger, command } = await guard(ANSWER_FROM_CHILD, false);
    expect(decision.action).toBe('allow');
    const n = hook.left_processes;
    expect(logger.lines).toEqual([
      `shell hook (event=pre_tool_call command=${command}) exited 0; left ${n} process${n === 1 ? '' : 'es'}, killed ` +
        `(its answer was taken at its exit; ${KEEP}`,
    ]);
  });

  it('fail_closed, answered before exiting: keeps its answer though it left a child', async () => {
    const { decision, hook } = await guard(`sleep 30 &\necho "child=$!" >&2\necho '{"action":"approve","message":"fine"}'\nexit 0`, true);
    try {
      expect(hook.left_processes).toBe(1);
      expect(decision).toMatchObject({ action: 'approve', message: 'fine', decided_by: 0 });
    } finally {
      killQuietly(pidIn(hook.stderr, 'child'));
    }
  });

  it('through `run pre_tool_call` (the built CLI): exit 2, blocked', async () => {
    const home = tempHome('hh-exit-bg-');
    const hook = writeScript(join(home, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\n${ANSWER_FROM_CHILD}\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: ${hook}\n      fail_closed: true\n`);
    const stdin = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /' } });
    const r = await runBin(['run', 'pre_tool_call'], { stdin, env: baseEnv({ HERMES_HOME: home }) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', decided_by: 0 });
    expect(JSON.parse(r.stdout).message).toMatch(new RegExp(`^hook ${hook} failed closed: exited 0 with no answer; \\d+ process`));
  });
});

describe('through `run --dialect claude` (issue 24 item 3, as reported)', () => {
  it('denies the call by the guard\'s own block, answers before the timeout, kills the daemon, and never says "timed out"', async () => {
    const home = tempHome('hh-exit-cli-');
    // The daemon's pid goes to a file: `run` does not pass a hook's stderr on.
    const body = SETSID_BLOCK.replace('echo "daemon=$!" >&2', `echo "daemon=$!" > ${join(home, 'daemon.pid')}`);
    const hook = writeScript(join(home, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\n${body}\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: ${hook}\n      timeout: 5\n`);
    const stdin = JSON.stringify({
      session_id: 's1',
      cwd: home,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    const r = await runBin(['run', 'PreToolUse', '--dialect', 'claude'], { stdin, env: baseEnv({ HERMES_HOME: home }) });
    const daemon = pidIn(readFileSync(join(home, 'daemon.pid'), 'utf8'), 'daemon');
    try {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'guard says no' },
      });
      expect(r.stderr).toContain(`shell hook (event=pre_tool_call command=${hook}) exited 0; left 1 process, killed`);
      expect(r.stderr).not.toMatch(/timed out/);
      expect(await waitFor(() => !isAlive(daemon), 3000)).toBe(true);
    } finally {
      killQuietly(daemon);
    }
  });
});

describe('`hermes-hooks test` says what was left and killed, and how to keep a helper', () => {
  it('in the human report and in --json', async () => {
    const home = tempHome('hh-exit-test-');
    const hook = writeScript(join(home, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\nsleep 30 &\necho '{"action":"block","message":"no"}'\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${hook}\n      timeout: 5\n`);
    const human = await runMain(['test', 'pre_tool_call', '--home', home]);
    expect(human.code).toBe(2);
    expect(human.stdout).toContain(
      '      exited 0; left 1 process, killed when its answer was taken — a helper meant to outlive its hook must leave its process group and its output: setsid CMD </dev/null >/dev/null 2>&1 &\n',
    );
    expect(human.stdout).toContain('directive: {"action":"block","message":"no"}');
    expect(human.stdout).not.toMatch(/timeout|timed out/);
    const json = await runMain(['test', 'pre_tool_call', '--home', home, '--json']);
    expect(JSON.parse(json.stdout).hooks[0]).toMatchObject({ status: 'ok', exit_code: 0, left_processes: 1, directive: { action: 'block', message: 'no' } });
  });
});

describe('`doctor` says a fire-and-forget helper left in the group is killed on every call', () => {
  // The shape of real notification hooks: `curl … >/dev/null 2>&1 &` then `exit 0` (the helper
  // stays in the hook's group). Here a `sleep` stands in for the curl; its pid goes to a file.
  it('✗ with the count and the setsid fix; the setsid form is healthy and its helper kept', async () => {
    const home = tempHome('hh-exit-doctor-');
    const pidFile = join(home, 'helper.pid');
    const hook = writeScript(join(home, 'notify.sh'), `#!/bin/bash\ncat >/dev/null\nsleep 30 >/dev/null 2>&1 &\necho "helper=$!" > ${pidFile}\nexit 0\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  post_tool_call:\n    - command: ${hook}\n`);
    const env = baseEnv({ HERMES_HOME: home });
    expect((await runMain(['approve', '--all'], { env })).code).toBe(0);
    // A notification hook is an observer: doctor runs it only when asked.
    const inGroup = await runMain(['doctor', '--smoke-all'], { env });
    const helper = pidIn(readFileSync(pidFile, 'utf8'), 'helper');
    try {
      expect(inGroup.code).toBe(1);
      expect(inGroup.stdout).toContain(
        '      ✗ exited 0; left 1 process, killed when its answer was taken (synthetic payload) — a helper meant to outlive its hook must leave its process group and its output: setsid CMD </dev/null >/dev/null 2>&1 &\n',
      );
      expect(await waitFor(() => !isAlive(helper), 3000)).toBe(true);
    } finally {
      killQuietly(helper);
    }

    // The fix, as the line says it.
    writeScript(hook, `#!/bin/bash\ncat >/dev/null\nsetsid sleep 30 </dev/null >/dev/null 2>&1 &\necho "helper=$!" > ${pidFile}\nexit 0\n`);
    expect((await runMain(['approve', '--all'], { env })).code).toBe(0);
    const detached = await runMain(['doctor', '--smoke-all'], { env });
    const kept = pidIn(readFileSync(pidFile, 'utf8'), 'helper');
    try {
      expect(detached.stdout).not.toContain('left 1 process');
      expect(detached.stdout).toContain('All hooks look healthy.');
      expect(detached.code).toBe(0);
      expect(isAlive(kept)).toBe(true);
    } finally {
      killQuietly(kept);
    }
  });
});

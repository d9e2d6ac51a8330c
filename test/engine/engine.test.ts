import { writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookEngine, HookEngineOptions } from '../../src/engine/create-engine.js';
import { serializePayload } from '../../src/protocol/payload.js';
import { capture, tempHome, testEngine } from './_helpers.js';

const FIX = resolvePath(__dirname, '../fixtures/engine');

async function engineWith(yaml: string, opts: HookEngineOptions = {}): Promise<HookEngine> {
  const home = tempHome('hh-engine-');
  writeFileSync(join(home, 'config.yaml'), yaml);
  return testEngine(home, opts);
}

const terminal = (command: string) => ({ tool_name: 'terminal', args: { command }, session_id: 's1', task_id: 't1' });

describe('engine.emit on pre_tool_call', () => {
  it('block beats an earlier approve; the first block gives the message and decided_by', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/approve.sh
    - command: ${FIX}/block.sh
    - command: ${FIX}/exit2.sh
`);
    const { decision, hooks } = await engine.emit('pre_tool_call', terminal('curl x | sh'));
    // The built-in tool-loop guardrail is registered last, after the shell hooks.
    expect(hooks.map((h) => [h.kind, h.status])).toEqual([
      ['shell', 'ok'],
      ['shell', 'ok'],
      ['shell', 'nonzero_exit'],
      ['builtin', 'ok'],
    ]);
    expect(decision).toMatchObject({ action: 'block', message: 'blocked by fixture', decided_by: 1 });
  });

  it('merges modifies in registration order over the original args and reports conflicts', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/modify-a.sh
    - command: ${FIX}/modify-b.py
`);
    const { decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(decision.action).toBe('allow');
    // modify-b saw the original "ls", not modify-a's "ls -la": later wins per key.
    expect(decision.args).toEqual({ command: 'ls --color=never', a: 1, b: 2 });
    expect(decision.modified_by).toEqual([0, 1]);
    expect(decision.conflicts).toEqual(['command']);
  });

  it('approve carries the merged args and the rule key', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/modify-a.sh
    - command: ${FIX}/approve.sh
`);
    const { decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(decision).toMatchObject({ action: 'approve', decided_by: 1, message: 'needs a human', rule_key: 'fixture' });
    expect(decision.args).toEqual({ command: 'ls -la', a: 1 });
  });

  it('applies matchers to the tool name and reports the hooks that did not match', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/block.sh
      matcher: write_file|patch
    - command: ${FIX}/approve.sh
      matcher: " terminal\\n"
`);
    const { hooks, decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(hooks.filter((h) => h.kind === 'shell').map((h) => h.status)).toEqual(['not_matched', 'ok']);
    expect(decision.action).toBe('approve');
    const other = await engine.emit('pre_tool_call', { tool_name: 'write_files', args: {} });
    expect(other.hooks.filter((h) => h.kind === 'shell').map((h) => h.status)).toEqual(['not_matched', 'not_matched']);
    expect(other.decision.action).toBe('allow');
  });

  it('runs hooks of one event concurrently: six 1-second hooks all run at the same time', async () => {
    const entries = Array.from({ length: 6 }, (_, i) => `    - command: bash ${FIX}/sleep1.sh ${i}`).join('\n');
    const engine = await engineWith(`hooks:\n  pre_tool_call:\n${entries}\n`);
    const { hooks } = await engine.emit('pre_tool_call', terminal('ls'));
    const shell = hooks.filter((h) => h.kind === 'shell');
    expect(shell.map((h) => h.status)).toEqual(Array(6).fill('ok'));
    // Every hook started before any of them ended (each sleeps 1 s): they overlapped, whatever the
    // machine's load did to the total time; one after another, the last would start ~5 s after the first ended.
    const lastStart = Math.max(...shell.map((h) => h.started_ms ?? Number.NaN));
    const firstEnd = Math.min(...shell.map((h) => (h.started_ms ?? Number.NaN) + (h.duration_ms ?? Number.NaN)));
    expect(lastStart).toBeLessThan(firstEnd);
  });

  it('fails closed on a crashing fail_closed hook and stays open without it', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/crash.sh
      fail_closed: true
    - command: ${FIX}/crash.sh --open
`);
    const { decision, hooks } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(hooks[1]!.directive).toBeNull();
    expect(decision.action).toBe('block');
    expect(decision.message).toMatch(new RegExp(`^hook ${FIX}/crash\\.sh failed closed: `));
    expect(decision.decided_by).toBe(0);
  });

  it('a missing command is launch_failed (consent not enforced), and blocks only when fail_closed', async () => {
    const yaml = `hooks:
  pre_tool_call:
    - command: /nonexistent/hook.sh
    - command: /nonexistent/guard.sh
      fail_closed: true
`;
    const engine = await engineWith(yaml, { enforceConsent: false });
    const { hooks, decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(hooks.filter((h) => h.kind === 'shell').map((h) => [h.status, h.error])).toEqual([
      ['launch_failed', 'command not found: /nonexistent/hook.sh (no such file)'],
      ['launch_failed', 'command not found: /nonexistent/guard.sh (no such file)'],
    ]);
    expect(decision).toMatchObject({
      action: 'block',
      decided_by: 1,
      message: 'hook /nonexistent/guard.sh failed closed: command not found: /nonexistent/guard.sh (no such file)',
    });

    // With consent enforced, even --accept-hooks cannot approve a script that is not there (no pin,
    // no approval): the plain hook is skipped, the fail_closed guard blocks without running.
    const enforced = await engineWith(yaml);
    const run = await enforced.emit('pre_tool_call', terminal('ls'));
    expect(run.hooks.filter((h) => h.kind === 'shell').map((h) => [h.command, h.status])).toEqual([
      ['/nonexistent/hook.sh', 'skipped'],
      ['/nonexistent/guard.sh', 'awaiting_approval'],
    ]);
    expect(run.decision).toMatchObject({ action: 'block', decided_by: 1 });
    expect(run.decision.message).toMatch(
      /^hook \/nonexistent\/guard\.sh awaits approval \(cannot approve \[pre_tool_call\] \/nonexistent\/guard\.sh: \/nonexistent\/guard\.sh does not exist — /,
    );
  });

  it('in-process callbacks run before shell hooks and take the first indices', async () => {
    const engine = await engineWith(`hooks:
  pre_tool_call:
    - command: ${FIX}/approve.sh
`);
    engine.registerHook('pre_tool_call', (kwargs) =>
      (kwargs.args as { command: string }).command.includes('rm') ? { action: 'block', message: 'host policy' } : null,
    );
    const blocked = await engine.emit('pre_tool_call', terminal('rm -rf /tmp/x'));
    expect(blocked.hooks.map((h) => h.kind)).toEqual(['plugin', 'shell', 'builtin']);
    expect(blocked.decision).toMatchObject({ action: 'block', decided_by: 0, message: 'host policy' });
    const approved = await engine.emit('pre_tool_call', terminal('ls'));
    expect(approved.decision).toMatchObject({ action: 'approve', decided_by: 1 });
  });
});

describe('engine.emit on other events', () => {
  it('gives hooks HERMES_HOME and HERMES_HOOK_EVENT and the payload on a real stdin', async () => {
    const engine = await engineWith(`hooks:
  pre_llm_call:
    - command: ${FIX}/echo-env.sh
    - command: ${FIX}/context.py
`);
    const { decision, payload } = await engine.emit('pre_llm_call', { session_id: 's', user_message: 'héllo', platform: 'cli' });
    const bytes = Buffer.byteLength(serializePayload(payload));
    expect(decision.context).toBe(`home=${engine.home} event=pre_llm_call bytes=${bytes}\n\nctx from pre_llm_call`);
    expect(Object.keys(payload)).toEqual(['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'cwd', 'profile', 'extra']);
  });

  it('exit 2 on a non-blocking event is an ordinary failure', async () => {
    const engine = await engineWith(`hooks:
  post_tool_call:
    - command: ${FIX}/exit2.sh
`);
    const { decision, hooks } = await engine.emit('post_tool_call', { tool_name: 'terminal', args: {}, result: '{}' });
    expect(hooks[0]!.status).toBe('nonzero_exit');
    expect(decision.action).toBe('allow');
  });

  it('rejects an unknown event name with the list of valid ones', async () => {
    const engine = await engineWith('hooks: {}\n');
    await expect(engine.emit('pre_tool_cal' as never, {})).rejects.toThrow(/unknown hook event 'pre_tool_cal'/);
  });
});

describe('consent and safe mode in the engine', () => {
  it('skips unapproved hooks on a non-TTY without accept, naming the fix, warning once (not per emit)', async () => {
    const logger = capture();
    const engine = await engineWith(`hooks:\n  pre_tool_call:\n    - command: ${FIX}/block.sh\n`, {
      acceptHooks: false,
      logger,
    });
    const message =
      `shell hook for pre_tool_call (${FIX}/block.sh) is not approved — skipped. Approve it with ` +
      `\`hermes-hooks approve --event pre_tool_call ${FIX}/block.sh\`, or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / ` +
      'hooks_auto_accept: true.'; // the engine never prompts (interactive: false), so it does not suggest the prompt
    for (let i = 0; i < 2; i++) {
      const { hooks, decision } = await engine.emit('pre_tool_call', terminal('ls'));
      expect(hooks.filter((h) => h.kind === 'shell').map((h) => [h.status, h.consent, h.error, h.directive])).toEqual([
        ['skipped', 'not_approved', message, null],
      ]);
      expect(decision.action).toBe('allow');
    }
    expect(logger.lines).toEqual([message]);
  });

  it('an unapproved fail_closed pre_tool_call hook blocks instead of vanishing', async () => {
    const engine = await engineWith(`hooks:\n  pre_tool_call:\n    - command: ${FIX}/approve.sh\n      fail_closed: true\n`, { acceptHooks: false });
    const { hooks, decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(hooks[0]!.status).toBe('awaiting_approval');
    expect(decision.action).toBe('block');
    expect(decision.message).toBe(
      `hook ${FIX}/approve.sh awaits approval (not approved yet): tool calls it guards are blocked until it is approved — ` +
        `run \`hermes-hooks approve --event pre_tool_call ${FIX}/approve.sh\` (or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true)`,
    );
  });

  it('HERMES_SAFE_MODE runs no user hooks', async () => {
    const engine = await engineWith(`hooks:\n  pre_tool_call:\n    - command: ${FIX}/block.sh\n`, {
      env: { ...process.env, HERMES_SAFE_MODE: ' Yes ' },
    });
    const { hooks, decision } = await engine.emit('pre_tool_call', terminal('ls'));
    expect(hooks.filter((h) => h.kind === 'shell')).toEqual([]);
    expect(decision.action).toBe('allow');
  });
});

describe('engine.close', () => {
  it('kills hooks still running and lets the emit settle', async () => {
    const engine = await engineWith(`hooks:\n  pre_tool_call:\n    - command: sleep 30\n      timeout: 60\n`);
    const pending = engine.emit('pre_tool_call', terminal('ls'));
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await engine.close({ finalize: false });
    const { hooks } = await pending;
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(hooks[0]!.status).toBe('timeout');
  });

  it('fires on_session_finalize for open sessions and returns the notifications', async () => {
    const home = tempHome('hh-fin-');
    writeFileSync(join(home, 'say.sh'), '#!/usr/bin/env bash\necho \'{"message":"bye from hooks"}\'\n', { mode: 0o755 });
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  on_session_finalize:\n    - command: ${home}/say.sh\n`);
    const engine = await testEngine(home);
    await engine.emit('on_session_start', { session_id: 'abc' });
    const { notifications } = await engine.close();
    expect(notifications).toEqual(['bye from hooks']);
  });
});

// Hook scripts written the way each agent's users write them, run for real, judged by that
// agent's rules and mapped back to our directives (argument keys included).

import { describe, expect, it } from 'vitest';
import type { EventName } from '../../src/events.js';
import { evaluateDialectRun, type DialectHookSpec } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS as maps, type AgentDialect } from '../../src/dialects/names.js';
import { renderDialectStdin } from '../../src/dialects/render.js';
import type { Directive, JsonObject, RunRecord } from '../../src/types.js';
import { hookPath, record, runHook, wire } from '../_dialect-fixtures.js';

const spec = (event: EventName, command: string, fail_closed = false, timeout = 20): DialectHookSpec => ({ event, command, fail_closed, timeout });

/** Render the payload for the dialect, run the script on it, evaluate the run. */
function runAs(
  dialect: AgentDialect,
  script: string,
  event: EventName,
  fields: { tool_name?: string; tool_input?: JsonObject; extra?: JsonObject } = {},
  opts: { fail_closed?: boolean; timeoutMs?: number } = {},
): { directive: Directive | null; run: RunRecord } {
  const payload = wire(event, fields);
  const stdin = renderDialectStdin(dialect, maps, payload, { cwd: '/work/proj' });
  expect(stdin).not.toBeNull();
  const command = script.includes('/') ? script : hookPath(script);
  const run = runHook(command, stdin, { timeoutMs: opts.timeoutMs });
  const s = spec(event, command, opts.fail_closed ?? false, Math.round((opts.timeoutMs ?? 20_000) / 1000));
  return { directive: evaluateDialectRun(dialect, maps, s, fields.tool_name ?? null, run), run };
}

describe('Claude Code hooks', () => {
  it('a PreToolUse guard reading .tool_input.command with jq and exiting 2 blocks with its stderr', () => {
    const { directive, run } = runAs('claude', 'claude-bash-guard.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'rm -rf /' } });
    expect(run.exit_code).toBe(2);
    expect(directive).toEqual({ action: 'block', message: "Blocked: 'rm -rf /' is not allowed here" });
    expect(runAs('claude', 'claude-bash-guard.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toBeNull();
  });

  it('a Read guard on file_path answering with permissionDecision: deny, ask, and allow + updatedInput mapped back to path', () => {
    const deny = runAs('claude', 'claude-read-guard.py', 'pre_tool_call', { tool_name: 'read_file', tool_input: { path: '/work/proj/.env' } });
    expect(deny.directive).toEqual({ action: 'block', message: '/work/proj/.env holds secrets; read .env.example instead' });

    const ask = runAs('claude', 'claude-read-guard.py', 'pre_tool_call', { tool_name: 'read_file', tool_input: { path: '/var/log/app.log' } });
    expect(ask.directive).toEqual({ action: 'approve', message: 'Log files can be large; read it anyway?' });

    const rewrite = runAs('claude', 'claude-read-guard.py', 'pre_tool_call', { tool_name: 'read_file', tool_input: { path: 'src/a.ts', offset: 5 } });
    expect(rewrite.directive).toEqual({ action: 'modify', args: { path: '/work/proj/src/a.ts', offset: 5 } });

    expect(runAs('claude', 'claude-read-guard.py', 'pre_tool_call', { tool_name: 'read_file', tool_input: { path: '/work/proj/a.ts' } }).directive).toBeNull();
  });

  it('UserPromptSubmit: plain stdout is context', () => {
    const { directive } = runAs('claude', 'claude-prompt-context.sh', 'pre_llm_call', { extra: { user_message: 'fix the build' } });
    expect(directive).toEqual({ action: 'context', context: 'Reminder for: fix the build\nProject conventions: run npm test before committing.' });
  });

  it('Stop decision:block + reason keeps the turn going once (stop_hook_active)', () => {
    expect(runAs('claude', 'claude-stop-check.sh', 'pre_verify', { extra: { attempt: 1 } }).directive).toEqual({
      action: 'continue',
      message: 'Run the test suite and fix failures before stopping.',
    });
    expect(runAs('claude', 'claude-stop-check.sh', 'pre_verify', { extra: { attempt: 2 } }).directive).toBeNull();
  });
});

describe('Codex hooks', () => {
  it('exit 2 with the reason on stderr blocks; allow + updatedInput rewrites; deny JSON blocks', () => {
    expect(runAs('codex', 'codex-policy.py', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'rm -rf build' } }).directive).toEqual({
      action: 'block',
      message: 'Refusing to run destructive command: rm -rf build',
    });
    expect(runAs('codex', 'codex-policy.py', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'pip install requests' } }).directive).toEqual({
      action: 'modify',
      args: { command: 'pip install --user requests' },
    });
    expect(runAs('codex', 'codex-policy.py', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'curl example.com' } }).directive).toEqual({
      action: 'block',
      message: 'Network access goes through the proxy tool',
    });
    expect(runAs('codex', 'codex-policy.py', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toBeNull();
  });
});

describe('Gemini CLI hooks', () => {
  it('a BeforeTool hook: deny, ask, and hookSpecificOutput.tool_input merged back with our keys', () => {
    expect(
      runAs('gemini', 'gemini-before-tool.sh', 'pre_tool_call', { tool_name: 'write_file', tool_input: { path: 'config/.env', content: 'K=v' } }).directive,
    ).toEqual({
      action: 'block',
      message: 'Writing .env files is not allowed',
    });
    // The same guard fires for `replace`, our patch, because the key comes through as file_path.
    expect(
      runAs('gemini', 'gemini-before-tool.sh', 'pre_tool_call', { tool_name: 'patch', tool_input: { path: 'prod.env', old_string: 'a', new_string: 'b' } })
        .directive,
    ).toEqual({
      action: 'block',
      message: 'Writing .env files is not allowed',
    });
    expect(
      runAs('gemini', 'gemini-before-tool.sh', 'pre_tool_call', { tool_name: 'write_file', tool_input: { path: 'docs/a.md', content: '# A' } }).directive,
    ).toEqual({
      action: 'modify',
      args: { content: '# A\n' },
    });
    expect(runAs('gemini', 'gemini-before-tool.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'sudo reboot' } }).directive).toEqual({
      action: 'approve',
      message: 'sudo needs your confirmation',
    });
    expect(runAs('gemini', 'gemini-before-tool.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toBeNull();
  });

  it('plain text with exit 2 denies with the text; exit 2 with no output blocks too (the llxprt fix)', () => {
    expect(runAs('gemini', 'gemini-plain-deny.sh', 'pre_tool_call', { tool_name: 'write_file', tool_input: { path: '/prod/x' } }).directive).toEqual({
      action: 'block',
      message: 'Policy violation: production paths are read-only',
    });
    expect(runAs('gemini', 'gemini-silent-exit2.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toEqual({
      action: 'block',
      message: 'Blocked by shell hook.',
    });
  });
});

describe('Cursor hooks', () => {
  it('a beforeShellExecution hook: permission deny (agent_message), ask, allow', () => {
    expect(runAs('cursor', 'cursor-before-shell.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'npm publish' } }).directive).toEqual({
      action: 'block',
      message: 'Do not run npm publish; ask the user to publish.',
    });
    expect(
      runAs('cursor', 'cursor-before-shell.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'git push origin main' } }).directive,
    ).toEqual({
      action: 'approve',
      message: 'Push to the remote?',
    });
    expect(runAs('cursor', 'cursor-before-shell.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toBeNull();
  });

  it('a preToolUse hook: updated_input comes back with our keys', () => {
    expect(
      runAs('cursor', 'cursor-pre-tool-use.sh', 'pre_tool_call', { tool_name: 'write_file', tool_input: { path: 'notes.md', content: 'x' } }).directive,
    ).toEqual({
      action: 'modify',
      args: { path: 'sandbox/notes.md', content: 'x' },
    });
  });
});

describe('fail_closed (pre_tool_call only), as on our wire', () => {
  it('timeout, garbled stdout, non-zero exit without a directive, launch failure → failed closed', () => {
    const slow = runAs(
      'claude',
      'sleepy.sh',
      'pre_tool_call',
      { tool_name: 'terminal', tool_input: { command: 'ls' } },
      { fail_closed: true, timeoutMs: 1000 },
    );
    expect(slow.run.status).toBe('timeout');
    expect(slow.directive).toEqual({ action: 'block', message: `hook ${hookPath('sleepy.sh')} failed closed: timed out after 1s` });

    expect(runAs('cursor', 'garbage.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }, { fail_closed: true }).directive).toEqual({
      action: 'block',
      message: `hook ${hookPath('garbage.sh')} failed closed: unparseable stdout (expected a JSON object)`,
    });
    expect(runAs('gemini', 'crash.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }, { fail_closed: true }).directive).toEqual({
      action: 'block',
      message: `hook ${hookPath('crash.sh')} failed closed: exited with status 1 without a directive`,
    });
    const missing = runAs('codex', '/nonexistent/hook.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }, { fail_closed: true });
    expect(missing.run.status).toBe('launch_failed');
    expect(missing.directive).toEqual({ action: 'block', message: 'hook /nonexistent/hook.sh failed closed: command not found' });
  });

  it('fails open without fail_closed, and on every other event', () => {
    expect(runAs('gemini', 'crash.sh', 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } }).directive).toBeNull();
    expect(runAs('claude', 'crash.sh', 'pre_llm_call', { extra: { user_message: 'x' } }, { fail_closed: true }).directive).toBeNull();
    const s = spec('pre_llm_call', 'h', true);
    expect(evaluateDialectRun('claude', maps, s, null, { ...record(null), status: 'timeout' })).toBeNull();
  });

  it('a real directive is kept under fail_closed even with a non-zero exit', () => {
    const s = spec('pre_tool_call', 'h', true);
    const deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}';
    expect(evaluateDialectRun('claude', maps, s, 'terminal', record(1, deny))).toEqual({ action: 'block', message: 'no' });
    expect(evaluateDialectRun('cursor', maps, s, 'terminal', record(0, '{"permission":"allow"}'))).toBeNull();
    expect(evaluateDialectRun('claude', maps, s, 'terminal', record(137, '', '', null))).toEqual({
      action: 'block',
      message: 'hook h failed closed: exited with status 137 without a directive',
    });
    expect(evaluateDialectRun('claude', maps, s, 'terminal', record(null, '', '', 'SIGKILL'))).toEqual({
      action: 'block',
      message: 'hook h failed closed: killed by SIGKILL without a directive',
    });
    expect(evaluateDialectRun('claude', maps, s, 'terminal', { ...record(null), status: 'output_limit' })).toEqual({
      action: 'block',
      message: 'hook h failed closed: kept writing far past the output cap and was killed before it exited',
    });
  });

  it('issue 29: a stdout cut at the cap is no answer, the exit still counts (exit 2 blocks with stderr, fail_closed or not)', () => {
    const deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}';
    const cut = (code: number, stdout: string, stderr = ''): RunRecord => ({ ...record(code, stdout, stderr), stdout_dropped_bytes: 3 });
    for (const fail_closed of [false, true]) {
      const s = spec('pre_tool_call', 'h', fail_closed);
      expect(evaluateDialectRun('claude', maps, s, 'terminal', cut(2, 'x', 'Blocked: too long'))).toEqual({ action: 'block', message: 'Blocked: too long' });
      expect(evaluateDialectRun('cursor', maps, s, 'terminal', cut(2, 'x', 'Blocked'))).toMatchObject({ action: 'block' });
    }
    const open = spec('pre_tool_call', 'h', false);
    const closed = spec('pre_tool_call', 'h', true);
    // Exit 0: the deny that was kept is not read — fail open, or block as unreadable output.
    expect(evaluateDialectRun('claude', maps, open, 'terminal', cut(0, deny))).toBeNull();
    expect(evaluateDialectRun('claude', maps, closed, 'terminal', cut(0, deny))).toEqual({
      action: 'block',
      message: 'hook h failed closed: unreadable output: stdout exceeded the capture limit (3 bytes dropped), so it is not a directive',
    });
  });

  it('issue 29: a fail_closed guard that exited 0 silent, its children killed at the exit, blocks; one that answered keeps its answer', () => {
    const left = (stdout: string): RunRecord => ({ ...record(0, stdout), left_processes: 1 });
    const reason = 'hook h failed closed: exited 0 with no answer; 1 process it left running was killed — answer before exiting, or `wait` for the child';
    const allow = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}';
    expect(evaluateDialectRun('claude', maps, spec('pre_tool_call', 'h', true), 'terminal', left(''))).toEqual({ action: 'block', message: reason });
    expect(evaluateDialectRun('claude', maps, spec('pre_tool_call', 'h', false), 'terminal', left(''))).toBeNull();
    expect(evaluateDialectRun('claude', maps, spec('pre_tool_call', 'h', true), 'terminal', left(allow))).toBeNull();
    expect(evaluateDialectRun('claude', maps, spec('pre_tool_call', 'h', true), 'terminal', record(0, ''))).toBeNull();
    // Not a tool gate: fail_closed has no effect there.
    expect(evaluateDialectRun('claude', maps, spec('post_tool_call', 'h', true), 'terminal', left(''))).toBeNull();
  });
});

describe('exit-code and output rules per agent (hand-made runs)', () => {
  const pre = spec('pre_tool_call', 'h');
  const claudeDeny = (reason: string) =>
    JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
  const claudeAllow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
  const claude = (run: RunRecord, event: EventName = 'pre_tool_call', tool: string | null = 'terminal') =>
    evaluateDialectRun('claude', maps, spec(event, 'h'), tool, run);
  const codex = (run: RunRecord, event: EventName = 'pre_tool_call') => evaluateDialectRun('codex', maps, spec(event, 'h'), 'terminal', run);
  const gemini = (run: RunRecord, event: EventName = 'pre_tool_call') => evaluateDialectRun('gemini', maps, spec(event, 'h'), 'write_file', run);
  const cursor = (run: RunRecord, event: EventName = 'pre_tool_call') => evaluateDialectRun('cursor', maps, spec(event, 'h'), 'terminal', run);

  it('Claude: exit 2 blocks and JSON allow cannot override it; the JSON reason wins over stderr', () => {
    expect(claude(record(2, claudeAllow, 'from stderr'))).toEqual({ action: 'block', message: 'from stderr' });
    expect(claude(record(2, claudeDeny('from json'), 'from stderr'))).toEqual({ action: 'block', message: 'from json' });
    expect(claude(record(2, '', ''))).toEqual({ action: 'block', message: 'Blocked by shell hook.' });
  });

  it('Claude: other non-zero exits are non-blocking unless a valid JSON object decides', () => {
    expect(claude(record(1, '', 'oops'))).toBeNull();
    expect(claude(record(127, '', 'not found'))).toBeNull();
    expect(claude(record(1, claudeDeny('json decides')))).toEqual({ action: 'block', message: 'json decides' });
    expect(evaluateDialectRun('claude', maps, pre, 'terminal', record(0, 'plain text'))).toBeNull();
  });

  it('Claude: continue:false, defer, legacy decision, allow without updatedInput, context', () => {
    expect(claude(record(0, '{"continue": false, "stopReason": "Session halted by policy"}'))).toEqual({
      action: 'block',
      message: 'Session halted by policy',
    });
    expect(claude(record(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'))).toBeNull();
    expect(claude(record(0, '{"decision":"block","reason":"legacy"}'))).toEqual({ action: 'block', message: 'legacy' });
    expect(claude(record(0, '{"decision":"approve"}'))).toBeNull();
    expect(claude(record(0, claudeAllow))).toBeNull();
    expect(claude(record(0, '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}'), 'pre_llm_call', null)).toEqual({
      action: 'context',
      context: 'ctx',
    });
    expect(claude(record(0, 'Welcome!'), 'on_session_start', null)).toEqual({ action: 'context', context: 'Welcome!' });
    expect(claude(record(0, '{"decision":"block"}'), 'pre_verify', null)).toBeNull();
    expect(claude(record(2, '', 'keep going: tests fail'), 'pre_verify', null)).toEqual({ action: 'continue', message: 'keep going: tests fail' });
  });

  it('Claude: updatedInput replaces the whole input; every key it sends is mapped back (MultiEdit → patch)', () => {
    const out = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { file_path: '/a.ts', old_string: 'x', new_string: 'y' } },
    });
    expect(claude(record(0, out), 'pre_tool_call', 'patch')).toEqual({ action: 'modify', args: { path: '/a.ts', old_string: 'x', new_string: 'y' } });
  });

  it('Codex: stricter parsing, and our careful decisions where Codex fails open', () => {
    // Exit 2 with empty stderr is a failed hook in Codex; we block.
    expect(codex(record(2, '', ''))).toEqual({ action: 'block', message: 'Blocked by shell hook.' });
    // Codex reads stderr as the exit-2 reason.
    expect(codex(record(2, claudeDeny('json'), 'stderr reason'))).toEqual({ action: 'block', message: 'stderr reason' });
    // Any other exit is a failed hook: its JSON is not read.
    expect(codex(record(1, claudeDeny('json')))).toBeNull();
    // deny with an empty reason: a failed hook in Codex; we block with the default message.
    expect(codex(record(0, claudeDeny('')))).toEqual({ action: 'block', message: 'Blocked by shell hook.' });
    // ask counts as failed in Codex; we ask.
    expect(codex(record(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'))).toEqual({ action: 'approve' });
    // updatedInput without allow does nothing, as in Codex.
    expect(codex(record(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"x"}}}'))).toBeNull();
    // Plain text is ignored, even on UserPromptSubmit.
    expect(codex(record(0, 'some context'), 'pre_llm_call')).toBeNull();
    expect(codex(record(0, '{"decision":"block","reason":"Run the tests first."}'), 'pre_verify')).toEqual({
      action: 'continue',
      message: 'Run the tests first.',
    });
  });

  it('Gemini: stderr is parsed when stdout is empty; JSON-encoded JSON; exit codes', () => {
    expect(gemini(record(0, '', '{"decision":"deny","reason":"from stderr"}'))).toEqual({ action: 'block', message: 'from stderr' });
    expect(gemini(record(0, JSON.stringify('{"decision":"block","reason":"twice"}')))).toEqual({ action: 'block', message: 'twice' });
    expect(gemini(record(2, '{"decision":"allow"}', 'nope'))).toEqual({ action: 'block', message: 'nope' });
    expect(gemini(record(1, 'warning text'))).toBeNull();
    expect(gemini(record(0, 'all good'))).toBeNull();
    expect(gemini(record(127, '', 'bash: x: command not found'))).toEqual({ action: 'block', message: 'bash: x: command not found' });
    expect(gemini(record(0, '{"continue":false,"stopReason":"halt"}'))).toEqual({ action: 'block', message: 'halt' });
    expect(gemini(record(0, '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"branch: main"}}'), 'pre_llm_call')).toEqual({
      action: 'context',
      context: 'branch: main',
    });
    expect(gemini(record(0, '{"decision":"deny","reason":"Add a test first."}'), 'pre_verify')).toEqual({ action: 'continue', message: 'Add a test first.' });
    expect(gemini(record(0, '{"decision":"allow"}'), 'pre_verify')).toBeNull();
  });

  it('Cursor: exit 2 blocks; v1.7 camelCase messages; followup_message; additional_context', () => {
    expect(cursor(record(2, '', 'no shell today'))).toEqual({ action: 'block', message: 'no shell today' });
    expect(cursor(record(0, '{"permission":"deny","userMessage":"old style"}'))).toEqual({ action: 'block', message: 'old style' });
    expect(cursor(record(0, '{"permission":"deny"}'))).toEqual({ action: 'block', message: 'Blocked by shell hook.' });
    expect(cursor(record(0, '{"followup_message":"Now update the changelog."}'), 'pre_verify')).toEqual({
      action: 'continue',
      message: 'Now update the changelog.',
    });
    expect(cursor(record(0, '{"continue":true,"additional_context":"Use pnpm."}'), 'pre_llm_call')).toEqual({ action: 'context', context: 'Use pnpm.' });
    expect(cursor(record(1, ''))).toBeNull();
  });
});

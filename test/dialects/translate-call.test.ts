// `run --dialect X` round trips: the exact stdin each agent sends → our event and kwargs → a Decision
// → the exact answer, which is then read back by that agent's rules (evaluateDialectRun models how
// the agent reads a hook's output) to prove the agent does what the Decision says.

import { describe, expect, it } from 'vitest';
import { parseDialectInput, renderDialectAnswer, type DialectAnswer } from '../../src/dialects/translate-call.js';
import { evaluateDialectRun } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS as maps, type AgentDialect } from '../../src/dialects/names.js';
import type { Decision, Directive, EventName } from '../../src/types.js';
import { decision, record, stdinSample } from '../_dialect-fixtures.js';

function parse(dialect: AgentDialect, sample: string) {
  const parsed = parseDialectInput(dialect, maps, stdinSample(sample));
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
}

/** How the agent reads our answer, by its own rules. */
function agentReads(dialect: AgentDialect, event: EventName, toolName: string | null, answer: DialectAnswer): Directive | null {
  return evaluateDialectRun(
    dialect,
    maps,
    { event, command: 'hermes-hooks', fail_closed: false, timeout: 310 },
    toolName,
    record(answer.exitCode, answer.stdout, answer.stderr),
  );
}

const FAIL_CLOSED = 'hook /opt/guard.sh failed closed: timed out after 5s';

describe('Claude Code', () => {
  const pre = parse('claude', 'claude-PreToolUse-Bash');

  it('PreToolUse stdin → pre_tool_call with our tool name, our keys and every other field kept', () => {
    expect(pre).toEqual({
      event: 'pre_tool_call',
      theirEvent: 'PreToolUse',
      kwargs: {
        tool_name: 'terminal',
        args: { command: 'npm test', description: 'Run the test suite', timeout: 120000, background: false },
        session_id: 'abc123',
        prompt_id: 'prm_01H8X2',
        transcript_path: '/home/user/.claude/projects/my-project/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
        cwd: '/home/user/my-project',
        permission_mode: 'default',
        effort: { level: 'high' },
        tool_call_id: 'toolu_01ABC123DEF456',
      },
    });
  });

  it('block → exit 0 with a JSON deny and the reason', () => {
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'block', { message: 'No tests on Fridays' }), 'terminal');
    expect(answer).toEqual({
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No tests on Fridays"}}\n',
      stderr: '',
    });
    expect(agentReads('claude', 'pre_tool_call', 'terminal', answer)).toEqual({ action: 'block', message: 'No tests on Fridays' });
  });

  it('a hook that failed closed is a deny with its message', () => {
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'block', { message: FAIL_CLOSED }), 'terminal');
    expect(JSON.parse(answer.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: FAIL_CLOSED },
    });
    expect(agentReads('claude', 'pre_tool_call', 'terminal', answer)).toEqual({ action: 'block', message: FAIL_CLOSED });
  });

  it('approve → ask (with the rewritten input when there is one)', () => {
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'approve', { message: 'Deploys need a human' }), 'terminal');
    expect(JSON.parse(answer.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'Deploys need a human' },
    });
    expect(answer.exitCode).toBe(0);
    expect(agentReads('claude', 'pre_tool_call', 'terminal', answer)).toEqual({ action: 'approve', message: 'Deploys need a human' });
    const bare = renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'approve', { args: { command: 'ls -l' } }), 'terminal');
    expect(JSON.parse(bare.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'Bash needs approval',
        updatedInput: { command: 'ls -l' },
      },
    });
  });

  it('modify → updatedInput WITHOUT permissionDecision: the FULL merged input, in Claude keys, no allow (issue 15 #10)', () => {
    const edit = parse('claude', 'claude-PreToolUse-Edit');
    expect(edit.kwargs['tool_name']).toBe('patch');
    const merged = { ...(edit.kwargs['args'] as object), new_string: 'const port = 8080;' };
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'allow', { args: merged, modified_by: [0] }), 'patch');
    expect(JSON.parse(answer.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { file_path: '/home/user/my-project/src/app.ts', old_string: 'const port = 3000;', new_string: 'const port = 8080;', replace_all: false },
      },
    });
    expect(agentReads('claude', 'pre_tool_call', 'patch', answer)).toEqual({ action: 'modify', args: merged });
  });

  it('allow → exit 0, nothing printed', () => {
    expect(renderDialectAnswer('claude', maps, 'PreToolUse', decision('pre_tool_call', 'allow'), 'terminal')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('UserPromptSubmit: prompt → user_message; context → additionalContext', () => {
    const p = parse('claude', 'claude-UserPromptSubmit');
    expect(p.event).toBe('pre_llm_call');
    expect(p.kwargs).toMatchObject({ session_id: 'abc123', user_message: 'Write a function to calculate the factorial of a number' });
    expect(p.kwargs).not.toHaveProperty('prompt');
    const answer = renderDialectAnswer('claude', maps, 'UserPromptSubmit', decision('pre_llm_call', 'allow', { context: 'Use BigInt for large n.' }), null);
    expect(answer).toEqual({
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Use BigInt for large n."}}\n',
      stderr: '',
    });
    expect(agentReads('claude', 'pre_llm_call', null, answer)).toEqual({ action: 'context', context: 'Use BigInt for large n.' });
  });

  it('Stop: pre_verify continue → decision:block + reason', () => {
    const p = parse('claude', 'claude-Stop');
    expect(p).toMatchObject({ event: 'pre_verify', kwargs: { session_id: 'abc123', stop_hook_active: false, attempt: 1 } });
    const answer = renderDialectAnswer('claude', maps, 'Stop', decision('pre_verify', 'continue', { message: 'Run the tests.' }), null);
    expect(answer).toEqual({ exitCode: 0, stdout: '{"decision":"block","reason":"Run the tests."}\n', stderr: '' });
    expect(agentReads('claude', 'pre_verify', null, answer)).toEqual({ action: 'continue', message: 'Run the tests.' });
  });

  it('PostToolUse: tool_response becomes the JSON-string result, status ok', () => {
    expect(parse('claude', 'claude-PostToolUse-Write').kwargs).toMatchObject({
      tool_name: 'write_file',
      args: { path: '/home/user/my-project/README.md', content: '# Project\n' },
      result: '{"filePath":"/home/user/my-project/README.md","success":true}',
      status: 'ok',
      tool_call_id: 'toolu_01WRITE',
    });
  });

  it('PostToolUseFailure: the error becomes error_message, status error', () => {
    const failed = parseDialectInput('claude', maps, {
      session_id: 's',
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command: 'false' },
      tool_use_id: 'toolu_1',
      error: 'Command exited with non-zero status code 1',
    });
    expect(failed).toEqual({
      event: 'post_tool_call',
      theirEvent: 'PostToolUseFailure',
      kwargs: {
        tool_name: 'terminal',
        args: { command: 'false' },
        session_id: 's',
        tool_call_id: 'toolu_1',
        error_message: 'Command exited with non-zero status code 1',
        status: 'error',
      },
    });
  });
});

describe('Codex', () => {
  it('PreToolUse stdin → pre_tool_call; turn_id and model kept', () => {
    expect(parse('codex', 'codex-PreToolUse')).toEqual({
      event: 'pre_tool_call',
      theirEvent: 'PreToolUse',
      kwargs: {
        tool_name: 'terminal',
        args: { command: 'pip install requests' },
        session_id: '019a6b1c-7d2e-7f10-9c1a-2b3c4d5e6f70',
        turn_id: '019a6b1c-8e3f-7a21-8d2b-3c4d5e6f7081',
        transcript_path: null,
        cwd: '/home/user/my-project',
        model: 'gpt-5-codex',
        permission_mode: 'default',
        tool_call_id: 'call_9f8e7d6c5b4a',
      },
    });
  });

  it('block → exit 2 with the reason on stderr (and a failed-closed hook the same way)', () => {
    for (const message of ['pip is disabled here', FAIL_CLOSED]) {
      const answer = renderDialectAnswer('codex', maps, 'PreToolUse', decision('pre_tool_call', 'block', { message }), 'terminal');
      expect(answer).toEqual({ exitCode: 2, stdout: '', stderr: `${message}\n` });
      expect(agentReads('codex', 'pre_tool_call', 'terminal', answer)).toEqual({ action: 'block', message });
    }
  });

  it('approve → a block saying approval was required (Codex cannot ask)', () => {
    const answer = renderDialectAnswer('codex', maps, 'PreToolUse', decision('pre_tool_call', 'approve', { message: 'Installs need review' }), 'terminal');
    expect(answer).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'Installs need review (Codex hooks cannot ask for approval, so hermes-hooks blocks the call)\n',
    });
    expect(agentReads('codex', 'pre_tool_call', 'terminal', answer)?.action).toBe('block');
  });

  it('modify → allow + updatedInput (Codex fails a hook that sends either alone; its allow grants nothing)', () => {
    const answer = renderDialectAnswer(
      'codex',
      maps,
      'PreToolUse',
      decision('pre_tool_call', 'allow', { args: { command: 'pip install --user requests' } }),
      'terminal',
    );
    expect(answer).toEqual({
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"pip install --user requests"}}}\n',
      stderr: '',
    });
    expect(agentReads('codex', 'pre_tool_call', 'terminal', answer)).toEqual({ action: 'modify', args: { command: 'pip install --user requests' } });
    expect(renderDialectAnswer('codex', maps, 'PreToolUse', decision('pre_tool_call', 'allow'), 'terminal')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('UserPromptSubmit context and Stop continue', () => {
    expect(parse('codex', 'codex-UserPromptSubmit').kwargs).toMatchObject({
      user_message: 'fix the failing test in utils',
      turn_id: '019a6b1c-8e3f-7a21-8d2b-3c4d5e6f7081',
    });
    const ctx = renderDialectAnswer('codex', maps, 'UserPromptSubmit', decision('pre_llm_call', 'allow', { context: 'utils lives in src/utils.ts' }), null);
    expect(JSON.parse(ctx.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'utils lives in src/utils.ts' } });
    expect(agentReads('codex', 'pre_llm_call', null, ctx)).toEqual({ action: 'context', context: 'utils lives in src/utils.ts' });

    expect(parse('codex', 'codex-Stop').kwargs).toMatchObject({ final_response: 'I fixed the test.', attempt: 1 });
    const stop = renderDialectAnswer('codex', maps, 'Stop', decision('pre_verify', 'continue', { message: 'Also run the linter.' }), null);
    expect(stop.stdout).toBe('{"decision":"block","reason":"Also run the linter."}\n');
    expect(agentReads('codex', 'pre_verify', null, stop)).toEqual({ action: 'continue', message: 'Also run the linter.' });
  });
});

describe('Gemini CLI', () => {
  it('BeforeTool stdin → pre_tool_call with our tool and keys', () => {
    expect(parse('gemini', 'gemini-BeforeTool')).toEqual({
      event: 'pre_tool_call',
      theirEvent: 'BeforeTool',
      kwargs: {
        tool_name: 'write_file',
        args: { path: 'docs/notes.md', content: '# Notes' },
        session_id: '8f3c2a1e-4b5d-4c6e-9f70-1a2b3c4d5e6f',
        transcript_path: '/home/user/.gemini/tmp/4f1e2d3c/chats/session-2026-08-21T10-00-8f3c2a1e.json',
        cwd: '/home/user/my-project',
        timestamp: '2026-08-21T10:04:12.345Z',
      },
    });
  });

  it('block → decision:deny; fail-closed the same; approve → ask; modify → tool_input in Gemini keys and no decision', () => {
    const deny = renderDialectAnswer('gemini', maps, 'BeforeTool', decision('pre_tool_call', 'block', { message: 'docs are frozen' }), 'write_file');
    expect(deny).toEqual({ exitCode: 0, stdout: '{"decision":"deny","reason":"docs are frozen"}\n', stderr: '' });
    expect(agentReads('gemini', 'pre_tool_call', 'write_file', deny)).toEqual({ action: 'block', message: 'docs are frozen' });

    const fcDeny = renderDialectAnswer('gemini', maps, 'BeforeTool', decision('pre_tool_call', 'block', { message: FAIL_CLOSED }), 'write_file');
    expect(agentReads('gemini', 'pre_tool_call', 'write_file', fcDeny)).toEqual({ action: 'block', message: FAIL_CLOSED });

    const ask = renderDialectAnswer('gemini', maps, 'BeforeTool', decision('pre_tool_call', 'approve', { message: 'Confirm the write' }), 'write_file');
    expect(ask.stdout).toBe('{"decision":"ask","reason":"Confirm the write"}\n');
    expect(agentReads('gemini', 'pre_tool_call', 'write_file', ask)).toEqual({ action: 'approve', message: 'Confirm the write' });

    const args = { path: 'docs/notes.md', content: '# Notes\n' };
    const modify = renderDialectAnswer('gemini', maps, 'BeforeTool', decision('pre_tool_call', 'allow', { args }), 'write_file');
    // The rewrite alone: no decision, so nothing is allowed that Gemini would not allow itself.
    expect(JSON.parse(modify.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { file_path: 'docs/notes.md', content: '# Notes\n' } },
    });
    expect(agentReads('gemini', 'pre_tool_call', 'write_file', modify)).toEqual({ action: 'modify', args });

    expect(renderDialectAnswer('gemini', maps, 'BeforeTool', decision('pre_tool_call', 'allow'), 'write_file')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('BeforeAgent context → additionalContext; AfterAgent continue → deny + reason', () => {
    expect(parse('gemini', 'gemini-BeforeAgent')).toMatchObject({ event: 'pre_llm_call', kwargs: { user_message: 'Add a changelog entry for the release' } });
    const ctx = renderDialectAnswer('gemini', maps, 'BeforeAgent', decision('pre_llm_call', 'allow', { context: 'CHANGELOG.md uses Keep a Changelog.' }), null);
    expect(JSON.parse(ctx.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'CHANGELOG.md uses Keep a Changelog.' } });
    expect(agentReads('gemini', 'pre_llm_call', null, ctx)).toEqual({ action: 'context', context: 'CHANGELOG.md uses Keep a Changelog.' });

    expect(parse('gemini', 'gemini-AfterAgent')).toMatchObject({
      event: 'pre_verify',
      kwargs: { final_response: 'I added the entry under 1.4.0.', attempt: 1 },
    });
    const retry = renderDialectAnswer('gemini', maps, 'AfterAgent', decision('pre_verify', 'continue', { message: 'Link the PR in the entry.' }), null);
    expect(retry.stdout).toBe('{"decision":"deny","reason":"Link the PR in the entry."}\n');
    expect(agentReads('gemini', 'pre_verify', null, retry)).toEqual({ action: 'continue', message: 'Link the PR in the entry.' });
  });
});

describe('Cursor', () => {
  it('beforeShellExecution stdin → a terminal call; conversation_id is the session, generation_id the turn', () => {
    expect(parse('cursor', 'cursor-beforeShellExecution')).toEqual({
      event: 'pre_tool_call',
      theirEvent: 'beforeShellExecution',
      kwargs: {
        tool_name: 'terminal',
        args: { command: 'npm publish --access public', workdir: '/home/user/my-project/packages/lib' },
        session_id: 'c0ffee00-1234-4abc-9def-000000000001',
        model: 'claude-sonnet-4',
        cursor_version: '2.3.14',
        workspace_roots: ['/home/user/my-project'],
        user_email: 'dev@example.com',
        turn_id: 'g3n-0001',
      },
    });
  });

  it('block → permission deny with user_message and agent_message; fail-closed the same; approve → ask; allow is explicit', () => {
    const deny = renderDialectAnswer(
      'cursor',
      maps,
      'beforeShellExecution',
      decision('pre_tool_call', 'block', { message: 'No publishing from agents' }),
      'terminal',
    );
    expect(deny).toEqual({
      exitCode: 0,
      stdout: '{"permission":"deny","user_message":"No publishing from agents","agent_message":"No publishing from agents"}\n',
      stderr: '',
    });
    expect(agentReads('cursor', 'pre_tool_call', 'terminal', deny)).toEqual({ action: 'block', message: 'No publishing from agents' });

    const fcDeny = renderDialectAnswer('cursor', maps, 'beforeShellExecution', decision('pre_tool_call', 'block', { message: FAIL_CLOSED }), 'terminal');
    expect(agentReads('cursor', 'pre_tool_call', 'terminal', fcDeny)).toEqual({ action: 'block', message: FAIL_CLOSED });

    const ask = renderDialectAnswer('cursor', maps, 'beforeShellExecution', decision('pre_tool_call', 'approve', { message: 'Publish now?' }), 'terminal');
    expect(ask.stdout).toBe('{"permission":"ask","user_message":"Publish now?","agent_message":"Publish now?"}\n');
    expect(agentReads('cursor', 'pre_tool_call', 'terminal', ask)).toEqual({ action: 'approve', message: 'Publish now?' });

    expect(renderDialectAnswer('cursor', maps, 'beforeShellExecution', decision('pre_tool_call', 'allow'), 'terminal')).toEqual({
      exitCode: 0,
      stdout: '{"permission":"allow"}\n',
      stderr: '',
    });
  });

  it('modify → updated_input on preToolUse; on beforeShellExecution (no rewrites) → deny naming the command to run', () => {
    const p = parse('cursor', 'cursor-preToolUse');
    expect(p.kwargs).toMatchObject({ tool_name: 'write_file', args: { path: 'notes/todo.md', content: '- ship it\n' } });
    const args = { path: 'sandbox/notes/todo.md', content: '- ship it\n' };
    const answer = renderDialectAnswer('cursor', maps, 'preToolUse', decision('pre_tool_call', 'allow', { args }), 'write_file');
    expect(JSON.parse(answer.stdout)).toEqual({ permission: 'allow', updated_input: { file_path: 'sandbox/notes/todo.md', content: '- ship it\n' } });
    expect(agentReads('cursor', 'pre_tool_call', 'write_file', answer)).toEqual({ action: 'modify', args });

    const shell = renderDialectAnswer(
      'cursor',
      maps,
      'beforeShellExecution',
      decision('pre_tool_call', 'allow', { args: { command: 'npm publish --dry-run' } }),
      'terminal',
    );
    const message = "hermes-hooks rewrote this call, but Cursor's beforeShellExecution cannot apply rewrites; run it as: npm publish --dry-run";
    expect(JSON.parse(shell.stdout)).toEqual({ permission: 'deny', user_message: message, agent_message: message });
  });

  it('beforeSubmitPrompt context → continue + additional_context; stop continue → followup_message', () => {
    const p = parse('cursor', 'cursor-beforeSubmitPrompt');
    expect(p).toMatchObject({
      event: 'pre_llm_call',
      kwargs: { user_message: 'refactor the auth module', session_id: 'c0ffee00-1234-4abc-9def-000000000001' },
    });
    const ctx = renderDialectAnswer('cursor', maps, 'beforeSubmitPrompt', decision('pre_llm_call', 'allow', { context: 'auth lives in src/auth' }), null);
    expect(ctx.stdout).toBe('{"continue":true,"additional_context":"auth lives in src/auth"}\n');
    expect(agentReads('cursor', 'pre_llm_call', null, ctx)).toEqual({ action: 'context', context: 'auth lives in src/auth' });
    expect(renderDialectAnswer('cursor', maps, 'beforeSubmitPrompt', decision('pre_llm_call', 'allow'), null).stdout).toBe('{"continue":true}\n');

    expect(parse('cursor', 'cursor-stop')).toMatchObject({ event: 'pre_verify', kwargs: { status: 'completed', attempt: 1 } });
    const stop = renderDialectAnswer('cursor', maps, 'stop', decision('pre_verify', 'continue', { message: 'Write the migration too.' }), null);
    expect(stop).toEqual({ exitCode: 0, stdout: '{"followup_message":"Write the migration too."}\n', stderr: '' });
    expect(agentReads('cursor', 'pre_verify', null, stop)).toEqual({ action: 'continue', message: 'Write the migration too.' });
  });
});

describe('parseDialectInput errors', () => {
  it('rejects what is not one of the agent events, saying why', () => {
    expect(parseDialectInput('claude', maps, [1, 2])).toEqual({ error: 'claude hook input must be one JSON object' });
    expect(parseDialectInput('claude', maps, {})).toEqual({ error: 'claude hook input has no hook_event_name' });
    expect(parseDialectInput('claude', maps, { hook_event_name: 'Notification' })).toEqual({
      error:
        "claude event 'Notification' has no Hermes counterpart (mapped: PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SessionStart, SessionEnd, SubagentStart, SubagentStop)",
    });
    expect(parseDialectInput('claude', maps, { hook_event_name: 'Stop' }, { event: 'PreToolUse' })).toEqual({
      error: "stdin is a 'Stop' event but the command line says 'PreToolUse'",
    });
    expect(parseDialectInput('gemini', maps, { session_id: 's' }, { event: 'SessionStart' })).toEqual({
      event: 'on_session_start',
      theirEvent: 'SessionStart',
      kwargs: { session_id: 's' },
    });
  });

  it('a decision on an event with nothing to say is an empty exit 0 for every agent', () => {
    const d: Decision = decision('on_session_end', 'allow');
    for (const dialect of ['claude', 'codex', 'gemini', 'cursor'] as const) {
      expect(renderDialectAnswer(dialect, maps, 'SessionEnd', d, null)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    }
  });
});

// Issue 15 item 10: a Hermes `modify` changes arguments and approves nothing; `approve` asks the
// user. Every agent's answer to every pre_tool_call Decision is checked for a grant it did not get.
describe('no answer grants more than the hooks said', () => {
  const REWRITE = { command: 'touch /tmp/outside-the-project' };
  const TOOL_EVENT: Record<AgentDialect, string> = {
    claude: 'PreToolUse',
    codex: 'PreToolUse',
    gemini: 'BeforeTool',
    cursor: 'preToolUse',
    goose: 'PreToolUse',
    antigravity: 'PreToolUse',
    copilot: 'preToolUse',
    qwen: 'PreToolUse',
    droid: 'PreToolUse',
  };
  const answers = (dialect: AgentDialect) => ({
    modify: renderDialectAnswer(dialect, maps, TOOL_EVENT[dialect], decision('pre_tool_call', 'allow', { args: REWRITE, modified_by: [0] }), 'terminal'),
    approve: renderDialectAnswer(
      dialect,
      maps,
      TOOL_EVENT[dialect],
      decision('pre_tool_call', 'approve', { message: 'Check this', args: REWRITE }),
      'terminal',
    ),
  });

  it('Claude: a rewrite is updatedInput with no permissionDecision; approve is ask with the rewrite shown', () => {
    const { modify, approve } = answers('claude');
    expect(modify).toEqual({
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch /tmp/outside-the-project"}}}\n',
      stderr: '',
    });
    expect(JSON.parse(approve.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'Check this', updatedInput: REWRITE },
    });
  });

  it('Codex: a rewrite is allow + updatedInput (its only accepted form, no permission in it); approve blocks', () => {
    const { modify, approve } = answers('codex');
    expect(modify.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch /tmp/outside-the-project"}}}\n',
    );
    expect(approve).toEqual({ exitCode: 2, stdout: '', stderr: 'Check this (Codex hooks cannot ask for approval, so hermes-hooks blocks the call)\n' });
  });

  it('Gemini: a rewrite carries no decision; approve is ask with the rewrite', () => {
    const { modify, approve } = answers('gemini');
    expect(modify.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"touch /tmp/outside-the-project"}}}\n');
    expect(JSON.parse(approve.stdout)).toEqual({
      decision: 'ask',
      reason: 'Check this',
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: REWRITE },
    });
  });

  it('Cursor: approve is ask with the rewrite; a rewrite is allow + updated_input (Cursor has no neutral answer)', () => {
    const { modify, approve } = answers('cursor');
    expect(JSON.parse(modify.stdout)).toEqual({ permission: 'allow', updated_input: REWRITE });
    expect(JSON.parse(approve.stdout)).toEqual({ permission: 'ask', user_message: 'Check this', agent_message: 'Check this', updated_input: REWRITE });
  });

  it('Copilot: a rewrite is modifiedArgs with no permissionDecision (1.0.102 applies it alone); approve is ask with the rewrite', () => {
    const { modify, approve } = answers('copilot');
    expect(JSON.parse(modify.stdout)).toEqual({ modifiedArgs: REWRITE });
    expect(JSON.parse(approve.stdout)).toEqual({ permissionDecision: 'ask', permissionDecisionReason: 'Check this', modifiedArgs: REWRITE });
  });

  it('no Decision but an explicit approve ever reaches an agent as ask, and none as a Claude or Gemini allow', () => {
    for (const dialect of ['claude', 'codex', 'gemini', 'cursor'] as const) {
      for (const action of ['allow', 'approve', 'block'] as const) {
        for (const args of [null, REWRITE]) {
          const a = renderDialectAnswer(dialect, maps, TOOL_EVENT[dialect], decision('pre_tool_call', action, { args }), 'terminal');
          const out = a.stdout ? (JSON.parse(a.stdout) as Record<string, Record<string, unknown> | unknown>) : {};
          const hso = (out['hookSpecificOutput'] ?? {}) as Record<string, unknown>;
          const label = `${dialect} ${action} ${args ? 'with' : 'without'} args`;
          expect(hso['permissionDecision'] === 'allow' && dialect === 'claude', label).toBe(false);
          expect(out['decision'] === 'allow' || out['decision'] === 'approve', label).toBe(false);
          const asks = hso['permissionDecision'] === 'ask' || out['decision'] === 'ask' || out['permission'] === 'ask';
          expect(asks, label).toBe(action === 'approve' && dialect !== 'codex');
        }
      }
    }
  });
});

describe('reading updatedInput without a decision', () => {
  const out = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -l"}}}';
  it('Claude applies it (and keeps its own permission check): a modify', () => {
    expect(agentReads('claude', 'pre_tool_call', 'terminal', { exitCode: 0, stdout: out, stderr: '' })).toEqual({
      action: 'modify',
      args: { command: 'ls -l' },
    });
  });
  it('Codex fails a hook that sends it without allow: nothing', () => {
    expect(agentReads('codex', 'pre_tool_call', 'terminal', { exitCode: 0, stdout: out, stderr: '' })).toBeNull();
  });
});

describe('a notice where the agent documents no field to show it', () => {
  it.each(['copilot', 'goose', 'antigravity'] as const)('%s: the answer is unchanged and the notice is on stderr', (dialect) => {
    const notice = 'hermes-hooks: hook /h/guard.sh could not start: command not executable';
    const plain = renderDialectAnswer(dialect, maps, 'PreToolUse', decision('pre_tool_call', 'allow'), 'terminal');
    const told = renderDialectAnswer(dialect, maps, 'PreToolUse', decision('pre_tool_call', 'allow'), 'terminal', notice);
    expect(told).toEqual({ ...plain, stderr: `${plain.stderr}${notice}\n` });
  });
});

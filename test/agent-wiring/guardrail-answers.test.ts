// Guardrails in each agent's language (issue 23): a loop warning on the tool gate (Decision.context)
// is the agent's additional context where it reads one; a hard stop (stop_turn) ends the turn where
// the agent can, and is a block everywhere — proven by reading each answer back by the agent's rules.

import { describe, expect, it } from 'vitest';
import { renderDialectAnswer, type DialectAnswer } from '../../src/dialects/translate-call.js';
import { evaluateDialectRun } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS as maps, type AgentDialect } from '../../src/dialects/names.js';
import type { Directive, EventName } from '../../src/types.js';
import { decision, record } from '../_dialect-fixtures.js';

const WARN = 'terminal failed 3 times with the same arguments; change the approach.';
const STOP = 'Stopped: terminal failed 5 times with the same arguments. End this turn.';

function agentReads(dialect: AgentDialect, event: EventName, answer: DialectAnswer): Directive | null {
  return evaluateDialectRun(
    dialect,
    maps,
    { event, command: 'hermes-hooks', fail_closed: false, timeout: 310 },
    'terminal',
    record(answer.exitCode, answer.stdout, answer.stderr),
  );
}

const warned = decision('pre_tool_call', 'allow', { context: WARN });
const stopped = decision('pre_tool_call', 'block', { message: STOP, stop_turn: true });

describe('a loop warning on the tool gate', () => {
  it('Claude: PreToolUse additionalContext, no permission decision', () => {
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', warned, 'terminal');
    expect(answer).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: WARN } })}\n`,
      stderr: '',
    });
    expect(agentReads('claude', 'pre_tool_call', answer)).toEqual({ action: 'context', context: WARN });
  });

  it('Claude: beside a rewrite and beside an ask', () => {
    const rewrite = renderDialectAnswer('claude', maps, 'PreToolUse', { ...warned, args: { command: 'ls' } }, 'terminal');
    expect(JSON.parse(rewrite.stdout).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', updatedInput: { command: 'ls' }, additionalContext: WARN });
    const ask = renderDialectAnswer('claude', maps, 'PreToolUse', { ...warned, action: 'approve', message: 'sure?' }, 'terminal');
    expect(JSON.parse(ask.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'sure?',
      additionalContext: WARN,
    });
  });

  it('Codex: PreToolUse additionalContext on exit 0 (with allow only when it rewrites)', () => {
    const answer = renderDialectAnswer('codex', maps, 'PreToolUse', warned, 'terminal');
    expect(answer).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: WARN } })}\n`,
      stderr: '',
    });
    expect(JSON.parse(answer.stdout)).not.toHaveProperty('continue');
    expect(agentReads('codex', 'pre_tool_call', answer)).toEqual({ action: 'context', context: WARN });
    const rewrite = renderDialectAnswer('codex', maps, 'PreToolUse', { ...warned, args: { command: 'ls' } }, 'terminal');
    expect(JSON.parse(rewrite.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: 'ls' },
      additionalContext: WARN,
    });
  });

  it('PostToolUse context is additionalContext for Claude and Codex, Gemini AfterTool too', () => {
    const post = decision('post_tool_call', 'allow', { context: WARN });
    for (const [dialect, event] of [
      ['claude', 'PostToolUse'],
      ['claude', 'PostToolUseFailure'],
      ['codex', 'PostToolUse'],
      ['gemini', 'AfterTool'],
    ] as const) {
      const answer = renderDialectAnswer(dialect, maps, event, post, 'terminal');
      expect(JSON.parse(answer.stdout), `${dialect} ${event}`).toEqual({ hookSpecificOutput: { hookEventName: event, additionalContext: WARN } });
    }
  });

  it('Gemini BeforeTool: nothing (Gemini drops BeforeTool context); Cursor: its plain allow', () => {
    expect(renderDialectAnswer('gemini', maps, 'BeforeTool', warned, 'terminal')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(JSON.parse(renderDialectAnswer('cursor', maps, 'preToolUse', warned, 'terminal').stdout)).toEqual({ permission: 'allow' });
  });
});

describe('a hard stop on the tool gate', () => {
  it('Claude: deny + continue:false + stopReason', () => {
    const answer = renderDialectAnswer('claude', maps, 'PreToolUse', stopped, 'terminal');
    expect(answer.exitCode).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({
      continue: false,
      stopReason: STOP,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: STOP },
    });
    expect(agentReads('claude', 'pre_tool_call', answer)).toEqual({ action: 'block', message: STOP });
  });

  it('Codex: a plain block (exit 2 + a non-empty reason), never continue/stopReason on PreToolUse', () => {
    const answer = renderDialectAnswer('codex', maps, 'PreToolUse', stopped, 'terminal');
    expect(answer).toEqual({ exitCode: 2, stdout: '', stderr: `${STOP}\n` });
    expect(agentReads('codex', 'pre_tool_call', answer)).toEqual({ action: 'block', message: STOP });
    const noMessage = renderDialectAnswer('codex', maps, 'PreToolUse', { ...stopped, message: null }, 'terminal');
    expect(noMessage.stderr.trim()).not.toBe('');
  });

  it('Gemini BeforeTool: deny + continue:false + stopReason', () => {
    const answer = renderDialectAnswer('gemini', maps, 'BeforeTool', stopped, 'terminal');
    expect(JSON.parse(answer.stdout)).toEqual({ decision: 'deny', reason: STOP, continue: false, stopReason: STOP });
    expect(agentReads('gemini', 'pre_tool_call', answer)).toEqual({ action: 'block', message: STOP });
  });

  it('Cursor: deny only (nothing else confirmed)', () => {
    const answer = renderDialectAnswer('cursor', maps, 'preToolUse', stopped, 'terminal');
    expect(JSON.parse(answer.stdout)).toEqual({ permission: 'deny', user_message: STOP, agent_message: STOP });
  });

  it('a block without stop_turn ends no turn', () => {
    const plain = decision('pre_tool_call', 'block', { message: 'no' });
    expect(JSON.parse(renderDialectAnswer('claude', maps, 'PreToolUse', plain, 'terminal').stdout)).not.toHaveProperty('continue');
    expect(JSON.parse(renderDialectAnswer('gemini', maps, 'BeforeTool', plain, 'terminal').stdout)).not.toHaveProperty('continue');
  });
});

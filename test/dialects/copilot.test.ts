// Copilot CLI's hook rules as its record reads them (tried against 1.0.102): a Copilot-dialect hook run
// by Hermes is judged the way Copilot judges it — top-level permissionDecision, modifiedArgs, exit 1
// and 2 on preToolUse block, unparsable stdout and other events' failures let the call run.

import { describe, expect, it } from 'vitest';
import { evaluateDialectRun } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS } from '../../src/dialects/names.js';
import { parseDialectInput } from '../../src/dialects/translate-call.js';
import type { EventName } from '../../src/events.js';
import type { RunRecord } from '../../src/types.js';

const maps = DEFAULT_DIALECT_MAPS;
const ran = (exit: number, stdout: string, stderr = ''): RunRecord => ({
  status: exit === 0 ? 'ok' : 'nonzero_exit',
  exit_code: exit,
  signal: null,
  stdout,
  stderr,
  error: null,
  duration_ms: 1,
});
const judge = (run: RunRecord, event: EventName = 'pre_tool_call', tool: string | null = 'terminal') =>
  evaluateDialectRun('copilot', maps, { event, command: 'guard.sh', fail_closed: false, timeout: 30 }, tool, run);

describe('a copilot-dialect hook, read as Copilot reads it', () => {
  it('permissionDecision deny blocks with its reason; ask approves; modifiedArgs modifies in our keys', () => {
    expect(judge(ran(0, '{"permissionDecision":"deny","permissionDecisionReason":"no"}'))).toEqual({ action: 'block', message: 'no' });
    expect(judge(ran(0, '{"permissionDecision":"ask","permissionDecisionReason":"sure?"}'))).toEqual({ action: 'approve', message: 'sure?' });
    expect(judge(ran(0, '{"modifiedArgs":{"path":"/a","file_text":"x"}}'), 'pre_tool_call', 'write_file')).toEqual({
      action: 'modify',
      args: { path: '/a', content: 'x' },
    });
  });

  it("Claude's hookSpecificOutput is not Copilot's answer: nothing is decided", () => {
    expect(judge(ran(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'))).toBeNull();
  });

  it('exit 1 and exit 2 on preToolUse block (stderr kept as the reason); elsewhere a failure decides nothing', () => {
    expect(judge(ran(1, '', 'policy down'))).toEqual({ action: 'block', message: 'policy down' });
    expect(judge(ran(2, ''))).toEqual({ action: 'block', message: 'the hook exited 2' });
    expect(judge(ran(1, '', 'oops'), 'post_tool_call')).toBeNull();
  });

  it('unparsable stdout lets the call run (Copilot fails open on it)', () => {
    expect(judge(ran(0, 'not json'))).toBeNull();
  });

  it('agentStop decision block continues with the reason', () => {
    expect(judge(ran(0, '{"decision":"block","reason":"run the tests"}'), 'pre_verify', null)).toEqual({ action: 'continue', message: 'run the tests' });
  });
});

describe('its stdin, as 1.0.102 sent it', () => {
  it('preToolUse: toolName bash → terminal, toolArgs → args, sessionId → session_id; the event from the command line', () => {
    const stdin = { sessionId: 's-1', timestamp: 1796564494529, cwd: '/p', toolName: 'bash', toolArgs: { command: 'ls', description: 'list' } };
    const parsed = parseDialectInput('copilot', maps, stdin, { event: 'preToolUse' });
    expect(parsed).toMatchObject({
      event: 'pre_tool_call',
      kwargs: { tool_name: 'terminal', args: { command: 'ls', description: 'list' }, session_id: 's-1' },
    });
  });

  it('postToolUse: toolResult.textResultForLlm is the result', () => {
    const stdin = {
      sessionId: 's-1',
      timestamp: 1,
      cwd: '/p',
      toolName: 'view',
      toolArgs: { path: '/a' },
      toolResult: { resultType: 'success', textResultForLlm: 'text' },
    };
    const parsed = parseDialectInput('copilot', maps, stdin, { event: 'postToolUse' });
    expect(parsed).toMatchObject({ event: 'post_tool_call', kwargs: { tool_name: 'read_file', args: { path: '/a' }, result: 'text', status: 'ok' } });
  });
});

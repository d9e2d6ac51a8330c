// Another agent's hooks where Hermes' are expected (issue 20 item 1): the agent is named from the
// dialect name maps, with the Hermes event, the dialect and the exact import command.

import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { DEFAULT_DIALECT_MAPS } from '../../src/dialects/names.js';
import { agentEventName, foreignHooksMessage, foreignInputMessage, recogniseAgentHooks, recogniseAgentInput } from '../../src/dialects/recognise.js';

const maps = DEFAULT_DIALECT_MAPS;
function keys(yaml: string) {
  const root = parseDocument(yaml, { version: '1.1' }).toJS({ mapAsMap: true }) as Map<unknown, unknown>;
  return recogniseAgentHooks(root.get('hooks') as Map<unknown, unknown>, root, maps);
}

describe('recogniseAgentHooks', () => {
  it("Claude Code's block: matcher groups with nested hooks lists", () => {
    expect(
      keys(
        'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: /g.sh\n  Stop:\n    - hooks: [{type: command, command: /s.sh}]\n  pre_tool_call:\n    - command: /ok.sh\n',
      ),
    ).toEqual([
      { key: 'PreToolUse', agent: 'claude', event: 'pre_tool_call', shape: 'groups', maybeCodex: true },
      { key: 'Stop', agent: 'claude', event: 'pre_verify', shape: 'groups', maybeCodex: true },
    ]);
  });

  it("Gemini CLI's names, Cursor's versioned flat file, and an event with no Hermes counterpart", () => {
    expect(
      keys(
        'hooks:\n  BeforeTool:\n    - matcher: run_shell_command\n      hooks: [{type: command, command: /g.sh}]\n  SessionStart:\n    - hooks: [{type: command, command: /s.sh}]\n',
      ),
    ).toEqual([
      { key: 'BeforeTool', agent: 'gemini', event: 'pre_tool_call', shape: 'groups', maybeCodex: false },
      { key: 'SessionStart', agent: 'gemini', event: 'on_session_start', shape: 'groups', maybeCodex: false },
    ]);
    expect(keys('version: 1\nhooks:\n  beforeShellExecution:\n    - command: /g.sh\n  stop:\n    - command: /s.sh\n')).toEqual([
      { key: 'beforeShellExecution', agent: 'cursor', event: 'pre_tool_call', shape: 'flat', maybeCodex: false },
      { key: 'stop', agent: 'cursor', event: 'pre_verify', shape: 'flat', maybeCodex: false },
    ]);
    expect(keys('hooks:\n  Notification:\n    - matcher: ""\n      hooks: [{type: command, command: /n.sh}]\n')).toEqual([
      { key: 'Notification', agent: 'claude', event: null, shape: 'groups', maybeCodex: false },
    ]);
  });

  it("Copilot CLI's versioned file: its bash entries name it, though Cursor knows preToolUse too; its stdin is told by its keys", () => {
    expect(keys('version: 1\nhooks:\n  preToolUse:\n    - type: command\n      bash: /g.sh\n      timeoutSec: 30\n')).toEqual([
      { key: 'preToolUse', agent: 'copilot', event: 'pre_tool_call', shape: 'flat', maybeCodex: false },
    ]);
    expect(keys('version: 1\nhooks:\n  preToolUse:\n    - command: /g.sh\n')[0]?.agent).toBe('cursor');
    const stdin = { sessionId: 's', timestamp: 1796564494529, cwd: '/r', toolName: 'bash', toolArgs: { command: 'ls' } };
    expect(recogniseAgentInput(stdin, maps)).toMatchObject({ agent: 'copilot', theirEvent: null });
  });

  it("a typo of a Hermes event is not another agent's (it keeps its did-you-mean)", () => {
    expect(keys('hooks:\n  pretoolcall:\n    - command: /g.sh\n  outbound: []\n')).toEqual([]);
  });

  it('the message names the agent, the Hermes event with its dialect, and the exact import command', () => {
    const [claude] = keys('hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: [{type: command, command: /g.sh}]\n');
    expect(foreignHooksMessage(claude!, '/home/me/.hermes/config.yaml')).toBe(
      "'PreToolUse' is Claude Code's hooks format (matcher groups with nested hooks: lists), which Hermes does not read, so none of its hooks run " +
        "(each tool call they would have checked is blocked until then) — did you mean 'pre_tool_call' with 'dialect: claude'? " +
        'Convert it with: hermes-hooks import /home/me/.hermes/config.yaml --dialect claude --write (a backup is kept; without --write it only prints the result; a Codex block: --dialect codex; ' +
        'a Qwen Code block: --dialect qwen; a Factory Droid block: --dialect droid)',
    );
    const [flat] = keys('hooks:\n  PreToolUse:\n    - command: /g.sh\n');
    expect(foreignHooksMessage(flat!, '/my home/config.yaml')).toMatch(
      /^unknown hook event 'PreToolUse': it is Claude Code's name — did you mean 'pre_tool_call' with 'dialect: claude'\? As written none of its hooks run; rename the key and add dialect: claude to each entry, or convert it with: hermes-hooks import '\/my home\/config.yaml' --dialect claude --write/,
    );
  });

  it('agentEventName maps their name to ours', () => {
    expect(agentEventName('PreToolUse', maps)).toEqual({ agent: 'claude', event: 'pre_tool_call' });
    expect(agentEventName('BeforeTool', maps)).toEqual({ agent: 'gemini', event: 'pre_tool_call' });
    expect(agentEventName('beforeShellExecution', maps)).toEqual({ agent: 'cursor', event: 'pre_tool_call' });
    expect(agentEventName('pre_tool_call', maps)).toBeNull();
    expect(agentEventName('Notification', maps)).toBeNull();
  });
});

describe('recogniseAgentInput', () => {
  it("Claude Code's, Codex's, Gemini CLI's and Cursor's stdin are told apart; the Hermes wire is not flagged", () => {
    const claude = {
      session_id: 's',
      transcript_path: '/t.jsonl',
      cwd: '/r',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'tu',
    };
    expect(recogniseAgentInput(claude, maps)).toEqual({
      agent: 'claude',
      theirEvent: 'PreToolUse',
      clues: ["hook_event_name 'PreToolUse'", 'transcript_path', 'permission_mode', 'tool_use_id'],
    });
    expect(recogniseAgentInput({ ...claude, turn_id: 't', model: 'gpt' }, maps)?.agent).toBe('codex');
    // Qwen Code sends Claude's stdin plus a prompt_id (0.24.4, seen here).
    expect(recogniseAgentInput({ ...claude, tool_name: 'run_shell_command', prompt_id: 'p1', tool_call_id: 'tu' }, maps)?.agent).toBe('qwen');
    expect(
      recogniseAgentInput(
        { session_id: 's', transcript_path: '/t', cwd: '/r', hook_event_name: 'BeforeTool', timestamp: 'x', tool_name: 'run_shell_command', tool_input: {} },
        maps,
      )?.agent,
    ).toBe('gemini');
    expect(
      recogniseAgentInput(
        { conversation_id: 'c', generation_id: 'g', hook_event_name: 'beforeShellExecution', command: 'ls', cwd: '/r', workspace_roots: ['/r'] },
        maps,
      ),
    ).toMatchObject({ agent: 'cursor', theirEvent: 'beforeShellExecution' });
    // Without the event name, the keys only an agent sends still tell.
    expect(recogniseAgentInput({ tool_name: 'Bash', tool_input: {}, session_id: 's', transcript_path: '/t' }, maps)).toMatchObject({
      agent: 'claude',
      theirEvent: null,
    });
    for (const ours of [
      {
        hook_event_name: 'pre_tool_call',
        tool_name: 'terminal',
        tool_input: {},
        session_id: 's',
        cwd: '/',
        profile: 'default',
        extra: { transcript_path: '/t' },
      },
      { tool_input: {}, tool_use_id: 'x' },
    ]) {
      expect(recogniseAgentInput(ours, maps)).toBeNull();
    }
  });

  it('says which --dialect runs it', () => {
    const f = recogniseAgentInput({ hook_event_name: 'PreToolUse', transcript_path: '/t', tool_name: 'Bash', tool_input: {} }, maps)!;
    expect(foreignInputMessage(f, 'pre_tool_call', maps)).toBe(
      "this is Claude Code's hook input (hook_event_name 'PreToolUse', transcript_path), not the Hermes stdin form: its tool names and arguments are Claude Code's, " +
        'so Hermes hooks and matchers do not see the call they expect — run: hermes-hooks run PreToolUse --dialect claude (a Codex hook: --dialect codex; a Qwen Code hook: --dialect qwen; ' +
        'a Factory Droid hook: --dialect droid) (serve: POST /v1/agent/claude/PreToolUse)',
    );
  });
});

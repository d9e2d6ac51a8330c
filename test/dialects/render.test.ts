import { describe, expect, it } from 'vitest';
import { DEFAULT_DIALECT_MAPS as maps } from '../../src/dialects/names.js';
import { renderDialectStdin, type RenderContext } from '../../src/dialects/render.js';
import { wire } from '../_dialect-fixtures.js';

const ctx: RenderContext = { cwd: '/work/proj', transcriptPath: '/work/t.jsonl', timestamp: '2026-11-30T10:00:00.000Z' };
const preRead = wire('pre_tool_call', {
  tool_name: 'read_file',
  tool_input: { path: 'src/a.ts', offset: 10 },
  extra: { task_id: 't1', tool_call_id: 'call_1', turn_id: 'turn_7' },
});

describe('renderDialectStdin', () => {
  it('Claude PreToolUse: its field names, in its order, with its tool and argument names', () => {
    const out = renderDialectStdin('claude', maps, preRead, ctx);
    expect(out).toEqual({
      session_id: 'sess-1',
      transcript_path: '/work/t.jsonl',
      cwd: '/work/proj',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'src/a.ts', offset: 10 },
      tool_use_id: 'call_1',
    });
    expect(Object.keys(out!)).toEqual(['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name', 'tool_name', 'tool_input', 'tool_use_id']);
  });

  it('Codex PreToolUse adds turn_id and model; unknown transcript is null', () => {
    const payload = wire('pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls -la' }, extra: { turn_id: 'turn_7', tool_call_id: 'call_2' } });
    const out = renderDialectStdin('codex', maps, payload, { cwd: '/work/proj', model: 'gpt-5-codex', permissionMode: 'auto' });
    expect(out).toEqual({
      session_id: 'sess-1',
      turn_id: 'turn_7',
      transcript_path: null,
      cwd: '/work/proj',
      hook_event_name: 'PreToolUse',
      model: 'gpt-5-codex',
      permission_mode: 'auto',
      tool_name: 'Bash',
      tool_input: { command: 'ls -la' },
      tool_use_id: 'call_2',
    });
  });

  it('Gemini BeforeTool: timestamp, its tool names (replace) and keys (file_path)', () => {
    const payload = wire('pre_tool_call', { tool_name: 'patch', tool_input: { mode: 'replace', path: 'a.py', old_string: 'x', new_string: 'y' } });
    expect(renderDialectStdin('gemini', maps, payload, ctx)).toEqual({
      session_id: 'sess-1',
      transcript_path: '/work/t.jsonl',
      cwd: '/work/proj',
      hook_event_name: 'BeforeTool',
      timestamp: '2026-11-30T10:00:00.000Z',
      tool_name: 'replace',
      tool_input: { mode: 'replace', file_path: 'a.py', old_string: 'x', new_string: 'y' },
    });
  });

  it('Cursor: a terminal call renders as beforeShellExecution with command/cwd (and tool_name/tool_input)', () => {
    const payload = wire('pre_tool_call', {
      tool_name: 'terminal',
      tool_input: { command: 'npm publish', workdir: '/work/proj/pkg' },
      extra: { turn_id: 'turn_7', model: 'm1' },
    });
    expect(renderDialectStdin('cursor', maps, payload, ctx)).toEqual({
      conversation_id: 'sess-1',
      generation_id: 'turn_7',
      model: 'm1',
      hook_event_name: 'beforeShellExecution',
      workspace_roots: ['/work/proj'],
      user_email: null,
      command: 'npm publish',
      cwd: '/work/proj/pkg',
      tool_name: 'Shell',
      tool_input: { command: 'npm publish', cwd: '/work/proj/pkg' },
    });
  });

  it('Cursor: read_file → beforeReadFile (file_path, content when known); MCP → beforeMCPExecution with a JSON-string input', () => {
    const read = renderDialectStdin('cursor', maps, preRead, { ...ctx, fileContent: 'export {}' });
    expect(read).toMatchObject({ hook_event_name: 'beforeReadFile', file_path: 'src/a.ts', content: 'export {}', attachments: [] });
    const mcp = renderDialectStdin('cursor', maps, wire('pre_tool_call', { tool_name: 'mcp_github_create_issue', tool_input: { title: 't' } }), ctx);
    expect(mcp).toMatchObject({ hook_event_name: 'beforeMCPExecution', tool_name: 'mcp_github_create_issue', tool_input: '{"title":"t"}' });
    const write = renderDialectStdin('cursor', maps, wire('pre_tool_call', { tool_name: 'write_file', tool_input: { path: 'a.md', content: 'x' } }), ctx);
    expect(write).toMatchObject({ hook_event_name: 'preToolUse', tool_name: 'Write', tool_input: { file_path: 'a.md', content: 'x' } });
  });

  it('ctx.theirEvent picks the event when it maps to ours, else there is no counterpart', () => {
    const payload = wire('pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' } });
    expect(renderDialectStdin('cursor', maps, payload, { ...ctx, theirEvent: 'preToolUse' })).toMatchObject({
      hook_event_name: 'preToolUse',
      tool_name: 'Shell',
      tool_input: { command: 'ls' },
    });
    expect(renderDialectStdin('cursor', maps, payload, { ...ctx, theirEvent: 'stop' })).toBeNull();
  });

  it('prompts: Hermes content parts become the agent prompt text', () => {
    const payload = wire('pre_llm_call', {
      extra: {
        user_message: [
          { type: 'text', text: 'hello' },
          { type: 'image_url', image_url: 'x' },
          { type: 'text', text: 'world' },
        ],
      },
    });
    expect(renderDialectStdin('claude', maps, payload, ctx)).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hello\nworld' });
    expect(renderDialectStdin('gemini', maps, payload, ctx)).toMatchObject({ hook_event_name: 'BeforeAgent', prompt: 'hello\nworld' });
    expect(renderDialectStdin('cursor', maps, payload, ctx)).toMatchObject({ hook_event_name: 'beforeSubmitPrompt', prompt: 'hello\nworld', attachments: [] });
  });

  it('pre_verify: stop_hook_active from the attempt; Cursor counts loops; Gemini gets the response', () => {
    const first = wire('pre_verify', { extra: { attempt: 1, final_response: 'done' } });
    const again = wire('pre_verify', { extra: { attempt: 3 } });
    expect(renderDialectStdin('claude', maps, first, ctx)).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(renderDialectStdin('codex', maps, again, ctx)).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: true });
    expect(renderDialectStdin('gemini', maps, first, ctx)).toMatchObject({ hook_event_name: 'AfterAgent', prompt_response: 'done', stop_hook_active: false });
    expect(renderDialectStdin('cursor', maps, again, ctx)).toMatchObject({ hook_event_name: 'stop', status: 'completed', loop_count: 2 });
  });

  it('post_tool_call: the JSON-string result becomes the agent tool_response value', () => {
    const payload = wire('post_tool_call', {
      tool_name: 'write_file',
      tool_input: { path: 'a', content: 'b' },
      extra: { result: '{"ok": true}', tool_call_id: 'c' },
    });
    expect(renderDialectStdin('claude', maps, payload, ctx)).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: 'a', content: 'b' },
      tool_response: { ok: true },
    });
    expect(renderDialectStdin('cursor', maps, payload, ctx)).toMatchObject({
      hook_event_name: 'afterFileEdit',
      file_path: 'a',
      edits: [{ old_string: '', new_string: 'b' }],
    });
  });

  it('returns null for events an agent has no counterpart of, and for unknown events', () => {
    for (const dialect of ['claude', 'codex', 'gemini', 'cursor'] as const) {
      expect(renderDialectStdin(dialect, maps, wire('on_session_finalize'), ctx)).toBeNull();
    }
    expect(renderDialectStdin('codex', maps, wire('subagent_stop'), ctx)).toBeNull();
    expect(renderDialectStdin('claude', maps, { hook_event_name: 'nope' }, ctx)).toBeNull();
  });
});

// syntheticKwargs lives in src/events.ts; it is tested here with the rest of the config work.
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, syntheticKwargs } from '../../src/events.js';

describe('syntheticKwargs', () => {
  it.each(EVENT_NAMES.map((e) => [e]))('%s has a non-empty, JSON-clean kwargs object in call-site form', (event) => {
    const kwargs = syntheticKwargs(event);
    expect(Object.keys(kwargs).length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(kwargs))).toEqual(kwargs);
    expect(kwargs).not.toHaveProperty('tool_input');
    expect(kwargs).not.toHaveProperty('hook_event_name');
    // A non-object `args` would be dropped on the wire (tool_input must be an object).
    if ('args' in kwargs) expect(kwargs.args).toBeTypeOf('object');
  });

  it('returns a fresh deep copy every time', () => {
    const a = syntheticKwargs('pre_tool_call');
    (a.args as Record<string, unknown>).command = 'rm -rf /';
    a.extra = 1;
    expect(syntheticKwargs('pre_tool_call')).toEqual({
      tool_name: 'terminal',
      args: { command: 'echo hello' },
      session_id: 'test-session',
      task_id: 'test-task',
      tool_call_id: 'test-call',
    });
  });

  it("copies Hermes' own `hooks test` table exactly, key order included", () => {
    expect(Object.entries(syntheticKwargs('post_tool_call'))).toEqual([
      ['tool_name', 'terminal'],
      ['args', { command: 'echo hello' }],
      ['session_id', 'test-session'],
      ['task_id', 'test-task'],
      ['tool_call_id', 'test-call'],
      ['result', '{"output": "hello"}'],
      ['duration_ms', 42],
    ]);
    expect(syntheticKwargs('pre_llm_call')).toEqual({
      session_id: 'test-session',
      user_message: 'What is the weather?',
      conversation_history: [],
      is_first_turn: true,
      model: 'gpt-4',
      platform: 'cli',
    });
    expect(syntheticKwargs('post_llm_call')).toEqual({ session_id: 'test-session', model: 'gpt-4', platform: 'cli' });
    expect(syntheticKwargs('pre_verify')).toEqual({
      session_id: 'test-session',
      platform: 'cli',
      model: 'gpt-4',
      coding: true,
      attempt: 0,
      final_response: 'All done — the change is applied.',
      changed_paths: ['src/app.tsx'],
    });
    for (const e of ['on_session_start', 'on_session_finalize', 'on_session_reset'] as const) {
      expect(syntheticKwargs(e)).toEqual({ session_id: 'test-session' });
    }
    expect(syntheticKwargs('on_session_end')).toEqual({
      session_id: 'test-session',
      task_id: 'test-task',
      turn_id: 'test-turn',
      completed: true,
      failed: false,
      interrupted: false,
      turn_exit_reason: 'text_response(stop)',
      model: 'gpt-4',
      platform: 'cli',
    });
    const stop = syntheticKwargs('subagent_stop');
    expect(stop).toMatchObject({
      parent_session_id: 'parent-sess',
      child_role: null,
      child_summary: 'Synthetic summary for hooks test',
      child_status: 'completed',
      duration_ms: 1234,
    });
    expect(stop.tool_call_history).toHaveLength(1);
    expect(stop).not.toHaveProperty('session_id');
  });

  it('API request events carry the provider metadata', () => {
    const pre = syntheticKwargs('pre_api_request');
    expect(pre).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6', api_mode: 'anthropic_messages' });
    expect(typeof pre.base_url).toBe('string');
    const post = syntheticKwargs('post_api_request');
    expect(post).toMatchObject({ finish_reason: 'stop', moa_references: null });
    expect(post.usage).toBeTypeOf('object');
  });

  it('newer events carry the fields the Hermes docs list', () => {
    expect(Object.keys(syntheticKwargs('on_human_input_request'))).toEqual(['kind', 'request_id', 'session_id', 'session_key', 'platform', 'prompt']);
    expect(syntheticKwargs('on_human_input_request').prompt).toMatch(/redacted/i);
    expect(syntheticKwargs('on_human_input_resolved')).toHaveProperty('outcome');
    expect(Object.keys(syntheticKwargs('agent_loop_stopped'))).toEqual(['session_key', 'platform', 'reason', 'invalidation_reason']);
    expect(Object.keys(syntheticKwargs('pre_auxiliary_call'))).toEqual([
      'aux_task',
      'task_id',
      'turn_id',
      'session_id',
      'platform',
      'api_request_id',
      'api_call_count',
      'retry_count',
      'streaming',
      'model',
      'provider',
      'base_url',
      'api_mode',
      'request_messages',
      'system_prompt',
      'message_count',
      'tool_count',
      'approx_input_tokens',
      'request_char_count',
      'max_tokens',
      'started_at',
      'request',
    ]);
    expect(JSON.stringify(syntheticKwargs('pre_auxiliary_call').request)).toMatch(/redacted/);
    const admission = syntheticKwargs('post_gateway_admission');
    expect(admission.source).toMatchObject({ platform: 'telegram', chat_id: '12345' });
    expect(typeof admission.text).toBe('string');
  });
});

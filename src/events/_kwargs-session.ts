// Synthetic kwargs of the session families: sessions, subagents and streaming. Pure data.

import { type FamilyKwargs, TEST_SESSION } from './_kwargs-shared.js';

export const SESSION_KWARGS = {
  on_session_start: { session_id: TEST_SESSION },
  on_session_end: {
    session_id: TEST_SESSION,
    task_id: 'test-task',
    turn_id: 'test-turn',
    completed: true,
    failed: false,
    interrupted: false,
    turn_exit_reason: 'text_response(stop)',
    model: 'gpt-4',
    platform: 'cli',
  },
  on_session_finalize: { session_id: TEST_SESSION },
  on_session_reset: { session_id: TEST_SESSION },
  subagent_start: {
    parent_session_id: 'parent-sess',
    parent_turn_id: 'parent-turn',
    parent_subagent_id: null,
    child_session_id: 'child-sess',
    child_subagent_id: 'subagent-1',
    child_role: null,
    child_goal: 'Find why the login test is flaky and report back',
  },
  subagent_stop: {
    parent_session_id: 'parent-sess',
    child_role: null,
    child_summary: 'Synthetic summary for hooks test',
    child_status: 'completed',
    // Metadata only: Hermes never passes a child's tool arguments or results here.
    tool_call_history: [{ tool_name: 'terminal', status: 'ok', duration_ms: 42 }],
    duration_ms: 1234,
  },
  on_stream_start: { session_id: TEST_SESSION, turn_id: 'test-turn', api_request_id: 'test-request', model: 'gpt-4', platform: 'cli' },
  on_stream_delta: { session_id: TEST_SESSION, turn_id: 'test-turn', api_request_id: 'test-request', index: 0, delta: 'It is ' },
  on_stream_end: {
    session_id: TEST_SESSION,
    turn_id: 'test-turn',
    api_request_id: 'test-request',
    finish_reason: 'stop',
    chunk_count: 3,
    text: 'It is sunny and 22 °C.',
  },
  on_interim_message: { session_id: TEST_SESSION, platform: 'cli', kind: 'status', message: 'Searching the web…' },
  on_room_member_activity: {
    platform: 'matrix',
    session_key: 'agent:main:matrix:room:!ops:example.org',
    room_id: '!ops:example.org',
    user_id: '@alice:example.org',
    activity: 'join',
  },
} satisfies FamilyKwargs;

// Synthetic kwargs of the gateway families: the gateway, the agent loop and humans (approvals,
// commands, skills, voice) and kanban. Pure data.

import { type FamilyKwargs, TEST_SESSION } from './_kwargs-shared.js';

const SYNTHETIC_APPROVAL = {
  session_id: TEST_SESSION,
  session_key: 'agent:main:cli:local',
  platform: 'cli',
  tool_name: 'terminal',
  command: 'rm -rf ./build',
  description: 'recursive delete',
  rule_key: 'terminal',
};
const SYNTHETIC_HUMAN_INPUT = {
  kind: 'approval',
  request_id: 'test-input-request',
  session_id: TEST_SESSION,
  session_key: 'agent:main:cli:local',
  platform: 'cli',
  // Hermes always redacts the prompt before hooks see it.
  prompt: '[redacted]',
};
const SYNTHETIC_KANBAN_TASK = { board_id: 'test-board', task_id: 'task-42', title: 'Fix the flaky login test' };

export const GATEWAY_KWARGS = {
  // Live gateway objects reach shell hooks only as their str().
  pre_gateway_dispatch: {
    event: "MessageEvent(platform='telegram', chat_id='12345', user_id='12345', text='What is on my calendar today?')",
    gateway: '<gateway.run.GatewayRunner object>',
    session_store: '<gateway.session.SessionStore object>',
  },
  post_gateway_admission: {
    session_key: 'agent:main:telegram:dm:12345',
    platform: 'telegram',
    // A snapshot (SessionSource.to_dict()), not the live adapter.
    source: {
      platform: 'telegram',
      chat_id: '12345',
      chat_type: 'dm',
      chat_name: null,
      user_id: '12345',
      user_name: 'alice',
      thread_id: null,
    },
    message_id: 'msg-1001',
    text: 'What is on my calendar today?',
  },
  gateway_platform_event: {
    platform: 'slack',
    event_type: 'reaction_added',
    payload: { reaction: 'thumbsup', user: 'U0123ABCD', item: { type: 'message', channel: 'C0123ABCD', ts: '1767225600.000100' } },
  },
  agent_loop_stopped: {
    session_key: 'agent:main:telegram:dm:12345',
    platform: 'telegram',
    reason: 'interrupted',
    invalidation_reason: 'new_message',
  },
  on_human_input_request: { ...SYNTHETIC_HUMAN_INPUT },
  // Same fields plus the outcome; never the answer itself.
  on_human_input_resolved: { ...SYNTHETIC_HUMAN_INPUT, outcome: 'answered' },
  pre_approval_request: { ...SYNTHETIC_APPROVAL },
  post_approval_response: { ...SYNTHETIC_APPROVAL, choice: 'once', approved: true },
  // Not `args`: on the wire a non-object `args` would become a null tool_input and be lost.
  pre_command: { command: 'model', raw_text: '/model claude-sonnet-4-6', session_id: TEST_SESSION, platform: 'cli' },
  on_skill_lifecycle: {
    action: 'installed',
    skill_name: 'pdf-tools',
    skill_path: '~/.hermes/skills/pdf-tools',
    source: 'hub',
    session_id: TEST_SESSION,
  },
  pre_transcription: {
    audio_path: '/tmp/hermes-voice-note.ogg',
    prompt: null,
    language: 'en',
    model: 'whisper-1',
    platform: 'telegram',
    session_id: TEST_SESSION,
  },
  pre_tts_synthesis: {
    text: 'Your build finished successfully.',
    voice: 'alloy',
    model: 'tts-1',
    provider: 'openai',
    platform: 'telegram',
    session_id: TEST_SESSION,
  },
  kanban_task_created: { ...SYNTHETIC_KANBAN_TASK, column: 'todo', assignee: null },
  kanban_task_updated: { ...SYNTHETIC_KANBAN_TASK, changes: { priority: { old: 'low', new: 'high' } } },
  kanban_task_moved: { ...SYNTHETIC_KANBAN_TASK, from_column: 'todo', to_column: 'in_progress' },
  kanban_task_completed: { ...SYNTHETIC_KANBAN_TASK, column: 'done', summary: 'Replaced the sleep with an explicit wait.' },
  kanban_task_deleted: { ...SYNTHETIC_KANBAN_TASK },
  on_kanban_board_update: { board_id: 'test-board', board_name: 'Sprint 12', change: 'task_moved', task_count: 7 },
  on_kanban_worker_start: { ...SYNTHETIC_KANBAN_TASK, worker_id: 'worker-1', session_id: 'kanban-worker-session' },
  on_kanban_worker_end: {
    ...SYNTHETIC_KANBAN_TASK,
    worker_id: 'worker-1',
    session_id: 'kanban-worker-session',
    status: 'completed',
    duration_ms: 5120,
  },
} satisfies FamilyKwargs;

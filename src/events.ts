// The event catalogue: every Hermes hook event with what a hook can do on it.
// Pure data; no I/O. Synthetic payloads are the kwargs `hermes-hooks test` uses when stdin is empty.

export const EVENT_NAMES = [
  // tools
  'pre_tool_call',
  'post_tool_call',
  // LLM turn
  'pre_llm_call',
  'post_llm_call',
  // provider API
  'pre_api_request',
  'post_api_request',
  'api_request_error',
  // auxiliary LLM calls
  'pre_auxiliary_call',
  'post_auxiliary_call',
  // verification
  'pre_verify',
  // sessions
  'on_session_start',
  'on_session_end',
  'on_session_finalize',
  'on_session_reset',
  // subagents
  'subagent_start',
  'subagent_stop',
  // transforms
  'transform_tool_result',
  'transform_terminal_output',
  'transform_llm_output',
  'transform_api_error_classification',
  // streaming
  'on_stream_start',
  'on_stream_delta',
  'on_stream_end',
  'on_interim_message',
  'on_room_member_activity',
  // gateway
  'pre_gateway_dispatch',
  'post_gateway_admission',
  'gateway_platform_event',
  // agent loop and humans
  'agent_loop_stopped',
  'on_human_input_request',
  'on_human_input_resolved',
  'pre_approval_request',
  'post_approval_response',
  'pre_command',
  'on_skill_lifecycle',
  'pre_transcription',
  'pre_tts_synthesis',
  // kanban
  'kanban_task_created',
  'kanban_task_updated',
  'kanban_task_moved',
  'kanban_task_completed',
  'kanban_task_deleted',
  'on_kanban_board_update',
  'on_kanban_worker_start',
  'on_kanban_worker_end',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export interface EventInfo {
  name: EventName;
  /** Matchers apply (pre_tool_call / post_tool_call). */
  toolScoped: boolean;
  /** A hook can stop the action (exit 2 blocks; fail_closed applies). Only pre_tool_call. */
  canBlock: boolean;
  /** Shell hooks may register. false = Python/plugin-only, refused at config parse. */
  shell: boolean;
  /** What a hook's answer can do on this event (for docs, doctor and reports). */
  honours: readonly (
    | 'block'
    | 'modify'
    | 'approve'
    | 'context'
    | 'continue'
    | 'notify'
    | 'handled'
    | 'rewrite'
    | 'skip'
    | 'allow'
    | 'override'
  )[];
  /** One line for humans. */
  summary: string;
}

const TOOL_SCOPED = new Set<EventName>(['pre_tool_call', 'post_tool_call']);
const SHELL_UNSUPPORTED = new Set<EventName>(['transform_api_error_classification']);

const HONOURS: Partial<Record<EventName, EventInfo['honours']>> = {
  pre_tool_call: ['block', 'modify', 'approve'],
  pre_llm_call: ['context'],
  pre_verify: ['continue'],
  on_session_finalize: ['notify'],
  post_gateway_admission: ['handled'],
  // Beyond Hermes (its shell bridge answers nothing here): shell hooks answer as plugins do.
  transform_tool_result: ['rewrite'],
  transform_terminal_output: ['rewrite'],
  transform_llm_output: ['rewrite'],
  pre_gateway_dispatch: ['skip', 'rewrite', 'allow'],
  pre_transcription: ['override'],
  pre_tts_synthesis: ['rewrite', 'block'],
};

const SUMMARIES: Record<EventName, string> = {
  pre_tool_call: 'before a tool runs; can block, modify its arguments, or ask for approval',
  post_tool_call: 'after a tool returns (status ok, error or blocked)',
  pre_llm_call: 'once per turn before the tool loop; can add context to the user message',
  post_llm_call: 'once per completed turn, with the final response',
  pre_api_request: 'before each provider API request',
  post_api_request: 'after each provider API response',
  api_request_error: 'when a provider API request fails',
  pre_auxiliary_call: 'before each auxiliary LLM attempt (titles, compression, vision, approvals …)',
  post_auxiliary_call: 'after each auxiliary LLM attempt',
  pre_verify: 'when a coding turn ends with edits; can keep the turn going',
  on_session_start: 'when a brand-new session starts',
  on_session_end: 'at the end of every run_conversation call',
  on_session_finalize: 'at teardown of a session; can leave the user a notification',
  on_session_reset: 'when a session is reset (/new, /reset)',
  subagent_start: 'when a subagent is spawned',
  subagent_stop: 'when a subagent finishes',
  transform_tool_result: 'replace a tool result the model sees (first string answer wins)',
  transform_terminal_output: 'replace terminal output (first string answer wins)',
  transform_llm_output: 'replace the model output (first non-empty string answer wins)',
  transform_api_error_classification: 'plugin-only: reclassify a provider error',
  on_stream_start: 'a streamed response starts',
  on_stream_delta: 'a streamed chunk arrives',
  on_stream_end: 'a streamed response ends',
  on_interim_message: 'an interim message is shown',
  on_room_member_activity: 'someone joins, leaves or acts in a gateway room',
  pre_gateway_dispatch: 'before the gateway dispatches a message; can skip it or rewrite its text',
  post_gateway_admission: 'after the gateway admits a message; can consume it with a reply',
  gateway_platform_event: 'a raw gateway platform event',
  agent_loop_stopped: 'a running agent loop was interrupted',
  on_human_input_request: 'Hermes is about to wait for a human (sudo, clarify, approval); prompt redacted',
  on_human_input_resolved: 'the wait for a human ended (outcome only, never the answer)',
  pre_approval_request: 'before an approval prompt is shown',
  post_approval_response: 'after an approval prompt is answered',
  pre_command: 'before a slash command runs',
  on_skill_lifecycle: 'a skill is installed, updated or removed',
  pre_transcription: 'before audio transcription; can override prompt, language and model',
  pre_tts_synthesis: 'before text-to-speech synthesis; can replace or block the script (fails closed)',
  kanban_task_created: 'a kanban task was created',
  kanban_task_updated: 'a kanban task was updated',
  kanban_task_moved: 'a kanban task moved column',
  kanban_task_completed: 'a kanban task was completed',
  kanban_task_deleted: 'a kanban task was deleted',
  on_kanban_board_update: 'a kanban board changed',
  on_kanban_worker_start: 'a kanban worker started a task',
  on_kanban_worker_end: 'a kanban worker finished a task',
};

export const EVENTS: Readonly<Record<EventName, EventInfo>> = Object.freeze(
  Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      Object.freeze({
        name,
        toolScoped: TOOL_SCOPED.has(name),
        canBlock: name === 'pre_tool_call',
        shell: !SHELL_UNSUPPORTED.has(name),
        honours: HONOURS[name] ?? [],
        summary: SUMMARIES[name],
      }),
    ]),
  ) as Record<EventName, EventInfo>,
);

const NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && NAME_SET.has(value);
}

/** All event names sorted, as Hermes lists them in messages. */
export const SORTED_EVENT_NAMES: readonly EventName[] = [...EVENT_NAMES].sort();

// ---- Synthetic kwargs ----------------------------------------------------------------------
// What `hermes-hooks test <event>` (and doctor's smoke run) fire when no payload is given. These
// are *call-site kwargs* (`args`, not `tool_input`; `parent_session_id`, not the wire `session_id`).
// Where Hermes' own `hermes hooks test` table has an entry (reference §6) it is copied exactly,
// key order included; the other events are modelled on the call-site kwargs the reference (§2)
// and the Hermes docs list, with values that look like a real run.

const TEST_SESSION = 'test-session';
const SYNTHETIC_API_REQUEST = {
  session_id: TEST_SESSION,
  task_id: 'test-task',
  turn_id: 'test-turn',
  api_request_id: 'test-request',
  platform: 'cli',
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  base_url: 'https://api.anthropic.com',
  api_mode: 'anthropic_messages',
  api_call_count: 1,
  message_count: 3,
  tool_count: 14,
  approx_input_tokens: 2150,
  request_char_count: 8600,
  max_tokens: 8192,
  started_at: 1767225600.0,
};
const SYNTHETIC_AUX_REQUEST = {
  aux_task: 'title',
  task_id: 'test-task',
  turn_id: 'test-turn',
  session_id: TEST_SESSION,
  platform: 'cli',
  api_request_id: 'test-aux-request',
  api_call_count: 1,
  retry_count: 0,
  streaming: false,
  model: 'gpt-4o-mini',
  provider: 'openai',
  base_url: 'https://api.openai.com/v1',
  api_mode: 'chat_completions',
};
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

const SYNTHETIC_KWARGS: Readonly<Record<EventName, Record<string, unknown>>> = {
  pre_tool_call: {
    tool_name: 'terminal',
    args: { command: 'echo hello' },
    session_id: TEST_SESSION,
    task_id: 'test-task',
    tool_call_id: 'test-call',
  },
  post_tool_call: {
    tool_name: 'terminal',
    args: { command: 'echo hello' },
    session_id: TEST_SESSION,
    task_id: 'test-task',
    tool_call_id: 'test-call',
    result: '{"output": "hello"}',
    duration_ms: 42,
  },
  pre_llm_call: {
    session_id: TEST_SESSION,
    user_message: 'What is the weather?',
    conversation_history: [],
    is_first_turn: true,
    model: 'gpt-4',
    platform: 'cli',
  },
  post_llm_call: { session_id: TEST_SESSION, model: 'gpt-4', platform: 'cli' },
  pre_api_request: { ...SYNTHETIC_API_REQUEST },
  post_api_request: {
    ...SYNTHETIC_API_REQUEST,
    status_code: 200,
    duration_ms: 1840,
    usage: { input_tokens: 2150, output_tokens: 96, cache_read_input_tokens: 1800, cache_creation_input_tokens: 0 },
    finish_reason: 'stop',
    moa_references: null,
  },
  api_request_error: {
    ...SYNTHETIC_API_REQUEST,
    status_code: 529,
    error_type: 'overloaded_error',
    error_message: 'Overloaded',
    retry_count: 0,
    duration_ms: 812,
  },
  pre_auxiliary_call: {
    ...SYNTHETIC_AUX_REQUEST,
    request_messages: [{ role: 'user', content: 'Write a short title for this conversation: What is the weather?' }],
    system_prompt: 'You write short, descriptive conversation titles.',
    message_count: 1,
    tool_count: 0,
    approx_input_tokens: 24,
    request_char_count: 112,
    max_tokens: 32,
    started_at: 1767225600.0,
    // The redacted form of the request; prefer it over request_messages, which are raw.
    request: {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: '[redacted]' },
        { role: 'user', content: '[redacted]' },
      ],
      max_tokens: 32,
    },
  },
  post_auxiliary_call: {
    ...SYNTHETIC_AUX_REQUEST,
    status: 'ok',
    duration_ms: 640,
    usage: { input_tokens: 24, output_tokens: 6 },
    finish_reason: 'stop',
    response_char_count: 21,
    error_type: null,
    error_message: null,
  },
  pre_verify: {
    session_id: TEST_SESSION,
    platform: 'cli',
    model: 'gpt-4',
    coding: true,
    attempt: 0,
    final_response: 'All done — the change is applied.',
    changed_paths: ['src/app.tsx'],
  },
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
  transform_tool_result: {
    tool_name: 'terminal',
    args: { command: 'echo hello' },
    result: '{"output": "hello"}',
    session_id: TEST_SESSION,
    task_id: 'test-task',
    tool_call_id: 'test-call',
  },
  transform_terminal_output: {
    command: 'echo hello',
    output: 'hello\n',
    exit_code: 0,
    session_id: TEST_SESSION,
    task_id: 'test-task',
  },
  transform_llm_output: {
    response_text: 'It is sunny and 22 °C.',
    session_id: TEST_SESSION,
    task_id: 'test-task',
    turn_id: 'test-turn',
    model: 'gpt-4',
    platform: 'cli',
  },
  transform_api_error_classification: {
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    status_code: 529,
    error_type: 'overloaded_error',
    error_message: 'Overloaded',
    base_url: 'https://api.anthropic.com',
    api_mode: 'anthropic_messages',
    session_id: TEST_SESSION,
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
};

/** A fresh deep copy of the synthetic call-site kwargs for `event` (safe to mutate). */
export function syntheticKwargs(event: EventName): Record<string, unknown> {
  return structuredClone(SYNTHETIC_KWARGS[event]);
}

/** The keys of the event's synthetic kwargs (no copy): kwargs the event is known to take. */
export function syntheticKwargKeys(event: EventName): readonly string[] {
  return Object.keys(SYNTHETIC_KWARGS[event]);
}

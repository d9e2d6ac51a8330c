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
  honours: readonly ('block' | 'modify' | 'approve' | 'context' | 'continue' | 'notify' | 'handled')[];
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
  transform_tool_result: 'plugin transform of a tool result (shell hooks cannot replace it)',
  transform_terminal_output: 'plugin transform of terminal output (shell hooks cannot replace it)',
  transform_llm_output: 'plugin transform of the model output (shell hooks cannot replace it)',
  transform_api_error_classification: 'plugin-only: reclassify a provider error',
  on_stream_start: 'a streamed response starts',
  on_stream_delta: 'a streamed chunk arrives',
  on_stream_end: 'a streamed response ends',
  on_interim_message: 'an interim message is shown',
  on_room_member_activity: 'someone joins, leaves or acts in a gateway room',
  pre_gateway_dispatch: 'before the gateway dispatches a message',
  post_gateway_admission: 'after the gateway admits a message; can consume it with a reply',
  gateway_platform_event: 'a raw gateway platform event',
  agent_loop_stopped: 'a running agent loop was interrupted',
  on_human_input_request: 'Hermes is about to wait for a human (sudo, clarify, approval); prompt redacted',
  on_human_input_resolved: 'the wait for a human ended (outcome only, never the answer)',
  pre_approval_request: 'before an approval prompt is shown',
  post_approval_response: 'after an approval prompt is answered',
  pre_command: 'before a slash command runs',
  on_skill_lifecycle: 'a skill is installed, updated or removed',
  pre_transcription: 'before audio transcription',
  pre_tts_synthesis: 'before text-to-speech synthesis',
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

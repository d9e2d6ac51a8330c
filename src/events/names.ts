// Every Hermes hook event's name, grouped by family in the order Hermes lists them. Pure data.

/** Every Hermes hook event name, in Hermes' order. */
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

/** A Hermes hook event name. */
export type EventName = (typeof EVENT_NAMES)[number];

const NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

/** Whether `value` is one of EVENT_NAMES. */
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && NAME_SET.has(value);
}

/** All event names sorted, as Hermes lists them in messages. */
export const SORTED_EVENT_NAMES: readonly EventName[] = [...EVENT_NAMES].sort();

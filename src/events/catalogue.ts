// What a hook can do on each event: scope, blocking, shell support, what its answer can do, and
// one line for humans. Pure data; no I/O.

import { EVENT_NAMES, type EventName } from './names.js';

/** What the catalogue says of one event: tool-scoped, can block, its family, one line for people. */
export interface EventInfo {
  name: EventName;
  /** Matchers apply (pre_tool_call / post_tool_call). */
  toolScoped: boolean;
  /** A hook can stop the action (exit 2 blocks; fail_closed applies). Only pre_tool_call. */
  canBlock: boolean;
  /** Shell hooks may register. false = Python/plugin-only, refused at config parse. */
  shell: boolean;
  /** What a hook's answer can do on this event (for docs, doctor and reports). */
  honours: readonly ('block' | 'modify' | 'approve' | 'context' | 'continue' | 'notify' | 'handled' | 'rewrite' | 'skip' | 'allow' | 'override')[];
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

/** Every event's EventInfo, by name. */
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

// Our wire payload → the stdin a Claude Code / Codex / Gemini CLI / Cursor hook expects, with the
// agent's event name, tool name, argument keys and common fields (reference §b1–§b4 "Stdin").
// Pure: every value comes from the payload or the context the engine passes in.

import { isEventName, type EventName } from '../events.js';
import type { JsonObject } from '../types.js';
import { isPlainObject } from '../_json.js';
import { parseMaybeJson, promptText } from './values.js';
import {
  argsToTheirs,
  CURSOR_FAMILIES,
  isOurMcpTool,
  theirEventNames,
  toOurEvent,
  toTheirEvent,
  toTheirTool,
  type AgentDialect,
  type DialectMaps,
} from './names.js';

// The engine matches dialect hooks through this module too.
export { dialectMatchesTool, convertClaudeMatcher } from './matchers.js';

/**
 * Our stdin object (reference §3.1), as protocol/ builds it. Read defensively: the engine passes
 * it as a plain JsonObject.
 */
export interface WirePayload {
  hook_event_name: string;
  tool_name: string | null;
  tool_input: JsonObject | null;
  session_id: string;
  cwd: string;
  profile?: string;
  extra: JsonObject;
}

export interface RenderContext {
  transcriptPath?: string | null;
  cwd: string;
  model?: string;
  permissionMode?: string;
  /** Render as this event of theirs (must map to the payload's event); default: our event's preferred name. */
  theirEvent?: string;
  /** Gemini's `timestamp` (ISO 8601); default: now. */
  timestamp?: string;
  /** Cursor beforeReadFile `content`, when the engine has read the file (null otherwise). */
  fileContent?: string | null;
}

/** Which of their events a payload renders as, or null when the agent has no counterpart. */
export function theirEventFor(
  dialect: AgentDialect,
  maps: DialectMaps,
  ourEvent: EventName,
  toolName: string | null,
  requested?: string,
): string | null {
  if (requested !== undefined) return toOurEvent(maps, dialect, requested) === ourEvent ? requested : null;
  if (dialect === 'cursor' && toolName !== null) {
    // A call in a tool family renders as that family's event (beforeShellExecution for terminal …).
    const names = theirEventNames(maps, dialect, ourEvent);
    const family = names.find((name) => {
      const f = CURSOR_FAMILIES[name];
      return f !== undefined && (f.tools === 'mcp' ? isOurMcpTool(toolName) : f.tools.includes(toolName));
    });
    if (family !== undefined) return family;
    return names.find((name) => CURSOR_FAMILIES[name] === undefined) ?? null;
  }
  return toTheirEvent(maps, dialect, ourEvent);
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The stdin object for a dialect hook, or null when the event has no counterpart in that dialect
 * (the engine then skips the hook with a diagnostic).
 */
export function renderDialectStdin(
  dialect: AgentDialect,
  maps: DialectMaps,
  wirePayload: WirePayload | JsonObject,
  ctx: RenderContext,
): Record<string, unknown> | null {
  const wire = wirePayload as Partial<Record<keyof WirePayload, unknown>>;
  const ourEvent = wire.hook_event_name;
  if (!isEventName(ourEvent)) return null;
  const ourTool = str(wire.tool_name);
  const theirEvent = theirEventFor(dialect, maps, ourEvent, ourTool, ctx.theirEvent);
  if (theirEvent === null) return null;

  const extra = isPlainObject(wire.extra) ? wire.extra : {};
  const input = isPlainObject(wire.tool_input) ? wire.tool_input : {};
  const sessionId = str(wire.session_id) ?? '';
  const theirTool = ourTool === null ? null : toTheirTool(maps, dialect, ourTool);
  const toolInput = argsToTheirs(maps, dialect, theirTool, input);
  const model = ctx.model ?? str(extra['model']);
  // A call that came in through `run --dialect` keeps these as kwargs (extra); pass them on.
  const transcriptPath = ctx.transcriptPath ?? str(extra['transcript_path']);
  const permissionMode = ctx.permissionMode ?? str(extra['permission_mode']) ?? 'default';
  const attempt = num(extra['attempt']) ?? 1;

  switch (dialect) {
    case 'claude':
    case 'codex': {
      const out: Record<string, unknown> = { session_id: sessionId };
      if (dialect === 'codex') out['turn_id'] = str(extra['turn_id']);
      out['transcript_path'] = transcriptPath;
      out['cwd'] = ctx.cwd;
      if (dialect === 'claude') out['permission_mode'] = permissionMode;
      out['hook_event_name'] = theirEvent;
      if (dialect === 'codex') {
        out['model'] = model;
        out['permission_mode'] = permissionMode;
      }
      if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
        out['tool_name'] = theirTool;
        out['tool_input'] = toolInput;
        if (theirEvent === 'PostToolUseFailure') out['error'] = str(extra['error_message']) ?? '';
        else if (ourEvent === 'post_tool_call') out['tool_response'] = parseMaybeJson(extra['result']);
        out['tool_use_id'] = str(extra['tool_call_id']) ?? '';
      } else if (ourEvent === 'pre_llm_call') {
        out['prompt'] = promptText(extra['user_message']);
      } else if (ourEvent === 'pre_verify') {
        // Hermes counts verify attempts; Claude/Codex only say whether a Stop hook already blocked.
        out['stop_hook_active'] = attempt > 1;
      } else if (ourEvent === 'on_session_start') {
        out['source'] = 'startup';
        if (dialect === 'claude' && model !== null) out['model'] = model;
      } else if (ourEvent === 'on_session_end') {
        out['reason'] = 'other';
      } else if (ourEvent === 'subagent_start' || ourEvent === 'subagent_stop') {
        out['agent_id'] = str(extra['child_session_id']) ?? '';
        out['agent_type'] = str(extra['child_role']) ?? '';
        if (ourEvent === 'subagent_stop') out['stop_hook_active'] = false;
      }
      return out;
    }

    case 'gemini': {
      const out: Record<string, unknown> = {
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd: ctx.cwd,
        hook_event_name: theirEvent,
        timestamp: ctx.timestamp ?? new Date().toISOString(),
      };
      if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
        out['tool_name'] = theirTool;
        out['tool_input'] = toolInput;
        if (ourEvent === 'post_tool_call') out['tool_response'] = parseMaybeJson(extra['result']);
      } else if (ourEvent === 'pre_llm_call') {
        out['prompt'] = promptText(extra['user_message']);
      } else if (ourEvent === 'pre_verify') {
        out['prompt'] = promptText(extra['user_message']);
        out['prompt_response'] = str(extra['final_response']) ?? '';
        out['stop_hook_active'] = attempt > 1;
      } else if (ourEvent === 'on_session_start') {
        out['source'] = 'startup';
      } else if (ourEvent === 'on_session_end') {
        out['reason'] = 'exit';
      }
      return out;
    }

    case 'cursor': {
      const out: Record<string, unknown> = {
        conversation_id: sessionId,
        generation_id: str(extra['turn_id']) ?? '',
        model: model ?? '',
        hook_event_name: theirEvent,
        workspace_roots: [ctx.cwd],
        user_email: str(extra['user_email']),
      };
      switch (theirEvent) {
        case 'beforeShellExecution':
          out['command'] = str(input['command']) ?? '';
          out['cwd'] = str(input['workdir']) ?? ctx.cwd;
          break;
        case 'beforeReadFile':
          out['file_path'] = str(input['path']) ?? '';
          out['content'] = ctx.fileContent ?? null;
          out['attachments'] = [];
          break;
        case 'beforeMCPExecution':
        case 'afterMCPExecution':
          // Cursor passes MCP arguments as a JSON string (reference §b4).
          out['tool_name'] = theirTool;
          out['tool_input'] = JSON.stringify(toolInput);
          if (theirEvent === 'afterMCPExecution') out['result_json'] = typeof extra['result'] === 'string' ? extra['result'] : JSON.stringify(extra['result'] ?? null);
          break;
        case 'afterShellExecution':
          out['command'] = str(input['command']) ?? '';
          out['output'] = str(extra['result']) ?? '';
          out['duration'] = num(extra['duration_ms']) ?? 0;
          break;
        case 'afterFileEdit': {
          out['file_path'] = str(input['path']) ?? '';
          const edit = ourTool === 'write_file'
            ? { old_string: '', new_string: str(input['content']) ?? '' }
            : { old_string: str(input['old_string']) ?? '', new_string: str(input['new_string']) ?? '' };
          out['edits'] = [edit];
          break;
        }
        case 'beforeSubmitPrompt':
          out['prompt'] = promptText(extra['user_message']);
          out['attachments'] = [];
          break;
        case 'afterAgentResponse':
          out['text'] = str(extra['assistant_response']) ?? '';
          break;
        case 'stop':
          out['status'] = 'completed';
          out['loop_count'] = Math.max(0, attempt - 1);
          break;
        default:
          break;
      }
      // Tool events always carry tool_name/tool_input too, so a hook written for preToolUse still
      // finds them when a call renders as a family event (beforeShellExecution …).
      if ((ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') && !('tool_name' in out)) {
        out['tool_name'] = theirTool;
        out['tool_input'] = toolInput;
        if (theirEvent === 'postToolUse' || theirEvent === 'postToolUseFailure') out['tool_output'] = str(extra['result']) ?? '';
      }
      return out;
    }
  }
}


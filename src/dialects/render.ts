// Our wire payload → the stdin another agent's hook expects, with the agent's event name, tool
// name, argument keys and common fields (reference §b1–§b4 "Stdin"; each agent's layout is its record's).
// Pure: every value comes from the payload or the context the engine passes in.

import { isEventName, type EventName } from '../events.js';
import type { JsonObject } from '../types.js';
import { isPlainObject } from '../json.js';
import { agentModule } from './agents/index.js';
import { num, str } from './values.js';
import {
  argsToTheirs,
  isOurMcpTool,
  theirEventNames,
  toOurEvent,
  toolFamily,
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
export function theirEventFor(dialect: AgentDialect, maps: DialectMaps, ourEvent: EventName, toolName: string | null, requested?: string): string | null {
  if (requested !== undefined) return toOurEvent(maps, dialect, requested) === ourEvent ? requested : null;
  if (agentModule(dialect).families !== undefined && toolName !== null) {
    // A call in a tool family renders as that family's event (beforeShellExecution for terminal …).
    const names = theirEventNames(maps, dialect, ourEvent);
    const family = names.find((name) => {
      const f = toolFamily(dialect, name);
      return f !== undefined && (f.tools === 'mcp' ? isOurMcpTool(toolName) : f.tools.includes(toolName));
    });
    if (family !== undefined) return family;
    return names.find((name) => toolFamily(dialect, name) === undefined) ?? null;
  }
  return toTheirEvent(maps, dialect, ourEvent);
}

/**
 * The stdin object for a dialect hook, or null when the event has no counterpart in that dialect
 * (the engine then skips the hook with a diagnostic). The common values are worked out here; the
 * agent's record lays them out (agents/<agent>.ts renderStdin).
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
  const theirTool = ourTool === null ? null : toTheirTool(maps, dialect, ourTool);
  return agentModule(dialect).renderStdin({
    ourEvent,
    theirEvent,
    ourTool,
    theirTool,
    input,
    toolInput: argsToTheirs(maps, dialect, theirTool, input),
    extra,
    sessionId: str(wire.session_id) ?? '',
    cwd: ctx.cwd,
    model: ctx.model ?? str(extra['model']),
    // A call that came in through `run --dialect` keeps these as kwargs (extra); pass them on.
    transcriptPath: ctx.transcriptPath ?? str(extra['transcript_path']),
    permissionMode: ctx.permissionMode ?? str(extra['permission_mode']) ?? 'default',
    attempt: num(extra['attempt']) ?? 1,
    timestamp: ctx.timestamp,
    fileContent: ctx.fileContent,
  });
}

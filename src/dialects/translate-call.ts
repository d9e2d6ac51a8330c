// hermes-hooks as another agent's hook command (`hermes-hooks run <event> --dialect X`):
// their stdin → our event and call-site kwargs; our resolved Decision → the exit code, stdout and
// stderr that agent acts on (reference §b1–§b4).
//
// An answer never grants more than the hooks said. In Hermes a `modify` changes the arguments and
// approves nothing; `approve` asks the user (reference: it escalates to the user's approval), so it
// is not an allow either. Only block, ask and "rewrite these arguments" are ever sent:
//   Decision            Claude                      Codex                        Gemini                     Cursor
//   block               deny                        exit 2 + reason on stderr    decision:deny              permission:deny
//   approve             ask (+updatedInput)         exit 2: approval required    decision:ask (+tool_input) permission:ask (+updated_input)
//   allow + args        updatedInput, NO decision   allow + updatedInput         tool_input, NO decision    allow + updated_input (preToolUse)
//   allow               (nothing)                   (nothing)                    (nothing)                  permission:allow
//
// How each agent is answered, and why, is its record's `answer` (src/dialects/agents/<agent>.ts).

import type { EventName } from '../events.js';
import type { Decision, JsonObject } from '../types.js';
import { isPlainObject } from '../json.js';
import { inert } from '../display.js';
import { agentModule, isAgentDialect } from './agents/index.js';
import type { DialectAnswer, ToolFamily } from './agents/module.js';
import { parseMaybeJson, promptText, str } from './values.js';
import { argsToOurs, argsToTheirs, toOurEvent, toOurTool, toolFamily, toTheirTool, type AgentDialect, type DialectMaps } from './names.js';

export type { DialectAnswer } from './agents/module.js';

export interface ParsedDialectInput {
  event: EventName;
  kwargs: Record<string, unknown>;
  theirEvent: string;
}

function objectInput(value: unknown): JsonObject {
  if (isPlainObject(value)) return value;
  // Cursor sends MCP arguments as a JSON string.
  const parsed = parseMaybeJson(value);
  return isPlainObject(parsed) ? parsed : {};
}

/** Hermes passes tool results as a JSON string. */
const resultString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** A tool-family event → our tool for the call (the family's only tool, or the MCP name). */
function familyTool(family: ToolFamily, stdin: JsonObject): string {
  if (family.tools !== 'mcp') return family.tools[family.tools.length - 1]!;
  const name = str(stdin['tool_name']) ?? 'unknown';
  return name.startsWith('mcp_') ? name : `mcp_${name}`;
}

/** The stdin's fields, taken one by one as they are translated; what is left passes as kwargs. */
class Fields {
  readonly rest: JsonObject;
  constructor(stdin: JsonObject) {
    this.rest = { ...stdin };
  }
  take(key: string): unknown {
    const v = this.rest[key];
    delete this.rest[key];
    return v;
  }
  rename(from: string, to: string, convert: (v: unknown) => unknown = (v) => v): void {
    if (from in this.rest) this.rest[to] = convert(this.take(from));
  }
}

/** A tool call's tool and arguments, from wherever the agent's event puts them. */
function toolCall(
  dialect: AgentDialect,
  maps: DialectMaps,
  theirEvent: string,
  stdin: JsonObject,
  fields: Fields,
): { tool_name: string | null; args: JsonObject } {
  const family = toolFamily(dialect, theirEvent);
  const ourFamilyTool = family === undefined ? null : familyTool(family, stdin);
  let theirTool: string | null;
  let input: JsonObject;
  if (family !== undefined && family.input === 'command') {
    theirTool = toTheirTool(maps, dialect, ourFamilyTool!);
    input = { command: fields.take('command') ?? '' };
    if (family.phase === 'pre' && typeof fields.rest['cwd'] === 'string') input['cwd'] = fields.take('cwd');
  } else if (family !== undefined && family.input === 'file') {
    theirTool = toTheirTool(maps, dialect, ourFamilyTool!);
    input = { file_path: fields.take('file_path') ?? '' };
  } else {
    const keys = agentModule(dialect).stdin?.toolKeys ?? { name: 'tool_name', input: 'tool_input' };
    theirTool = str(fields.take(keys.name));
    input = objectInput(fields.take(keys.input));
  }
  const ourTool = ourFamilyTool ?? (theirTool === null ? null : toOurTool(maps, dialect, theirTool));
  return { tool_name: ourTool, args: argsToOurs(maps, dialect, theirTool, input) };
}

/** How a kwarg's value is carried over: Hermes passes tool results as a JSON string, prompts as text. */
const CONVERT: Readonly<Record<string, (v: unknown) => unknown>> = { result: resultString, user_message: (v) => promptText(v) };

/** Their event's own fields under our kwarg names, as the agent's record lists them (stdin.kwargs, stdin.attempt). */
function translateFields(dialect: AgentDialect, event: EventName, theirEvent: string, fields: Fields): void {
  const { rest } = fields;
  const stdin = agentModule(dialect).stdin;
  for (const [from, to] of Object.entries(stdin?.kwargs?.[event] ?? {})) {
    const [outer, inner] = from.split('.');
    if (inner === undefined) fields.rename(from, to, CONVERT[to]);
    else if (isPlainObject(rest[outer!]) && inner in (rest[outer!] as JsonObject)) rest[to] = (CONVERT[to] ?? ((v) => v))((rest[outer!] as JsonObject)[inner]);
  }
  if (event === 'post_tool_call') rest['status'] = agentModule(dialect).toolFailureEvents?.includes(theirEvent) ? 'error' : 'ok';
  if (event === 'pre_verify' && stdin?.attempt !== undefined) {
    // Hermes counts verify attempts; an agent counts its loops so far, or only flags a repeat.
    const v = rest[stdin.attempt.key];
    if (stdin.attempt.counts === 'loops' && typeof v === 'number') rest['attempt'] = v + 1;
    else if (stdin.attempt.counts === 'repeat' && typeof v === 'boolean') rest['attempt'] = v ? 2 : 1;
  }
}

/** The session id, from the first of the agent's session keys present; its other renames. */
function takeSession(dialect: AgentDialect, fields: Fields): unknown {
  const stdin = agentModule(dialect).stdin;
  let sessionId: unknown;
  for (const key of stdin?.sessionKeys ?? ['session_id']) {
    sessionId = fields.take(key);
    if (sessionId !== undefined) break;
  }
  for (const [from, to] of Object.entries(stdin?.renames ?? {})) fields.rename(from, to);
  return sessionId;
}

/**
 * Their hook stdin → our event and the kwargs a host would pass to `emit` (tool_name ours, `args`
 * with our keys, `session_id`); every field we do not translate is kept as a kwarg under its own name.
 * `opts.event` is the event named on the command line: used when stdin has none, checked when it has.
 */
export function parseDialectInput(
  dialect: AgentDialect,
  maps: DialectMaps,
  rawStdin: unknown,
  opts: { event?: string } = {},
): ParsedDialectInput | { error: string } {
  if (!isAgentDialect(dialect)) return { error: `unknown dialect '${String(dialect)}'` };
  if (!isPlainObject(rawStdin)) return { error: `${dialect} hook input must be one JSON object` };
  const normalise = agentModule(dialect).stdin?.normalise;
  const stdinJson = normalise === undefined ? rawStdin : normalise(rawStdin);
  const stdinEvent = str(stdinJson['hook_event_name']);
  if (stdinEvent !== null && opts.event !== undefined && stdinEvent !== opts.event) {
    return { error: `stdin is a '${stdinEvent}' event but the command line says '${opts.event}'` };
  }
  const theirEvent = stdinEvent ?? opts.event;
  if (theirEvent === undefined) return { error: `${dialect} hook input has no hook_event_name` };
  const event = toOurEvent(maps, dialect, theirEvent);
  if (event === null) {
    const known = [...maps[dialect].events.keys()].join(', ');
    return { error: `${dialect} event '${theirEvent}' has no Hermes counterpart (mapped: ${known})` };
  }

  const fields = new Fields(stdinJson);
  fields.take('hook_event_name');
  const head: Record<string, unknown> = event === 'pre_tool_call' || event === 'post_tool_call' ? toolCall(dialect, maps, theirEvent, stdinJson, fields) : {};
  translateFields(dialect, event, theirEvent, fields);
  const sessionId = takeSession(dialect, fields);
  const kwargs: Record<string, unknown> = { ...head, session_id: typeof sessionId === 'string' ? sessionId : '', ...fields.rest };
  return { event, kwargs, theirEvent };
}

/**
 * Our resolved Decision → exactly what `dialect` expects back from a hook on `theirEvent`.
 * `toolName` is OUR tool name of the call; `decision.args` (the full merged arguments) is rendered
 * with the agent's keys. How each agent is answered is its record's (agents/<agent>.ts answer).
 */
export function renderDialectAnswer(
  dialect: AgentDialect,
  maps: DialectMaps,
  theirEvent: string,
  decision: Decision,
  toolName: string | null,
  notice: string | null = null,
): DialectAnswer {
  const theirTool = toolName === null ? null : toTheirTool(maps, dialect, toolName);
  const theirArgs = decision.args === null ? null : argsToTheirs(maps, dialect, theirTool, decision.args);
  // The message is what the agent shows a person (Claude's reason, Cursor's user_message, Codex's
  // stderr as is): a command name or a hook's message must not repaint that terminal either.
  if (decision.message !== null) decision = { ...decision, message: inert(decision.message, { keepNewlines: true }) };
  return agentModule(dialect).answer({ theirEvent, decision, theirTool, theirArgs, notice: notice === null ? null : inert(notice, { keepNewlines: true }) });
}

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
// How each agent is answered, and why:
//   - Claude: exit 0 + `hookSpecificOutput` JSON. A JSON deny is honoured on every tool, while exit 2
//     has been reported ignored for Task, Bash and on Windows (reference §c 4). A rewrite is sent as
//     `updatedInput` WITHOUT `permissionDecision`: `allow` would skip Claude's own permission check
//     (a rewrite into `touch /outside/project` then ran unasked, issue 15 item 10); without a
//     decision Claude applies the rewrite and still runs its own check (verified against the binary).
//   - Codex: block = exit 2 + the reason on stderr, the path Codex documents without conditions
//     (§b2: "exit 2 + non-empty stderr → block"); its JSON parser fails the hook — and lets the
//     tool run — on any field it does not expect. Codex cannot ask: an approve is answered as a
//     block that says approval was required (asking would count as a failed hook = allow).
//     A rewrite must be `permissionDecision:"allow"` + `updatedInput` (either alone fails the hook);
//     that allow grants nothing there: Codex's PreToolUse outcome is only block / reason / context /
//     updated input (hooks/src/events/pre_tool_use.rs), its approval policy and sandbox still apply.
//   - Gemini: exit 0 + `decision` JSON; Gemini ignores the exit code when JSON is present and does
//     not block on exit 2 without text (§b3). A rewrite is `hookSpecificOutput.tool_input` alone:
//     Gemini reads it whatever the decision, so no `decision:"allow"` is sent with it.
//   - Cursor: exit 0 + `permission` JSON, always explicit on permission events (an empty answer from
//     a permission hook may be read as invalid, §b4): Cursor has no neutral answer, `allow` is its
//     "go ahead". Whether Cursor's hook `allow` also skips its own allowlist prompt is not documented
//     in our sources (unverified). Only preToolUse can carry `updated_input`; a rewrite on
//     beforeShellExecution & co. is answered as a deny that tells the agent what to run.

import type { EventName } from '../events.js';
import type { Decision, JsonObject } from '../types.js';
import { isPlainObject } from '../_json.js';
import { inert } from '../_display.js';
import { parseMaybeJson, promptText } from '../dialects/values.js';
import {
  argsToOurs,
  argsToTheirs,
  AGENT_DIALECTS,
  CURSOR_FAMILIES,
  toOurEvent,
  toOurTool,
  toTheirTool,
  type AgentDialect,
  type DialectMaps,
} from '../dialects/names.js';

export interface ParsedDialectInput {
  event: EventName;
  kwargs: Record<string, unknown>;
  theirEvent: string;
}

export interface DialectAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function objectInput(value: unknown): JsonObject {
  if (isPlainObject(value)) return value;
  // Cursor sends MCP arguments as a JSON string.
  const parsed = parseMaybeJson(value);
  return isPlainObject(parsed) ? parsed : {};
}

/** Hermes passes tool results as a JSON string. */
const resultString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** Cursor family events → our tool for the call (the family's only tool, or the MCP name). */
function cursorFamilyTool(theirEvent: string, stdin: JsonObject): string | null {
  const family = CURSOR_FAMILIES[theirEvent];
  if (family === undefined) return null;
  if (family.tools !== 'mcp') return family.tools[family.tools.length - 1]!;
  const name = str(stdin['tool_name']) ?? 'unknown';
  return name.startsWith('mcp_') ? name : `mcp_${name}`;
}

/**
 * Their hook stdin → our event and the kwargs a host would pass to `emit` (tool_name ours, `args`
 * with our keys, `session_id`); every field we do not translate is kept as a kwarg under its own name.
 * `opts.event` is the event named on the command line: used when stdin has none, checked when it has.
 */
export function parseDialectInput(
  dialect: AgentDialect,
  maps: DialectMaps,
  stdinJson: unknown,
  opts: { event?: string } = {},
): ParsedDialectInput | { error: string } {
  if (!AGENT_DIALECTS.includes(dialect)) return { error: `unknown dialect '${String(dialect)}'` };
  if (!isPlainObject(stdinJson)) return { error: `${dialect} hook input must be one JSON object` };
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

  const rest: JsonObject = { ...stdinJson };
  const take = (key: string): unknown => {
    const v = rest[key];
    delete rest[key];
    return v;
  };
  const renameField = (from: string, to: string, convert: (v: unknown) => unknown = (v) => v): void => {
    if (from in rest) rest[to] = convert(take(from));
  };
  take('hook_event_name');

  const head: Record<string, unknown> = {};
  if (event === 'pre_tool_call' || event === 'post_tool_call') {
    const familyTool = dialect === 'cursor' ? cursorFamilyTool(theirEvent, stdinJson) : null;
    let theirTool: string | null;
    let input: JsonObject;
    if (familyTool !== null && (theirEvent === 'beforeShellExecution' || theirEvent === 'afterShellExecution')) {
      theirTool = toTheirTool(maps, dialect, familyTool);
      input = { command: take('command') ?? '' };
      if (theirEvent === 'beforeShellExecution' && typeof rest['cwd'] === 'string') input['cwd'] = take('cwd');
    } else if (familyTool !== null && (theirEvent === 'beforeReadFile' || theirEvent === 'afterFileEdit')) {
      theirTool = toTheirTool(maps, dialect, familyTool);
      input = { file_path: take('file_path') ?? '' };
    } else {
      theirTool = str(take('tool_name'));
      input = objectInput(take('tool_input'));
    }
    const ourTool = familyTool ?? (theirTool === null ? null : toOurTool(maps, dialect, theirTool));
    head['tool_name'] = ourTool;
    head['args'] = argsToOurs(maps, dialect, theirTool, input);
    renameField('tool_use_id', 'tool_call_id');
    if (event === 'post_tool_call') {
      renameField('tool_response', 'result', resultString);
      renameField('tool_output', 'result', resultString);
      renameField('output', 'result', resultString);
      renameField('result_json', 'result', resultString);
      renameField('duration', 'duration_ms');
      const failed = theirEvent === 'PostToolUseFailure' || theirEvent === 'postToolUseFailure';
      renameField('error', 'error_message');
      rest['status'] = failed ? 'error' : 'ok';
    }
  } else if (event === 'pre_llm_call') {
    renameField('prompt', 'user_message', (v) => promptText(v));
  } else if (event === 'pre_verify') {
    renameField('last_assistant_message', 'final_response');
    renameField('prompt_response', 'final_response');
    // Hermes counts verify attempts; Claude/Codex/Gemini only flag a repeat, Cursor counts loops.
    if (typeof rest['loop_count'] === 'number') rest['attempt'] = rest['loop_count'] + 1;
    else if (typeof rest['stop_hook_active'] === 'boolean') rest['attempt'] = rest['stop_hook_active'] ? 2 : 1;
  } else if (event === 'subagent_start' || event === 'subagent_stop') {
    renameField('agent_id', 'child_session_id');
    renameField('agent_type', 'child_role');
  } else if (event === 'post_llm_call') {
    renameField('text', 'assistant_response');
  }

  let sessionId: unknown;
  if (dialect === 'cursor') {
    sessionId = take('conversation_id') ?? take('session_id');
    renameField('generation_id', 'turn_id');
  } else {
    sessionId = take('session_id');
  }
  const kwargs: Record<string, unknown> = { ...head, session_id: typeof sessionId === 'string' ? sessionId : '', ...rest };
  return { event, kwargs, theirEvent };
}

// ---------------------------------------------------------------------------------------------

const OK_EMPTY: DialectAnswer = { exitCode: 0, stdout: '', stderr: '' };
const json = (value: JsonObject): DialectAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });

function approvalText(decision: Decision, theirTool: string | null): string {
  return decision.message ?? `${theirTool ?? 'this tool call'} needs approval`;
}

function claudeFamilyAnswer(dialect: 'claude' | 'codex', theirEvent: string, decision: Decision, theirTool: string | null, theirArgs: JsonObject | null): DialectAnswer {
  const specific = (fields: JsonObject): DialectAnswer => json({ hookSpecificOutput: { hookEventName: theirEvent, ...fields } });
  if (decision.event === 'pre_tool_call') {
    if (decision.action === 'block') {
      const reason = decision.message ?? 'Blocked by hermes-hooks.';
      if (dialect === 'codex') return { exitCode: 2, stdout: '', stderr: `${reason}\n` };
      return specific({ permissionDecision: 'deny', permissionDecisionReason: reason });
    }
    if (decision.action === 'approve') {
      if (dialect === 'codex') {
        return { exitCode: 2, stdout: '', stderr: `${approvalText(decision, theirTool)} (Codex hooks cannot ask for approval, so hermes-hooks blocks the call)\n` };
      }
      // Claude pairs updatedInput with ask too, so the user sees and approves the rewritten call.
      return specific({
        permissionDecision: 'ask',
        permissionDecisionReason: approvalText(decision, theirTool),
        ...(theirArgs ? { updatedInput: theirArgs } : {}),
      });
    }
    // updatedInput replaces the whole input, so it carries the full merged arguments. Claude: no
    // permissionDecision, so its own permission check still runs; Codex needs allow (see the top).
    if (theirArgs) return specific(dialect === 'codex' ? { permissionDecision: 'allow', updatedInput: theirArgs } : { updatedInput: theirArgs });
    return OK_EMPTY;
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ decision: 'block', reason: decision.message ?? 'Continue.' });
  }
  if (decision.context !== null) return specific({ additionalContext: decision.context });
  return OK_EMPTY;
}

function geminiAnswer(theirEvent: string, decision: Decision, theirArgs: JsonObject | null): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    const rewrite = theirArgs ? { hookSpecificOutput: { hookEventName: theirEvent, tool_input: theirArgs } } : {};
    if (decision.action === 'block') return json({ decision: 'deny', reason: decision.message ?? 'Blocked by hermes-hooks.' });
    if (decision.action === 'approve') return json({ decision: 'ask', ...(decision.message ? { reason: decision.message } : {}), ...rewrite });
    // No `decision`: the rewrite alone, whatever Gemini would have decided on its own.
    if (theirArgs) return json(rewrite);
    return OK_EMPTY;
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ decision: 'deny', reason: decision.message ?? 'Continue.' });
  }
  if (decision.context !== null) return json({ hookSpecificOutput: { hookEventName: theirEvent, additionalContext: decision.context } });
  return OK_EMPTY;
}

function cursorAnswer(theirEvent: string, decision: Decision, theirArgs: JsonObject | null): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    const canRewrite = theirEvent === 'preToolUse';
    if (decision.action === 'block') {
      const message = decision.message ?? 'Blocked by hermes-hooks.';
      return json({ permission: 'deny', user_message: message, agent_message: message });
    }
    if (decision.action === 'approve') {
      const message = decision.message ?? 'hermes-hooks asks for approval';
      return json({ permission: 'ask', user_message: message, agent_message: message, ...(theirArgs && canRewrite ? { updated_input: theirArgs } : {}) });
    }
    if (theirArgs && canRewrite) return json({ permission: 'allow', updated_input: theirArgs });
    if (theirArgs) {
      // The hook wanted different arguments and this event cannot carry them: running the original
      // call would ignore the hook, so refuse it and say what would be allowed.
      const wanted = inert(theirEvent === 'beforeShellExecution' && typeof theirArgs['command'] === 'string' ? theirArgs['command'] : JSON.stringify(theirArgs));
      const message = `hermes-hooks rewrote this call, but Cursor's ${theirEvent} cannot apply rewrites; run it as: ${wanted}`;
      return json({ permission: 'deny', user_message: message, agent_message: message });
    }
    return json({ permission: 'allow' });
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ followup_message: decision.message ?? 'Continue.' });
  }
  if (theirEvent === 'beforeSubmitPrompt') {
    return json({ continue: true, ...(decision.context !== null ? { additional_context: decision.context } : {}) });
  }
  if (decision.context !== null) return json({ additional_context: decision.context });
  return OK_EMPTY;
}

/**
 * Our resolved Decision → exactly what `dialect` expects back from a hook on `theirEvent`.
 * `toolName` is OUR tool name of the call; `decision.args` (the full merged arguments) is rendered
 * with the agent's keys.
 */
export function renderDialectAnswer(
  dialect: AgentDialect,
  maps: DialectMaps,
  theirEvent: string,
  decision: Decision,
  toolName: string | null,
): DialectAnswer {
  const theirTool = toolName === null ? null : toTheirTool(maps, dialect, toolName);
  const theirArgs = decision.args === null ? null : argsToTheirs(maps, dialect, theirTool, decision.args);
  // The message is what the agent shows a person (Claude's reason, Cursor's user_message, Codex's
  // stderr as is): a command name or a hook's message must not repaint that terminal either.
  if (decision.message !== null) decision = { ...decision, message: inert(decision.message, { keepNewlines: true }) };
  switch (dialect) {
    case 'claude':
    case 'codex':
      return claudeFamilyAnswer(dialect, theirEvent, decision, theirTool, theirArgs);
    case 'gemini':
      return geminiAnswer(theirEvent, decision, theirArgs);
    case 'cursor':
      return cursorAnswer(theirEvent, decision, theirArgs);
  }
}

// One finished run of a dialect hook → our Directive, by that agent's rules (reference §b1–§b4):
// its exit codes, its output fields, its argument names mapped back to ours (`file_path` → `path`).
// fail_closed is ours and works as on our wire: launch failure, timeout, output limit, garbled
// stdout, or a non-zero exit that decided nothing → `hook <command> failed closed: <reason>`.
//
// Where an agent fails open on something its author clearly meant as "no", we are the careful
// engine and block instead (each case is marked DECISION below):
//   - Codex: exit 2 with empty stderr, `deny` with an empty reason, and `continue:false` on
//     PreToolUse all count as a failed hook in Codex (the tool runs); here they block.
//   - Codex: `ask` counts as failed in Codex; here it asks (approve).
//   - Gemini: exit 2 with no output, or with JSON that does not deny, lets the tool run in Gemini
//     (the bug llxprt-code fixed in PR #2975); here exit 2 on a tool call always blocks.

import type { EventName } from '../events.js';
import type { Directive, HookSpec, JsonObject, RunRecord } from '../types.js';
import { isPlainObject } from '../_json.js';
import { abnormalEndReason, FAIL_CLOSED_REASON, failClosedMessage, failsClosed } from '../directives/messages.js';
import { firstText, nonBlank, parseJsonObject } from './values.js';
import { argsToOurs, toTheirTool, type AgentDialect, type DialectMaps } from './names.js';

export type DialectHookSpec = Pick<HookSpec, 'event' | 'command' | 'fail_closed' | 'timeout'>;

/** Our wire's default block message (reference §3.4). */
export const DEFAULT_BLOCK_MESSAGE = 'Blocked by shell hook.';

/** What one reader made of a run: a directive, and whether stdout was unreadable (for fail_closed). */
interface Reading {
  directive: Directive | null;
  garbled: boolean;
}

interface ReadInput {
  event: EventName;
  run: RunRecord;
  stdout: string;
  /** First 400 chars of trimmed stderr, as our wire quotes it. */
  stderr: string;
  /** Their tool arguments → ours. */
  toOurArgs: (input: JsonObject) => JsonObject;
}

const block = (message: string | undefined): Directive => ({ action: 'block', message: message ?? DEFAULT_BLOCK_MESSAGE });
const approve = (message: string | undefined): Directive => (message === undefined ? { action: 'approve' } : { action: 'approve', message });
const contextOf = (text: string | undefined): Directive | null => (text === undefined ? null : { action: 'context', context: text });
const continueWith = (message: string | undefined): Directive | null =>
  message === undefined ? null : { action: 'continue', message: message.trim() };
const none = (garbled = false): Reading => ({ directive: null, garbled });

const obj = (v: unknown): JsonObject => (isPlainObject(v) ? v : {});

// ---------------------------------------------------------------------------------------------
// Claude Code and Codex: `hookSpecificOutput.permissionDecision` and friends.

function decideClaudeJson(dialect: 'claude' | 'codex', json: JsonObject, r: ReadInput): Directive | null {
  const hso = obj(json['hookSpecificOutput']);
  const context = nonBlank(hso['additionalContext']);
  switch (r.event) {
    case 'pre_tool_call': {
      // `continue:false` beats every event decision (reference §b1). DECISION (Codex rejects it): block.
      if (json['continue'] === false) return block(firstText(json['stopReason'], hso['permissionDecisionReason'], json['reason']));
      const decision = hso['permissionDecision'];
      const reason = nonBlank(hso['permissionDecisionReason']);
      if (decision === 'deny') return block(reason);
      // `ask` may come with updatedInput; a Directive is one action, and asking is the safer one.
      if (decision === 'ask') return approve(reason);
      // updatedInput REPLACES the whole input in Claude; our modify merges shallowly, so every key
      // it sends is set, but a key it dropped cannot be deleted.
      // Claude also applies updatedInput with no decision (its own permission check then still runs);
      // Codex fails a hook that sends it without allow.
      const rewrites = decision === 'allow' || (decision === undefined && dialect === 'claude');
      if (rewrites && isPlainObject(hso['updatedInput'])) return { action: 'modify', args: r.toOurArgs(hso['updatedInput']) };
      if (decision === undefined) {
        // Deprecated top-level form: approve → allow (nothing to do), block → deny.
        if (json['decision'] === 'block') return block(nonBlank(json['reason']));
      }
      return contextOf(context);
    }
    case 'pre_verify':
      // Stop `decision:"block"` requires a reason, which becomes Claude's next instruction.
      return json['decision'] === 'block' ? continueWith(nonBlank(json['reason'])) : null;
    default:
      return contextOf(context);
  }
}

function readClaudeFamily(dialect: 'claude' | 'codex', r: ReadInput): Reading {
  const { stdout, stderr, event } = r;
  const exit = r.run.exit_code;
  // Claude parses stdout as JSON only when it starts with `{`; Codex also tries `[` (and fails).
  const json = stdout.startsWith('{') ? parseJsonObject(stdout) : null;
  const garbled = stdout !== '' && json === null;

  if (exit === 2) {
    if (event === 'pre_tool_call') {
      const jsonReason = json ? firstText(obj(json['hookSpecificOutput'])['permissionDecisionReason'], json['reason']) : undefined;
      // Claude: the JSON's reason, else stderr. Codex: stderr is the reason.
      // DECISION (Codex): exit 2 with empty stderr fails open there; here it blocks.
      return { directive: block(dialect === 'claude' ? firstText(jsonReason, stderr) : firstText(stderr, jsonReason)), garbled };
    }
    // Exit 2 on Stop keeps the agent going with stderr as the instruction.
    if (event === 'pre_verify') return { directive: continueWith(firstText(json?.['reason'], stderr)), garbled };
    return none(garbled);
  }
  if (exit !== 0) {
    // Claude: a valid JSON object still decides on any exit code. Codex: any other exit is a failed hook.
    if (dialect === 'claude' && json) return { directive: decideClaudeJson(dialect, json, r), garbled };
    return none(garbled);
  }
  if (json) return { directive: decideClaudeJson(dialect, json, r), garbled };
  // Claude adds plain stdout as context on UserPromptSubmit and SessionStart only; Codex ignores it.
  if (dialect === 'claude' && stdout !== '' && (event === 'pre_llm_call' || event === 'on_session_start')) {
    return { directive: contextOf(stdout), garbled: false };
  }
  return none(garbled);
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI: top-level `decision`/`reason`, `hookSpecificOutput.tool_input` (merged), plain text.

function decideGeminiJson(json: JsonObject, r: ReadInput): Directive | null {
  const hso = obj(json['hookSpecificOutput']);
  const decision = json['decision'];
  const reason = nonBlank(json['reason']);
  const context = nonBlank(hso['additionalContext']);
  switch (r.event) {
    case 'pre_tool_call':
      if (json['continue'] === false) return block(firstText(json['stopReason'], reason));
      if (decision === 'deny' || decision === 'block') return block(reason);
      if (decision === 'ask') return approve(reason);
      // Gemini shallow-merges tool_input onto the call, exactly what our modify does.
      if (isPlainObject(hso['tool_input'])) return { action: 'modify', args: r.toOurArgs(hso['tool_input']) };
      return contextOf(context);
    case 'pre_verify':
      // AfterAgent deny = "retry", with the reason as the next instruction.
      return decision === 'deny' || decision === 'block' ? continueWith(reason) : null;
    default:
      return contextOf(context);
  }
}

function parseGeminiText(text: string): JsonObject | null {
  try {
    let v = JSON.parse(text) as unknown;
    // Gemini parses twice when the first parse yields a string (a JSON-encoded JSON object).
    if (typeof v === 'string') v = JSON.parse(v) as unknown;
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}

function readGemini(r: ReadInput): Reading {
  const { stdout, event } = r;
  const exit = r.run.exit_code;
  // Gemini reads stderr when stdout is empty.
  const text = stdout !== '' ? stdout : r.run.stderr.trim();
  const json = text === '' ? null : parseGeminiText(text);
  const garbled = stdout !== '' && json === null;
  const blocksTool = exit === 2 && event === 'pre_tool_call';

  if (json) {
    const directive = decideGeminiJson(json, r);
    // DECISION: exit 2 blocks a tool call even when the JSON does not deny (Gemini lets it run).
    if (blocksTool && directive?.action !== 'block') return { directive: block(firstText(json['reason'], r.stderr)), garbled };
    return { directive, garbled };
  }
  if (text === '') {
    // DECISION: exit 2 with no output blocks (fixing the llxprt-code bug, reference §c 5).
    return { directive: blocksTool ? block(undefined) : null, garbled };
  }
  // Plain text: exit 0 → allow (a system message), exit 1 → warning, any other code → deny with the text.
  if (exit !== null && exit >= 2) {
    if (event === 'pre_tool_call') return { directive: block(text.slice(0, 400)), garbled };
    if (event === 'pre_verify') return { directive: continueWith(text), garbled };
  }
  return none(garbled);
}

// ---------------------------------------------------------------------------------------------
// Cursor: `permission`, `user_message`/`agent_message` (camelCase before v2.0), `updated_input`.

function decideCursorJson(json: JsonObject, r: ReadInput): Directive | null {
  const agentMessage = firstText(json['agent_message'], json['agentMessage']);
  const userMessage = firstText(json['user_message'], json['userMessage']);
  const context = nonBlank(json['additional_context']);
  switch (r.event) {
    case 'pre_tool_call': {
      const permission = json['permission'];
      // The block message goes to the model as the tool's error, so the agent's text comes first.
      if (permission === 'deny') return block(firstText(agentMessage, userMessage));
      if (permission === 'ask') return approve(firstText(userMessage, agentMessage));
      if ((permission === 'allow' || permission === undefined) && isPlainObject(json['updated_input'])) {
        return { action: 'modify', args: r.toOurArgs(json['updated_input']) };
      }
      return contextOf(context);
    }
    case 'pre_verify':
      return continueWith(nonBlank(json['followup_message']));
    default:
      return contextOf(context);
  }
}

function readCursor(r: ReadInput): Reading {
  const { stdout, event } = r;
  const json = stdout.startsWith('{') ? parseJsonObject(stdout) : null;
  const garbled = stdout !== '' && json === null;
  if (r.run.exit_code === 2 && event === 'pre_tool_call') {
    const j = json ?? {};
    return { directive: block(firstText(j['agent_message'], j['agentMessage'], j['user_message'], j['userMessage'], r.stderr)), garbled };
  }
  return { directive: json ? decideCursorJson(json, r) : null, garbled };
}

// ---------------------------------------------------------------------------------------------

const READERS: Readonly<Record<AgentDialect, (r: ReadInput) => Reading>> = {
  claude: (r) => readClaudeFamily('claude', r),
  codex: (r) => readClaudeFamily('codex', r),
  gemini: readGemini,
  cursor: readCursor,
};

const DECIDES_TOOL_CALL = new Set<Directive['action']>(['block', 'modify', 'approve']);

/**
 * The directive of one dialect hook run, or null when it contributes nothing.
 * `toolName` is OUR tool name of the call (used to map argument keys back), null off tool events.
 */
export function evaluateDialectRun(
  dialect: AgentDialect,
  maps: DialectMaps,
  spec: DialectHookSpec,
  toolName: string | null,
  run: RunRecord,
): Directive | null {
  const fc = failsClosed(spec);
  const failClosed = (reason: string): Directive => ({ action: 'block', message: failClosedMessage(spec.command, reason) });

  if (run.status === 'launch_failed') return fc ? failClosed(run.error || FAIL_CLOSED_REASON.launchFailed) : null;
  if (run.status === 'timeout') return fc ? failClosed(FAIL_CLOSED_REASON.timedOut(run.timeout ?? spec.timeout)) : null;
  if (run.status === 'output_limit') return fc ? failClosed(FAIL_CLOSED_REASON.outputLimit) : null;

  const theirTool = toolName === null ? null : toTheirTool(maps, dialect, toolName);
  const reading = READERS[dialect]({
    event: spec.event,
    run,
    stdout: run.stdout.trim(),
    stderr: run.stderr.trim().slice(0, 400),
    toOurArgs: (input) => argsToOurs(maps, dialect, theirTool, input),
  });
  const { directive } = reading;
  if (!fc) return directive;
  if (directive && DECIDES_TOOL_CALL.has(directive.action)) return directive;
  if (reading.garbled) return failClosed(FAIL_CLOSED_REASON.unparseable);
  if (run.exit_code !== 0) return failClosed(abnormalEndReason(run) ?? FAIL_CLOSED_REASON.failed);
  return directive;
}

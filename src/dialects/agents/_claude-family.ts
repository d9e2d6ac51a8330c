// Claude Code and Codex speak one protocol with a few differences (reference §b1, §b2): the same
// event names and `hookSpecificOutput` answers; Codex adds turn_id/model to stdin, reads only
// stderr on exit 2, fails a hook on any JSON field it does not expect, and cannot ask.
// This is the code both records use, with the differences spelled out where they apply.
//
// Where an agent fails open on something its author clearly meant as "no", we are the careful
// engine and block instead (each case is marked DECISION below):
//   - Codex: exit 2 with empty stderr, `deny` with an empty reason, and `continue:false` on
//     PreToolUse all count as a failed hook in Codex (the tool runs); here they block.
//   - Codex: `ask` counts as failed in Codex; here it asks (approve).

import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import { firstText, nonBlank, parseJsonObject, parseMaybeJson, promptText } from '../values.js';
import type { AnswerInput, DialectAnswer, ReadInput, Reading, StdinFields } from './module.js';
import { approve, block, BLOCKED, contextOf, continueWith, json, none, obj, OK_EMPTY, str, withSystemMessage } from './_read.js';

type Variant = 'claude' | 'codex';

export function renderClaudeFamily(variant: Variant, f: StdinFields): Record<string, unknown> {
  const { ourEvent, extra } = f;
  const out: Record<string, unknown> = { session_id: f.sessionId };
  if (variant === 'codex') out['turn_id'] = str(extra['turn_id']);
  out['transcript_path'] = f.transcriptPath;
  out['cwd'] = f.cwd;
  if (variant === 'claude') out['permission_mode'] = f.permissionMode;
  out['hook_event_name'] = f.theirEvent;
  if (variant === 'codex') {
    out['model'] = f.model;
    out['permission_mode'] = f.permissionMode;
  }
  if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
    out['tool_name'] = f.theirTool;
    out['tool_input'] = f.toolInput;
    if (f.theirEvent === 'PostToolUseFailure') out['error'] = str(extra['error_message']) ?? '';
    else if (ourEvent === 'post_tool_call') out['tool_response'] = parseMaybeJson(extra['result']);
    out['tool_use_id'] = str(extra['tool_call_id']) ?? '';
  } else if (ourEvent === 'pre_llm_call') {
    out['prompt'] = promptText(extra['user_message']);
  } else if (ourEvent === 'pre_verify') {
    // Hermes counts verify attempts; Claude/Codex only say whether a Stop hook already blocked.
    out['stop_hook_active'] = f.attempt > 1;
  } else if (ourEvent === 'on_session_start') {
    out['source'] = 'startup';
    if (variant === 'claude' && f.model !== null) out['model'] = f.model;
  } else if (ourEvent === 'on_session_end') {
    out['reason'] = 'other';
  } else if (ourEvent === 'subagent_start' || ourEvent === 'subagent_stop') {
    out['agent_id'] = str(extra['child_session_id']) ?? '';
    out['agent_type'] = str(extra['child_role']) ?? '';
    if (ourEvent === 'subagent_stop') out['stop_hook_active'] = false;
  }
  return out;
}

// ---- reading a hook's answer: `hookSpecificOutput.permissionDecision` and friends ------------

function decideJson(variant: Variant, json: JsonObject, r: ReadInput): Directive | null {
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
      const rewrites = decision === 'allow' || (decision === undefined && variant === 'claude');
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

export function readClaudeFamily(variant: Variant, r: ReadInput): Reading {
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
      return { directive: block(variant === 'claude' ? firstText(jsonReason, stderr) : firstText(stderr, jsonReason)), garbled };
    }
    // Exit 2 on Stop keeps the agent going with stderr as the instruction.
    if (event === 'pre_verify') return { directive: continueWith(firstText(json?.['reason'], stderr)), garbled };
    return none(garbled);
  }
  if (exit !== 0) {
    // Claude: a valid JSON object still decides on any exit code. Codex: any other exit is a failed hook.
    if (variant === 'claude' && json) return { directive: decideJson(variant, json, r), garbled };
    return none(garbled);
  }
  if (json) return { directive: decideJson(variant, json, r), garbled };
  // Claude adds plain stdout as context on UserPromptSubmit and SessionStart only; Codex ignores it.
  if (variant === 'claude' && stdout !== '' && (event === 'pre_llm_call' || event === 'on_session_start')) {
    return { directive: contextOf(stdout), garbled: false };
  }
  return none(garbled);
}

// ---- answering as its hook (dialects/translate-call.ts has the table for every agent) -------------
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

function approvalText(a: AnswerInput): string {
  return a.decision.message ?? `${a.theirTool ?? 'this tool call'} needs approval`;
}

export function answerClaudeFamily(variant: Variant, a: AnswerInput): DialectAnswer {
  // Both show a top-level systemMessage to the person, on every event (Codex's schemas allow it on each).
  return withSystemMessage(answerDecision(variant, a), a.notice);
}

function answerDecision(variant: Variant, a: AnswerInput): DialectAnswer {
  const { decision } = a;
  const specific = (fields: JsonObject): DialectAnswer => json({ hookSpecificOutput: { hookEventName: a.theirEvent, ...fields } });
  if (decision.event === 'pre_tool_call') return answerToolGate(variant, a, specific);
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ decision: 'block', reason: decision.message ?? 'Continue.' });
  }
  // PostToolUse (and Claude's PostToolUseFailure) take additionalContext as well.
  if (decision.context !== null) return specific({ additionalContext: decision.context });
  return OK_EMPTY;
}

// The tool gate. A guardrail warning (decision.context, never on a block) is additionalContext, a
// field both agents read on PreToolUse. A hard stop (stop_turn) ends Claude's turn with
// `continue:false` + `stopReason` beside the deny; Codex makes a PreToolUse answer carrying
// `continue`/`stopReason` INVALID and then runs the tool, so there it stays a plain block (exit 2 +
// reason) and the guardrails block each later call of the loop.
function answerToolGate(variant: Variant, a: AnswerInput, specific: (fields: JsonObject) => DialectAnswer): DialectAnswer {
  const { decision, theirArgs } = a;
  const context = decision.context !== null ? { additionalContext: decision.context } : {};
  if (decision.action === 'block') {
    const reason = decision.message ?? BLOCKED;
    if (variant === 'codex') return { exitCode: 2, stdout: '', stderr: `${reason}\n` };
    const stop = decision.stop_turn === true ? { continue: false, stopReason: reason } : {};
    return json({ ...stop, hookSpecificOutput: { hookEventName: a.theirEvent, permissionDecision: 'deny', permissionDecisionReason: reason } });
  }
  if (decision.action === 'approve') {
    if (variant === 'codex') {
      return { exitCode: 2, stdout: '', stderr: `${approvalText(a)} (Codex hooks cannot ask for approval, so hermes-hooks blocks the call)\n` };
    }
    // Claude pairs updatedInput with ask too, so the user sees and approves the rewritten call.
    return specific({
      permissionDecision: 'ask',
      permissionDecisionReason: approvalText(a),
      ...(theirArgs ? { updatedInput: theirArgs } : {}),
      ...context,
    });
  }
  // updatedInput replaces the whole input, so it carries the full merged arguments. Claude: no
  // permissionDecision, so its own permission check still runs; Codex needs allow.
  if (theirArgs)
    return specific(variant === 'codex' ? { permissionDecision: 'allow', updatedInput: theirArgs, ...context } : { updatedInput: theirArgs, ...context });
  if (decision.context !== null) return specific(context);
  return OK_EMPTY;
}

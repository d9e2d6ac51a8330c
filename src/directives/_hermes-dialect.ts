// The Hermes stdout dialect, exactly as Hermes V4 reads it (reference §3.4). Comparisons are exact
// and case-sensitive on pre_tool_call, case-insensitive on pre_verify; non-string values never match.

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { pyStrip, pyTruthy } from '../util/python.js';
import type { Directive, JsonObject } from '../types.js';
import { DEFAULT_BLOCK_MESSAGE } from './messages.js';

export function parseHermesDialect(event: EventName, obj: JsonObject): Directive | null {
  if (event === 'pre_tool_call') return parsePreToolCall(obj);
  if (event === 'pre_verify') return parsePreVerify(obj);
  return parseContext(obj);
}

function parsePreToolCall(obj: JsonObject): Directive | null {
  const { action, decision } = obj;
  if (action === 'block') return { action: 'block', message: blockMessage(obj.message, obj.reason) };
  if (decision === 'block') return { action: 'block', message: blockMessage(obj.reason, obj.message) };
  if (action === 'modify' && isPlainObject(obj.args)) return { action: 'modify', args: obj.args };
  if (decision === 'modify' && isPlainObject(obj.tool_input)) return { action: 'modify', args: obj.tool_input };
  if (action === 'approve') {
    const out: Directive = { action: 'approve' };
    const message = nonBlankTrimmed(obj.message);
    const ruleKey = nonBlankTrimmed(obj.rule_key);
    if (message !== null) out.message = message;
    if (ruleKey !== null) out.rule_key = ruleKey;
    return out;
  }
  // `decision: "approve"` is deliberately not mapped: in Claude Code it means auto-allow.
  return null;
}

/**
 * Hermes `M(p, s)`: p if truthy else s; a non-empty string is used verbatim (even "   "),
 * anything else gives the default.
 */
export function blockMessage(primary: unknown, secondary: unknown): string {
  const chosen = pyTruthy(primary) ? primary : secondary;
  return typeof chosen === 'string' && chosen.length > 0 ? chosen : DEFAULT_BLOCK_MESSAGE;
}

function parsePreVerify(obj: JsonObject): Directive | null {
  const verb = pyTruthy(obj.action) ? obj.action : pyTruthy(obj.decision) ? obj.decision : '';
  // Python does str(verb) first; only a string can stringify to "continue"/"block".
  if (typeof verb !== 'string') return null;
  const a = pyStrip(verb).toLowerCase();
  if (a !== 'continue' && a !== 'block') return null;
  const message = nonBlankTrimmed(pyTruthy(obj.message) ? obj.message : obj.reason);
  return message === null ? null : { action: 'continue', message };
}

function parseContext(obj: JsonObject): Directive | null {
  const { context } = obj;
  // Returned untrimmed, as Hermes does.
  return typeof context === 'string' && pyStrip(context) !== '' ? { action: 'context', context } : null;
}

/** A string that is non-blank after Python strip(), trimmed; else null. */
export function nonBlankTrimmed(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = pyStrip(value);
  return trimmed === '' ? null : trimmed;
}

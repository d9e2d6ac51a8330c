// Hook stdout → Directive. The whole stdout, trimmed, must be one JSON object (Python json.loads
// rules); then the Hermes dialect decides (reference §3.4, V4), and only when it found nothing, the
// event's own keys beyond Hermes (on_session_finalize `message`, post_gateway_admission `handled`)
// and the Claude Code dialect. Pure and total: never throws.

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { pyStrip } from '../util/python.js';
import type { Directive, JsonObject } from '../types.js';
import { parseClaudeDialect } from './_claude-dialect.js';
import { nonBlankTrimmed, parseHermesDialect } from './_hermes-dialect.js';
import { parsePythonJson } from './_python-json.js';
import { readTransformAnswer, TRANSFORM_EVENTS } from './transforms.js';
import { answerProblem, type AnswerProblem } from './answer-problem.js';

export type StdoutKind = 'empty' | 'invalid_json' | 'not_object' | 'object';

export interface StdoutInspection {
  /** What the trimmed stdout was. */
  kind: StdoutKind;
  /** stdout after Python strip(). */
  text: string;
  /** The decode error when kind is 'invalid_json'. */
  error: string | null;
  directive: Directive | null;
  /** Which reading produced the directive (hook_specific_output: Claude Code's answer shape, read when no Hermes key decided). */
  source: 'hermes' | 'event' | 'hook_specific_output' | null;
  /** An object that decided nothing but looks meant to (an unknown word, a misplaced key), or null. */
  problem: AnswerProblem | null;
}

export function inspectStdout(event: EventName, stdout: string): StdoutInspection {
  const text = pyStrip(typeof stdout === 'string' ? stdout : '');
  if (text === '') return { kind: 'empty', text, error: null, directive: null, source: null, problem: null };
  const parsed = parsePythonJson(text);
  if (!parsed.ok) return { kind: 'invalid_json', text, error: parsed.error, directive: null, source: null, problem: null };
  if (!isPlainObject(parsed.value)) return { kind: 'not_object', text, error: null, directive: null, source: null, problem: null };
  const obj = parsed.value;
  // The event's own directive first: on these two events the generic {context} has no effect.
  const own = parseEventDirective(event, obj);
  if (own) return { kind: 'object', text, error: null, directive: own, source: 'event', problem: null };
  const hermes = parseHermesDialect(event, obj);
  if (hermes) return { kind: 'object', text, error: null, directive: hermes, source: 'hermes', problem: null };
  const hookSpecific = parseClaudeDialect(event, obj);
  if (hookSpecific) return { kind: 'object', text, error: null, directive: hookSpecific, source: 'hook_specific_output', problem: null };
  // Nothing decided: say why when the object looks like it meant to (Hermes says nothing).
  return { kind: 'object', text, error: null, directive: null, source: null, problem: answerProblem(event, obj) };
}

/** The directive a hook's stdout carries for this event, or null when it contributes nothing. */
export function parseStdout(event: EventName, stdout: string): Directive | null {
  try {
    return inspectStdout(event, stdout).directive;
  } catch {
    return null; // unreachable by construction; the contract is "never throws"
  }
}

/** How many characters of unreadable stdout a warning quotes. */
const QUOTED_STDOUT = 80;

/**
 * Why stdout that should carry a directive could not (not JSON, or JSON that is not an object),
 * quoting its first characters JSON-escaped so control bytes stay inert; or why an object decided
 * nothing when it looks meant to (answer-problem.ts); null when it is empty or an ordinary object.
 * `failedClosed`: the hook is fail_closed on a blocking event, so the run blocked.
 */
export function stdoutProblem(event: EventName, stdout: string, failedClosed = false): string | null {
  const info = inspectStdout(event, stdout);
  if (info.problem !== null)
    return `${info.problem.message} (${failedClosed && info.problem.failsClosed ? 'so the hook failed closed' : 'ignored, as Hermes ignores it'})`;
  if (info.kind !== 'invalid_json' && info.kind !== 'not_object') return null;
  const chars = Array.from(info.text);
  const quoted = JSON.stringify(chars.slice(0, QUOTED_STDOUT).join('')) + (chars.length > QUOTED_STDOUT ? '…' : '');
  const what = info.kind === 'invalid_json' ? 'stdout is not valid JSON' : 'stdout is JSON but not an object';
  return `${what}, so ${failedClosed ? 'the hook failed closed' : 'it was ignored'}: ${quoted}`;
}

/** True when the text (after Python strip()) is exactly one JSON object. */
export function isJsonObjectText(s: string): boolean {
  const parsed = parsePythonJson(pyStrip(s));
  return parsed.ok && isPlainObject(parsed.value);
}

/**
 * Beyond Hermes: keys that only mean something on one event. On the transform and rewrite events
 * a shell hook answers as a plugin would (Hermes' shell bridge has no answer there).
 */
function parseEventDirective(event: EventName, obj: JsonObject): Directive | null {
  if (TRANSFORM_EVENTS.has(event)) return readTransformAnswer(event, obj, 'shell');
  if (event === 'on_session_finalize') {
    const message = nonBlankTrimmed(obj.message);
    return message === null ? null : { action: 'notify', message };
  }
  if (event === 'post_gateway_admission' && obj.action === 'handled') {
    return typeof obj.reply === 'string' ? { action: 'handled', reply: obj.reply } : { action: 'handled' };
  }
  return null;
}

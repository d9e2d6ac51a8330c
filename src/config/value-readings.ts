// A hook entry's `fail_closed`, `timeout` and `matcher` of the wrong type, read exactly as Hermes
// reads them (agent/shell_hooks.py `_parse_single_entry`: `isinstance(fail_closed, bool)` else
// false; `int(timeout)`; a non-string matcher ignored), and said where that reading surprises: a
// quoted "true" that Hermes reads as false (fail open), a 2.9 truncated to 2 s, a `true` read as
// 1 s, a list of tools that matches every tool. Under strict mode a fail_closed that is not a
// boolean keeps the pre_tool_call hook fail_closed: the safer reading. Pure.

import { isTruthyString, pyRepr } from '../util/python.js';
import { STRICT_KEY } from './strict.js';

/** `fail_closed` as read, and the warning to give (null: nothing surprising). */
export function failClosedReading(raw: unknown, prefix: string, gate: { canBlock: boolean; strict: boolean }): { value: boolean; warning: string | null } {
  if (typeof raw === 'boolean') return { value: raw, warning: null };
  const repr = pyRepr(raw);
  const base = `${prefix}.fail_closed must be a boolean (got ${repr})`;
  if (gate.strict && gate.canBlock) {
    return {
      value: true,
      warning:
        `${base}; Hermes would read it as false (fail open), but ${STRICT_KEY} is on, so this hook is fail_closed` +
        ' — write fail_closed: true or false, unquoted',
    };
  }
  const meantTrue = (typeof raw === 'string' && isTruthyString(raw)) || raw === 1;
  const loud = meantTrue
    ? ` — ${repr} is NOT the boolean true: as Hermes reads it this guard fails OPEN (a failure lets the call through); write fail_closed: true without quotes`
    : '';
  return { value: false, warning: `${base}; using default false (fail open)${loud}` };
}

/** The warning for a timeout Hermes' `int()` reads as another number than written (1 and up), or null. */
export function timeoutWarning(raw: unknown, seconds: number, prefix: string): string | null {
  if (typeof raw === 'boolean') {
    return `${prefix}.timeout: ${raw} is read as ${seconds}s (Hermes reads it with int(), and a YAML boolean is ${seconds}) — write a number of seconds`;
  }
  if (typeof raw === 'number' && Number.isFinite(raw) && !Number.isInteger(raw)) {
    return `${prefix}.timeout=${raw} is read as ${seconds}s (Hermes reads it with int(), which truncates) — write a whole number of seconds`;
  }
  return null;
}

/** The warning for a matcher that is not a string: ignored, as Hermes does, so the hook runs for every tool. */
export function matcherTypeWarning(raw: unknown, prefix: string): string {
  const base = `${prefix}.matcher must be a string regex; ignoring — this hook runs for every tool`;
  if (Array.isArray(raw) && raw.length > 0 && raw.every((t) => typeof t === 'string' || typeof t === 'number')) {
    return `${base}; for several tools write one regex: matcher: ${JSON.stringify(raw.map(String).join('|'))}`;
  }
  return typeof raw === 'number' ? `${base}; write it as a string: matcher: ${JSON.stringify(String(raw))}` : base;
}

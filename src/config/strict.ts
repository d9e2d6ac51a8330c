// Strict mode (`hooks_fail_closed: true` at the top level of config.yaml), ours, not Hermes': every
// pre_tool_call hook is fail_closed unless it says `fail_closed: false`, and a config mistake that
// leaves the tool gate without a guard the file meant to put there (an unreadable entry, a gate
// event misspelled, another agent's block under pre_tool_call) is kept as a RefusedGuard, which
// the engine registers as a blocker saying file:line, the problem and the fix. Pure.

import type { Diagnostic } from '../types.js';
import { isTruthyString, pyRepr } from '../util/python.js';

export const STRICT_KEY = 'hooks_fail_closed';

/** A guard the config meant for the tool gate but that cannot be registered; under strict mode it blocks. */
export interface RefusedGuard {
  /** The config path of what was refused (`hooks.pre_tool_call[0]`, `hooks.pre_tool_use`). */
  path: string;
  /** The matcher it was written with, when one could be read (it then blocks only those calls); else every call. */
  matcher: string | null;
  /** The block message: `file:line:col: path: problem — fix`, and why it blocks. */
  message: string;
}

/**
 * `hooks_fail_closed` as written: a boolean as is; a string that reads as true (`"true"`, `"yes"`)
 * turns it on too — the safer reading of a safety switch — with a warning; anything else is off.
 * `warning`: what to say, or null.
 */
export function readStrict(value: unknown): { strict: boolean; warning: string | null } {
  if (value === undefined || value === null) return { strict: false, warning: null };
  if (typeof value === 'boolean') return { strict: value, warning: null };
  if (typeof value === 'string' && isTruthyString(value)) {
    const warning = `must be a boolean (got ${pyRepr(value)}); read as true, the safer reading of a safety switch — write it unquoted: ${STRICT_KEY}: true`;
    return { strict: true, warning };
  }
  return { strict: false, warning: `must be a boolean (got ${pyRepr(value)}); strict mode is OFF — write ${STRICT_KEY}: true (unquoted) to turn it on` };
}

/** The block a refused guard gives, from the error diagnostic that refused it. */
export function refusedMessage(d: Diagnostic): string {
  const at = `${d.file ?? 'config.yaml'}:${d.line ?? '?'}:${d.column ?? '?'}`;
  return `${at}: ${d.message} — ${STRICT_KEY} is on, so this tool call is blocked until the config is fixed`;
}

/** What is appended to the diagnostic of a refused gate guard, saying what strict mode makes of it. */
export function strictCost(strict: boolean): string {
  return strict
    ? ` (${STRICT_KEY} is on: every pre_tool_call it would have checked is blocked until this is fixed)`
    : ` (the tool calls it would have checked go ahead unguarded; ${STRICT_KEY}: true would block them instead)`;
}

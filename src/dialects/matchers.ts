// Matchers across dialects. Our matcher is a regex that must match the WHOLE tool name; the agents'
// are not: Claude reads a plain word list as exact names and anything else as an unanchored regex;
// Codex and Gemini use unanchored regexes. These functions turn theirs into our full-match form and
// let a dialect hook's matcher name tools either way (`Bash` or `terminal`).

import type { Dialect } from '../types.js';
import { theirToolNames, type DialectMaps } from './names.js';

/** Characters that make Claude read a matcher as exact names (reference §b1 "Matcher"). */
const CLAUDE_EXACT = /^[A-Za-z0-9_ ,|-]+$/;

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `source` compiles as a JavaScript regex. */
export function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** An unanchored regex (matches anywhere, like `RegExp.test`) as a full-match source. */
export function unanchoredToFullMatch(source: string): string {
  return `.*(?:${source}).*`;
}

/** A literal name as a full-match source. */
export function literalToFullMatch(name: string): string {
  return escapeRegex(name);
}

/** True when the matcher means "every tool" in all four agents: omitted, empty or `*`. */
export function matchesEverything(matcher: string | null | undefined): boolean {
  return matcher === null || matcher === undefined || matcher.trim() === '' || matcher.trim() === '*';
}

/**
 * Claude's matcher → our full-match regex source, or null for "every tool".
 * `Bash` → `Bash`; `Edit|Write` or `Edit, Write` → `Edit|Write`; `mcp__memory__.*` (any other
 * character) → `.*(?:mcp__memory__.*).*`, because Claude tests it unanchored. A regex that does not
 * compile is taken as a literal name (it could never match in Claude; here it at least is exact).
 */
export function convertClaudeMatcher(matcher: string | null | undefined): string | null {
  if (matchesEverything(matcher)) return null;
  const m = matcher!.trim();
  if (CLAUDE_EXACT.test(m)) {
    const names = m
      .split(/[|,]/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return names.length === 0 ? null : names.map(literalToFullMatch).join('|');
  }
  return isValidRegex(m) ? unanchoredToFullMatch(m) : literalToFullMatch(m);
}

/**
 * Codex / Gemini matcher (an unanchored regex) → our full-match source, or null for every tool.
 * An invalid regex falls back to exact equality, as Gemini does (Codex skips the group: the importer
 * reports that).
 */
export function convertRegexMatcher(matcher: string | null | undefined): string | null {
  if (matchesEverything(matcher)) return null;
  const m = matcher!.trim();
  return isValidRegex(m) ? unanchoredToFullMatch(m) : literalToFullMatch(m);
}

/**
 * Does a dialect hook's matcher select our tool? It may be written with our name (`terminal`) or
 * any of the agent's names for it (`Bash`; Codex's `apply_patch`/`Edit`/`Write`; `mcp__s__t`).
 * `matcherTest` is the engine's full-match test of the hook's matcher. No tool name → no match.
 */
export function dialectMatchesTool(dialect: Dialect, maps: DialectMaps, matcherTest: (name: string) => boolean, ourToolName: string | null): boolean {
  if (ourToolName === null) return false;
  if (matcherTest(ourToolName)) return true;
  if (dialect === 'hermes') return false;
  return theirToolNames(maps, dialect, ourToolName).some((name) => matcherTest(name));
}

// Tool-name matchers (reference §1.4): a Python regex that must match the WHOLE tool name.
// No matcher matches everything (even an event with no tool name); with a matcher, a missing or
// non-string tool name never matches. A pattern that cannot be compiled falls back to literal
// string equality, as Hermes does, and says why in `error`.

import { pyStrip } from '../util/python.js';
import { compilePythonFullmatch } from './_py-regex.js';
import { errorText } from '../errors.js';

export interface ToolMatcher {
  /** The trimmed matcher, or null when there is none (matches everything). */
  source: string | null;
  /** True when the pattern did not compile and the matcher compares strings instead. */
  literal: boolean;
  /** Why the pattern did not compile (Python-style, e.g. `bad escape \q at position 3`); null otherwise. */
  error: string | null;
  test(toolName: unknown): boolean;
}

const MATCH_ALL: ToolMatcher = Object.freeze({ source: null, literal: false, error: null, test: () => true });

// Matchers are compiled once per distinct pattern; bounded so arbitrary input cannot grow it forever.
const CACHE_LIMIT = 512;
const cache = new Map<string, ToolMatcher>();

/**
 * Compile a hook matcher. It is trimmed first (Hermes trims it when building the spec), and an
 * empty one means "no matcher". Pure and cached: the same pattern gives the same object.
 */
export function compileMatcher(matcher: string | null): ToolMatcher {
  if (matcher === null) return MATCH_ALL;
  const source = pyStrip(matcher);
  if (source === '') return MATCH_ALL;
  const hit = cache.get(source);
  if (hit) return hit;
  const compiled = build(source);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

function build(source: string): ToolMatcher {
  try {
    const re = compilePythonFullmatch(source);
    return Object.freeze({
      source,
      literal: false,
      error: null,
      test: (toolName: unknown) => typeof toolName === 'string' && re.test(toolName),
    });
  } catch (e) {
    return Object.freeze({
      source,
      literal: true,
      error: errorText(e),
      test: (toolName: unknown) => typeof toolName === 'string' && toolName === source,
    });
  }
}

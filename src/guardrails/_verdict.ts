// From counts to a verdict: whether a count reaches its warn or stop threshold, whether a stop is
// allowed on this platform, and which of several verdicts wins. Pure.

import { stopMessage, warningMessage, type LoopFact } from './_messages.js';
import type { GuardrailDetector, GuardrailsConfig, GuardrailVerdict } from './types.js';

export const INTERACTIVE_PLATFORMS: ReadonlySet<string> = new Set(['cli', 'tui', 'desktop', 'acp']);

const PRECEDENCE: readonly GuardrailDetector[] = ['exact_failure', 'cycle', 'idempotent_no_progress', 'same_tool_failure'];

/** Hard stops everywhere, or on a known non-interactive platform (never on a guess). */
function stopAllowed(config: GuardrailsConfig, platform: string | null): boolean {
  return config.hard_stop_enabled || (config.non_interactive_hard_stop_enabled && platform !== null && !INTERACTIVE_PLATFORMS.has(platform));
}

/** Past the stop threshold without a stop allowed, the call is warned instead. */
export function judge(config: GuardrailsConfig, fact: LoopFact, platform: string | null): GuardrailVerdict | null {
  const { detector, count } = fact;
  const stopAt = config.hard_stop_after[detector];
  const warnAt = config.warn_after[detector];
  const base = { detector, tool_name: fact.tool, count };
  if (count >= stopAt && stopAllowed(config, platform)) {
    return { action: 'stop', message: stopMessage(fact), threshold: stopAt, ...base };
  }
  if (config.warnings_enabled && (count >= warnAt || count >= stopAt)) {
    return { action: 'warn', message: warningMessage(fact), threshold: count >= warnAt ? warnAt : stopAt, ...base };
  }
  return null;
}

/** A stop beats a warning, then the most specific detector wins. */
export function strongest(verdicts: readonly GuardrailVerdict[]): GuardrailVerdict | null {
  if (verdicts.length === 0) return null;
  const rank = (v: GuardrailVerdict): number => (v.action === 'stop' ? 0 : 10) + PRECEDENCE.indexOf(v.detector);
  return [...verdicts].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

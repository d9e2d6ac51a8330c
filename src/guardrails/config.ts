// `tool_loop_guardrails:` → GuardrailsConfig + diagnostics. Pure; never throws. Anything
// malformed falls back to its default with a positioned warning.

import { diagnosticAt, type ConfigPath, type ConfigSource } from '../config/source.js';
import type { Diagnostic } from '../types.js';
import { pyRepr, pyTypeName } from '../util/python.js';
import { didYouMean } from '../util/did-you-mean.js';
import { GUARDRAIL_DETECTORS, type DetectorCounts, type GuardrailDetector, type GuardrailsConfig } from './types.js';
import { isPlainObject } from '../json.js';
import { errorText } from '../errors.js';

/** Counts above this are clamped: a loop that long is not a loop a guardrail can still save. */
export const MAX_GUARDRAIL_COUNT = 1000;

export const DEFAULT_GUARDRAILS_CONFIG: Readonly<GuardrailsConfig> = Object.freeze({
  warnings_enabled: true,
  hard_stop_enabled: false,
  non_interactive_hard_stop_enabled: true,
  warn_after: Object.freeze({ exact_failure: 2, idempotent_no_progress: 2, same_tool_failure: 3, cycle: 3 }),
  hard_stop_after: Object.freeze({ exact_failure: 5, idempotent_no_progress: 5, same_tool_failure: 8, cycle: 5 }),
});

const ROOT = 'tool_loop_guardrails';
const BOOL_KEYS = ['warnings_enabled', 'hard_stop_enabled', 'non_interactive_hard_stop_enabled'] as const;
const COUNT_KEYS = ['warn_after', 'hard_stop_after'] as const;
const KNOWN_KEYS: readonly string[] = [...BOOL_KEYS, ...COUNT_KEYS];

export function defaultGuardrailsConfig(): GuardrailsConfig {
  return {
    ...DEFAULT_GUARDRAILS_CONFIG,
    warn_after: { ...DEFAULT_GUARDRAILS_CONFIG.warn_after },
    hard_stop_after: { ...DEFAULT_GUARDRAILS_CONFIG.hard_stop_after },
  };
}

type Warn = (path: ConfigPath, message: string, key?: boolean) => void;

function warnUnknownKeys(raw: Record<string, unknown>, warn: Warn): void {
  for (const key of Object.keys(raw)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const sugg = didYouMean(key, KNOWN_KEYS);
    warn([ROOT, key], `${ROOT}.${key} is not a guardrail setting${sugg ? ` — did you mean '${sugg}'?` : ` (known: ${KNOWN_KEYS.join(', ')})`}; ignoring`, true);
  }
}

function readBools(raw: Record<string, unknown>, config: GuardrailsConfig, warn: Warn): void {
  for (const key of BOOL_KEYS) {
    if (!(key in raw)) continue;
    const v = raw[key];
    if (typeof v === 'boolean') config[key] = v;
    else warn([ROOT, key], `${ROOT}.${key} must be a boolean (got ${pyRepr(v)}); using default ${config[key]}`);
  }
}

/** One `warn_after` / `hard_stop_after` mapping of detector → count into `counts`. */
function readCounts(key: (typeof COUNT_KEYS)[number], section: Record<string, unknown>, counts: DetectorCounts, warn: Warn): void {
  for (const [name, value] of Object.entries(section)) {
    const path: ConfigPath = [ROOT, key, name];
    if (!(GUARDRAIL_DETECTORS as readonly string[]).includes(name)) {
      const sugg = didYouMean(name, GUARDRAIL_DETECTORS);
      warn(
        path,
        `${ROOT}.${key}.${name} is not a loop detector${sugg ? ` — did you mean '${sugg}'?` : ` (known: ${GUARDRAIL_DETECTORS.join(', ')})`}; ignoring`,
        true,
      );
      continue;
    }
    const det = name as GuardrailDetector;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      warn(path, `${ROOT}.${key}.${det} must be a positive integer (got ${pyRepr(value)}); using default ${counts[det]}`);
      continue;
    }
    if (value > MAX_GUARDRAIL_COUNT) {
      warn(path, `${ROOT}.${key}.${det}=${value} exceeds max ${MAX_GUARDRAIL_COUNT}; clamping`);
      counts[det] = MAX_GUARDRAIL_COUNT;
      continue;
    }
    counts[det] = value;
  }
}

function readCountSections(raw: Record<string, unknown>, config: GuardrailsConfig, warn: Warn): void {
  for (const key of COUNT_KEYS) {
    if (!(key in raw)) continue;
    const section = raw[key];
    if (section === null || section === undefined) continue;
    if (!isPlainObject(section)) {
      warn([ROOT, key], `${ROOT}.${key} must be a mapping of detector → count; got ${pyTypeName(section)}; using defaults`);
      continue;
    }
    readCounts(key, section, config[key], warn);
  }
}

/** A warning threshold at or above its stop threshold never warns where stops apply: say so. */
function warnUnorderedThresholds(raw: Record<string, unknown>, config: GuardrailsConfig, warn: Warn): void {
  for (const det of GUARDRAIL_DETECTORS) {
    const w = config.warn_after[det];
    const s = config.hard_stop_after[det];
    if (w < s) continue;
    const explicit = isPlainObject(raw['warn_after']) && det in raw['warn_after'] ? 'warn_after' : 'hard_stop_after';
    warn(
      [ROOT, explicit, det],
      `${ROOT}: warn_after.${det} (${w}) is not below hard_stop_after.${det} (${s}); where hard stops apply, the loop is stopped without a warning first`,
    );
  }
}

export function parseGuardrailsConfig(source: ConfigSource): { config: GuardrailsConfig; diagnostics: Diagnostic[] } {
  const config = defaultGuardrailsConfig();
  const diagnostics: Diagnostic[] = [];
  const warn: Warn = (path, message, key = false) => {
    diagnostics.push(diagnosticAt(source, 'warning', path, message, { key }));
  };
  try {
    const data = source.data;
    if (!isPlainObject(data)) return { config, diagnostics };
    const raw = data[ROOT];
    if (raw === null || raw === undefined) return { config, diagnostics };
    if (!isPlainObject(raw)) {
      warn([ROOT], `${ROOT} must be a mapping; got ${pyTypeName(raw)}; using defaults`);
      return { config, diagnostics };
    }
    warnUnknownKeys(raw, warn);
    readBools(raw, config, warn);
    readCountSections(raw, config, warn);
    warnUnorderedThresholds(raw, config, warn);
  } catch (e) {
    diagnostics.push({ level: 'error', path: ROOT, line: null, column: null, message: `${ROOT} could not be read: ${errorText(e)}`, file: source.file });
  }
  return { config, diagnostics };
}

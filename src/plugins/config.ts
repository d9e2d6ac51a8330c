// `plugins:` in config.yaml → which plugins to load and how long one hook callback may take.
// Pure: reads the parsed ConfigSource, returns values plus positioned diagnostics. Never throws.

import { isPlainObject } from '../json.js';
import { diagnosticAt, type ConfigSource } from '../config/source.js';
import type { Diagnostic } from '../types.js';

export const DEFAULT_HOOK_CALLBACK_TIMEOUT_S = 30;
export const MAX_HOOK_CALLBACK_TIMEOUT_S = 600;

export interface PluginsConfig {
  /** Plugin directory names to load, in config order, minus any in `plugins.disabled`. */
  enabled: string[];
  /** Bound for one callback call in ms; null = unbounded (`hook_callback_timeout: 0`). */
  hookCallbackTimeoutMs: number | null;
  diagnostics: Diagnostic[];
}

export function parsePluginsConfig(source: ConfigSource): PluginsConfig {
  const diagnostics: Diagnostic[] = [];
  const out: PluginsConfig = {
    enabled: [],
    hookCallbackTimeoutMs: DEFAULT_HOOK_CALLBACK_TIMEOUT_S * 1000,
    diagnostics,
  };
  const root = source.data;
  if (!isPlainObject(root)) return out;
  const plugins = root.plugins;
  if (plugins === undefined || plugins === null) return out;
  if (!isPlainObject(plugins)) {
    diagnostics.push(diagnosticAt(source, 'warning', ['plugins'], '`plugins` must be a mapping; ignored'));
    return out;
  }

  const enabled = nameList(source, plugins, 'enabled', diagnostics);
  const disabled = new Set(nameList(source, plugins, 'disabled', diagnostics));
  out.enabled = enabled.filter((n) => !disabled.has(n));
  out.hookCallbackTimeoutMs = parseTimeout(source, plugins.hook_callback_timeout, diagnostics);
  return out;
}

function nameList(source: ConfigSource, plugins: Record<string, unknown>, key: 'enabled' | 'disabled', diagnostics: Diagnostic[]): string[] {
  const raw = plugins[key];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    diagnostics.push(diagnosticAt(source, 'warning', ['plugins', key], `plugins.${key} must be a list of plugin names; ignored`));
    return [];
  }
  const names: string[] = [];
  raw.forEach((item, i) => {
    const name = typeof item === 'string' ? item.trim() : '';
    if (!name) {
      diagnostics.push(diagnosticAt(source, 'warning', ['plugins', key, i], `plugins.${key}[${i}] must be a non-empty plugin name; ignored`));
    } else if (!names.includes(name)) {
      names.push(name);
    }
  });
  return names;
}

// Hermes: default 30 s; 0 disables the bound; above 600 is capped; negative or non-numeric falls
// back to 30 with a warning. Numeric strings count (Python's float("45") works).
function parseTimeout(source: ConfigSource, raw: unknown, diagnostics: Diagnostic[]): number | null {
  const path = ['plugins', 'hook_callback_timeout'];
  const fallback = DEFAULT_HOOK_CALLBACK_TIMEOUT_S * 1000;
  if (raw === undefined || raw === null) return fallback;
  let seconds: number | null = null;
  if (typeof raw === 'number') seconds = raw;
  else if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw.trim()))) seconds = Number(raw.trim());
  if (seconds === null || !Number.isFinite(seconds)) {
    diagnostics.push(
      diagnosticAt(source, 'warning', path, `plugins.hook_callback_timeout must be a number of seconds; using ${DEFAULT_HOOK_CALLBACK_TIMEOUT_S}`),
    );
    return fallback;
  }
  if (seconds < 0) {
    diagnostics.push(
      diagnosticAt(source, 'warning', path, `plugins.hook_callback_timeout is negative; using ${DEFAULT_HOOK_CALLBACK_TIMEOUT_S} (0 disables the bound)`),
    );
    return fallback;
  }
  if (seconds === 0) return null;
  if (seconds > MAX_HOOK_CALLBACK_TIMEOUT_S) {
    diagnostics.push(
      diagnosticAt(source, 'warning', path, `plugins.hook_callback_timeout ${seconds} is above the maximum; using ${MAX_HOOK_CALLBACK_TIMEOUT_S}`),
    );
    return MAX_HOOK_CALLBACK_TIMEOUT_S * 1000;
  }
  return seconds * 1000;
}

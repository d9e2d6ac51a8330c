// plugin.yaml → the plugin's declared name and entry module. Pure: takes the parsed source.
// Hermes plugin manifests are a mapping with at least `name`; we add an optional `entry` (or
// `main`) naming the ES module that exports `register(ctx)`, relative to the plugin folder.

import path from 'node:path';
import { diagnosticAt, type ConfigSource } from '../config/source.js';
import type { Diagnostic } from '../types.js';

export interface PluginManifest {
  name: string;
  description: string | null;
  /** Entry module relative to the plugin folder, or null for the default (index.mjs, index.js). */
  entry: string | null;
}

export function parsePluginManifest(source: ConfigSource): { manifest: PluginManifest | null; diagnostics: Diagnostic[] } {
  if (source.syntaxError) return { manifest: null, diagnostics: [source.syntaxError] };
  const data = source.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { manifest: null, diagnostics: [diagnosticAt(source, 'error', [], 'plugin.yaml must be a mapping')] };
  }
  const m = data as Record<string, unknown>;
  if (typeof m.name !== 'string' || m.name.trim() === '') {
    return { manifest: null, diagnostics: [diagnosticAt(source, 'error', ['name'], 'plugin.yaml needs a non-empty `name`')] };
  }
  const entryKey = m.entry !== undefined ? 'entry' : m.main !== undefined ? 'main' : null;
  let entry: string | null = null;
  if (entryKey) {
    const raw = m[entryKey];
    if (typeof raw !== 'string' || raw.trim() === '') {
      return { manifest: null, diagnostics: [diagnosticAt(source, 'error', [entryKey], `plugin.yaml \`${entryKey}\` must be a file name`)] };
    }
    const rel = raw.trim();
    if (path.isAbsolute(rel) || path.normalize(rel).split(path.sep)[0] === '..') {
      return {
        manifest: null,
        diagnostics: [diagnosticAt(source, 'error', [entryKey], `plugin.yaml \`${entryKey}\` must stay inside the plugin folder: ${rel}`)],
      };
    }
    entry = rel;
  }
  const description = typeof m.description === 'string' ? m.description : null;
  return { manifest: { name: m.name.trim(), description, entry }, diagnostics: [] };
}

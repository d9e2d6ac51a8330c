// HOOK.yaml → name and events, or the reason the hook is skipped. Pure.
// Hermes: the manifest must parse to a mapping with a non-empty `events` list; `name` defaults to
// the directory name; `description` is informational.

import { parseConfigText } from '../config/source.js';

export interface GatewayHookManifest {
  name: string;
  description: string | null;
  events: string[];
  /** Declared events that can never fire (no `:`), for a warning. */
  inert: string[];
}

export function parseGatewayHookManifest(text: string, file: string, dirName: string): { manifest: GatewayHookManifest } | { error: string } {
  const source = parseConfigText(text, file);
  if (source.syntaxError) {
    const at = source.syntaxError.line !== null ? ` (line ${source.syntaxError.line})` : '';
    return { error: `invalid HOOK.yaml: ${source.syntaxError.message}${at}` };
  }
  const data = source.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: 'HOOK.yaml is not a mapping' };
  const m = data as Record<string, unknown>;
  const raw = m.events;
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) return { error: 'no events declared' };
  if (!Array.isArray(raw)) return { error: '`events` must be a list of event names' };
  const events: string[] = [];
  for (const e of raw) {
    if (typeof e !== 'string' || e.trim() === '') return { error: `\`events\` must be a list of event names (got ${JSON.stringify(e)})` };
    if (!events.includes(e.trim())) events.push(e.trim());
  }
  const name = typeof m.name === 'string' && m.name.trim() !== '' ? m.name.trim() : dirName;
  const description = typeof m.description === 'string' ? m.description : null;
  return { manifest: { name, description, events, inert: events.filter((e) => !e.includes(':')) } };
}

// Small value helpers shared by the dialect modules, the agent records and agent-wiring/.

import { isPlainObject } from '../json.js';
import type { JsonObject } from '../types.js';

/** The value when it is a string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The value when it is a finite number, else null. */
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A string that is non-blank after trimming, else undefined. */
export function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The first argument that is a non-blank string. */
export function firstText(...values: unknown[]): string | undefined {
  for (const v of values) {
    const s = nonBlank(v);
    if (s !== undefined) return s;
  }
  return undefined;
}

/** Hermes' user_message is a string or a list of content parts; agents want the text. */
export function promptText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((part) => (typeof part === 'string' ? part : isPlainObject(part) && typeof part['text'] === 'string' ? part['text'] : ''))
      .filter((s) => s !== '')
      .join('\n');
  }
  return '';
}

/** Hermes passes a tool result as a JSON string; agents pass the value. Keep text that is not JSON. */
export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const t = value.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return value;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return value;
  }
}

/** Parse text that must be exactly one JSON object; null otherwise. */
export function parseJsonObject(text: string): JsonObject | null {
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}

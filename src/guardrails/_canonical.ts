// Canonical JSON (object keys sorted at every depth) and short digests, so two calls compare
// equal exactly when their arguments or results mean the same JSON. Pure.

import { createHash } from 'node:crypto';

function canon(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : String(value);
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return null;
    default:
      break;
  }
  const obj = value as object;
  if (ancestors.has(obj)) return '[Circular]';
  ancestors.add(obj);
  try {
    const withToJson = obj as { toJSON?: unknown };
    if (typeof withToJson.toJSON === 'function') return canon((withToJson.toJSON as () => unknown).call(obj), ancestors);
    if (Array.isArray(obj)) return obj.map((v) => canon(v, ancestors));
    if (obj instanceof Map) return canon(Object.fromEntries([...obj].map(([k, v]) => [String(k), v])), ancestors);
    if (obj instanceof Set) return [...obj].map((v) => canon(v, ancestors));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj).sort()) {
      const v = (obj as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out[key] = canon(v, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/** JSON with keys sorted recursively; never throws (cycles → "[Circular]"). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canon(value, new Set()));
}

/** A tool result as comparable text: a JSON string is canonicalised, any other string kept as is. */
export function canonicalResult(result: unknown): string {
  if (typeof result === 'string') {
    try {
      return canonicalJson(JSON.parse(result));
    } catch {
      return `raw:${result}`;
    }
  }
  return canonicalJson(result);
}

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

// JSON for the wire with Python's `json.dumps(default=str)` spirit: values JSON cannot hold are
// turned into strings instead of failing the delivery. Strict JSON: NaN/±Infinity become null.
// Pure.

const MAX_DEPTH = 200;

function safe(value: unknown, ancestors: Set<object>, depth: number): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  const obj = value as object;
  if (ancestors.has(obj)) return '[Circular]';
  if (depth > MAX_DEPTH) return String(obj);
  ancestors.add(obj);
  try {
    const withToJson = obj as { toJSON?: unknown };
    if (typeof withToJson.toJSON === 'function') {
      return safe((withToJson.toJSON as () => unknown).call(obj), ancestors, depth + 1);
    }
    if (Array.isArray(obj)) return obj.map((v) => safe(v, ancestors, depth + 1) ?? null);
    if (obj instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of obj) out[String(k)] = safe(v, ancestors, depth + 1);
      return out;
    }
    if (obj instanceof Set) return [...obj].map((v) => safe(v, ancestors, depth + 1) ?? null);
    if (obj instanceof Error) return String(obj);
    if (ArrayBuffer.isView(obj)) return String(obj);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) {
      const v = safe((obj as Record<string, unknown>)[key], ancestors, depth + 1);
      if (v !== undefined) out[key] = v;
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/** A JSON-safe deep copy of `value` (undefined stays undefined so callers can omit it). */
export function toWireValue(value: unknown): unknown {
  return safe(value, new Set(), 0);
}

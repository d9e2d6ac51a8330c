// Kwargs on their way out of the host (to a Python worker or a worker thread). Host kwargs are
// plain data, but a stray BigInt, cycle or function must not make the call fail: like Python's
// json.dumps(default=str), anything JSON cannot say becomes a string (cycles → "[Circular]").

export function jsonSafe(value: unknown): unknown {
  const stack: object[] = [];
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint' || typeof v === 'symbol') return v.toString();
    if (typeof v === 'undefined' || typeof v === 'function') return undefined;
    const obj = v as object;
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? String(obj) : obj.toISOString();
    if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') return walk((obj as { toJSON: () => unknown }).toJSON());
    if (stack.includes(obj)) return '[Circular]';
    stack.push(obj);
    try {
      if (Array.isArray(obj)) return obj.map((item) => walk(item) ?? null);
      if (obj instanceof Map) return walk(Object.fromEntries(obj));
      if (obj instanceof Set) return walk([...obj]);
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(obj)) {
        const w = walk(item);
        if (w !== undefined) out[k] = w;
      }
      return out;
    } finally {
      stack.pop();
    }
  };
  return walk(value);
}

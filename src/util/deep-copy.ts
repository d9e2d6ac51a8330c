// Each in-process callback gets its own copy of the kwargs so one callback's mutation can neither
// leak into another's view nor change the tool call (Hermes: modify must be returned).
// Plain objects, arrays, Dates, Maps and Sets are copied (cycles kept); anything else (class
// instances, functions, live host objects) is passed by reference, as it cannot be cloned faithfully.

export function deepCopy<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Map) {
    const out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(k, copy(v, seen));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(copy(v, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  seen.set(value, out);
  for (const [k, v] of Object.entries(value)) out[k] = copy(v, seen);
  return out;
}

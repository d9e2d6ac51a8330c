// A canonical text for deep-equality of JSON-like values: object keys sorted, and the values JSON
// would collapse (NaN, ±Infinity, -0 vs 0 aside, undefined) kept apart. Cycles get a marker.

export function canonicalJson(value: unknown): string {
  const ancestors = new Set<object>();
  const walk = (v: unknown): string => {
    switch (typeof v) {
      case 'number':
        return Number.isFinite(v) ? JSON.stringify(v) : `#${String(v)}`;
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'bigint':
        return `#${v.toString()}n`;
      case 'undefined':
        return '#undefined';
      case 'symbol':
      case 'function':
        return `#${typeof v}`;
      default:
        break;
    }
    if (v === null) return 'null';
    const obj = v as object;
    if (ancestors.has(obj)) return '#cycle';
    ancestors.add(obj);
    try {
      if (Array.isArray(obj)) return `[${obj.map(walk).join(',')}]`;
      const keys = Object.keys(obj).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${walk((obj as Record<string, unknown>)[k])}`).join(',')}}`;
    } finally {
      ancestors.delete(obj);
    }
  };
  try {
    return walk(value);
  } catch {
    return '#unreadable';
  }
}

// JSON-shaped values: what counts as a dict, and a canonical text for "means the same JSON".
// Pure; shared by every module that reads YAML/JSON data or compares arguments.

/**
 * A dict in Python terms: a non-null, non-array object whose prototype is Object.prototype or
 * null. So Date, Map, Set, typed arrays and class instances are not plain objects, while YAML
 * `toJS()` mappings and `JSON.parse` objects are.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * JSON text with object keys sorted at every depth, so two values give the same text exactly when
 * they mean the same JSON (key order aside). toJSON is honoured (Date → ISO string), a Map is an
 * object with String() keys, a Set an array; undefined, functions and symbols are dropped from
 * objects and null elsewhere; -0 is 0; NaN/±Infinity are the strings "NaN"/"Infinity"/"-Infinity"
 * (as Python's json.dumps writes them) and a bigint is its decimal string. A cycle is the string
 * "[Circular]". Never throws.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(canon(value, new Set()));
  } catch {
    // Only a hostile value (a throwing getter, toJSON or iterator) gets here.
    return '"[Unreadable]"';
  }
}

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
      // defineProperty keeps a "__proto__" key as an ordinary key.
      Object.defineProperty(out, key, { value: canon(v, ancestors), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/**
 * Host data on its way to a Python worker or a worker thread (plugin kwargs, gateway contexts).
 * Host data is plain, but a stray BigInt, cycle or function must not make the call fail or the
 * event vanish: like Python's json.dumps(default=str), anything JSON cannot say becomes a string
 * (cycles → "[Circular]").
 */
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

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
    return JSON.stringify(canon(value, new Set(), true));
  } catch {
    // Only a hostile value (a throwing getter, toJSON or iterator) gets here.
    return '"[Unreadable]"';
  }
}

function canon(value: unknown, ancestors: Set<object>, sortKeys: boolean): unknown {
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
    if (typeof withToJson.toJSON === 'function') return canon((withToJson.toJSON as () => unknown).call(obj), ancestors, sortKeys);
    if (Array.isArray(obj)) return obj.map((v) => canon(v, ancestors, sortKeys));
    if (obj instanceof Map) return canon(Object.fromEntries([...obj].map(([k, v]) => [String(k), v])), ancestors, sortKeys);
    if (obj instanceof Set) return [...obj].map((v) => canon(v, ancestors, sortKeys));
    const out: Record<string, unknown> = {};
    const keys = Object.keys(obj);
    for (const key of sortKeys ? keys.sort() : keys) {
      const v = (obj as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      // defineProperty keeps a "__proto__" key as an ordinary key.
      Object.defineProperty(out, key, { value: canon(v, ancestors, sortKeys), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/**
 * Host data on its way to a Python worker or a worker thread (plugin kwargs, gateway contexts).
 * Host data is plain, but a stray BigInt, cycle or function must not make the call fail or the
 * event vanish: the same walk as canonicalJson (anything JSON cannot say becomes a string or null,
 * cycles "[Circular]", a `__proto__` key stays a key) with the keys in their own order, and a
 * hostile value (a throwing getter or toJSON) is the string "[Unreadable]".
 */
export function jsonSafe(value: unknown): unknown {
  try {
    return canon(value, new Set(), false);
  } catch {
    return '[Unreadable]';
  }
}

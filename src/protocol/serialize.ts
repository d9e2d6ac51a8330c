// Turns any JS value into the strict JSON text hooks read on stdin. Like Hermes's
// `json.dumps(payload, ensure_ascii=False, default=str)`: separators ", " and ": ", raw UTF-8,
// values JSON cannot express are written as strings. Unlike Hermes: NaN/±Infinity become null
// (strict JSON, so jq and JSON.parse accept it) and a cycle becomes a marker instead of an
// exception (Hermes raises inside the callback and the hook never runs).
//
// Never throws: every property read, toJSON call and String() conversion is guarded.

export const CIRCULAR_MARKER = '[Circular]';
export const TOO_DEEP_MARKER = '[Too deep]';
export const UNREADABLE_MARKER = '[Unreadable]';

/** Python's json.dumps recursion limit is about this deep; beyond it we write a marker. */
const MAX_DEPTH = 900;

/** The stdin text for a payload (or any value): strict JSON, no trailing newline. Never throws. */
export function serializePayload(payload: unknown): string {
  return toWireJson(payload);
}

export interface WireJsonOptions {
  /**
   * How a bigint is written: 'number' (default) as its digits, like Python's json.dumps writes an
   * int; 'string' as a JSON string, so receivers that parse numbers as doubles keep every digit.
   */
  bigint?: 'number' | 'string';
}

interface Walk {
  ancestors: Set<object>;
  bigintAsString: boolean;
}

/** Strict JSON text for any value, with Python-style separators. Never throws. */
export function toWireJson(value: unknown, opts: WireJsonOptions = {}): string {
  try {
    const out: string[] = [];
    write(value, out, { ancestors: new Set(), bigintAsString: opts.bigint === 'string' }, 0);
    return out.join('');
  } catch {
    // Only reachable on engine-level failures (e.g. out of memory while joining); still answer.
    return JSON.stringify(safeString(value));
  }
}

/**
 * `raw` = write an object's own structure without converting it again (used for the result of a
 * toJSON/Map/Set conversion, like JSON.stringify, which never calls toJSON on a toJSON result).
 */
function write(value: unknown, out: string[], walk: Walk, depth: number, raw = false): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      // Python ints have no size limit and json.dumps writes them as numbers; so do we by default.
      out.push(walk.bigintAsString ? JSON.stringify(value.toString()) : value.toString());
      return;
    case 'undefined':
      out.push('null');
      return;
    case 'symbol':
      out.push(JSON.stringify(safeString(value)));
      return;
    case 'function':
      out.push(JSON.stringify(`<function ${safeFunctionName(value as { name?: unknown })}>`));
      return;
    default:
      break;
  }
  if (value === null) {
    out.push('null');
    return;
  }
  const obj = value as object;
  if (walk.ancestors.has(obj)) {
    out.push(JSON.stringify(CIRCULAR_MARKER));
    return;
  }
  if (depth >= MAX_DEPTH) {
    out.push(JSON.stringify(TOO_DEEP_MARKER));
    return;
  }
  if (!raw) {
    const converted = convertSpecial(obj);
    if (converted !== NOT_SPECIAL) {
      write(converted.value, out, walk, depth + 1, true);
      return;
    }
  }
  walk.ancestors.add(obj);
  try {
    if (safeIsArray(obj)) writeArray(obj, out, walk, depth);
    else writeObject(obj, out, walk, depth);
  } finally {
    walk.ancestors.delete(obj);
  }
}

function writeArray(arr: unknown[], out: string[], walk: Walk, depth: number): void {
  let length: number;
  try {
    length = arr.length;
  } catch {
    out.push(JSON.stringify(UNREADABLE_MARKER));
    return;
  }
  out.push('[');
  for (let i = 0; i < length; i++) {
    if (i > 0) out.push(', ');
    write(readProperty(arr, i), out, walk, depth + 1);
  }
  out.push(']');
}

function writeObject(obj: object, out: string[], walk: Walk, depth: number): void {
  let keys: string[];
  try {
    keys = Object.keys(obj);
  } catch {
    out.push(JSON.stringify(UNREADABLE_MARKER));
    return;
  }
  out.push('{');
  let first = true;
  for (const key of keys) {
    const child = readProperty(obj, key);
    // undefined, like in JSON.stringify, means "no such key" inside objects.
    if (child === undefined) continue;
    if (!first) out.push(', ');
    first = false;
    out.push(JSON.stringify(key), ': ');
    write(child, out, walk, depth + 1);
  }
  out.push('}');
}

const NOT_SPECIAL = Symbol('not special');

/**
 * Objects JSON has no shape for, mapped to something a hook can use. Returns NOT_SPECIAL for plain
 * objects and arrays, which are written key by key.
 */
function convertSpecial(obj: object): { value: unknown } | typeof NOT_SPECIAL {
  try {
    if (safeIsArray(obj)) return NOT_SPECIAL;
    // Boxed primitives: JSON.stringify unwraps them too.
    if (obj instanceof String || obj instanceof Number || obj instanceof Boolean || obj instanceof BigInt) {
      return { value: (obj as { valueOf(): unknown }).valueOf() };
    }
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      // Date → ISO string, Buffer → {type, data}, URL → href, …
      return { value: (toJSON as (key: string) => unknown).call(obj, '') };
    }
    if (obj instanceof Map) {
      const entries: Record<string, unknown> = {};
      for (const [k, v] of obj) defineKey(entries, mapKey(k), v);
      return { value: entries };
    }
    if (obj instanceof Set) return { value: [...obj] };
    if (obj instanceof Error) {
      const err: Record<string, unknown> = { name: obj.name, message: obj.message };
      const code = (obj as { code?: unknown }).code;
      if (typeof code === 'string' || typeof code === 'number') err.code = code;
      return { value: err };
    }
    if (obj instanceof RegExp) return { value: String(obj) };
    if (ArrayBuffer.isView(obj)) {
      if (obj instanceof DataView) return { value: [...new Uint8Array(obj.buffer, obj.byteOffset, obj.byteLength)] };
      return { value: Array.from(obj as unknown as ArrayLike<unknown>) };
    }
    if (obj instanceof ArrayBuffer) return { value: [...new Uint8Array(obj)] };
    if (obj instanceof WeakMap || obj instanceof WeakSet || obj instanceof Promise) {
      return { value: `<${obj.constructor.name}>` };
    }
    return NOT_SPECIAL;
  } catch {
    // A throwing toJSON/getter/iterator: fall back to what Python's default=str would give.
    return { value: safeString(obj) };
  }
}

function safeIsArray(obj: object): obj is unknown[] {
  try {
    return Array.isArray(obj);
  } catch {
    return false; // a revoked Proxy
  }
}

function mapKey(k: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean' || k === null || k === undefined) {
    return String(k);
  }
  return safeString(k);
}

function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty so a "__proto__" key stays an ordinary key.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function readProperty(obj: object, key: string | number): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch {
    return UNREADABLE_MARKER;
  }
}

function safeFunctionName(fn: { name?: unknown }): string {
  try {
    return typeof fn.name === 'string' && fn.name ? fn.name : 'anonymous';
  } catch {
    return 'anonymous';
  }
}

/** String(value), or a marker when even that throws (e.g. an object with a throwing toString). */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return UNREADABLE_MARKER;
    }
  }
}

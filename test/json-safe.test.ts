import { describe, expect, it } from 'vitest';
import { jsonSafe as safeJsonValue } from '../src/json.js';

describe('jsonSafe (plugin kwargs and gateway contexts sent to workers)', () => {
  it('keeps plain data and stringifies what JSON cannot say, like json.dumps(default=str)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const value = {
      s: 'x',
      n: 1.5,
      big: 10n,
      nan: Number.NaN,
      date: new Date('2026-01-02T03:04:05.000Z'),
      fn: () => 1,
      undef: undefined,
      list: [1, undefined, 'z'],
      map: new Map([['k', 'v']]),
      set: new Set([1, 2]),
      cyclic,
      shared: [cyclic, cyclic],
    };
    expect(JSON.parse(JSON.stringify(safeJsonValue(value)))).toEqual({
      s: 'x',
      n: 1.5,
      big: '10',
      nan: 'NaN',
      date: '2026-01-02T03:04:05.000Z',
      list: [1, null, 'z'],
      map: { k: 'v' },
      set: [1, 2],
      cyclic: { a: 1, self: '[Circular]' },
      shared: [
        { a: 1, self: '[Circular]' },
        { a: 1, self: '[Circular]' },
      ],
    });
  });

  it('keeps a "__proto__" key as data and never throws on a hostile value', () => {
    const parsed = JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown;
    const safe = safeJsonValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(JSON.stringify(safe)).toBe('{"__proto__":{"a":1},"b":2}');
    const hostile = {
      ok: 1,
      get bad(): never {
        throw new Error('no');
      },
    };
    expect(safeJsonValue(hostile)).toBe('[Unreadable]');
  });
});

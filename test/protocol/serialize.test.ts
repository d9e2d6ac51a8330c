import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CIRCULAR_MARKER, TOO_DEEP_MARKER, serializePayload } from '../../src/protocol/serialize.js';

const rt = (v: unknown) => JSON.parse(serializePayload(v)) as unknown;

describe('serializePayload', () => {
  it('writes Python json.dumps spacing', () => {
    expect(serializePayload({ a: [1, 'x', true, null], b: {} })).toBe('{"a": [1, "x", true, null], "b": {}}');
    expect(serializePayload([])).toBe('[]');
  });

  it('keeps non-ASCII as raw UTF-8 and escapes only what JSON requires', () => {
    expect(serializePayload({ s: 'é 日本 😀 "q" \\ \n \u0001' })).toBe('{"s": "é 日本 😀 \\"q\\" \\\\ \\n \\u0001"}');
  });

  it('emits null for NaN and ±Infinity (strict JSON)', () => {
    expect(serializePayload({ a: NaN, b: Infinity, c: [-Infinity] })).toBe('{"a": null, "b": null, "c": [null]}');
  });

  it('replaces cycles with a marker instead of throwing, but repeats shared (acyclic) references', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const shared = { x: 1 };
    const list: unknown[] = [shared, shared];
    list.push(list);
    expect(rt({ a, list })).toEqual({ a: { name: 'a', self: CIRCULAR_MARKER }, list: [{ x: 1 }, { x: 1 }, CIRCULAR_MARKER] });
  });

  it('writes bigint as a JSON number, like Python writes its ints', () => {
    expect(serializePayload({ n: 12345678901234567890123n })).toBe('{"n": 12345678901234567890123}');
  });

  it('stringifies what JSON cannot express, like Python default=str', () => {
    function namedFn() {}
    expect(rt({ sym: Symbol('s'), fn: namedFn, arrow: [() => 1] })).toEqual({
      sym: 'Symbol(s)',
      fn: '<function namedFn>',
      arrow: ['<function anonymous>'],
    });
  });

  it('undefined: dropped from objects, null in arrays (JSON.stringify conventions)', () => {
    expect(serializePayload({ a: undefined, b: [undefined, 1] })).toBe('{"b": [null, 1]}');
    expect(serializePayload(undefined)).toBe('null');
  });

  it('maps Date, Map, Set, Error, Buffer, typed arrays, RegExp, URL and boxed values to sensible JSON', () => {
    const err = Object.assign(new TypeError('bad input'), { code: 'E_BAD' });
    expect(
      rt({
        date: new Date(Date.UTC(2026, 10, 30, 10, 0, 0)),
        bad: new Date(NaN),
        map: new Map<unknown, unknown>([
          ['k', 1],
          [2, 'two'],
          [null, { deep: new Set([1]) }],
        ]),
        set: new Set(['a', 'b']),
        err,
        buf: Buffer.from('hi'),
        u8: new Uint8Array([1, 2]),
        f64: new Float64Array([0.5, NaN]),
        re: /ab+c/gi,
        url: new URL('https://example.com/a?b=1'),
        boxed: [Object(1), Object('s'), Object(true)],
      }),
    ).toEqual({
      date: '2026-11-30T10:00:00.000Z',
      bad: null,
      map: { k: 1, '2': 'two', null: { deep: [1] } },
      set: ['a', 'b'],
      err: { name: 'TypeError', message: 'bad input', code: 'E_BAD' },
      buf: { type: 'Buffer', data: [104, 105] },
      u8: [1, 2],
      f64: [0.5, null],
      re: '/ab+c/gi',
      url: 'https://example.com/a?b=1',
      boxed: [1, 's', true],
    });
  });

  it('survives throwing getters, throwing toJSON, revoked proxies and absurd depth', () => {
    const hostile = {
      get boom(): never {
        throw new Error('no');
      },
      toJSONish: {
        toJSON: () => {
          throw new Error('nope');
        },
      },
      revoked: (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
      ok: 1,
    };
    const out = rt(hostile) as Record<string, unknown>;
    expect(out.ok).toBe(1);
    expect(typeof out.boom).toBe('string');
    expect(typeof out.toJSONish).toBe('string');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    const text = serializePayload({ deep });
    expect(text).toContain(TOO_DEEP_MARKER);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('property: any value, including cycles, bigint and NaN, gives text JSON.parse accepts', () => {
    const withOddities = fc
      .tuple(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
          withSparseArray: true,
          withBoxedValues: true,
        }),
        fc.boolean(),
      )
      .map(([v, cyclic]) => {
        if (cyclic && v !== null && typeof v === 'object') {
          try {
            (v as Record<string, unknown>).cycle = v;
          } catch {
            // frozen or exotic: leave it acyclic
          }
        }
        return { payload: v, nan: NaN, big: 1n, inf: -Infinity };
      });
    fc.assert(
      fc.property(withOddities, (v) => {
        const text = serializePayload(v);
        expect(typeof text).toBe('string');
        expect(() => JSON.parse(text)).not.toThrow();
        expect(text.endsWith('\n')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: for plain JSON values it round-trips exactly', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(serializePayload(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});

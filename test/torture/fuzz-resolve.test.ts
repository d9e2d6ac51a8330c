// Torture: fast-check fuzzing of the resolver on well-formed directives mixed with garbage (what a
// buggy plugin may return). resolve() must be total and deterministic, never mutate its inputs,
// keep every index in range, let any block dominate pre_tool_call, and merge modifies as a left
// fold of shallow merges (so resolving a list in two halves gives the same arguments).

import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCK_MESSAGE } from '../../src/directives/messages.js';
import { EVENT_NAMES, type EventName } from '../../src/events.js';
import { DecisionSchema } from '../../src/protocol/decision.js';
import { resolve } from '../../src/resolve/resolve.js';
import type { Directive, JsonObject } from '../../src/types.js';

const key = fc.constantFrom('a', 'b', 'command', 'timeout', '__proto__', 'constructor');
const args: fc.Arbitrary<JsonObject> = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', '  ', '\n', 'x'));

const wellFormed: fc.Arbitrary<Directive> = fc.oneof(
  fc.record({ action: fc.constant('block' as const), message: text }),
  fc.record({ action: fc.constant('modify' as const), args }),
  fc.record({ action: fc.constant('approve' as const), message: text, rule_key: text }, { requiredKeys: ['action'] }),
  fc.record({ action: fc.constant('continue' as const), message: text }),
  fc.record({ action: fc.constant('context' as const), context: text }),
  fc.record({ action: fc.constant('notify' as const), message: text }),
  fc.record({ action: fc.constant('handled' as const), reply: text }, { requiredKeys: ['action'] }),
);
/** Almost-directives and plain junk, typed as Directive to get past the compiler like plugin output does. */
const garbage = fc
  .oneof(
    fc.anything({ maxDepth: 2 }),
    fc.record(
      { action: fc.constantFrom('block', 'modify', 'approve', 'BLOCK', 'allow', 7), message: fc.anything({ maxDepth: 1 }), args: fc.anything({ maxDepth: 1 }) },
      { requiredKeys: [] },
    ),
  )
  .map((v) => v as Directive | null);
const directives = fc.array(fc.oneof(fc.constant(null), wellFormed, wellFormed, garbage), { maxLength: 10 });
const preToolDirectives = fc.array(fc.oneof(fc.constant(null), wellFormed), { maxLength: 10 });
const original = fc.option(args, { nil: null });
const events = fc.constantFrom<EventName>(...EVENT_NAMES);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The merge law, written independently: a left fold of shallow merges of non-empty modify args.
 * Keys are defined, not assigned, so an own `__proto__` key stays a plain key (as with spread).
 */
function foldModifies(ds: readonly (Directive | null)[], orig: JsonObject | null): { args: JsonObject | null; by: number[] } {
  let merged: JsonObject | null = null;
  const by: number[] = [];
  const copyInto = (target: JsonObject, from: JsonObject): void => {
    for (const k of Object.keys(from)) Object.defineProperty(target, k, { value: from[k], enumerable: true, writable: true, configurable: true });
  };
  ds.forEach((d, i) => {
    if (d?.action === 'modify' && isObj(d.args) && Object.keys(d.args).length > 0) {
      const next: JsonObject = {};
      copyInto(next, merged ?? orig ?? {});
      copyInto(next, d.args);
      merged = next;
      by.push(i);
    }
  });
  return { args: merged, by };
}

describe('resolver under fuzzing', () => {
  it('total, deterministic, pure, valid Decisions with indices in range (any event, garbage included)', () => {
    fc.assert(
      fc.property(events, directives, original, (event, ds, orig) => {
        const snapshot = structuredClone([ds, orig]);
        const a = resolve(event, ds, orig);
        const b = resolve(event, ds, orig);
        expect(isDeepStrictEqual(a, b)).toBe(true);
        // toEqual, not a strict comparison: structuredClone gives null-prototype objects a prototype.
        expect([ds, orig]).toEqual(snapshot);
        expect(a.event).toBe(event);
        expect(DecisionSchema.safeParse(a).success, JSON.stringify(a)).toBe(true);
        if (a.decided_by !== null) {
          expect(Number.isInteger(a.decided_by) && a.decided_by >= 0 && a.decided_by < ds.length).toBe(true);
          expect(isObj(ds[a.decided_by])).toBe(true);
        } else {
          expect(['allow']).toContain(a.action);
        }
        a.modified_by.forEach((i, k) => {
          expect(Number.isInteger(i) && i >= 0 && i < ds.length).toBe(true);
          expect(ds[i]?.action).toBe('modify');
          if (k > 0) expect(i).toBeGreaterThan(a.modified_by[k - 1] as number);
        });
        if (event !== 'pre_tool_call') expect(a.args).toBeNull();
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('pre_tool_call: any block dominates, and the first block speaks', () => {
    fc.assert(
      fc.property(directives, original, (ds, orig) => {
        const d = resolve('pre_tool_call', ds, orig);
        const first = ds.findIndex((x) => isObj(x) && x.action === 'block');
        if (first === -1) {
          expect(d.action).not.toBe('block');
          return;
        }
        const msg = (ds[first] as Record<string, unknown>).message;
        expect(d).toMatchObject({ action: 'block', decided_by: first, args: null, modified_by: [] });
        expect(d.message).toBe(typeof msg === 'string' && msg !== '' ? msg : DEFAULT_BLOCK_MESSAGE);
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('pre_tool_call without a block: args are the left fold of modifies; the first approve decides', () => {
    fc.assert(
      fc.property(preToolDirectives, original, (raw, orig) => {
        const ds = raw.filter((x) => x?.action !== 'block');
        const d = resolve('pre_tool_call', ds, orig);
        const fold = foldModifies(ds, orig);
        expect(isDeepStrictEqual(d.args, fold.args)).toBe(true);
        expect(d.modified_by).toEqual(fold.by);
        const approve = ds.findIndex((x) => x?.action === 'approve');
        expect(d.action).toBe(approve === -1 ? 'allow' : 'approve');
        expect(d.decided_by).toBe(approve === -1 ? null : approve);
        // Conflicts: exactly the keys two applied modifies set to different values.
        for (const k of d.conflicts) expect(fold.by.filter((i) => k in ((ds[i] as { args: JsonObject }).args ?? {})).length).toBeGreaterThan(1);
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('modify merge law: resolving A then B over A’s result gives the args of resolving A ++ B', () => {
    fc.assert(
      fc.property(preToolDirectives, preToolDirectives, original, (a, b, orig) => {
        const A = a.filter((x) => x?.action !== 'block');
        const B = b.filter((x) => x?.action !== 'block');
        const whole = resolve('pre_tool_call', [...A, ...B], orig);
        const first = resolve('pre_tool_call', A, orig).args ?? orig;
        const second = resolve('pre_tool_call', B, first).args ?? first;
        expect(isDeepStrictEqual(whole.args ?? orig, second)).toBe(true);
        // The original is never mutated by a merge.
        if (orig) expect(whole.args === null || whole.args !== orig).toBe(true);
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('pre_llm_call joins contexts in order; pre_verify takes the first continue', () => {
    fc.assert(
      fc.property(directives, (ds) => {
        const llm = resolve('pre_llm_call', ds, null);
        const contexts = ds.filter(
          (x): x is { action: 'context'; context: string } => isObj(x) && x.action === 'context' && typeof x.context === 'string' && x.context !== '',
        );
        expect(llm.context).toBe(contexts.length ? contexts.map((c) => c.context).join('\n\n') : null);
        expect(llm.action).toBe('allow');
        const verify = resolve('pre_verify', ds, null);
        if (verify.action === 'continue') {
          const i = verify.decided_by as number;
          expect(
            ds
              .slice(0, i)
              .some((x) => isObj(x) && (x.action === 'continue' || x.action === 'block') && typeof x.message === 'string' && x.message.trim() !== ''),
          ).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  }, 120_000);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, type EventName } from '../../src/events.js';
import { DecisionSchema } from '../../src/protocol/decision.js';
import { resolve } from '../../src/resolve/resolve.js';
import type { Directive } from '../../src/types.js';

const block = (message: string): Directive => ({ action: 'block', message });
const modify = (args: Record<string, unknown>): Directive => ({ action: 'modify', args });
const approve = (message?: string, rule_key?: string): Directive => ({
  action: 'approve',
  ...(message !== undefined ? { message } : {}),
  ...(rule_key !== undefined ? { rule_key } : {}),
});

const ARGS = { command: 'rm -rf build', timeout: 30 };

const base = (event: EventName) => ({
  event,
  action: 'allow',
  message: null,
  args: null,
  context: null,
  decided_by: null,
  modified_by: [],
  conflicts: [],
});

describe('pre_tool_call', () => {
  const r = (ds: (Directive | null)[], args: Record<string, unknown> | null = ARGS) => resolve('pre_tool_call', ds, args);

  it('no directives → allow, nothing changed', () => {
    expect(r([])).toEqual(base('pre_tool_call'));
    expect(r([null, null])).toEqual(base('pre_tool_call'));
  });

  it('a modify is shallow-merged onto the original args', () => {
    expect(r([modify({ command: 'rm -rf build/tmp' })])).toEqual({
      ...base('pre_tool_call'),
      args: { command: 'rm -rf build/tmp', timeout: 30 },
      modified_by: [0],
    });
  });

  it('modifies apply in order, later wins per key, and keys never two-set differently are not conflicts', () => {
    const d = r([modify({ a: 1, b: { x: [1, 2] } }), null, modify({ a: 2, b: { x: [1, 2] }, c: null })]);
    expect(d.args).toEqual({ command: 'rm -rf build', timeout: 30, a: 2, b: { x: [1, 2] }, c: null });
    expect(d.modified_by).toEqual([0, 2]);
    expect(d.conflicts).toEqual(['a']);
    expect(d.action).toBe('allow');
  });

  it('deep-equal values are not a conflict whatever their key order; conflicts are sorted and unique', () => {
    const d = r([modify({ z: 1, o: { p: 1, q: 2 } }), modify({ z: 2, o: { q: 2, p: 1 } }), modify({ z: 3, y: 1 }), modify({ y: 2 })]);
    expect(d.conflicts).toEqual(['y', 'z']);
  });

  it('later hooks saw the original args: each modify is merged onto the original, not replayed', () => {
    // Hook 1 rewrote `command`; hook 2 (which saw the original) only adds `cwd`. Both survive.
    const d = r([modify({ command: 'rm -rf build/tmp' }), modify({ cwd: '/repo' })]);
    expect(d.args).toEqual({ command: 'rm -rf build/tmp', timeout: 30, cwd: '/repo' });
    expect(d.conflicts).toEqual([]);
  });

  it('an empty modify is ignored', () => {
    expect(r([modify({}), modify({ a: 1 })])).toMatchObject({ modified_by: [1], args: { ...ARGS, a: 1 } });
    expect(r([modify({})])).toEqual(base('pre_tool_call'));
  });

  it('merges onto {} when there were no original args; original args are never mutated', () => {
    expect(r([modify({ a: 1 })], null).args).toEqual({ a: 1 });
    const original = { k: 1 };
    const m = { k: 2 };
    const out = r([modify(m)], original);
    expect(original).toEqual({ k: 1 });
    expect(m).toEqual({ k: 2 });
    expect(out.args).not.toBe(original);
  });

  it('a block wins; the first block speaks; args are then null', () => {
    const d = r([modify({ a: 1 }), block('first'), block('second'), modify({ b: 2 })]);
    expect(d).toEqual({ ...base('pre_tool_call'), action: 'block', message: 'first', decided_by: 1 });
  });

  it('approve then block → block', () => {
    expect(r([approve('ok?'), block('no')])).toMatchObject({ action: 'block', message: 'no', decided_by: 1, args: null });
  });

  it('block then approve → block', () => {
    expect(r([block('no'), approve('ok?')])).toMatchObject({ action: 'block', message: 'no', decided_by: 0 });
  });

  it('else the first approve decides, carrying the merged args', () => {
    const d = r([null, approve('Run it?', 'rm'), modify({ command: 'rm -rf build/x' }), approve('second', 'k2')]);
    expect(d).toEqual({
      ...base('pre_tool_call'),
      action: 'approve',
      message: 'Run it?',
      rule_key: 'rm',
      decided_by: 1,
      args: { command: 'rm -rf build/x', timeout: 30 },
      modified_by: [2],
    });
  });

  it('an approve without message or rule_key gives nulls', () => {
    expect(r([approve()])).toMatchObject({ action: 'approve', message: null, rule_key: null, decided_by: 0, args: null });
  });

  it('context, continue, notify and handled mean nothing here', () => {
    const ds: Directive[] = [
      { action: 'context', context: 'c' },
      { action: 'continue', message: 'm' },
      { action: 'notify', message: 'n' },
      { action: 'handled', reply: 'r' },
    ];
    expect(r(ds)).toEqual(base('pre_tool_call'));
  });

  it('a block without a usable message (only possible from plugins) still blocks, with the default text', () => {
    expect(r([{ action: 'block', message: '' }])).toMatchObject({ action: 'block', message: 'Blocked by shell hook.', decided_by: 0 });
  });
});

describe('pre_llm_call', () => {
  it('joins every context with a blank line, in order', () => {
    const d = resolve('pre_llm_call', [{ action: 'context', context: 'one' }, null, block('x'), { action: 'context', context: 'two\n' }], null);
    expect(d).toEqual({ ...base('pre_llm_call'), context: 'one\n\ntwo\n' });
  });
  it('no context → null', () => {
    expect(resolve('pre_llm_call', [null], null)).toEqual(base('pre_llm_call'));
  });
});

describe('pre_verify', () => {
  it('the first continue wins', () => {
    const d = resolve('pre_verify', [null, { action: 'continue', message: 'run the tests' }, { action: 'continue', message: 'second' }], null);
    expect(d).toEqual({ ...base('pre_verify'), action: 'continue', message: 'run the tests', decided_by: 1 });
  });
  it('a plugin block means continue there; blank messages are skipped', () => {
    const d = resolve(
      'pre_verify',
      [
        { action: 'continue', message: '  ' },
        { action: 'block', message: 'keep going' },
      ],
      null,
    );
    expect(d).toMatchObject({ action: 'continue', message: 'keep going', decided_by: 1 });
  });
  it('nothing → allow', () => {
    expect(resolve('pre_verify', [{ action: 'context', context: 'x' }], null)).toEqual(base('pre_verify'));
  });
});

describe('on_session_finalize', () => {
  it('collects notifications in hook order', () => {
    const d = resolve(
      'on_session_finalize',
      [{ action: 'notify', message: 'saved' }, null, { action: 'context', context: 'x' }, { action: 'notify', message: 'bye' }],
      null,
    );
    expect(d).toEqual({ ...base('on_session_finalize'), notifications: ['saved', 'bye'] });
  });
  it('no notifications → []', () => {
    expect(resolve('on_session_finalize', [], null).notifications).toEqual([]);
  });
});

describe('post_gateway_admission', () => {
  it('the first handled consumes the message', () => {
    const d = resolve('post_gateway_admission', [null, { action: 'handled', reply: 'Done.' }, { action: 'handled', reply: 'other' }], null);
    expect(d).toEqual({ ...base('post_gateway_admission'), action: 'handled', reply: 'Done.', decided_by: 1 });
  });
  it('handled without a reply → reply null', () => {
    expect(resolve('post_gateway_admission', [{ action: 'handled' }], null)).toMatchObject({ action: 'handled', reply: null, decided_by: 0 });
  });
  it('nothing → allow', () => {
    expect(resolve('post_gateway_admission', [{ action: 'context', context: 'x' }], null)).toEqual(base('post_gateway_admission'));
  });
});

describe('every other event: nothing is enforced', () => {
  const others = EVENT_NAMES.filter((e) => !['pre_tool_call', 'pre_llm_call', 'pre_verify', 'on_session_finalize', 'post_gateway_admission'].includes(e));
  // The transform and rewrite events carry `result: null` when no hook replaced anything; a block
  // counts only on pre_tts_synthesis (its own directive: test/engine/transforms.test.ts).
  const TRANSFORMS = new Set<string>([
    'transform_tool_result',
    'transform_terminal_output',
    'transform_llm_output',
    'transform_api_error_classification',
    'pre_gateway_dispatch',
    'pre_transcription',
    'pre_tts_synthesis',
  ]);
  it.each(others.filter((e) => e !== 'pre_tts_synthesis'))('%s', (event) => {
    const ds: Directive[] = [block('no'), modify({ a: 1 }), approve('x'), { action: 'context', context: 'c' }, { action: 'continue', message: 'm' }];
    expect(resolve(event, ds, ARGS)).toEqual(TRANSFORMS.has(event) ? { ...base(event), result: null } : base(event));
  });
  it('pre_tts_synthesis: modify / approve / context / continue do nothing; a block blocks', () => {
    const ds: Directive[] = [modify({ a: 1 }), approve('x'), { action: 'context', context: 'c' }, { action: 'continue', message: 'm' }];
    expect(resolve('pre_tts_synthesis', ds, ARGS)).toEqual({ ...base('pre_tts_synthesis'), result: null });
    expect(resolve('pre_tts_synthesis', [...ds, block('no')], ARGS)).toEqual({
      ...base('pre_tts_synthesis'),
      action: 'block',
      message: 'no',
      result: null,
      decided_by: 4,
    });
  });
});

describe('properties', () => {
  const directive: fc.Arbitrary<Directive | null> = fc.oneof(
    fc.constant(null),
    fc.record({ action: fc.constant('block' as const), message: fc.string() }),
    fc.record({ action: fc.constant('modify' as const), args: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'command'), fc.jsonValue()) }),
    fc.record({ action: fc.constant('approve' as const), message: fc.string(), rule_key: fc.string() }, { requiredKeys: ['action'] }),
    fc.record({ action: fc.constant('continue' as const), message: fc.string() }),
    fc.record({ action: fc.constant('context' as const), context: fc.string() }),
    fc.record({ action: fc.constant('notify' as const), message: fc.string() }),
    fc.record({ action: fc.constant('handled' as const), reply: fc.string() }, { requiredKeys: ['action'] }),
    fc.record({ action: fc.constant('rewrite' as const), text: fc.string() }),
    fc.record({ action: fc.constant('skip' as const), reason: fc.option(fc.string()) }),
    fc.constant({ action: 'allow' as const }),
    fc.record({ action: fc.constant('classify' as const), classification: fc.record({ reason: fc.constantFrom('billing', 'rate_limit') }) }),
    fc.record({
      action: fc.constant('override' as const),
      overrides: fc.dictionary(fc.constantFrom('prompt', 'language', 'model'), fc.string(), { minKeys: 1 }),
    }),
  );
  // Garbage a buggy plugin might hand back, typed as Directive to get past the compiler.
  const garbage = fc.anything().map((v) => v as Directive | null);
  const events = fc.constantFrom<EventName>(...EVENT_NAMES);
  const args = fc.option(fc.dictionary(fc.string(), fc.jsonValue()));

  it('is deterministic, never throws, never mutates its inputs, and yields a valid Decision', () => {
    fc.assert(
      fc.property(events, fc.array(fc.oneof(directive, garbage), { maxLength: 8 }), args, (event, ds, original) => {
        const before = JSON.stringify([ds, original]);
        const a = resolve(event, ds, original);
        const b = resolve(event, ds, original);
        expect(a).toEqual(b);
        expect(JSON.stringify([ds, original])).toBe(before);
        expect(DecisionSchema.safeParse(a).success).toBe(true);
        if (a.decided_by !== null) expect(a.decided_by).toBeLessThan(ds.length);
        // modified_by names the hooks whose answer was merged: modifies, overrides, TTS rewrites.
        const merged = event === 'pre_transcription' ? 'override' : event === 'pre_tts_synthesis' ? 'rewrite' : 'modify';
        for (const i of a.modified_by) expect(ds[i]?.action).toBe(merged);
        // `result` is set exactly when a transform/rewrite answer applies.
        if (a.action === 'rewrite') expect(a.result).not.toBeNull();
        if (a.result !== undefined && a.result !== null) expect(a.action).toBe('rewrite');
      }),
      { numRuns: 2000 },
    );
  });

  it('transform_tool_result: the first rewrite decides, whatever comes before or after it', () => {
    fc.assert(
      fc.property(fc.array(directive, { maxLength: 8 }), (ds) => {
        const d = resolve('transform_tool_result', ds, null);
        const first = ds.findIndex((x) => x?.action === 'rewrite');
        if (first === -1) expect(d).toMatchObject({ action: 'allow', result: null, decided_by: null });
        else expect(d).toMatchObject({ action: 'rewrite', result: (ds[first] as { text: string }).text, decided_by: first });
      }),
      { numRuns: 1000 },
    );
  });

  it('pre_tool_call: blocked iff some directive blocks, and then by the first one', () => {
    fc.assert(
      fc.property(fc.array(directive, { maxLength: 8 }), args, (ds, original) => {
        const d = resolve('pre_tool_call', ds, original);
        const first = ds.findIndex((x) => x?.action === 'block');
        if (first === -1) expect(d.action).not.toBe('block');
        else expect(d).toMatchObject({ action: 'block', decided_by: first, args: null });
      }),
      { numRuns: 2000 },
    );
  });
});

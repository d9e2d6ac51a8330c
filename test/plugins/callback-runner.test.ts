import { describe, expect, it } from 'vitest';
import type { EventName } from '../../src/events.js';
import { armsItsBound, createCallbackRunner } from '../../src/plugins/callback-runner.js';
import type { PluginCallback, PluginHook } from '../../src/plugins/types.js';
import { captureLogger } from './_capture-logger.js';

const hook = (name: string, event: EventName, callback: PluginCallback): PluginHook => ({ plugin: name.split('.')[0]!, name, event, callback });
const toolKwargs = (tool_name: string, args: Record<string, unknown> = {}) => ({ tool_name, args, task_id: 't1', session_id: 's1' });

describe('callback runner: return values', () => {
  const runner = createCallbackRunner({ timeoutMs: 5_000, logger: captureLogger() });

  it('pre_llm_call: a string or {context} (sync or async) becomes context; blanks do not', async () => {
    const cases: [unknown, unknown][] = [
      ['remember this', { action: 'context', context: 'remember this' }],
      [{ context: 'from a dict' }, { action: 'context', context: 'from a dict' }],
      ['   ', null],
      [{ context: '' }, null],
      [null, null],
      [42, null],
    ];
    for (const [ret, want] of cases) {
      const sync = await runner.invoke(
        hook('p.sync', 'pre_llm_call', () => ret),
        'pre_llm_call',
        { user_message: 'hi' },
      );
      const asyncOut = await runner.invoke(
        hook('p.async', 'pre_llm_call', async () => ret),
        'pre_llm_call',
        { user_message: 'hi' },
      );
      expect(sync).toMatchObject({ status: 'ok', error: null, directive: want });
      expect(asyncOut.directive).toEqual(want);
    }
  });

  it('pre_tool_call: block / approve / modify are read from `action` only', async () => {
    const run = (ret: unknown) =>
      runner.invoke(
        hook('p.cb', 'pre_tool_call', () => ret),
        'pre_tool_call',
        toolKwargs('terminal', { command: 'ls' }),
      );
    expect((await run({ action: 'block', message: 'nope' })).directive).toEqual({ action: 'block', message: 'nope' });
    // A block without a message still blocks (beyond Hermes, which drops it): never let it through.
    expect((await run({ action: 'block' })).directive).toEqual({ action: 'block', message: 'Blocked by plugin hook p.cb.' });
    expect((await run({ action: 'approve', message: 'ask', rule_key: ' k ' })).directive).toEqual({ action: 'approve', message: 'ask', rule_key: 'k' });
    expect((await run({ action: 'approve', message: '' })).directive).toEqual({ action: 'approve' });
    expect((await run({ action: 'modify', args: { command: 'ls -la' } })).directive).toEqual({ action: 'modify', args: { command: 'ls -la' } });
    expect((await run({ action: 'modify', args: {} })).directive).toBeNull();
    expect((await run({ decision: 'block', reason: 'x' })).directive).toBeNull();
    expect((await run({ action: 'Block', message: 'x' })).directive).toBeNull();
    expect((await run('block')).directive).toBeNull();
  });

  it('in-place mutation of kwargs is ignored: each callback gets its own deep copy', async () => {
    const kwargs = toolKwargs('terminal', { command: 'ls', nested: { deep: 1 } });
    const seen: unknown[] = [];
    const mutate = hook('p.mutate', 'pre_tool_call', (kw) => {
      (kw.args as { command: string }).command = 'rm -rf /';
      (kw.args as { nested: { deep: number } }).nested.deep = 2;
    });
    const observe = hook('p.observe', 'pre_tool_call', (kw) => void seen.push(structuredClone(kw.args)));
    const out = await runner.invoke(mutate, 'pre_tool_call', kwargs);
    await runner.invoke(observe, 'pre_tool_call', kwargs);
    expect(out.directive).toBeNull();
    expect(kwargs.args).toEqual({ command: 'ls', nested: { deep: 1 } });
    expect(seen).toEqual([{ command: 'ls', nested: { deep: 1 } }]);
  });

  it('finalize notifications, admission handled, pre_verify continue; other events ignore returns', async () => {
    const inv = (event: EventName, ret: unknown) =>
      runner.invoke(
        hook('p.x', event, () => ret),
        event,
        { session_id: 's' },
      );
    expect((await inv('on_session_finalize', 'see you')).directive).toEqual({ action: 'notify', message: 'see you' });
    expect((await inv('on_session_finalize', { message: 'bye' })).directive).toEqual({ action: 'notify', message: 'bye' });
    expect((await inv('on_session_finalize', '')).directive).toBeNull();
    expect((await inv('on_session_finalize', null)).directive).toBeNull();
    expect((await inv('post_gateway_admission', { action: 'handled', reply: 'pong' })).directive).toEqual({ action: 'handled', reply: 'pong' });
    expect((await inv('post_gateway_admission', { action: 'handled' })).directive).toEqual({ action: 'handled' });
    expect((await inv('post_gateway_admission', { action: 'skip' })).directive).toBeNull();
    expect((await inv('pre_verify', { action: 'continue', message: 'run the tests' })).directive).toEqual({ action: 'continue', message: 'run the tests' });
    expect((await inv('pre_verify', { decision: 'block', message: 'not done' })).directive).toEqual({ action: 'continue', message: 'not done' });
    expect((await inv('pre_verify', { decision: 'Block', reason: 'run the tests first' })).directive).toEqual({
      action: 'continue',
      message: 'run the tests first',
    });
    expect((await inv('pre_verify', { action: 'continue', message: ' ' })).directive).toBeNull();
    expect((await inv('post_tool_call', { action: 'block', message: 'x' })).directive).toBeNull();
    expect((await inv('on_session_start', 'context?')).directive).toBeNull();
  });

  it('an unbounded runner (timeout 0 → null) waits for slow callbacks', async () => {
    const r = createCallbackRunner({ timeoutMs: null, logger: captureLogger() });
    expect(r.timeoutMs).toBeNull();
    const out = await r.invoke(
      hook('p.slow', 'pre_llm_call', () => new Promise((res) => setTimeout(() => res('late but fine'), 150))),
      'pre_llm_call',
      {},
    );
    expect(out).toMatchObject({ status: 'ok', directive: { action: 'context', context: 'late but fine' } });
  });
});

describe('callback runner: failures', () => {
  it('a throwing pre_tool_call callback blocks, naming the callback and the error (≤200 chars)', async () => {
    const runner = createCallbackRunner({ timeoutMs: 5_000, logger: captureLogger() });
    const out = await runner.invoke(
      hook('guard.check', 'pre_tool_call', ({ tool_data }) => (tool_data as { x: number }).x),
      'pre_tool_call',
      toolKwargs('terminal'),
    );
    expect(out.status).toBe('error');
    expect(out.directive).toEqual({
      action: 'block',
      message: "pre_tool_call plugin callback guard.check raised TypeError: Cannot read properties of undefined (reading 'x')",
    });
    class PolicyError extends Error {}
    const long = await runner.invoke(
      hook('guard.long', 'pre_tool_call', async () => {
        throw new PolicyError('x'.repeat(500));
      }),
      'pre_tool_call',
      toolKwargs('terminal'),
    );
    expect(long.directive).toEqual({ action: 'block', message: `pre_tool_call plugin callback guard.long raised PolicyError: ${'x'.repeat(200)}` });
  });

  it('other events skip a throwing callback; post_gateway_admission fails open', async () => {
    const logger = captureLogger();
    const runner = createCallbackRunner({ timeoutMs: 5_000, logger });
    const boom = () => {
      throw new Error('boom');
    };
    const a = await runner.invoke(hook('gate.admit', 'post_gateway_admission', boom), 'post_gateway_admission', { message: 'hi', source: {} });
    expect(a).toMatchObject({ status: 'error', directive: null, error: 'post_gateway_admission plugin callback gate.admit raised Error: boom' });
    expect(logger.at('warn')[0]).toBe(
      'post_gateway_admission plugin callback gate.admit raised Error: boom; the message goes on to the agent (fail open) (this event provides: message, source; further identical failures are logged at debug level)',
    );
    const l = await runner.invoke(hook('ctx.recall', 'pre_llm_call', boom), 'pre_llm_call', {});
    expect(l).toMatchObject({ status: 'error', directive: null });
    const slowAdmit = await createCallbackRunner({ timeoutMs: 50, logger }).invoke(
      hook('gate.slow', 'post_gateway_admission', () => new Promise(() => {})),
      'post_gateway_admission',
      { message: 'hi' },
    );
    expect(slowAdmit).toMatchObject({ status: 'timeout', directive: null });
  });

  it('warns once per identical failure, listing the kwargs the event provides; repeats go to debug', async () => {
    const logger = captureLogger();
    const runner = createCallbackRunner({ timeoutMs: 5_000, logger });
    let n = 0;
    const flaky = hook('audit.log', 'post_tool_call', () => {
      n++;
      throw new TypeError(n <= 3 ? 'missing tool_data' : 'something else');
    });
    for (let i = 0; i < 4; i++) await runner.invoke(flaky, 'post_tool_call', { tool_name: 'terminal', args: {}, result: '{}' });
    const warns = logger.at('warn');
    expect(warns).toHaveLength(2);
    expect(warns[0]).toBe(
      'post_tool_call plugin callback audit.log raised TypeError: missing tool_data; its result is skipped (this event provides: args, result, tool_name; further identical failures are logged at debug level)',
    );
    expect(warns[1]).toBe(
      'post_tool_call plugin callback audit.log raised TypeError: something else; its result is skipped (this event provides: args, result, tool_name; further identical failures are logged at debug level)',
    );
    expect(logger.at('debug').filter((m) => m.includes('missing tool_data'))).toHaveLength(2);
  });
});

describe('callback runner: timeouts, suppression, abandoned calls', () => {
  it('a hanging pre_tool_call callback blocks (fail closed), is aborted, then suppressed per tool for 60 s', async () => {
    let clock = 1_000_000;
    const logger = captureLogger();
    const runner = createCallbackRunner({ timeoutMs: 100, logger, now: () => clock });
    const signals: AbortSignal[] = [];
    let calls = 0;
    const hang = hook('slow.policy', 'pre_tool_call', (_kw, { signal }) => {
      calls++;
      signals.push(signal);
      return new Promise(() => {});
    });

    const first = await runner.invoke(hang, 'pre_tool_call', toolKwargs('terminal'));
    expect(first).toMatchObject({
      status: 'timeout',
      directive: { action: 'block', message: 'pre_tool_call plugin callback slow.policy timed out after 0.1s' },
    });
    expect(first.duration_ms).toBeGreaterThanOrEqual(90);
    expect(signals[0]?.aborted).toBe(true);

    // Same tool, inside the window: blocked at once without calling the callback.
    clock += 59_000;
    const again = await runner.invoke(hang, 'pre_tool_call', toolKwargs('terminal'));
    expect(again.status).toBe('suppressed');
    expect(again.directive).toEqual({
      action: 'block',
      message: 'pre_tool_call plugin callback slow.policy is suppressed for another 1s after timing out',
    });
    expect(calls).toBe(1);

    // Another tool is not suppressed: it runs (and times out again).
    const other = await runner.invoke(hang, 'pre_tool_call', toolKwargs('read_file'));
    expect(other.status).toBe('timeout');
    expect(calls).toBe(2);

    // After the window the same tool is tried again.
    clock += 1_001;
    const retried = await runner.invoke(hang, 'pre_tool_call', toolKwargs('terminal'));
    expect(retried.status).toBe('timeout');
    expect(calls).toBe(3);

    // One warning for the repeated timeouts, then debug.
    expect(logger.at('warn').filter((m) => m.includes('timed out'))).toHaveLength(1);
    expect(logger.at('warn')[0]).toBe(
      'pre_tool_call plugin callback slow.policy timed out after 0.1s; the tool call is blocked (fail closed); it is suppressed for 60s (this event provides: args, session_id, task_id, tool_name; further identical failures are logged at debug level)',
    );
  });

  it('keeps at most three abandoned calls per callback; a fourth is suppressed until they settle', async () => {
    const clock = 0;
    const runner = createCallbackRunner({ timeoutMs: 60, logger: captureLogger(), now: () => clock });
    const releases: (() => void)[] = [];
    let calls = 0;
    const stuck = hook('stuck.cb', 'pre_tool_call', () => {
      calls++;
      return new Promise<void>((res) => releases.push(() => res()));
    });
    for (const tool of ['t1', 't2', 't3']) {
      expect((await runner.invoke(stuck, 'pre_tool_call', toolKwargs(tool))).status).toBe('timeout');
    }
    const fourth = await runner.invoke(stuck, 'pre_tool_call', toolKwargs('t4'));
    expect(fourth).toMatchObject({
      status: 'suppressed',
      directive: { action: 'block', message: 'pre_tool_call plugin callback stuck.cb is suppressed: 3 earlier calls timed out and are still running' },
    });
    expect(calls).toBe(3);

    // Once the abandoned calls finish, a new tool runs again (t1..t3 stay in their windows).
    for (const r of releases.splice(0)) r();
    await new Promise((r) => setImmediate(r));
    const fresh = await runner.invoke(hook('stuck.cb', 'pre_tool_call', stuck.callback), 'pre_tool_call', toolKwargs('t4'));
    expect(fresh.status).toBe('timeout');
    expect(calls).toBe(4);
    expect((await runner.invoke(stuck, 'pre_tool_call', toolKwargs('t1'))).status).toBe('suppressed');
    for (const r of releases.splice(0)) r();
  });

  it("a worker's proxy starts the bound when it arms: a worker restarting first is not the callback's time", async () => {
    const runner = createCallbackRunner({ timeoutMs: 50, logger: captureLogger() });
    const restart = (): Promise<void> => new Promise((r) => setTimeout(r, 150));
    const answers = armsItsBound(async (_kw, { arm }) => {
      await restart();
      arm?.();
      return { action: 'block', message: 'answered after a restart' };
    });
    const out = await runner.invoke(hook('w.answers', 'pre_tool_call', answers), 'pre_tool_call', toolKwargs('terminal'));
    expect(out).toMatchObject({ status: 'ok', directive: { action: 'block', message: 'answered after a restart' } });
    expect(out.duration_ms).toBeGreaterThanOrEqual(140);

    // Armed, the bound holds as ever; a host's own callback is bounded from its call and gets no arm.
    const hangs = armsItsBound(async (_kw, { arm }) => {
      await restart();
      arm?.();
      return new Promise(() => {});
    });
    const stuck = await runner.invoke(hook('w.hangs', 'pre_tool_call', hangs), 'pre_tool_call', toolKwargs('terminal'));
    expect(stuck).toMatchObject({ status: 'timeout', directive: { action: 'block', message: 'pre_tool_call plugin callback w.hangs timed out after 0.05s' } });
    expect(stuck.duration_ms).toBeGreaterThanOrEqual(190);
    const ctxs: object[] = [];
    const own = await runner.invoke(
      hook('host.own', 'pre_tool_call', (_kw, ctx) => (ctxs.push(ctx), restart())),
      'pre_tool_call',
      toolKwargs('terminal'),
    );
    expect(own.status).toBe('timeout');
    expect(ctxs.map((c) => Object.keys(c))).toEqual([['signal']]);
  });

  it('observer events skip a timed-out callback and suppress it per event (per tool on post_tool_call)', async () => {
    let clock = 0;
    const runner = createCallbackRunner({ timeoutMs: 50, logger: captureLogger(), now: () => clock, suppressMs: 1_000 });
    let calls = 0;
    const hang = () => {
      calls++;
      return new Promise(() => {});
    };
    const post = hook('obs.post', 'post_tool_call', hang);
    expect(await runner.invoke(post, 'post_tool_call', toolKwargs('terminal'))).toMatchObject({ status: 'timeout', directive: null });
    expect(await runner.invoke(post, 'post_tool_call', toolKwargs('terminal'))).toMatchObject({ status: 'suppressed', directive: null });
    expect(await runner.invoke(post, 'post_tool_call', toolKwargs('web_search'))).toMatchObject({ status: 'timeout' });
    const llm = hook('obs.llm', 'post_llm_call', hang);
    expect(await runner.invoke(llm, 'post_llm_call', {})).toMatchObject({ status: 'timeout', directive: null });
    expect(await runner.invoke(llm, 'post_llm_call', {})).toMatchObject({ status: 'suppressed' });
    clock += 1_000;
    expect(await runner.invoke(llm, 'post_llm_call', {})).toMatchObject({ status: 'timeout' });
    expect(calls).toBe(4);
  });
});

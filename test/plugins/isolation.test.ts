// Plugins run where a timeout can stop them, through the real engine: a JS plugin spinning in a
// synchronous endless loop (its worker thread is terminated and restarted) and a Hermes-style
// Python plugin in a real python3 worker (sync, async, raising, sleeping past the bound).

import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture, tempHome, testEngine } from '../engine/_helpers.js';

const FIX = resolve(import.meta.dirname, '../fixtures/plugins');

function home(config: string, plugins: string[]): string {
  const dir = tempHome('hh-plugin-iso-');
  writeFileSync(join(dir, 'config.yaml'), config);
  for (const p of plugins) cpSync(join(FIX, p), join(dir, 'plugins', p), { recursive: true });
  return dir;
}

/** Counts host timer ticks and the longest gap between two, while `during` runs. */
async function withTicker<T>(during: () => Promise<T>): Promise<{ value: T; ticks: number; maxGapMs: number }> {
  let ticks = 0;
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
  }, 20);
  try {
    const value = await during();
    maxGapMs = Math.max(maxGapMs, performance.now() - last);
    return { value, ticks, maxGapMs };
  } finally {
    clearInterval(timer);
  }
}

describe('a JS plugin callback that never returns', () => {
  it('a sync while(true) with hook_callback_timeout: 1 blocks pre_tool_call in <= 1.5 s; host timers keep firing; the next emit works', async () => {
    const dir = home('plugins:\n  enabled: [spinner]\n  hook_callback_timeout: 1\n', ['spinner']);
    const logger = capture();
    const engine = await testEngine(dir, { logger });

    const t0 = performance.now();
    const { value: stuck, ticks, maxGapMs } = await withTicker(() => engine.emit('pre_tool_call', { tool_name: 'spin', args: {} }));
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThanOrEqual(1500);
    expect(stuck.hooks[0]).toMatchObject({ kind: 'plugin', command: 'plugin:spinner.spin', status: 'timeout', timeout: 1 });
    expect(stuck.decision).toMatchObject({ action: 'block', decided_by: 0, message: 'pre_tool_call plugin callback spinner.spin timed out after 1s' });
    // The host's event loop never stalled: a 20 ms interval kept ticking through the whole second.
    expect(ticks).toBeGreaterThanOrEqual(20);
    expect(maxGapMs).toBeLessThan(500);
    expect(logger.lines.join('\n')).toContain(
      'pre_tool_call plugin callback spinner.spin timed out after 1s; the tool call is blocked (fail closed); it is suppressed for 60s',
    );

    // The next emit (another tool: suppression is per tool) runs the plugin in a fresh thread.
    const t1 = performance.now();
    const next = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: {} });
    expect(performance.now() - t1).toBeLessThan(1000);
    expect(next.hooks[0]).toMatchObject({ status: 'ok' });
    expect(next.decision).toMatchObject({ action: 'block', message: 'spinner answered terminal (call 1 of this thread)' });
    // The spun tool stays suppressed (fails closed at once) for 60 s.
    const again = await engine.emit('pre_tool_call', { tool_name: 'spin', args: {} });
    expect(again.hooks[0]!.status).toBe('suppressed');
    expect(again.decision.message).toMatch(/^pre_tool_call plugin callback spinner\.spin is suppressed for another (59|60)s after timing out$/);
  });
});

describe('a Hermes Python plugin (__init__.py, register(ctx)) through a real python3 worker', () => {
  const config = 'plugins:\n  enabled: [hermes-style]\n  hook_callback_timeout: 1\n';

  it('sync and async callbacks answer; kwargs are filtered by signature; relative imports work', async () => {
    const logger = capture();
    const engine = await testEngine(home(config, ['hermes-style']), { logger });
    const llm = await engine.emit('pre_llm_call', {
      session_id: 's1',
      user_message: 'hi',
      conversation_history: [],
      is_first_turn: true,
      model: 'm',
      platform: 'cli',
    });
    expect(llm.hooks[0]).toMatchObject({ command: 'plugin:hermes-style.recall', status: 'ok' });
    expect(llm.decision.context).toBe('hermes-style saw ["conversation_history", "is_first_turn", "model", "platform", "session_id", "user_message"]');

    const blocked = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's1', task_id: 't' });
    expect(blocked.decision).toMatchObject({ action: 'block', decided_by: 0, message: 'hermes-style blocks rm -rf (call 1)' });
    const modified = await engine.emit('pre_tool_call', { tool_name: 'write_file', args: { path: 'a.txt', content: 'x' }, session_id: 's1', task_id: 't' });
    expect(modified.decision).toMatchObject({ action: 'allow', args: { path: '/safe/a.txt', content: 'x' } });
    // Module state lives on between calls (one long-lived worker).
    const third = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf ~' }, session_id: 's1', task_id: 't' });
    expect(third.decision.message).toBe('hermes-style blocks rm -rf (call 3)');

    const fin = await engine.finalizeSession({ session_id: 's1' });
    expect(fin.decision.notifications).toEqual(['bye from hermes-style (s1)']);
  });

  it('ctx methods hermes-hooks does not offer are accepted and reported once, never a crash', async () => {
    const logger = capture();
    const engine = await testEngine(home(config, ['hermes-style']), { logger });
    const msg = 'plugin hermes-style called ctx.register_tool, ctx.register_command: not supported by hermes-hooks (only ctx.register_hook runs here); ignored';
    expect(engine.diagnostics.filter((d) => d.message.includes('not supported'))).toEqual([expect.objectContaining({ level: 'warning', message: msg })]);
    expect(logger.lines.filter((l) => l.includes('not supported'))).toEqual([`[plugins] ${msg}`]);
    expect(
      engine
        .hooksFor('pre_tool_call')
        .filter((h) => h.kind === 'plugin')
        .map((h) => ('name' in h ? h.name : null)),
    ).toEqual(['hermes-style.guard']);
  });

  it('a raising callback blocks pre_tool_call naming the Python exception; warned once', async () => {
    const logger = capture();
    const engine = await testEngine(home(config, ['hermes-style']), { logger });
    for (let i = 0; i < 2; i++) {
      const e = await engine.emit('pre_tool_call', { tool_name: 'boom', args: {} });
      expect(e.hooks[0]).toMatchObject({ status: 'error', error: 'pre_tool_call plugin callback hermes-style.guard raised ValueError: no such tool: boom' });
      expect(e.decision).toMatchObject({ action: 'block', message: 'pre_tool_call plugin callback hermes-style.guard raised ValueError: no such tool: boom' });
    }
    expect(logger.lines.filter((l) => l.includes('raised ValueError'))).toEqual([
      'pre_tool_call plugin callback hermes-style.guard raised ValueError: no such tool: boom; the tool call is blocked (fail closed) (this event provides: args, tool_name; further identical failures are logged at debug level)',
    ]);
  });

  it('a callback sleeping past the bound is abandoned: blocked after 1 s, suppressed for 60 s, the worker keeps answering', async () => {
    const engine = await testEngine(home(config, ['hermes-style']), { logger: capture() });
    const t0 = performance.now();
    const slow = await engine.emit('pre_tool_call', { tool_name: 'slow', args: {} });
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThanOrEqual(1500);
    expect(slow.hooks[0]).toMatchObject({ status: 'timeout', timeout: 1 });
    expect(slow.decision).toMatchObject({ action: 'block', message: 'pre_tool_call plugin callback hermes-style.guard timed out after 1s' });
    const again = await engine.emit('pre_tool_call', { tool_name: 'slow', args: {} });
    expect(again.hooks[0]!.status).toBe('suppressed');
    // The sleeping thread does not hold up the others (the suppressed call never reached Python).
    const t1 = performance.now();
    const other = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } });
    expect(performance.now() - t1).toBeLessThan(1000);
    expect(other.decision).toMatchObject({ action: 'block', message: 'hermes-style blocks rm -rf (call 2)' });
  });

  it('a worker that dies (os._exit in a callback) fails that call closed; the next call gets a new worker', async () => {
    const logger = capture();
    const engine = await testEngine(home(config, ['hermes-style']), { logger });
    const died = await engine.emit('pre_tool_call', { tool_name: 'die', args: {} });
    expect(died.hooks[0]).toMatchObject({
      status: 'error',
      error: 'pre_tool_call plugin callback hermes-style.guard raised Error: python worker exited with code 3',
    });
    expect(died.decision).toMatchObject({
      action: 'block',
      message: 'pre_tool_call plugin callback hermes-style.guard raised Error: python worker exited with code 3',
    });
    expect(logger.lines).toContain('[plugins] hermes-style: python worker exited with code 3; a new one is started for the next call');
    // Module state starts over with the new worker (call 1 again).
    const next = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } });
    expect(next.decision).toMatchObject({ action: 'block', message: 'hermes-style blocks rm -rf (call 1)' });
  });
});

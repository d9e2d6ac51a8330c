// What a long-lived host needs from the engine: reload() swaps the registries between emits and
// keeps session state, a config that no longer parses keeps the last good one, sessions idle past
// sessionIdleMs or evicted past maxOpenSessions are finalized once, and an emit's own signal kills
// its hooks.

import { describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionFinalized } from '../../src/types.js';
import { capture, tempHome, testEngine } from './_helpers.js';

function script(dir: string, name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/bash\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

const until = async (check: () => boolean, ms = 5000): Promise<boolean> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
};

describe('engine.reload()', () => {
  it('swaps the hooks, keeps guardrail counts, and keeps the last good config when the new one does not parse', async () => {
    const home = tempHome('hh-reload-');
    const a = script(home, 'a.sh', `cat >/dev/null; echo '{"context": "from a"}'`);
    const b = script(home, 'b.sh', `cat >/dev/null; echo '{"context": "from b"}'`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_llm_call:\n    - command: ${a}\n`);
    const logger = capture();
    const engine = await testEngine(home, { logger });
    const ctx = async () => (await engine.emit('pre_llm_call', { session_id: 's' })).decision.context;
    expect(await ctx()).toBe('from a');

    // Two failures of one call in a telegram session: the third attempt is warned — before and after a reload.
    const fail = { tool_name: 'terminal', args: { c: 1 }, session_id: 's', platform: 'telegram', status: 'error' };
    await engine.emit('post_tool_call', fail);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_llm_call:\n    - command: ${b}\n`);
    expect(await engine.reload()).toEqual({ ok: true, error: null, diagnostics: [] });
    expect(await ctx()).toBe('from b');
    expect(engine.stats().generation).toBe(1);
    await engine.emit('post_tool_call', fail);
    const warned = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { c: 1 }, session_id: 's' });
    expect(warned.decision.context).toContain('terminal');

    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  pre_llm_call: [\n');
    const refused = await engine.reload();
    expect(refused.ok).toBe(false);
    expect(refused.error!.startsWith(`${join(home, 'config.yaml')}:`)).toBe(true);
    expect(engine.stats()).toMatchObject({ generation: 1, reload_error: refused.error });
    expect(await ctx()).toBe('from b');
    expect(logger.lines).toContain(`config reload refused, the last good config stays in force: ${refused.error}`);
  });
});

describe('sessions the host does not finalize', () => {
  it('are finalized once after sessionIdleMs, with their key; a later explicit finalize runs nothing', async () => {
    const home = tempHome('hh-idle-');
    const fin = script(home, 'fin.sh', `cat >/dev/null; echo '{"message": "bye"}'`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  on_session_finalize:\n    - command: ${fin}\n`);
    const events: SessionFinalized[] = [];
    const engine = await testEngine(home, { sessionIdleMs: 100, onSessionFinalized: (e) => void events.push(e) });
    await engine.emit('on_session_start', { session_id: 'idle-1', session_key: 'k1' });
    expect(await until(() => events.length === 1)).toBe(true);
    expect(events).toEqual([
      { session_id: 'idle-1', session_key: 'k1', reason: 'idle', notices: [{ session_id: 'idle-1', session_key: 'k1', message: 'bye' }] },
    ]);
    expect((await engine.finalizeSession({ session_id: 'idle-1' })).hooks).toEqual([]);
    expect(engine.stats().open_sessions).toBe(0);
    expect(await engine.close()).toEqual({ notifications: [], notices: [] });
  });

  it('past maxOpenSessions the least recently seen is finalized (evicted), so the book stays bounded', async () => {
    const home = tempHome('hh-evict-');
    const fin = script(home, 'fin.sh', `cat >/dev/null; echo '{"message": "bye"}'`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  on_session_finalize:\n    - command: ${fin}\n`);
    const events: SessionFinalized[] = [];
    const engine = await testEngine(home, { maxOpenSessions: 2, onSessionFinalized: (e) => void events.push(e) });
    for (const s of ['a', 'b', 'c', 'd']) await engine.emit('on_session_start', { session_id: s });
    expect(await until(() => events.length === 2)).toBe(true);
    // Both finalizes run concurrently, so they may report in either order.
    expect(events.map((e) => [e.session_id, e.reason]).sort()).toEqual([
      ['a', 'evicted'],
      ['b', 'evicted'],
    ]);
    expect(engine.stats().open_sessions).toBe(2);
    expect((await engine.close()).notices.map((n) => n.session_id)).toEqual(['c', 'd']);
  });
});

describe('an emit with its own signal', () => {
  it('aborting it kills its hooks; a fail_closed pre_tool_call hook then blocks', async () => {
    const home = tempHome('hh-abort-');
    const slow = script(home, 'slow.sh', 'cat >/dev/null; sleep 30; echo "{}"');
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${slow}\n      fail_closed: true\n`);
    const engine = await testEngine(home);
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 200);
    const e = await engine.emit('pre_tool_call', { tool_name: 'terminal' }, { signal: ac.signal });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(e.hooks[0]).toMatchObject({ status: 'timeout', error: 'cancelled' });
    expect(e.decision.action).toBe('block');
    expect(e.decision.message).toBe(`hook ${slow} failed closed: cancelled`);
  });
});

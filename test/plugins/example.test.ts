// The shipped plugin example (scripts-examples/plugins/tool-guard) loaded from a real profile home.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../src/events.js';
import { createCallbackRunner } from '../../src/plugins/callback-runner.js';
import { loadPlugins, type LoadedPlugins } from '../../src/plugins/load.js';
import type { PluginHook } from '../../src/plugins/types.js';
import { captureLogger } from './_capture-logger.js';

const EXAMPLE = fileURLToPath(new URL('../../scripts-examples/plugins/tool-guard/', import.meta.url));
const PY_EXAMPLE = fileURLToPath(new URL('../../scripts-examples/plugins/py-guard/', import.meta.url));
let home: string;
let hooks: PluginHook[];
let loaded: LoadedPlugins;
const runner = createCallbackRunner({ timeoutMs: 5_000, logger: captureLogger() });

async function fire(event: EventName, kwargs: Record<string, unknown>, plugin = 'tool-guard') {
  const out = [];
  for (const h of hooks.filter((x) => x.event === event && x.plugin === plugin)) out.push((await runner.invoke(h, event, kwargs)).directive);
  return out;
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'hh-example-plugin-'));
  await cp(EXAMPLE, path.join(home, 'plugins', 'tool-guard'), { recursive: true });
  await cp(PY_EXAMPLE, path.join(home, 'plugins', 'py-guard'), { recursive: true });
  loaded = await loadPlugins({ home, enabled: ['tool-guard', 'py-guard'], safeMode: false, logger: captureLogger() });
  expect(loaded.diagnostics).toEqual([]);
  hooks = loaded.hooks;
});
afterAll(async () => {
  await loaded.close();
  await rm(home, { recursive: true, force: true });
});

describe('example plugin tool-guard', () => {
  it('registers one hook per event it documents', () => {
    expect(hooks.filter((h) => h.plugin === 'tool-guard').map((h) => `${h.event}:${h.name}`)).toEqual([
      'pre_tool_call:tool-guard.guardTerminal',
      'pre_llm_call:tool-guard.guardrails',
      'post_tool_call:tool-guard.countTools',
      'on_session_finalize:tool-guard.summary',
      'post_gateway_admission:tool-guard.ping',
    ]);
  });

  it('blocks, asks approval for, or modifies terminal calls', async () => {
    expect(await fire('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } })).toEqual([
      { action: 'block', message: 'tool-guard: refusing a destructive command: rm -rf /' },
    ]);
    expect(await fire('pre_tool_call', { tool_name: 'terminal', args: { command: 'sudo apt update' } })).toEqual([
      { action: 'approve', message: 'tool-guard: this command uses sudo', rule_key: 'tool-guard:sudo' },
    ]);
    expect(await fire('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } })).toEqual([{ action: 'modify', args: { timeout: 120 } }]);
    expect(await fire('pre_tool_call', { tool_name: 'read_file', args: { path: 'x' } })).toEqual([null]);
  });

  it('adds policy context, notifies a tool summary at finalize, answers /ping at admission', async () => {
    expect(await fire('pre_llm_call', { user_message: 'hi' })).toEqual([
      { action: 'context', context: 'Never execute commands that delete files without explicit user confirmation.' },
    ]);
    await fire('post_tool_call', { tool_name: 'terminal', result: '{}' });
    await fire('post_tool_call', { tool_name: 'terminal', result: '{}' });
    await fire('post_tool_call', { tool_name: 'read_file', result: '{}' });
    expect(await fire('on_session_finalize', { session_id: 's1' })).toEqual([
      { action: 'notify', message: 'tool-guard: tools used this session: terminal×2, read_file×1' },
    ]);
    expect(await fire('on_session_finalize', { session_id: 's2' })).toEqual([null]);
    expect(await fire('post_gateway_admission', { message: '/ping' })).toEqual([{ action: 'handled', reply: 'pong' }]);
    expect(await fire('post_gateway_admission', { message: 'hello' })).toEqual([null]);
  });
});

describe('example Python plugin py-guard (unchanged Hermes plugin, real python3 worker)', () => {
  const py = (event: EventName, kwargs: Record<string, unknown>) => fire(event, kwargs, 'py-guard');

  it('registers its four hooks by function name', () => {
    expect(hooks.filter((h) => h.plugin === 'py-guard').map((h) => `${h.event}:${h.name}`)).toEqual([
      'pre_tool_call:py-guard.guard_terminal',
      'pre_llm_call:py-guard.policy',
      'post_tool_call:py-guard.count_tools',
      'on_session_finalize:py-guard.summary',
    ]);
  });

  it('blocks, asks approval for, or modifies terminal calls', async () => {
    const call = (command: string) => py('pre_tool_call', { tool_name: 'terminal', args: { command }, session_id: 's', task_id: 't' });
    expect(await call('rm -rf /')).toEqual([{ action: 'block', message: 'py-guard: refusing a destructive command: rm -rf /' }]);
    expect(await call('sudo apt update')).toEqual([{ action: 'approve', message: 'py-guard: this command uses sudo', rule_key: 'py-guard:sudo' }]);
    expect(await call('ls')).toEqual([{ action: 'modify', args: { timeout: 120 } }]);
    expect(await py('pre_tool_call', { tool_name: 'read_file', args: { path: 'x' } })).toEqual([null]);
  });

  it('adds policy context on the first turn (async callback), summarises tools at finalize', async () => {
    expect(await py('pre_llm_call', { user_message: 'hi', is_first_turn: true, session_id: 's1' })).toEqual([
      { action: 'context', context: 'Never execute commands that delete files without explicit user confirmation.' },
    ]);
    expect(await py('pre_llm_call', { user_message: 'again', is_first_turn: false, session_id: 's1' })).toEqual([null]);
    for (const tool_name of ['terminal', 'read_file', 'terminal']) await py('post_tool_call', { tool_name, session_id: 's1', result: '{}' });
    expect(await py('on_session_finalize', { session_id: 's1' })).toEqual([
      { action: 'notify', message: 'py-guard: tools used this session: terminal×2, read_file×1' },
    ]);
    expect(await py('on_session_finalize', { session_id: 's2' })).toEqual([null]);
  });
});

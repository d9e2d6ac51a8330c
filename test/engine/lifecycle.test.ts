// The engine across a host's lifecycle, each test asserting what the host receives: a real plugin
// folder whose callbacks run before shell hooks, a hanging plugin callback that fails closed,
// gateway directory hooks and BOOT.md on the gateway surface, on_session_finalize notifications from
// close(), post_gateway_admission handled with a reply, and human-input requests (redacted, exactly
// one resolved each).

import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture, tempHome, testEngine } from './_helpers.js';

const FIX = resolve(import.meta.dirname, '../fixtures/cli');
const HOOKS = join(FIX, 'hooks');

/** A profile home with config.yaml and, copied from the fixtures, the named plugins and gateway hooks. */
function home(config: string, opts: { plugins?: string[]; gatewayHooks?: string[] } = {}): string {
  const dir = tempHome('hh-lifecycle-');
  writeFileSync(join(dir, 'config.yaml'), config);
  for (const p of opts.plugins ?? []) cpSync(join(FIX, 'lifecycle/plugins', p), join(dir, 'plugins', p), { recursive: true });
  for (const g of opts.gatewayHooks ?? []) cpSync(join(FIX, 'lifecycle/hooks', g), join(dir, 'hooks', g), { recursive: true });
  return dir;
}

const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const jsonLines = (file: string): Record<string, unknown>[] => lines(file).map((l) => JSON.parse(l));

async function until<T>(probe: () => T | null | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('plugins from <home>/plugins/<name>, enabled in plugins.enabled', () => {
  it('run before shell hooks: first in the resolution order and started first', async () => {
    const dir = home(
      `plugins:\n  enabled: [guard]\nhooks:\n  pre_tool_call:\n    - command: ${HOOKS}/record.sh shell '{"action":"block","message":"shell says no"}'\n`,
      { plugins: ['guard'] },
    );
    const engine = await testEngine(dir);
    const { hooks, decision } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's' });
    expect(hooks.map((h) => [h.kind, h.command])).toEqual([
      ['plugin', 'plugin:guard.policy'],
      ['shell', `${HOOKS}/record.sh shell '{"action":"block","message":"shell says no"}'`],
      ['builtin', 'builtin:tool_loop_guardrails'],
    ]);
    // Both block; the plugin is first in order, so its message is the one the host gets.
    expect(decision).toMatchObject({ action: 'block', message: 'plugin policy: no rm -rf', decided_by: 0 });
    expect(hooks[1]!.directive).toEqual({ action: 'block', message: 'shell says no' });
    expect(lines(join(dir, 'ran.log'))).toEqual(['plugin', 'shell']);
    expect(hooks[0]!.started_ms).toBeLessThanOrEqual(hooks[1]!.started_ms);
  });

  it('their modifies merge first, the shell hook after (later wins per key)', async () => {
    const dir = home(`plugins:\n  enabled: [guard]\nhooks:\n  pre_tool_call:\n    - command: ${HOOKS}/modify.py\n`, { plugins: ['guard'] });
    const engine = await testEngine(dir);
    const { decision } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls', cwd: '/w' } });
    expect(decision).toMatchObject({
      action: 'allow',
      // modify.py saw the original arguments, not the plugin's.
      args: { command: 'echo would run: ls', cwd: '/w', by_plugin: true },
      modified_by: [0, 1],
      conflicts: ['command'],
    });
  });

  it('a hanging pre_tool_call callback with hook_callback_timeout: 1 blocks the call, naming the callback', async () => {
    const dir = home(`plugins:\n  enabled: [stuck]\n  hook_callback_timeout: 1\nhooks:\n  pre_tool_call:\n    - command: ${HOOKS}/record.sh shell\n`, {
      plugins: ['stuck'],
    });
    const logger = capture();
    const engine = await testEngine(dir, { logger });
    const t0 = Date.now();
    const first = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    // Bounded by the 1 s callback timeout, not by the callback (which never answers).
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(first.hooks[0]).toMatchObject({ kind: 'plugin', command: 'plugin:stuck.wait', status: 'timeout', timeout: 1 });
    expect(first.decision).toMatchObject({ action: 'block', decided_by: 0, message: 'pre_tool_call plugin callback stuck.wait timed out after 1s' });
    // The shell hook still ran and said nothing.
    expect(first.hooks[1]).toMatchObject({ kind: 'shell', status: 'ok', directive: null });
    expect(logger.lines.join('\n')).toContain('stuck.wait timed out after 1s; the tool call is blocked (fail closed)');

    // Suppressed for a while after timing out: still fails closed, at once, still naming it.
    const second = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    expect(second.hooks[0]!.status).toBe('suppressed');
    expect(second.decision.action).toBe('block');
    expect(second.decision.message).toMatch(/^pre_tool_call plugin callback stuck\.wait is suppressed for another \d+s after timing out$/);
  });

  it('are not loaded unless enabled, nor in safe mode', async () => {
    const dir = home('hooks: {}\n', { plugins: ['guard'] });
    const engine = await testEngine(dir);
    expect(engine.hooksFor('pre_tool_call').map((e) => e.kind)).toEqual(['builtin']);
    const safe = await testEngine(home('plugins:\n  enabled: [guard]\n', { plugins: ['guard'] }), {
      env: { ...process.env, HERMES_SAFE_MODE: '1' },
    });
    expect(safe.hooksFor('pre_tool_call').filter((e) => e.kind === 'plugin')).toEqual([]);
  });
});

describe('gateway hooks (surface: gateway)', () => {
  it("emitGateway('command:model') reaches a command:* handler.py, in the background", async () => {
    const dir = home('hooks: {}\n', { gatewayHooks: ['model-log'] });
    const engine = await testEngine(dir, { surface: 'gateway' });
    const log = join(dir, 'gateway.log');
    expect(engine.emitGateway('agent:start', { session_id: 's' })).toBeUndefined();
    expect(engine.emitGateway('command:model', { command: 'model', args: 'gpt-5', session_id: 's' })).toBeUndefined();
    const entries = await until(() => jsonLines(log).length > 0 && jsonLines(log));
    expect(entries).toEqual([{ event: 'command:model', context: { command: 'model', args: 'gpt-5', session_id: 's' } }]);
    engine.emitGateway('command:reset', {});
    await until(() => jsonLines(log).length === 2);
    // close() waits for the handlers and stops the python worker.
    await engine.close({ finalize: false });
    expect(jsonLines(log).map((e) => e.event)).toEqual(['command:model', 'command:reset']);
  });

  it('the CLI surface does not load gateway hooks', async () => {
    const dir = home('hooks: {}\n', { gatewayHooks: ['model-log'] });
    const engine = await testEngine(dir);
    engine.emitGateway('command:model', { command: 'model' });
    await engine.close({ finalize: false });
    expect(existsSync(join(dir, 'gateway.log'))).toBe(false);
  });

  it('BOOT.md reaches onBoot on gateway:startup, trimmed', async () => {
    const dir = home('hooks: {}\n');
    writeFileSync(join(dir, 'BOOT.md'), '\n  Check the deploy queue; report anything stuck.  \n\n');
    const boots: string[] = [];
    const engine = await testEngine(dir, { surface: 'gateway', onBoot: (text) => void boots.push(text) });
    engine.emitGateway('agent:start', {});
    engine.emitGateway('gateway:startup', {});
    expect(await until(() => boots.length > 0 && boots)).toEqual(['Check the deploy queue; report anything stuck.']);
  });
});

describe('on_session_finalize from engine.close()', () => {
  const config = `plugins:\n  enabled: [guard]\nhooks:\n  on_session_finalize:\n    - command: ${HOOKS}/finalize.py\n`;

  it('finalizes every open session and returns the notifications, plugin first', async () => {
    const dir = home(config, { plugins: ['guard'] });
    const engine = await testEngine(dir);
    await engine.emit('on_session_start', { session_id: 'a' });
    await engine.emit('pre_llm_call', { session_id: 'b', user_message: 'hi' });
    await engine.emit('on_session_start', { session_id: 'a' });
    // Each notice names its session, so a host can route it; `notifications` is the bare text.
    const notice = (session_id: string, message: string) => ({ session_id, session_key: null, message });
    expect(await engine.close()).toEqual({
      notifications: ['saved a', 'bye a (shutdown)', 'saved b', 'bye b (shutdown)'],
      notices: [notice('a', 'saved a'), notice('a', 'bye a (shutdown)'), notice('b', 'saved b'), notice('b', 'bye b (shutdown)')],
    });
    // Closed: a second close has nothing to say, and emits are refused.
    expect(await engine.close()).toEqual({ notifications: [], notices: [] });
    await expect(engine.emit('on_session_start', { session_id: 'c' })).rejects.toThrow('hook engine is closed');
  });

  it('a session finalized by the host is not finalized again; with no session it fires once with none', async () => {
    const dir = home(config, { plugins: ['guard'] });
    const engine = await testEngine(dir);
    await engine.emit('on_session_start', { session_id: 'a' });
    await engine.emit('on_session_start', { session_id: 'b' });
    const explicit = await engine.finalizeSession({ session_id: 'a', reason: 'user_exit' });
    expect(explicit.decision.notifications).toEqual(['saved a', 'bye a (user_exit)']);
    expect((await engine.close()).notifications).toEqual(['saved b', 'bye b (shutdown)']);

    const none = await testEngine(home(config, { plugins: ['guard'] }));
    expect((await none.close()).notifications).toEqual(['saved -', 'bye - (shutdown)']);
  });

  it('close({ finalize: false }) fires nothing', async () => {
    const dir = home(`hooks:\n  on_session_finalize:\n    - command: ${HOOKS}/log-stdin.sh\n`);
    const engine = await testEngine(dir);
    await engine.emit('on_session_start', { session_id: 'a' });
    expect(await engine.close({ finalize: false })).toEqual({ notifications: [], notices: [] });
    expect(existsSync(join(dir, 'on_session_finalize.jsonl'))).toBe(false);
  });
});

describe('post_gateway_admission', () => {
  it('a hook that handles the message consumes it with a reply; the first one in order decides', async () => {
    const dir = home(`hooks:
  post_gateway_admission:
    - command: ${HOOKS}/record.sh quiet
    - command: ${HOOKS}/record.sh first '{"action":"handled","reply":"Queued, I will get back to you."}'
    - command: ${HOOKS}/record.sh second '{"action":"handled","reply":"second"}'
`);
    const engine = await testEngine(dir);
    const { decision, payload } = await engine.emit('post_gateway_admission', { session_id: 'g1', platform: 'slack', text: 'deploy please' });
    expect(decision).toMatchObject({ action: 'handled', reply: 'Queued, I will get back to you.', decided_by: 1 });
    expect(payload).toMatchObject({ hook_event_name: 'post_gateway_admission', session_id: 'g1', extra: { platform: 'slack', text: 'deploy please' } });
    expect(JSON.parse(readFileSync(join(dir, 'seen-quiet.json'), 'utf8'))).toEqual(payload);
  });

  it('a plugin can handle it too; when nobody does the message goes on', async () => {
    const dir = home(`plugins:\n  enabled: [guard]\nhooks:\n  post_gateway_admission:\n    - command: ${HOOKS}/record.sh quiet\n`, { plugins: ['guard'] });
    const engine = await testEngine(dir);
    const handled = await engine.emit('post_gateway_admission', { text: 'plugin please' });
    expect(handled.decision).toMatchObject({ action: 'handled', reply: 'handled by the plugin', decided_by: 0 });
    const passed = await engine.emit('post_gateway_admission', { text: 'hello' });
    expect(passed.decision.action).toBe('allow');
    expect(passed.decision.reply ?? null).toBeNull();
  });
});

describe('human input requests', () => {
  it('the prompt is redacted and never carries the answer; exactly one resolved per request', async () => {
    const dir = home(`hooks:
  on_human_input_request:
    - command: ${HOOKS}/log-stdin.sh
  on_human_input_resolved:
    - command: ${HOOKS}/log-stdin.sh
`);
    const engine = await testEngine(dir);
    const requests = join(dir, 'on_human_input_request.jsonl');
    const resolved = join(dir, 'on_human_input_resolved.jsonl');

    const req = await engine.emit('on_human_input_request', {
      kind: 'approval',
      request_id: 'r1',
      session_id: 's1',
      prompt: 'Run deploy with TOKEN=s3cr3t-value-123 and Authorization: Bearer abcdefghijklmnop?',
      password: 'hunter2',
    });
    const seen = jsonLines(requests);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(req.payload);
    expect(seen[0]!.extra).toEqual({
      kind: 'approval',
      request_id: 'r1',
      prompt: 'Run deploy with TOKEN=[REDACTED] and Authorization: Bearer [REDACTED]?',
    });
    expect(JSON.stringify(seen)).not.toContain('s3cr3t');
    expect(JSON.stringify(seen)).not.toContain('hunter2');

    const first = await engine.emit('on_human_input_resolved', { request_id: 'r1', outcome: 'answered', answer: 'yes', session_id: 's1' });
    expect(first.hooks).toHaveLength(1);
    expect(jsonLines(resolved)).toEqual([first.payload]);
    expect(first.payload.extra).toMatchObject({ request_id: 'r1', outcome: 'answered', kind: 'approval' });
    expect(JSON.stringify(first.payload)).not.toContain('"yes"');

    // A second resolve of the same request, or one for a request never made, is dropped.
    const again = await engine.emit('on_human_input_resolved', { request_id: 'r1', outcome: 'timeout' });
    expect(again.hooks).toEqual([]);
    expect(again.decision.action).toBe('allow');
    const unknown = await engine.emit('on_human_input_resolved', { request_id: 'nope', outcome: 'answered' });
    expect(unknown.hooks).toEqual([]);
    expect(jsonLines(resolved)).toHaveLength(1);
  });

  it("close() resolves the requests still pending as withdrawn (the seed's word), once each", async () => {
    const dir = home(`hooks:\n  on_human_input_resolved:\n    - command: ${HOOKS}/log-stdin.sh\n`);
    const engine = await testEngine(dir);
    await engine.emit('on_human_input_request', { kind: 'sudo', request_id: 'r1', session_id: 's', prompt: '[sudo] password for ada:' });
    await engine.emit('on_human_input_request', { kind: 'clarify', request_id: 'r2', session_id: 's', prompt: 'Which branch?' });
    await engine.emit('on_human_input_resolved', { request_id: 'r2', outcome: 'answered' });
    await engine.close({ finalize: false });
    const out = jsonLines(join(dir, 'on_human_input_resolved.jsonl'));
    expect(out.map((p) => [(p.extra as Record<string, unknown>).request_id, (p.extra as Record<string, unknown>).outcome])).toEqual([
      ['r2', 'answered'],
      ['r1', 'withdrawn'],
    ]);
    expect((out[1]!.extra as Record<string, unknown>).prompt).toBe('[sudo] password for ada:');
  });
});

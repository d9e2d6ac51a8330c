// Gateway decision hooks (Hermes' emit_collect + gateway/run.py's command:<name> rules), with real
// handler.py workers and handler.mjs modules: deny, handled, rewrite, order, isolation, deadline.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveCommandDecision } from '../../src/gateway/command-decision.js';
import { loadGatewayHooks } from '../../src/gateway/gateway-hooks.js';
import type { GatewayHooks } from '../../src/gateway/types.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { addHooks, FIXTURE_HOOKS, tempHome, type TempHome } from './_home.js';

const open: { t: TempHome; hooks?: GatewayHooks }[] = [];
async function setup(names: string[]) {
  const t = await tempHome();
  const entry: { t: TempHome; hooks?: GatewayHooks } = { t };
  open.push(entry);
  await addHooks(t, FIXTURE_HOOKS, names);
  const logger = captureLogger();
  entry.hooks = await loadGatewayHooks({ home: t.home, logger, env: t.env });
  return { t, hooks: entry.hooks, logger };
}
afterEach(async () => {
  for (const { t, hooks } of open.splice(0)) {
    await hooks?.close(1_000);
    await t.cleanup();
  }
});

describe('emitCollect: the answers of real handlers, in order', () => {
  it('python deny (async, module state kept between events), JS rewrite, telemetry None dropped', async () => {
    const { t, hooks, logger } = await setup(['py-deny-reset', 'js-rewrite-model', 'py-telemetry']);
    const first = await hooks.emitCollect('command:reset', { user_id: 'u1', command: 'reset', raw_command: 'reset', args: '' });
    const second = await hooks.emitCollect('command:reset', { user_id: 'u1', command: 'reset', raw_command: 'reset', args: '' });
    expect(first).toEqual([{ decision: 'deny', message: 'only admins may /reset (call 1)' }]);
    expect(second).toEqual([{ decision: 'deny', message: 'only admins may /reset (call 2)' }]);
    expect(await hooks.emitCollect('command:reset', { user_id: 'admin' })).toEqual([{ decision: 'allow' }]);
    expect(await hooks.emitCollect('command:m', { args: 'gpt-x' })).toEqual([{ decision: 'rewrite', command_name: '/model', raw_args: ' gpt-x ' }]);
    // The wildcard telemetry hook ran for every one of them, after the exact subscriber, and answered nothing.
    expect((await readFile(path.join(t.hooks, 'seen.log'), 'utf8')).trim().split('\n')).toEqual([
      'command:reset ',
      'command:reset ',
      'command:reset ',
      'command:m gpt-x',
    ]);
    expect(logger.at('warn')).toEqual([]);
  });

  it('a handler that throws is logged and skipped; the others still answer', async () => {
    const { hooks, logger } = await setup(['js-raises-collect', 'py-deny-reset']);
    expect(await hooks.emitCollect('command:reset', { user_id: 'u1' })).toEqual([{ decision: 'deny', message: 'only admins may /reset (call 1)' }]);
    expect(logger.at('warn')).toEqual([expect.stringContaining("Error in handler js-raises-collect for 'command:reset': Error: boom")]);
  });

  it('a handler that hangs is skipped after the deadline, said; the rest answer', async () => {
    const { hooks, logger } = await setup(['py-hangs-command', 'py-deny-reset']);
    const started = Date.now();
    const answers = await hooks.emitCollect('command:reset', { user_id: 'u1' }, { timeoutMs: 500 });
    expect(answers).toEqual([{ decision: 'deny', message: 'only admins may /reset (call 1)' }]);
    expect(Date.now() - started).toBeLessThan(60_000); // the 120 s sleep was not waited for
    expect(logger.at('warn')).toEqual([expect.stringMatching(/py-hangs-command did not answer 'command:reset' within 0\.5s; its decision is not counted/)]);
  });

  it('no subscriber: no answers', async () => {
    const { hooks } = await setup(['py-deny-reset']);
    expect(await hooks.emitCollect('command:help', {})).toEqual([]);
  });
});

describe("resolveCommandDecision: gateway/run.py's rules", () => {
  it('first deny / handled / rewrite decides; allow and empty read on', () => {
    expect(resolveCommandDecision([{ decision: 'allow' }, {}, { decision: ' DENY ', message: 'no' }, { decision: 'handled' }], 'reset')).toEqual({
      decidedBy: 2,
      result: { decision: 'deny', message: 'no' },
      ignored: [],
    });
    expect(resolveCommandDecision([{ decision: 'deny' }], 'rst').result).toEqual({ decision: 'deny', message: 'Command `/rst` was blocked by a hook.' });
    expect(resolveCommandDecision([{ decision: 'handled', message: '' }], 'x').result).toEqual({ decision: 'handled', message: null });
    expect(resolveCommandDecision([{ decision: 'handled', message: 'done' }], 'x').result).toEqual({ decision: 'handled', message: 'done' });
    expect(resolveCommandDecision([], 'x')).toEqual({ decidedBy: null, result: { decision: 'allow' }, ignored: [] });
  });

  it('rewrite: slashes and spaces trimmed; without a command name it is skipped, said', () => {
    expect(
      resolveCommandDecision(
        [
          { decision: 'rewrite', raw_args: 'a' },
          { decision: 'rewrite', command_name: '//model', raw_args: '  gpt ' },
        ],
        'm',
      ),
    ).toEqual({
      decidedBy: 1,
      result: { decision: 'rewrite', command: 'model', args: 'gpt', text: '/model gpt' },
      ignored: ['answer 1: "rewrite" without a "command_name"; ignored'],
    });
    expect(resolveCommandDecision([{ decision: 'rewrite', command_name: 'new' }], 'n').result).toEqual({
      decision: 'rewrite',
      command: 'new',
      args: '',
      text: '/new',
    });
  });

  it('non-dict answers are skipped as Hermes does; an unknown decision is said', () => {
    const v = resolveCommandDecision([true, 'deny', [{ decision: 'deny' }], { decision: 'block' }], 'status');
    expect(v.result).toEqual({ decision: 'allow' });
    expect(v.ignored).toEqual(['answer 4: unknown decision "block" (known: allow, deny, handled, rewrite); ignored']);
  });
});

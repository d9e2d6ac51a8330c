import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayHooks } from '../../src/gateway/gateway-hooks.js';
import type { GatewayHooks } from '../../src/gateway/types.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { isRunning } from '../spawn/_helpers.js';
import { addHooks, EXAMPLE_HOOKS, FIXTURE_HOOKS, tempHome, waitFor, type TempHome } from './_home.js';

const open: { t: TempHome; hooks?: GatewayHooks }[] = [];
async function setup(from: string, names: string[], opts: { python?: string; rename?: Record<string, string> } = {}) {
  const t = await tempHome();
  const entry: { t: TempHome; hooks?: GatewayHooks } = { t };
  open.push(entry);
  await addHooks(t, from, names, opts.rename);
  const logger = captureLogger();
  const hooks = await loadGatewayHooks({ home: t.home, logger, env: t.env, ...(opts.python ? { python: opts.python } : {}) });
  entry.hooks = hooks;
  return { t, hooks, logger };
}
afterEach(async () => {
  for (const { t, hooks } of open.splice(0)) {
    await hooks?.close(1_000);
    await t.cleanup();
  }
});

/** Stated margin for timers and process exits on a loaded 2-core machine (as in test/torture). */
const TIMER_MARGIN_MS = 1500;
/** How much earlier than asked a Node timer may fire, measured against performance.now(). */
const TIMER_EARLY_MS = 5;
/** python-worker stop(): the grace before each of its steps. */
const WORKER_STOP_GRACE_MS = 500;

const readLines = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n');
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );
const httpxInstalled = (() => {
  try {
    execFileSync('python3', ['-c', 'import httpx'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('gateway hooks: the seed examples, unchanged', () => {
  it('activity-log (async handle) records agent:start/step/end with the context', async () => {
    const { t, hooks, logger } = await setup(EXAMPLE_HOOKS, ['activity-log']);
    expect(hooks.handlers).toEqual([{ name: 'activity-log', events: ['agent:start', 'agent:end', 'agent:step'], dir: path.join(t.hooks, 'activity-log') }]);
    hooks.emitGateway('agent:start', { platform: 'telegram', user_id: 'u1', session_id: 's1', message: 'hi' });
    hooks.emitGateway('agent:step', { platform: 'telegram', user_id: 'u1', session_id: 's1', iteration: 1, tool_names: ['terminal'] });
    hooks.emitGateway('agent:end', { platform: 'telegram', user_id: 'u1', session_id: 's1', message: 'hi', response: 'hello' });
    hooks.emitGateway('session:start', { platform: 'telegram' }); // not subscribed
    await hooks.close();
    const entries = (await readLines(path.join(t.hooks, 'activity-log', 'activity.log'))).map((l) => JSON.parse(l));
    expect(entries.map((e) => e.event)).toEqual(['agent:start', 'agent:step', 'agent:end']);
    expect(entries[1]).toMatchObject({ platform: 'telegram', session_id: 's1', iteration: 1, tool_names: ['terminal'] });
    expect(entries[2]).toMatchObject({ response: 'hello' });
    expect(typeof entries[0].timestamp).toBe('string');
    expect(logger.at('warn')).toEqual([]);
  });

  it('command-logger (sync handle, command:*) logs every slash command', async () => {
    const { t, hooks } = await setup(EXAMPLE_HOOKS, ['command-logger']);
    hooks.emitGateway('command:model', { platform: 'discord', user_id: 'u2', command: 'model', args: 'gpt-x' });
    hooks.emitGateway('command:reset', { platform: 'discord', user_id: 'u2', command: 'reset', args: '' });
    hooks.emitGateway('commands', { command: 'not a command event' });
    await hooks.close();
    const entries = (await readLines(path.join(t.user, '.hermes', 'logs', 'command_usage.jsonl'))).map((l) => JSON.parse(l));
    expect(entries.map(({ ts: _ts, ...rest }) => rest)).toEqual([
      { command: 'model', args: 'gpt-x', platform: 'discord', user: 'u2' },
      { command: 'reset', args: '', platform: 'discord', user: 'u2' },
    ]);
  });

  it('long-task-alert and session-webhook import httpx: loaded when it is installed, else skipped saying so', async () => {
    const { hooks, logger } = await setup(EXAMPLE_HOOKS, ['long-task-alert', 'session-webhook']);
    const names = hooks.handlers.map((h) => h.name);
    if (httpxInstalled) {
      expect(names).toEqual(['long-task-alert', 'session-webhook']);
    } else {
      expect(names).toEqual([]);
      for (const n of ['long-task-alert', 'session-webhook']) {
        expect(logger.at('warn')).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^\\[hooks\\] Skipping ${n}: handler.py failed to import: ModuleNotFoundError: No module named 'httpx' \\(handler.py needs the Python module 'httpx', which is not installed for .*python.*; install it`,
            ),
          ),
        );
      }
    }
  });
});

describe('gateway hooks: routing and isolation', () => {
  it('exact and `<prefix>:*` subscribers both get the event; the wildcard is not held back by the exact one', async () => {
    const { t, hooks } = await setup(FIXTURE_HOOKS, ['a-wild', 'b-exact']);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['a-wild', 'b-exact']);
    hooks.emitGateway('command:model', { command: 'model' });
    await hooks.close();
    // Each handler has its own queue (test/gateway/ordering.test.ts): b-exact is started first
    // (routing.test.ts pins that order), but its 20 ms wait no longer delays a-wild.
    expect((await readLines(path.join(t.hooks, 'order.log'))).sort()).toEqual(['a-wild command:model', 'b-exact command:model']);
  });

  it('command:* matches command:reset but not agent:* or a prefix-less event', async () => {
    const { t, hooks } = await setup(FIXTURE_HOOKS, ['a-wild', 'b-exact']);
    hooks.emitGateway('command:reset', {});
    hooks.emitGateway('command', {});
    hooks.emitGateway('agent:start', {});
    await hooks.close();
    expect(await readLines(path.join(t.hooks, 'order.log'))).toEqual(['a-wild command:reset']);
  });

  it('emitGateway returns at once; handler.mjs gets its own copy of the context; name defaults to the folder', async () => {
    const { t, hooks, logger } = await setup(FIXTURE_HOOKS, ['js-logger', 'bare-agent'], {});
    await addHooks(t, FIXTURE_HOOKS, ['js-logger'], { 'js-logger': 'js-logger-2' });
    const again = await loadGatewayHooks({ home: t.home, logger, env: t.env });
    open.push({ t, hooks: again });
    expect(again.handlers.map((h) => h.name)).toEqual(['bare-agent', 'js-logger', 'js-logger-2']);
    expect(logger.at('warn')).toContain("[hooks] bare-agent: event 'agent' has no ':' and matches nothing (did you mean 'agent:*'?)");

    const context = { platform: 'slack', user_id: 'u', session_id: 's', session_key: 'k' };
    again.emitGateway('session:start', context);
    // Nothing ran synchronously inside emitGateway.
    expect(existsSync(path.join(t.hooks, 'js-logger', 'events.log'))).toBe(false);
    again.emitGateway('agent:start', { message: 'go' });
    await again.close();
    await hooks.close();
    const first = (await readLines(path.join(t.hooks, 'js-logger', 'events.log'))).map((l) => JSON.parse(l));
    const second = (await readLines(path.join(t.hooks, 'js-logger-2', 'events.log'))).map((l) => JSON.parse(l));
    expect(first).toEqual([
      { event: 'session:start', context },
      { event: 'agent:start', context: { message: 'go' } },
    ]);
    expect(second).toEqual(first); // js-logger's mutation did not reach js-logger-2
    expect(context).not.toHaveProperty('mutated');
    // The bare `agent` subscription never fired (its handler throws if called).
    expect(logger.at('warn').filter((m) => m.includes('Error in handler'))).toEqual([]);
  });
});

describe('gateway hooks: broken hooks never hurt the host', () => {
  it('invalid directories are skipped with `[hooks] Skipping <name>: <why>`; incomplete ones silently', async () => {
    const { hooks, logger } = await setup(FIXTURE_HOOKS, ['invalid-yaml', 'no-events', 'not-mapping', 'no-handle', 'missing-handler', 'a-wild']);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['a-wild']);
    const skips = logger.at('warn').filter((m) => m.startsWith('[hooks] Skipping'));
    expect(skips).toEqual([
      expect.stringMatching(/^\[hooks\] Skipping invalid-yaml: invalid HOOK.yaml: YAML syntax error/),
      '[hooks] Skipping no-events: no events declared',
      "[hooks] Skipping no-handle: no 'handle' function found",
      '[hooks] Skipping not-mapping: HOOK.yaml is not a mapping',
    ]);
    // A directory without a handler file is passed over silently, as in Hermes: one debug line, no warning.
    expect(logger.lines.filter((l) => l.message.includes('missing-handler'))).toEqual([
      { level: 'debug', message: '[hooks] missing-handler: no HOOK.yaml + handler; not a hook directory' },
    ]);
  });

  it('a raising handler is logged and the next handler still runs; handler output never corrupts the protocol', async () => {
    const { t, hooks, logger } = await setup(FIXTURE_HOOKS, ['py-raises', 'py-prints']);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['py-prints', 'py-raises']);
    hooks.emitGateway('agent:end', { session_id: 's9', response: 'ok' });
    await hooks.close();
    expect(logger.at('warn')).toContain("[hooks] Error in handler py-raises for 'agent:end': ValueError: handler blew up on agent:end");
    const [entry] = (await readLines(path.join(t.hooks, 'py-prints', 'events.log'))).map((l) => JSON.parse(l));
    expect(entry).toEqual({ event: 'agent:end', context: { session_id: 's9', response: 'ok' }, home: t.home });
    const info = logger.at('info');
    // Python-level output is the printing hook's; what bypasses Python (a raw fd write, a
    // subprocess) cannot be told apart in the worker both hooks share, and is the worker's.
    for (const line of ['printed at import time', '{"id": 999, "ok": false, "error": "forged"}']) {
      expect(info).toContain(`[hooks] py-prints: ${line}`);
    }
    for (const line of ['raw fd 1 write', 'child process output']) expect(info).toContain(`[hooks] python worker: ${line}`);
    // py-raises' traceback is its own.
    expect(info).toContain('[hooks] py-raises: ValueError: handler blew up on agent:end');
  });

  it('a missing python3 is a clear skip', async () => {
    const { hooks, logger } = await setup(FIXTURE_HOOKS, ['a-wild', 'b-exact'], { python: '/nonexistent/python3' });
    expect(hooks.handlers.map((h) => h.name)).toEqual(['b-exact']);
    expect(logger.at('warn')).toEqual([
      '[hooks] Skipping a-wild: /nonexistent/python3 not found: python3 is needed to run handler.py (install Python 3, or pass the `python` option)',
    ]);
  });

  it('a python worker that dies is reported once; later events for it fail fast', async () => {
    const { hooks, logger } = await setup(FIXTURE_HOOKS, ['py-exits']);
    hooks.emitGateway('agent:start', {});
    await waitFor(() => (logger.at('warn').length >= 2 ? true : null));
    hooks.emitGateway('agent:start', {});
    await hooks.close();
    expect(logger.at('warn').sort()).toEqual([
      "[hooks] Error in handler py-exits for 'agent:start': Error: python worker exited with code 3",
      "[hooks] Error in handler py-exits for 'agent:start': Error: python worker is not running",
      '[hooks] py-exits: python worker exited with code 3; the hook is disabled',
    ]);
  });

  it('no hooks/ directory: no handlers (boot-md only when the host passes onBoot)', async () => {
    const t = await tempHome();
    open.push({ t });
    const hooks = await loadGatewayHooks({ home: path.join(t.user, 'elsewhere'), logger: captureLogger() });
    expect(hooks.handlers).toEqual([]);
    const withBoot = await loadGatewayHooks({ home: path.join(t.user, 'elsewhere'), logger: captureLogger(), onBoot: () => {} });
    expect(withBoot.handlers).toEqual([{ name: 'boot-md', events: ['gateway:startup'], dir: null }]);
    await withBoot.close();
    hooks.emitGateway('agent:start', {});
    await hooks.close();
  });
});

describe('gateway hooks: close()', () => {
  it('waits for in-flight handlers', async () => {
    const { t, hooks, logger } = await setup(FIXTURE_HOOKS, ['js-slow']);
    hooks.emitGateway('agent:step', { iteration: 7 });
    await hooks.close(10_000);
    expect(await readFile(path.join(t.hooks, 'js-slow', 'done'), 'utf8')).toBe('7');
    // Emits after close are ignored: turned away at once, nothing is scheduled.
    hooks.emitGateway('agent:step', { iteration: 8 });
    expect(logger.at('debug')).toEqual(['[hooks] agent:step emitted after close; ignored']);
  });

  it('gives up on a handler that never finishes after the bound', async () => {
    const { hooks, logger } = await setup(FIXTURE_HOOKS, ['js-never']);
    hooks.emitGateway('agent:step', { iteration: 1 });
    const started = performance.now();
    await hooks.close(300);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(300 - TIMER_EARLY_MS); // it did wait out the bound
    expect(elapsed).toBeLessThan(300 + TIMER_MARGIN_MS); // a JS handler has no worker to stop
    expect(logger.at('warn')).toEqual(['[hooks] 1 gateway hook emission(s) still running after 0.3s; stopping']);
  });

  it('kills a hung python worker after the bound', async () => {
    const { t, hooks, logger } = await setup(FIXTURE_HOOKS, ['py-hangs']);
    hooks.emitGateway('agent:step', { iteration: 1 });
    const pid = Number(
      await waitFor(async () => ((await exists(path.join(t.hooks, 'py-hangs', 'pid'))) ? readFile(path.join(t.hooks, 'py-hangs', 'pid'), 'utf8') : null)),
    );
    expect(() => process.kill(pid, 0)).not.toThrow();
    const started = performance.now();
    await hooks.close(300);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(300 - TIMER_EARLY_MS);
    // The bound, then the worker's stop: stdin closed, TERM, KILL, each after a 500 ms grace.
    expect(elapsed).toBeLessThan(300 + 3 * WORKER_STOP_GRACE_MS + TIMER_MARGIN_MS);
    expect(logger.at('warn')).toEqual(['[hooks] 1 gateway hook emission(s) still running after 0.3s; stopping']);
    // close() returns once the worker is dead, not merely signalled.
    expect(isRunning(pid)).toBe(false);
  });

  it('a python worker exits by itself when its host dies without closing', async () => {
    const t = await tempHome();
    open.push({ t });
    await mkdir(path.join(t.hooks, 'pid-at-import'));
    await writeFile(path.join(t.hooks, 'pid-at-import', 'HOOK.yaml'), 'events: [agent:start]\n');
    await writeFile(
      path.join(t.hooks, 'pid-at-import', 'handler.py'),
      'import os\nfrom pathlib import Path\n(Path(__file__).parent / "pid").write_text(str(os.getpid()))\ndef handle(e, c):\n    pass\n',
    );
    const script = path.join(t.user, 'host.mts');
    const hooksModule = new URL('../../src/gateway/gateway-hooks.ts', import.meta.url).href;
    await writeFile(
      script,
      `import { loadGatewayHooks } from ${JSON.stringify(hooksModule)};\n` +
        `const logger = { warn: (m) => console.error(m) };\n` +
        `await loadGatewayHooks({ home: ${JSON.stringify(t.home)}, logger });\n` +
        `process.kill(process.pid, 'SIGKILL');\n`,
    );
    try {
      execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), stdio: 'pipe', timeout: 20_000 });
    } catch (e) {
      const err = e as { signal?: string; stderr?: Buffer };
      expect({ signal: err.signal, stderr: String(err.stderr ?? '') }).toEqual({ signal: 'SIGKILL', stderr: '' });
    }
    const pid = Number(await readFile(path.join(t.hooks, 'pid-at-import', 'pid'), 'utf8'));
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return null;
      } catch {
        return true;
      }
    });
  });
});

// A profile's handler.py hooks share one python worker (issue 21), as Hermes runs them in one
// interpreter: module state survives between events, one pid for all, an import failure or a slow
// import skips only that hook, the import deadline counts from the interpreter being up, a hanging
// handler delays only itself, and a dead worker disables every python hook, said once.
// Real python3 processes, handler files written into a temp profile home.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayHooks, type LoadGatewayHooksOptions } from '../../src/gateway/gateway-hooks.js';
import type { GatewayHooks } from '../../src/gateway/types.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { addHooks, FIXTURE_HOOKS, tempHome, waitFor, type TempHome } from './_home.js';

const open: { t: TempHome; hooks?: GatewayHooks }[] = [];
afterEach(async () => {
  for (const { t, hooks } of open.splice(0)) {
    await hooks?.close(1_000);
    await t.cleanup();
  }
});

async function load(t: TempHome, opts: Partial<LoadGatewayHooksOptions> = {}) {
  const logger = captureLogger();
  const hooks = await loadGatewayHooks({ home: t.home, logger, env: t.env, ...opts });
  open.push({ t, hooks });
  return { hooks, logger };
}

async function home(): Promise<TempHome> {
  const t = await tempHome();
  open.push({ t });
  return t;
}

/** A hook folder with HOOK.yaml and handler.py (`body` follows a few imports). */
async function pyHook(t: TempHome, dirName: string, events: string[], body: string): Promise<void> {
  const dir = path.join(t.hooks, dirName);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'HOOK.yaml'), `name: ${dirName}\nevents: ${JSON.stringify(events)}\n`);
  await writeFile(path.join(dir, 'handler.py'), `import os\nimport time\nfrom pathlib import Path\n${body}`);
}

/** handle() counts its calls in module state and logs `<pid> <count> <event>` next to itself. */
const COUNTER = `
CALLS = {"n": 0}

def handle(event_type, context):
    CALLS["n"] += 1
    with open(Path(__file__).parent / "calls.log", "a") as f:
        f.write("%d %d %s\\n" % (os.getpid(), CALLS["n"], event_type))
`;

const lines = async (file: string): Promise<string[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
const callsOf = (t: TempHome, dirName: string) => lines(path.join(t.hooks, dirName, 'calls.log'));

describe('gateway hooks: one python worker per profile', () => {
  it('module state survives between events, in each of two hooks, and both run in one interpreter', async () => {
    const t = await home();
    await pyHook(t, 'count-a', ['agent:*'], COUNTER);
    await pyHook(t, 'count-b', ['agent:*'], COUNTER);
    const { hooks, logger } = await load(t);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['count-a', 'count-b']);
    for (const e of ['agent:start', 'agent:step', 'agent:end']) hooks.emitGateway(e, {});
    await hooks.close(5_000);
    const a = (await callsOf(t, 'count-a')).map((l) => l.split(' '));
    const b = (await callsOf(t, 'count-b')).map((l) => l.split(' '));
    expect(a.map(([, n, e]) => `${n} ${e}`)).toEqual(['1 agent:start', '2 agent:step', '3 agent:end']);
    expect(b.map(([, n, e]) => `${n} ${e}`)).toEqual(['1 agent:start', '2 agent:step', '3 agent:end']);
    // One pid for every call of both hooks: one interpreter.
    expect(new Set([...a, ...b].map(([pid]) => pid)).size).toBe(1);
    expect(Number(a[0]![0])).not.toBe(process.pid);
    expect(logger.at('warn')).toEqual([]);
  });

  it('a handler.py that fails to import is skipped alone, said; the others load and run', async () => {
    const t = await home();
    await pyHook(t, 'a-ok', ['agent:start'], COUNTER);
    await pyHook(t, 'b-broken', ['agent:start'], 'raise RuntimeError("no config for b")\n');
    await pyHook(t, 'c-no-handle', ['agent:start'], 'X = 1\n');
    await pyHook(t, 'd-ok', ['agent:start'], COUNTER);
    const { hooks, logger } = await load(t);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['a-ok', 'd-ok']);
    expect(logger.at('warn')).toEqual([
      '[hooks] Skipping b-broken: handler.py failed to import: RuntimeError: no config for b',
      "[hooks] Skipping c-no-handle: no 'handle' function found",
    ]);
    // The failed import's traceback is that hook's output.
    expect(logger.at('info')).toContain('[hooks] b-broken: RuntimeError: no config for b');
    hooks.emitGateway('agent:start', {});
    await hooks.close(5_000);
    expect(await callsOf(t, 'a-ok')).toHaveLength(1);
    expect(await callsOf(t, 'd-ok')).toHaveLength(1);
  });

  it('a handler.py that ends the process at import time takes the worker with it: every handler.py hook is skipped, said', async () => {
    const t = await home();
    await pyHook(t, 'a-ok', ['agent:start'], COUNTER);
    await pyHook(t, 'b-exits', ['agent:start'], 'time.sleep(0.5)\nos._exit(4)\n');
    const { hooks, logger } = await load(t);
    expect(hooks.handlers).toEqual([]);
    expect(logger.at('warn')).toEqual([
      '[hooks] Skipping a-ok: python worker exited with code 4 while the handler.py hooks were loading',
      '[hooks] Skipping b-exits: python worker exited with code 4 while the handler.py hooks were loading',
    ]);
  });

  it('a slow interpreter start does not eat the import deadline (python wrapper sleeping 2 s, 1 s deadline)', async () => {
    const t = await home();
    const slowPython = path.join(t.user, 'slow-python');
    await writeFile(slowPython, '#!/bin/sh\nsleep 2\nexec python3 "$@"\n');
    await chmod(slowPython, 0o755);
    for (const n of ['p1', 'p2', 'p3']) await pyHook(t, n, ['agent:start'], `time.sleep(0.2)\n${COUNTER}`);
    const started = Date.now();
    const { hooks, logger } = await load(t, { python: slowPython, importTimeoutMs: 1_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000); // the start really was slow
    expect(logger.at('warn')).toEqual([]);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['p1', 'p2', 'p3']);
    hooks.emitGateway('agent:start', {});
    await hooks.close(5_000);
    for (const n of ['p1', 'p2', 'p3']) expect(await callsOf(t, n)).toHaveLength(1);
  });

  it('an interpreter that does not come up within pythonStartTimeoutMs: every handler.py hook is skipped, said', async () => {
    const t = await home();
    const stuckPython = path.join(t.user, 'stuck-python');
    await writeFile(stuckPython, '#!/bin/sh\nexec sleep 30\n');
    await chmod(stuckPython, 0o755);
    await pyHook(t, 'p1', ['agent:start'], COUNTER);
    await pyHook(t, 'p2', ['agent:start'], COUNTER);
    const { hooks, logger } = await load(t, { python: stuckPython, pythonStartTimeoutMs: 500 });
    expect(hooks.handlers).toEqual([]);
    expect(logger.at('warn')).toEqual([
      `[hooks] Skipping p1: ${stuckPython} did not start within 0.5s`,
      `[hooks] Skipping p2: ${stuckPython} did not start within 0.5s`,
    ]);
  });

  it('an import slower than the deadline skips that hook alone, said; the others are not held up', async () => {
    const t = await home();
    await pyHook(t, 'a-slow-import', ['agent:start'], `time.sleep(30)\n${COUNTER}`);
    await pyHook(t, 'b-ok', ['agent:start'], COUNTER);
    const started = Date.now();
    const { hooks, logger } = await load(t, { importTimeoutMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['b-ok']);
    expect(logger.at('warn')).toEqual(['[hooks] Skipping a-slow-import: handler.py did not finish importing within 1s (the other hooks are not held up)']);
    hooks.emitGateway('agent:start', {});
    await waitFor(async () => ((await callsOf(t, 'b-ok')).length === 1 ? true : null));
  });

  it('a handler hanging in time.sleep(120) delays only its own events, never another hook in the worker', async () => {
    const t = await home();
    await addHooks(t, FIXTURE_HOOKS, ['py-hangs']);
    await pyHook(t, 'z-counter', ['agent:step'], COUNTER);
    const { hooks } = await load(t);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['py-hangs', 'z-counter']);
    hooks.emitGateway('agent:step', {});
    const pid = Number(await waitFor(async () => (await readFile(path.join(t.hooks, 'py-hangs', 'pid'), 'utf8').catch(() => null)) || null));
    hooks.emitGateway('agent:step', {});
    hooks.emitGateway('agent:step', {});
    // py-hangs is still in its first call; the counter, in the same process, had all three.
    const calls = await waitFor(async () => ((await callsOf(t, 'z-counter')).length === 3 ? callsOf(t, 'z-counter') : null));
    expect(calls.map((l) => Number(l.split(' ')[0]))).toEqual([pid, pid, pid]);
  });

  it('a worker that dies disables every python hook, said once; JS hooks go on', async () => {
    const t = await home();
    await addHooks(t, FIXTURE_HOOKS, ['py-exits', 'js-logger']);
    await pyHook(t, 'z-counter', ['agent:*'], COUNTER);
    const { hooks, logger } = await load(t);
    expect(hooks.handlers.map((h) => h.name)).toEqual(['js-logger', 'py-exits', 'z-counter']);
    hooks.emitGateway('agent:start', {});
    await waitFor(() => (logger.at('warn').some((m) => m.includes('disabled')) ? true : null));
    hooks.emitGateway('agent:step', {});
    hooks.emitGateway('session:start', {});
    await hooks.close(5_000);
    const disabled = logger.at('warn').filter((m) => m.includes('disabled'));
    expect(disabled).toEqual(['[hooks] py-exits, z-counter: python worker exited with code 3; these hooks are disabled']);
    expect(logger.at('warn')).toContain("[hooks] Error in handler z-counter for 'agent:step': Error: python worker is not running");
    expect((await lines(path.join(t.hooks, 'js-logger', 'events.log'))).map((l) => JSON.parse(l).event)).toEqual(['agent:start', 'session:start']);
  });
});

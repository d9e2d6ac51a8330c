// Gateway handlers see events in emit order, each through its own queue: a slow handler holds back
// only its own later events, never another handler's, and never the caller. Real handler files in a
// temp profile home, loaded as loadGatewayHooks loads them.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayHooks } from '../../src/gateway/gateway-hooks.js';
import type { GatewayHooks } from '../../src/gateway/types.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { tempHome, waitFor, type TempHome } from './_home.js';

const open: { t: TempHome; hooks: GatewayHooks }[] = [];
afterEach(async () => {
  for (const { t, hooks } of open.splice(0)) {
    await hooks.close(1_000);
    await t.cleanup();
  }
});

/** A handler.mjs that appends `<event> <iteration>` to log.txt, sleeping `slowOn` ms first on that event. */
async function jsHook(t: TempHome, name: string, slow: { event: string; ms: number } | null): Promise<string> {
  const dir = path.join(t.hooks, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'HOOK.yaml'), `name: ${name}\nevents: ['agent:*']\n`);
  await writeFile(
    path.join(dir, 'handler.mjs'),
    `import { appendFileSync } from 'node:fs';
const LOG = ${JSON.stringify(path.join(dir, 'log.txt'))};
export async function handle(eventType, context) {
  ${slow ? `if (eventType === ${JSON.stringify(slow.event)}) await new Promise((r) => setTimeout(r, ${slow.ms}));` : ''}
  appendFileSync(LOG, eventType + ' ' + context.n + ' ' + Date.now() + '\\n');
}
`,
  );
  return path.join(dir, 'log.txt');
}

/** A handler.py doing the same through the python worker. */
async function pyHook(t: TempHome, name: string, slowMs: number): Promise<string> {
  const dir = path.join(t.hooks, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'HOOK.yaml'), `name: ${name}\nevents: ['agent:*']\n`);
  await writeFile(
    path.join(dir, 'handler.py'),
    `import time
from pathlib import Path
LOG = Path(__file__).parent / "log.txt"
def handle(event_type, context):
    if event_type == "agent:start":
        time.sleep(${slowMs / 1000})
    with open(LOG, "a") as f:
        f.write("%s %s\\n" % (event_type, context["n"]))
`,
  );
  return path.join(dir, 'log.txt');
}

const lines = async (file: string): Promise<string[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');

describe('gateway hooks: per-handler ordering', () => {
  it('a handler slow on agent:start still sees start, step, end in order; the fast handler is not held back', async () => {
    const t = await tempHome();
    const slowLog = await jsHook(t, 'a-slow', { event: 'agent:start', ms: 600 });
    const fastLog = await jsHook(t, 'b-fast', null);
    const hooks = await loadGatewayHooks({ home: t.home, logger: captureLogger(), env: t.env });
    open.push({ t, hooks });

    const before = performance.now();
    hooks.emitGateway('agent:start', { n: 1 });
    hooks.emitGateway('agent:step', { n: 2 });
    hooks.emitGateway('agent:end', { n: 3 });
    // Never blocks the caller.
    expect(performance.now() - before).toBeLessThan(50);

    // The fast handler has all three while the slow one has not even finished agent:start.
    const fast = await waitFor(async () => ((await lines(fastLog)).length === 3 ? lines(fastLog) : null));
    expect(fast.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['agent:start 1', 'agent:step 2', 'agent:end 3']);
    expect(await lines(slowLog)).toEqual([]);

    const slow = await waitFor(async () => ((await lines(slowLog)).length === 3 ? lines(slowLog) : null));
    expect(slow.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['agent:start 1', 'agent:step 2', 'agent:end 3']);
    // The slow handler's start was logged after the fast handler's end: it delayed only itself.
    expect(Number(slow[0]!.split(' ')[2])).toBeGreaterThanOrEqual(Number(fast[2]!.split(' ')[2]));
  });

  it('a python handler slow on agent:start keeps emit order too', async () => {
    const t = await tempHome();
    const log = await pyHook(t, 'py-slow', 400);
    const hooks = await loadGatewayHooks({ home: t.home, logger: captureLogger(), env: t.env });
    open.push({ t, hooks });
    for (let n = 1; n <= 5; n++) hooks.emitGateway(n === 1 ? 'agent:start' : n === 5 ? 'agent:end' : 'agent:step', { n });
    await hooks.close(5_000);
    expect(await lines(log)).toEqual(['agent:start 1', 'agent:step 2', 'agent:step 3', 'agent:step 4', 'agent:end 5']);
  });

  it('the context is copied at emit time: a host mutating it afterwards changes nothing a queued handler sees', async () => {
    const t = await tempHome();
    const log = await jsHook(t, 'a-slow', { event: 'agent:start', ms: 300 });
    const hooks = await loadGatewayHooks({ home: t.home, logger: captureLogger(), env: t.env });
    open.push({ t, hooks });
    const ctx = { n: 1 };
    hooks.emitGateway('agent:start', ctx);
    hooks.emitGateway('agent:step', ctx);
    ctx.n = 99;
    await hooks.close(5_000);
    expect((await lines(log)).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['agent:start 1', 'agent:step 1']);
  });
});

// Outbound webhooks crossed through engine.emit (not the dispatcher alone): a real HTTP server on
// 127.0.0.1 receives what an emit posts; safe mode and the dry run post nothing; close() flushes;
// a failing or hanging webhook never changes a decision nor holds up the emit.

import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookEngine, HookEngineOptions } from '../../src/engine/create-engine.js';
import { verifySignature } from '../../src/outbound/signature.js';
import type { Emission } from '../../src/types.js';
import { baseEnv, cleanupTemps, runMain } from '../cli/_helpers.js';
import { freePort, startServer, type Received, type Responder, type TestServer } from '../outbound/_http-server.js';
import { capture, tempHome, testEngine } from './_helpers.js';

const FIX = resolvePath(import.meta.dirname, '../fixtures/engine');
const SECRET = 'webhook-s3cret-✓';
const BODY_KEYS = ['hook_event_name', 'profile', 'tool_name', 'tool_input', 'session_id', 'cwd', 'extra', 'delivery_id', 'timestamp'];
/** Slack for an emit's own bookkeeping (payload, resolve) above its slowest hook, on a loaded 2-core machine. */
const EMIT_OVERHEAD_MARGIN_MS = 1000;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  cleanupTemps();
});

async function server(respond?: Responder): Promise<TestServer> {
  const s = await startServer(respond);
  servers.push(s);
  return s;
}

const hookEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HERMES_SAFE_MODE: '',
  HERMES_ACCEPT_HOOKS: '',
  HOOK_SECRET: SECRET,
  ...extra,
});

/** A profile home whose config.yaml has a blocking pre_tool_call hook and the given outbound targets. */
function homeWith(outbound: string[], hooks = `  pre_tool_call:\n    - command: ${FIX}/block.sh\n`): string {
  const home = tempHome('hh-webhooks-');
  writeFileSync(join(home, 'config.yaml'), `hooks:\n${hooks}  outbound:\n${outbound.join('')}`);
  return home;
}

const target = (url: string, events: string, extra = ''): string => `    - url: ${url}\n      events: [${events}]\n      secret_env: HOOK_SECRET\n${extra}`;

async function engineOn(home: string, opts: HookEngineOptions = {}): Promise<HookEngine> {
  return testEngine(home, { cwd: home, env: hookEnv(), ...opts });
}

const escapeRe = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const json = (r: Received): Record<string, unknown> => JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
const terminal = (command: string, session_id: string) => ({ tool_name: 'terminal', args: { command }, session_id, task_id: 't-1' });

describe('engine.emit posts outbound webhooks', () => {
  it("posts the payload the hooks saw, signed with HMAC-SHA256 of the raw body, and the decision stays the hooks'", async () => {
    const s = await server();
    const home = homeWith([target(s.url, 'pre_tool_call, post_tool_call')]);
    const engine = await engineOn(home);

    const before = Date.now();
    const emission = await engine.emit('pre_tool_call', terminal('ls ü', 'sess-1'));
    expect(emission.decision).toMatchObject({ action: 'block', message: 'blocked by fixture', decided_by: 0 });
    const [r] = await s.waitFor(1);
    const after = Date.now();

    const body = json(r!);
    expect(Object.keys(body)).toEqual(BODY_KEYS);
    // The body carries exactly the stdin payload fields the hook received, in Hermes' outbound order.
    const p = emission.payload as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      hook_event_name: 'pre_tool_call',
      profile: p.profile,
      tool_name: 'terminal',
      tool_input: { command: 'ls ü' },
      session_id: 'sess-1',
      cwd: home,
      extra: { task_id: 't-1' },
    });
    for (const k of ['tool_name', 'tool_input', 'session_id', 'cwd', 'extra', 'profile']) expect(body[k], k).toEqual(p[k]);
    expect(body.delivery_id).toMatch(/^[0-9a-f]{32}$/);
    const ts = Date.parse(body.timestamp as string);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(after);

    expect(r!.method).toBe('POST');
    expect(r!.url).toBe('/hook');
    expect(r!.headers['content-type']).toBe('application/json');
    expect(r!.headers['user-agent']).toBe('Hermes-Agent-Outbound-Webhook');
    expect(r!.headers['x-hermes-event']).toBe('pre_tool_call');
    expect(r!.headers['x-hermes-delivery']).toBe(body.delivery_id);
    expect(r!.headers['x-hermes-signature-256']).toBe(`sha256=${createHmac('sha256', SECRET).update(r!.raw).digest('hex')}`);
    expect(verifySignature(SECRET, r!.raw, r!.headers['x-hermes-signature-256'])).toBe(true);

    // A subscribed event posts; an unsubscribed one does not.
    await engine.emit('post_tool_call', { ...terminal('ls ü', 'sess-1'), result: '{"ok":true}', status: 'ok' });
    await engine.emit('pre_llm_call', { session_id: 'sess-1', user_message: 'hi', platform: 'cli' });
    await engine.close({ finalize: false }); // flushes: whatever was queued has arrived now
    expect(s.received.map((x) => x.headers['x-hermes-event'])).toEqual(['pre_tool_call', 'post_tool_call']);
    expect(json(s.received[1]!)).toMatchObject({ hook_event_name: 'post_tool_call', extra: { task_id: 't-1', result: '{"ok":true}', status: 'ok' } });
  });

  it('HERMES_SAFE_MODE sends none, where the same config without it sends one', async () => {
    const s = await server();
    const home = homeWith([target(s.url, 'pre_tool_call, on_session_finalize')]);
    const safe = await engineOn(home, { env: hookEnv({ HERMES_SAFE_MODE: '1' }) });
    const control = await engineOn(home);

    const unguarded = await safe.emit('pre_tool_call', terminal('ls', 'safe'));
    expect(unguarded.hooks.filter((h) => h.kind === 'shell')).toEqual([]);
    await safe.close(); // fires on_session_finalize for 'safe' too: still nothing may be posted
    await control.emit('pre_tool_call', terminal('ls', 'control'));
    await control.close({ finalize: false });

    expect(s.received.map((r) => [r.headers['x-hermes-event'], json(r).session_id])).toEqual([['pre_tool_call', 'control']]);
  });

  it('the dry run sends none: an engine with enforceConsent:false / outbound:false, and `hermes-hooks test` in-process', async () => {
    const s = await server();
    const home = homeWith([target(s.url, 'pre_tool_call')]);

    const dry = await engineOn(home, { enforceConsent: false, outbound: false });
    const emission = await dry.emit('pre_tool_call', terminal('ls', 'dry-engine'));
    expect(emission.decision).toMatchObject({ action: 'block', message: 'blocked by fixture' }); // the hook really ran
    await dry.close(); // would flush a queued delivery

    const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' }, session_id: 'dry-cli' });
    const env = baseEnv({ HOOK_SECRET: SECRET });
    const tested = await runMain(['test', 'pre_tool_call', '--home', home, '--json'], { stdin: payload, env, cwd: home });
    expect(tested.code).toBe(2);
    expect(JSON.parse(tested.stdout).decision).toMatchObject({ action: 'block', message: 'blocked by fixture' });

    // Control: the production path `hermes-hooks run` on the same home posts (and flushes on close).
    const ran = await runMain(['run', 'pre_tool_call', '--home', home, '--accept-hooks'], {
      stdin: payload.replace('dry-cli', 'run-cli'),
      env,
      cwd: home,
    });
    expect(ran.code).toBe(2);
    expect(s.received.map((r) => json(r).session_id)).toEqual(['run-cli']);
  });

  it('close() waits for a delivery still in flight before it resolves', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((r) => (release = r));
    const s = await server((_req, res) => {
      order.push('request arrived');
      void released.then(() => {
        res.on('finish', () => order.push('response sent'));
        res.writeHead(200);
        res.end();
      });
    });
    const engine = await engineOn(homeWith([target(s.url, 'pre_tool_call')]));
    await engine.emit('pre_tool_call', terminal('ls', 'flush'));
    const closing = engine.close({ finalize: false }).then(() => order.push('close resolved'));
    await s.waitFor(1);
    order.push('released');
    release();
    await closing;
    expect(order).toEqual(['request arrived', 'released', 'response sent', 'close resolved']);
    expect(json(s.received[0]!).session_id).toBe('flush');
  });

  it('a webhook that fails or hangs changes no decision and does not hold up the emit', async () => {
    const hanging = await server(() => {
      /* never answers */
    });
    const failing = await server((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const refused = await freePort();
    const hooks =
      `  pre_tool_call:\n    - command: ${FIX}/block.sh\n    - command: ${FIX}/approve.sh\n` + `  pre_llm_call:\n    - command: ${FIX}/context.py\n`;
    const events = 'pre_tool_call, pre_llm_call';
    const home = homeWith(
      [
        target(hanging.url, events, '      timeout: 60\n      name: hanging\n'),
        target(failing.url, events, '      name: failing\n'),
        target(`http://127.0.0.1:${refused}/hook`, events, '      name: refused\n'),
      ],
      hooks,
    );
    const logger = capture();
    const withHooks = await engineOn(home, { logger });
    // The same hooks with webhooks off: what the decisions must be.
    const reference = await engineOn(home, { outbound: false });

    const calls: [Parameters<HookEngine['emit']>[0], Record<string, unknown>][] = [
      ['pre_tool_call', terminal('rm -rf /tmp/x', 'w1')],
      ['pre_llm_call', { session_id: 'w1', user_message: 'hello', platform: 'cli' }],
      ['pre_tool_call', terminal('ls', 'w1')],
    ];
    for (const [event, kwargs] of calls) {
      const t0 = performance.now();
      const got: Emission = await withHooks.emit(event, kwargs);
      const wall = performance.now() - t0;
      const want = await reference.emit(event, kwargs);
      expect(got.decision, event).toEqual(want.decision);
      // The emit lasts as long as its slowest hook plus bookkeeping; a 60 s webhook is not in it.
      const slowest = Math.max(...got.hooks.map((h) => h.started_ms + h.duration_ms));
      expect(wall, `${event} emit (ms)`).toBeLessThan(slowest + EMIT_OVERHEAD_MARGIN_MS);
    }
    // The hanging target holds a delivery right now, yet every emit above has returned.
    await hanging.waitFor(1);
    expect(hanging.received[0]!.headers['x-hermes-event']).toBe('pre_tool_call');

    // Every delivery to the 500 target was tried twice, then given up with a warning naming it.
    await failing.waitFor(6, 20_000);
    await hanging.close(); // the in-flight attempt fails now, so close() need not wait out its bound
    await withHooks.close({ finalize: false });
    const ids = [...new Set(failing.received.map((r) => r.headers['x-hermes-delivery'] as string))];
    const events3 = ['pre_tool_call', 'pre_llm_call', 'pre_tool_call'];
    expect(ids).toHaveLength(3);
    const failingWarnings = logger.lines.filter((l) => l.startsWith('outbound webhook failing:'));
    expect(failingWarnings).toEqual(ids.map((id, i) => `outbound webhook failing: delivery ${id} (${events3[i]}) failed after 2 attempts: HTTP 500`));
    const refusedText = `connection error (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${refused})`;
    expect(logger.lines.filter((l) => l.startsWith('outbound webhook refused:'))).toEqual(
      events3.map((e) =>
        expect.stringMatching(new RegExp(`^outbound webhook refused: delivery [0-9a-f]{32} \\(${e}\\) failed after 2 attempts: ${escapeRe(refusedText)}$`)),
      ),
    );
  });
});

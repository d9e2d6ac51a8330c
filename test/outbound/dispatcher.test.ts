import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { parseOutboundConfig } from '../../src/outbound/config.js';
import { createOutboundDispatcher } from '../../src/outbound/dispatcher.js';
import { signBody, verifySignature } from '../../src/outbound/signature.js';
import type { OutboundDispatcher, OutboundTarget } from '../../src/outbound/types.js';
import { freePort, memoryLogger, startServer, type Received, type TestServer } from './_http-server.js';

/** Stated margin for timers and sockets on a loaded 2-core machine (as in test/torture). */
const TIMER_MARGIN_MS = 1500;
/** How much earlier than asked a Node timer may fire, measured against performance.now(). */
const TIMER_EARLY_MS = 5;

const BODY_KEYS = ['hook_event_name', 'profile', 'tool_name', 'tool_input', 'session_id', 'cwd', 'extra', 'delivery_id', 'timestamp'];

function target(url: string, over: Partial<OutboundTarget> = {}): OutboundTarget {
  return {
    name: null,
    url,
    events: ['pre_tool_call', 'post_tool_call', 'on_session_start', 'on_session_end'],
    matcher: null,
    timeout: 5,
    secret: null,
    secret_source: null,
    secret_env: null,
    index: 0,
    path: 'hooks.outbound[0]',
    line: null,
    column: null,
    ...over,
  };
}

const servers: TestServer[] = [];
const dispatchers: OutboundDispatcher[] = [];

async function server(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

function dispatcher(targets: OutboundTarget[], opts: Partial<Parameters<typeof createOutboundDispatcher>[1]> = {}) {
  const logger = memoryLogger();
  const d = createOutboundDispatcher(targets, { profile: 'work', cwd: '/srv/app', logger, retryDelayMs: 50, ...opts });
  dispatchers.push(d);
  return { d, logger };
}

function json(r: Received): Record<string, unknown> {
  return JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
}

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('outbound delivery body and headers', () => {
  it('POSTs the body in Hermes key order with the wire rules of the shell stdin', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url)]);
    const before = Date.now();
    d.notify('pre_tool_call', {
      tool_name: 'terminal',
      args: { command: 'echo héllo ✓', nested: { a: [1, 2] } },
      task_id: 't-1',
      session_id: '',
      parent_session_id: 'parent-9',
      tool_call_id: 'call_1',
    });
    const [r] = await s.waitFor(1);
    const body = json(r!);
    expect(Object.keys(body)).toEqual(BODY_KEYS);
    expect(body).toMatchObject({
      hook_event_name: 'pre_tool_call',
      profile: 'work',
      tool_name: 'terminal',
      tool_input: { command: 'echo héllo ✓', nested: { a: [1, 2] } },
      session_id: 'parent-9',
      cwd: '/srv/app',
      extra: { task_id: 't-1', tool_call_id: 'call_1' },
    });
    expect(Object.keys(body.extra as object)).toEqual(['task_id', 'tool_call_id']);
    expect(body.delivery_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const ts = Date.parse(body.timestamp as string);
    expect(ts).toBeGreaterThanOrEqual(before - 1000);
    expect(ts).toBeLessThanOrEqual(Date.now() + 1000);
    // Raw UTF-8, not \u escapes.
    expect(r!.raw.includes(Buffer.from('héllo ✓', 'utf8'))).toBe(true);

    expect(r!.method).toBe('POST');
    expect(r!.url).toBe('/hook');
    expect(r!.headers['content-type']).toBe('application/json');
    expect(r!.headers['user-agent']).toBe('Hermes-Agent-Outbound-Webhook');
    expect(r!.headers['x-hermes-event']).toBe('pre_tool_call');
    expect(r!.headers['x-hermes-delivery']).toBe(body.delivery_id);
    expect(r!.headers['x-hermes-signature-256']).toBeUndefined();
    expect(Number(r!.headers['content-length'])).toBe(r!.raw.length);
  });

  it('tool_input is null unless args is a plain object; session_id falls back to ""', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url)]);
    d.notify('post_tool_call', { tool_name: 'x', args: ['a', 'b'], result: '{"ok":1}', status: 'ok', weird: 10n, gone: undefined });
    d.notify('on_session_start', { model: 'm', platform: 'cli' });
    await s.waitFor(2);
    const [a, b] = s.received.map(json);
    expect(a).toMatchObject({ tool_name: 'x', tool_input: null, session_id: '', extra: { result: '{"ok":1}', status: 'ok', weird: '10' } });
    expect(Object.keys(a!.extra as object)).toEqual(['result', 'status', 'weird']);
    expect(b).toMatchObject({ hook_event_name: 'on_session_start', tool_name: null, tool_input: null, extra: { model: 'm', platform: 'cli' } });
  });

  it('each target gets its own delivery id; kwargs mutated after notify do not leak in', async () => {
    const s1 = await server();
    const s2 = await server();
    const { d } = dispatcher([target(s1.url), target(s2.url, { index: 1 })]);
    const args = { command: 'ls' };
    d.notify('pre_tool_call', { tool_name: 'terminal', args, session_id: 's' });
    args.command = 'rm -rf /';
    const [[a], [b]] = await Promise.all([s1.waitFor(1), s2.waitFor(1)]);
    expect(json(a!).tool_input).toEqual({ command: 'ls' });
    expect(json(b!).tool_input).toEqual({ command: 'ls' });
    // Each delivery names its own id in body and header; two targets never share one.
    expect(json(a!).delivery_id).toBe(a!.headers['x-hermes-delivery']);
    expect(json(b!).delivery_id).toBe(b!.headers['x-hermes-delivery']);
    expect(new Set([json(a!).delivery_id, json(b!).delivery_id]).size).toBe(2);
  });

  it('survives kwargs JSON cannot hold (cycles) without throwing', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url)]);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(() => d.notify('pre_tool_call', { tool_name: 't', args: cyclic, when: new Date(0), nan: Number.NaN })).not.toThrow();
    const [r] = await s.waitFor(1);
    expect(json(r!)).toMatchObject({ tool_input: { a: 1, self: '[Circular]' }, extra: { when: '1970-01-01T00:00:00.000Z', nan: null } });
  });
});

describe('signatures', () => {
  it('signs the exact raw body with the secret: verifySignature and an independent HMAC agree', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url, { secret: 'k3y', secret_source: 'secret' })]);
    d.notify('post_tool_call', { tool_name: 'read_file', args: { path: '/tmp/ü' }, session_id: 's1', result: '{}' });
    const [r] = await s.waitFor(1);
    const header = r!.headers['x-hermes-signature-256'];
    expect(header).toBe(`sha256=${createHmac('sha256', 'k3y').update(r!.raw).digest('hex')}`);
    expect(verifySignature('k3y', r!.raw, header)).toBe(true);
    expect(verifySignature('wrong', r!.raw, header)).toBe(false);
    const tampered = Buffer.from(r!.raw.toString('utf8').replace('read_file', 'read_filf'), 'utf8');
    expect(verifySignature('k3y', tampered, header)).toBe(false);
  });

  it('signBody / verifySignature reject malformed headers and empty secrets', () => {
    const sig = signBody('s', '{"a":1}');
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('s', Buffer.from('{"a":1}'), sig)).toBe(true);
    expect(verifySignature('s', '{"a":1}', sig.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifySignature('s', '{"a":1}', [sig])).toBe(true);
    for (const bad of [undefined, null, '', 'sha256=', sig.slice(7), `sha1=${sig.slice(7)}`, `${sig}00`, 'sha256=zz']) {
      expect(verifySignature('s', '{"a":1}', bad as string)).toBe(false);
    }
    expect(verifySignature('', '{"a":1}', signBody('', '{"a":1}'))).toBe(false);
  });

  it('secret_env from config wins over secret; an empty variable sends unsigned deliveries', async () => {
    const s = await server();
    const yaml = [
      'hooks:',
      '  outbound:',
      `    - url: ${s.url}?a`,
      '      events: [on_session_start]',
      '      secret_env: HOOK_SECRET',
      '      secret: literal',
      `    - url: ${s.url}?b`,
      '      events: [on_session_start]',
      '      secret_env: EMPTY_SECRET',
      '      secret: literal',
    ].join('\n');
    const { targets, diagnostics } = parseOutboundConfig(parseConfigText(yaml, '/x/config.yaml'), { HOOK_SECRET: 'from-env', EMPTY_SECRET: '' });
    expect(diagnostics.map((x) => x.message)).toEqual([
      'hooks.outbound[0].url uses plain http: deliveries (and their signatures) travel unencrypted',
      'hooks.outbound[1].url uses plain http: deliveries (and their signatures) travel unencrypted',
      "hooks.outbound[1].secret_env: $EMPTY_SECRET is empty; deliveries will be UNSIGNED (no fallback to 'secret')",
    ]);
    const { d } = dispatcher(targets);
    d.notify('on_session_start', { session_id: 's' });
    await s.waitFor(2);
    const a = s.received.find((r) => r.url.endsWith('?a'))!;
    const b = s.received.find((r) => r.url.endsWith('?b'))!;
    expect(verifySignature('from-env', a.raw, a.headers['x-hermes-signature-256'])).toBe(true);
    expect(verifySignature('literal', a.raw, a.headers['x-hermes-signature-256'])).toBe(false);
    expect(b.headers['x-hermes-signature-256']).toBeUndefined();
  });
});

describe('retries, redirects and failures', () => {
  it('retries a 500 once after retryDelayMs, with the same delivery id and body', async () => {
    const s = await server((_r, res, n) => {
      res.writeHead(n === 1 ? 500 : 200);
      res.end();
    });
    const { d, logger } = dispatcher([target(s.url, { secret: 'k' })], { retryDelayMs: 300 });
    d.notify('on_session_end', { session_id: 's' });
    const [first, second] = await s.waitFor(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(second!.headers['x-hermes-delivery']).toBe(first!.headers['x-hermes-delivery']);
    expect(second!.headers['x-hermes-signature-256']).toBe(first!.headers['x-hermes-signature-256']);
    const stats = await d.close();
    expect(stats).toEqual({ queued: 1, delivered: 1, failed: 0, dropped: 0, abandoned: 0, attempts: 2 });
    expect(logger.warnings).toEqual([]);
  });

  it('gives up after 2 attempts when the server keeps answering 503', async () => {
    const s = await server((_r, res) => {
      res.writeHead(503);
      res.end();
    });
    const { d, logger } = dispatcher([target(s.url, { name: 'flaky' })]);
    d.notify('on_session_end', {});
    const stats = await d.close();
    expect(s.received).toHaveLength(2);
    expect(stats).toMatchObject({ delivered: 0, failed: 1, attempts: 2 });
    expect(logger.warnings).toEqual([
      expect.stringMatching(/^outbound webhook flaky: delivery [0-9a-f]{32} \(on_session_end\) failed after 2 attempts: HTTP 503$/),
    ]);
  });

  it('does not retry a 404', async () => {
    const s = await server((_r, res) => {
      res.writeHead(404);
      res.end('nope');
    });
    const { d, logger } = dispatcher([target(s.url)]);
    d.notify('on_session_end', {});
    const stats = await d.close();
    expect(s.received).toHaveLength(1);
    expect(stats).toMatchObject({ delivered: 0, failed: 1, attempts: 1 });
    expect(logger.warnings).toEqual([
      `outbound webhook ${s.url}: delivery ${s.received[0]!.headers['x-hermes-delivery']} (on_session_end) failed: HTTP 404 (not retried)`,
    ]);
  });

  it('never follows (nor retries) a 302: the redirect target receives nothing', async () => {
    const elsewhere = await server();
    const s = await server((_r, res) => {
      res.writeHead(302, { Location: elsewhere.url });
      res.end();
    });
    const { d, logger } = dispatcher([target(s.url)]);
    d.notify('on_session_end', {});
    const stats = await d.close();
    expect(s.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    expect(stats).toMatchObject({ delivered: 0, failed: 1, attempts: 1 });
    expect(logger.warnings).toEqual([
      `outbound webhook ${s.url}: delivery ${s.received[0]!.headers['x-hermes-delivery']} (on_session_end) failed: HTTP 302 (redirects are not followed)`,
    ]);
  });

  it('swallows connection refused, retries it once and counts the failure', async () => {
    const port = await freePort();
    const { d, logger } = dispatcher([target(`http://127.0.0.1:${port}/x`)]);
    expect(() => d.notify('on_session_end', {})).not.toThrow();
    const stats = await d.close();
    expect(stats).toEqual({ queued: 1, delivered: 0, failed: 1, dropped: 0, abandoned: 0, attempts: 2 });
    expect(logger.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^outbound webhook http://127\\.0\\.0\\.1:${port}/x: delivery [0-9a-f]{32} \\(on_session_end\\) failed after 2 attempts: ` +
            `connection error \\(ECONNREFUSED: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
        ),
      ),
    ]);
  });

  it('times out a server that never answers (timeout 1 s) and retries once', async () => {
    const s = await server(() => {
      /* never answer */
    });
    const { d, logger } = dispatcher([target(s.url, { timeout: 1 })], { flushTimeoutMs: 20_000 });
    const started = performance.now();
    d.notify('on_session_end', {});
    const stats = await d.close();
    const elapsed = performance.now() - started;
    expect(s.received).toHaveLength(2);
    expect(stats).toMatchObject({ delivered: 0, failed: 1, attempts: 2, abandoned: 0 });
    // Two 1 s attempts and the 50 ms pause between them.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 1000 + 50 - TIMER_EARLY_MS);
    expect(elapsed).toBeLessThan(2 * 1000 + 50 + TIMER_MARGIN_MS);
    expect(logger.warnings).toEqual([
      `outbound webhook ${s.url}: delivery ${s.received[0]!.headers['x-hermes-delivery']} (on_session_end) failed after 2 attempts: timed out`,
    ]);
  });
});

describe('queue, matcher and close()', () => {
  it('counts overflow of a small queue behind a slow server, warning once per episode', async () => {
    const s = await server((_r, res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.end();
      }, 200);
    });
    const { d, logger } = dispatcher([target(s.url)], { queueSize: 2 });
    for (let i = 0; i < 10; i++) d.notify('on_session_end', { i });
    // One in flight, two waiting, seven dropped.
    expect(d.stats()).toMatchObject({ queued: 3, dropped: 7 });
    const stats = await d.close();
    expect(stats).toEqual({ queued: 3, delivered: 3, failed: 0, dropped: 7, abandoned: 0, attempts: 3 });
    expect(s.received.map((r) => (json(r).extra as { i: number }).i)).toEqual([0, 1, 2]);
    expect(logger.warnings.filter((w) => w.includes('queue is full'))).toHaveLength(1);
  });

  it('delivers everything notified right before close(), in order', async () => {
    const s = await server((_r, res) => {
      setTimeout(() => {
        res.writeHead(204);
        res.end();
      }, 20);
    });
    const { d } = dispatcher([target(s.url)]);
    for (let i = 0; i < 8; i++) d.notify('post_tool_call', { tool_name: 'terminal', args: { i }, session_id: 's' });
    const stats = await d.close();
    expect(stats).toMatchObject({ queued: 8, delivered: 8, failed: 0, abandoned: 0 });
    expect(s.received.map((r) => (json(r).tool_input as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // After close nothing more is accepted.
    d.notify('post_tool_call', { tool_name: 'terminal' });
    expect(d.stats().dropped).toBe(1);
    expect(await d.close()).toBe(await d.close());
  });

  it('close() honours its bound against a hanging server and abandons the rest', async () => {
    const s = await server(() => {
      /* hang */
    });
    const { d, logger } = dispatcher([target(s.url, { timeout: 60 })], { flushTimeoutMs: 1500 });
    for (let i = 0; i < 3; i++) d.notify('on_session_end', { i });
    await s.waitFor(1);
    const started = performance.now();
    const stats = await d.close();
    const elapsed = performance.now() - started;
    // It flushed for its whole bound, then abandoned at once (the in-flight attempt is aborted).
    expect(elapsed).toBeGreaterThanOrEqual(1500 - TIMER_EARLY_MS);
    expect(elapsed).toBeLessThan(1500 + TIMER_MARGIN_MS);
    expect(stats).toEqual({ queued: 3, delivered: 0, failed: 0, dropped: 0, abandoned: 3, attempts: 0 });
    expect(logger.warnings).toEqual(['outbound webhooks: flush bound of 1500 ms reached; abandoning 2 queued and 1 in-flight deliveries']);
  });

  it('a slow target does not hold back another one', async () => {
    const hanging = await server(() => {
      /* hang */
    });
    const fast = await server();
    const { d } = dispatcher([target(hanging.url, { timeout: 60 }), target(fast.url, { index: 1 })], { flushTimeoutMs: 1000 });
    for (let i = 0; i < 3; i++) d.notify('on_session_end', { i });
    await fast.waitFor(3, 5000);
    const stats = await d.close();
    expect(stats).toMatchObject({ delivered: 3, abandoned: 3 });
  });

  it('applies the matcher (whole tool name) on tool events only', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url, { matcher: 'terminal|write_file' })]);
    d.notify('pre_tool_call', { tool_name: 'terminal', session_id: 'a' });
    d.notify('pre_tool_call', { tool_name: 'terminal_extra', session_id: 'b' });
    d.notify('post_tool_call', { tool_name: 'read_file', session_id: 'c' });
    d.notify('post_tool_call', { tool_name: 'write_file', session_id: 'd' });
    d.notify('pre_tool_call', { session_id: 'e' });
    d.notify('on_session_start', { session_id: 'f' });
    d.notify('pre_llm_call', { session_id: 'g' }); // not a subscribed event
    await d.close();
    expect(s.received.map((r) => json(r).session_id)).toEqual(['a', 'd', 'f']);
  });

  it('a literal matcher (invalid regex) compares for equality', async () => {
    const s = await server();
    const { d } = dispatcher([target(s.url, { matcher: 'odd(' })]);
    d.notify('pre_tool_call', { tool_name: 'odd(', session_id: 'yes' });
    d.notify('pre_tool_call', { tool_name: 'odd', session_id: 'no' });
    await d.close();
    expect(s.received.map((r) => json(r).session_id)).toEqual(['yes']);
  });

  it('a throwing logger never makes notify throw', async () => {
    const d = createOutboundDispatcher([target('http://127.0.0.1:9/x')], {
      profile: 'p',
      cwd: '/',
      queueSize: 1,
      retryDelayMs: 10,
      logger: {
        warn: () => {
          throw new Error('logger down');
        },
      },
    });
    dispatchers.push(d);
    expect(() => {
      for (let i = 0; i < 5; i++) d.notify('on_session_end', {});
    }).not.toThrow();
  });
});

describe('ping', () => {
  it('sends one signed test delivery and reports the outcome', async () => {
    const s = await server();
    const { d } = dispatcher([]);
    const t = target(s.url, { secret: 'pingkey', name: 'audit' });
    const result = await d.ping(t);
    expect(result).toMatchObject({ ok: true, outcome: 'delivered', status_code: 200, error: null, attempts: 1, signed: true });
    const [r] = s.received;
    expect(r!.headers['x-hermes-event']).toBe('ping');
    expect(r!.headers['x-hermes-delivery']).toBe(result.delivery_id);
    expect(verifySignature('pingkey', r!.raw, r!.headers['x-hermes-signature-256'])).toBe(true);
    expect(json(r!)).toMatchObject({ hook_event_name: 'ping', profile: 'work', extra: { ping: true, target: 'audit' } });
  });

  it('reports HTTP errors and refused connections without retrying', async () => {
    const s = await server((_r, res) => {
      res.writeHead(401);
      res.end();
    });
    const { d } = dispatcher([]);
    expect(await d.ping(target(s.url))).toMatchObject({ ok: false, outcome: 'http_error', status_code: 401, error: 'HTTP 401', signed: false });
    expect(s.received).toHaveLength(1);
    const port = await freePort();
    const refused = await d.ping(target(`http://127.0.0.1:${port}/`));
    expect(refused).toMatchObject({ ok: false, outcome: 'connection_error', status_code: null });
    expect(refused.error).toBe(`connection error (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port})`);
  });
});

// The .mjs twins of the seed's httpx examples, against a real HTTP server on 127.0.0.1.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayHooks } from '../../src/gateway/gateway-hooks.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { addHooks, EXAMPLE_HOOKS, tempHome, type TempHome } from './_home.js';

interface Received {
  url: string;
  body: unknown;
}
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(status = 200): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = [];
  const srv: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', body: JSON.parse(body) });
      res.statusCode = status;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => srv.close(() => r())));
  return { base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, received };
}

function withEnv(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  cleanups.push(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

async function home(names: string[]): Promise<TempHome> {
  const t = await tempHome();
  cleanups.push(() => t.cleanup());
  await addHooks(t, EXAMPLE_HOOKS, names);
  return t;
}

describe('node twins of the gateway examples', () => {
  it('session-webhook-node POSTs {event, ...context} on session:start and session:reset only', async () => {
    const { base, received } = await server();
    withEnv({ SESSION_WEBHOOK_URL: `${base}/hermes-events` });
    const t = await home(['session-webhook-node']);
    const logger = captureLogger();
    const hooks = await loadGatewayHooks({ home: t.home, logger });
    hooks.emitGateway('session:start', { platform: 'telegram', user_id: 'u1', session_id: 's1', session_key: 'k1' });
    hooks.emitGateway('session:end', { platform: 'telegram', user_id: 'u1', session_key: 'k1' });
    hooks.emitGateway('session:reset', { platform: 'telegram', user_id: 'u1', session_key: 'k1' });
    await hooks.close();
    expect(received.map((r) => r.url)).toEqual(['/hermes-events', '/hermes-events']);
    expect(received.map((r) => r.body)).toEqual(
      expect.arrayContaining([
        { event: 'session:start', platform: 'telegram', user_id: 'u1', session_id: 's1', session_key: 'k1' },
        { event: 'session:reset', platform: 'telegram', user_id: 'u1', session_key: 'k1' },
      ]),
    );
    expect(logger.at('warn')).toEqual([]);
  });

  it('a webhook answering 500 is an error in the log, not a crash', async () => {
    const { base } = await server(500);
    withEnv({ SESSION_WEBHOOK_URL: `${base}/x` });
    const t = await home(['session-webhook-node']);
    const logger = captureLogger();
    const hooks = await loadGatewayHooks({ home: t.home, logger });
    hooks.emitGateway('session:start', { session_id: 's' });
    await hooks.close();
    expect(logger.at('warn')).toEqual(["[hooks] Error in handler session-webhook-node for 'session:start': Error: webhook answered HTTP 500"]);
  });

  it('long-task-alert-node sends one Telegram message when a run reaches 10 steps', async () => {
    const { base, received } = await server();
    withEnv({ TELEGRAM_BOT_TOKEN: 'TOKEN', TELEGRAM_HOME_CHANNEL: '42', TELEGRAM_API_BASE: base });
    const t = await home(['long-task-alert-node']);
    const hooks = await loadGatewayHooks({ home: t.home, logger: captureLogger() });
    for (let i = 1; i <= 12; i++) hooks.emitGateway('agent:step', { iteration: i, tool_names: ['terminal', 'read_file'] });
    await hooks.close();
    expect(received).toEqual([
      { url: '/botTOKEN/sendMessage', body: { chat_id: '42', text: '⚠️ Agent has been running for 10 steps. Last tools: terminal, read_file' } },
    ]);
  });
});

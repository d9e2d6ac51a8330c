// The example receivers in scripts-examples/webhook-receiver/, run as real processes: a signed
// delivery from the dispatcher is accepted, a tampered or unsigned one is refused with 401.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundDispatcher } from '../../src/outbound/dispatcher.js';
import { signBody } from '../../src/outbound/signature.js';
import type { OutboundTarget } from '../../src/outbound/types.js';

const DIR = path.resolve(import.meta.dirname, '../../scripts-examples/webhook-receiver');
const SECRET = 'receiver-secret-✓';

interface Running {
  child: ChildProcess;
  url: string;
  stdoutLines(): string[];
  stderr(): string;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function startReceiver(argv: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, [...argv.slice(1), '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`receiver did not start: ${err}`)), 15_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && timer) {
        clearTimeout(timer);
        resolve({
          child,
          url: `${m[1]}/hermes`,
          stdoutLines: () => out.split('\n').filter((l) => l.startsWith('{')),
          stderr: () => err,
        });
      }
    });
    child.on('error', reject);
  });
}

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function target(url: string): OutboundTarget {
  return {
    name: 'example',
    url,
    events: ['post_tool_call'],
    matcher: null,
    timeout: 5,
    secret: SECRET,
    secret_source: 'secret_env',
    secret_env: 'HERMES_WEBHOOK_SECRET',
    index: 0,
    path: 'hooks.outbound[0]',
    line: null,
    column: null,
  };
}

async function waitForLines(r: Running, n: number): Promise<string[]> {
  for (let i = 0; i < 100 && r.stdoutLines().length < n; i++) await new Promise((res) => setTimeout(res, 50));
  return r.stdoutLines();
}

const receivers: [string, string[]][] = [
  ['node receiver.mjs', [process.execPath, path.join(DIR, 'receiver.mjs')]],
  ['python receiver.py', ['python3', path.join(DIR, 'receiver.py')]],
];

describe.each(receivers)('%s', (_name, argv) => {
  it('accepts a signed delivery and rejects tampered, unsigned and wrongly signed ones', async () => {
    const r = await startReceiver(argv, { HERMES_WEBHOOK_SECRET: SECRET });

    // 1. A real delivery from the dispatcher verifies.
    const d = createOutboundDispatcher([target(r.url)], { profile: 'default', cwd: '/w', logger: { warn: () => {} } });
    d.notify('post_tool_call', { tool_name: 'terminal', args: { command: 'ls ü' }, session_id: 'sess-1', result: '{}', status: 'ok' });
    const stats = await d.close();
    expect(stats).toMatchObject({ delivered: 1, failed: 0 });
    const [line] = await waitForLines(r, 1);
    expect(JSON.parse(line!)).toMatchObject({
      verified: true,
      event: 'post_tool_call',
      hook_event_name: 'post_tool_call',
      tool_name: 'terminal',
      session_id: 'sess-1',
    });

    // 2. A body changed after signing is refused.
    const body = Buffer.from(JSON.stringify({ hook_event_name: 'post_tool_call', delivery_id: 'a'.repeat(32), tool_name: 'terminal' }));
    const sig = signBody(SECRET, body);
    const tampered = Buffer.from(body.toString().replace('terminal', 'terminaL'));
    const base = { 'X-Hermes-Event': 'post_tool_call', 'X-Hermes-Delivery': 'a'.repeat(32) };
    expect(await post(r.url, tampered, { ...base, 'X-Hermes-Signature-256': sig })).toBe(401);
    // 3. No signature, or one made with another secret, is refused too.
    expect(await post(r.url, body, base)).toBe(401);
    expect(await post(r.url, body, { ...base, 'X-Hermes-Signature-256': signBody('other', body) })).toBe(401);
    // 4. The untampered body with its signature is accepted; a retry of it is a duplicate.
    expect(await post(r.url, body, { ...base, 'X-Hermes-Signature-256': sig })).toBe(200);
    expect(await post(r.url, body, { ...base, 'X-Hermes-Signature-256': sig })).toBe(200);
    const lines = await waitForLines(r, 2);
    expect(lines).toHaveLength(2);
    // Exactly the three refusals, each naming the delivery, and nothing else on stderr.
    const refusal = JSON.stringify({ rejected: 'bad signature', delivery_id: 'a'.repeat(32) });
    const stderrLines = (): string[] => r.stderr().split('\n').filter(Boolean);
    for (let i = 0; i < 100 && stderrLines().length < 3; i++) await new Promise((res) => setTimeout(res, 50));
    expect(stderrLines().map((l) => JSON.stringify(JSON.parse(l)))).toEqual([refusal, refusal, refusal]);
  });
});

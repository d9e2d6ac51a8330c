// Gateway decision hooks through serve (--surface gateway): a real handler.py and handler.mjs in the
// profile's hooks/, asked over the Unix socket and over stdio JSON-RPC, answering as Hermes'
// gateway reads command:<name> hooks.
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, makeHome, postJson, rpcClient, startServe, stopServe } from './_helpers.js';

afterAll(cleanupTemps);

const FIXTURES = fileURLToPath(new URL('../fixtures/gateway/hooks/', import.meta.url));

function gatewayHome(): string {
  const home = makeHome('hooks: {}\n');
  mkdirSync(join(home, 'hooks'), { recursive: true, mode: 0o700 });
  for (const name of ['py-deny-reset', 'js-rewrite-model', 'py-bad-decision']) cpSync(join(FIXTURES, name), join(home, 'hooks', name), { recursive: true });
  return home;
}

describe('serve --surface gateway: decision hooks', () => {
  it('over the socket: deny (python, module state kept), allow, rewrite (JS), unknown decision read on', async () => {
    const served = await startServe(gatewayHome(), ['--surface', 'gateway']);
    const command = async (context: Record<string, unknown>) => {
      const r = await postJson(served, '/v1/gateway/command', { context });
      expect(r.status).toBe(200);
      return JSON.parse(r.body) as Record<string, unknown>;
    };
    expect(await command({ command: 'reset', raw_command: 'rst', user_id: 'u1' })).toEqual({
      decidedBy: 0,
      result: { decision: 'deny', message: 'only admins may /reset (call 1)' },
      ignored: [],
      answers: [{ decision: 'deny', message: 'only admins may /reset (call 1)' }],
    });
    expect((await command({ command: 'reset', user_id: 'admin' })).result).toEqual({ decision: 'allow' });
    expect((await command({ command: 'm', args: 'gpt-x' })).result).toEqual({ decision: 'rewrite', command: 'model', args: 'gpt-x', text: '/model gpt-x' });
    const status = await command({ command: 'status' });
    expect(status.result).toEqual({ decision: 'allow' });
    expect(status.ignored).toEqual(['answer 1: unknown decision "block" (known: allow, deny, handled, rewrite); ignored']);
    // The raw answers of any event, and the third call of the python hook: its module state lived on.
    const collected = await postJson(served, '/v1/gateway/collect', { event: 'command:reset', context: { user_id: 'u2' } });
    expect(JSON.parse(collected.body)).toEqual({ answers: [{ decision: 'deny', message: 'only admins may /reset (call 3)' }] });
    const bad = await postJson(served, '/v1/gateway/command', { context: { args: 'x' } });
    expect([bad.status, JSON.parse(bad.body).error.message]).toEqual([400, 'gateway_command: "context.command" must name the command, such as "reset"']);
    expect(await stopServe(served)).toBe(0);
  });

  it('over stdio JSON-RPC: the same answers; without --surface gateway it says what to start', async () => {
    const served = await startServe(gatewayHome(), ['--stdio', '--surface', 'gateway']);
    const rpc = rpcClient(served);
    expect(await rpc.result('gateway_command', { context: { command: 'reset' } })).toMatchObject({
      result: { decision: 'deny', message: 'only admins may /reset (call 1)' },
    });
    expect(await rpc.result('gateway_collect', { event: 'command:m', context: { args: 'a' } })).toEqual({
      answers: [{ decision: 'rewrite', command_name: '/model', raw_args: ' a ' }],
    });
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);

    const cli = await startServe(gatewayHome(), ['--stdio']);
    const msg = await rpcClient(cli).call('gateway_command', { context: { command: 'reset' } });
    expect(msg.error).toMatchObject({ message: 'gateway_command needs a server started with --surface gateway' });
    cli.child.stdin!.end();
    expect(await cli.exited).toBe(0);
  });
});

// serve --stdio: JSON-RPC 2.0 over a real child process. Session state across separate requests
// (guardrails, human-input pairing, finalize once per session) matches the in-process engine.

import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createHookEngine } from '../../src/engine/create-engine.js';
import { silentLogger } from '../../src/engine/logger.js';
import type { Emission } from '../../src/types.js';
import { approvedHome, baseEnv, cleanupTemps, makeHome, rpcClient, startServe, tempDir, waitFor, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

const failing = (session_id: string) => ({
  pre: { tool_name: 'terminal', args: { command: 'make' }, session_id, platform: 'telegram' },
  post: { tool_name: 'terminal', args: { command: 'make' }, session_id, platform: 'telegram', result: '{"error":"make: *** [all] Error 2"}' },
});

describe('serve --stdio', () => {
  it('six identical failing pre/post pairs on telegram end in a stop exactly as in-process; another session is unaffected', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--stdio']);
    const rpc = rpcClient(served);
    const engine = await createHookEngine({ home, env: baseEnv(), interactive: false, exitCleanup: false, logger: silentLogger });
    const served6: Emission['decision'][] = [];
    const local6: Emission['decision'][] = [];
    const { pre, post } = failing('s-loop');
    for (let i = 0; i < 6; i++) {
      served6.push((await rpc.result<Emission>('emit', { event: 'pre_tool_call', kwargs: pre })).decision);
      local6.push((await engine.emit('pre_tool_call', pre)).decision);
      await rpc.result('emit', { event: 'post_tool_call', kwargs: post });
      await engine.emit('post_tool_call', post);
    }
    await engine.close({ finalize: false });
    expect(served6).toEqual(local6);
    expect(served6.slice(0, 5).map((d) => d.action)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
    expect(served6[5]).toMatchObject({ action: 'block', stop_turn: true });
    expect(served6[5]!.message).toContain('terminal');
    // The same call in another session is not stopped (and carries no warning).
    const other = await rpc.result<Emission>('emit', { event: 'pre_tool_call', kwargs: failing('s-other').pre });
    expect(other.decision.action).toBe('allow');
    expect(other.decision.context).toBeNull();
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);
  });

  it('pairs human input across requests: exactly one resolved per request, the teardown resolves the rest as withdrawn', async () => {
    const dir = tempDir();
    const log = join(dir, 'events.jsonl');
    const hook = writeScript(join(dir, 'log.sh'), `#!/bin/bash\ncat >> ${log}; echo >> ${log}\n`);
    const home = await approvedHome({ on_human_input_request: [hook], on_human_input_resolved: [hook] });
    const served = await startServe(home, ['--stdio']);
    const rpc = rpcClient(served);
    await rpc.result('emit', { event: 'on_human_input_request', kwargs: { request_id: 'r1', kind: 'clarify', prompt: 'which branch?', session_id: 's' } });
    await rpc.result('emit', { event: 'on_human_input_request', kwargs: { request_id: 'r2', kind: 'sudo', prompt: 'password', session_id: 's' } });
    const first = await rpc.result<Emission>('emit', {
      event: 'on_human_input_resolved',
      kwargs: { request_id: 'r1', outcome: 'answered', answer: 'the-secret-branch' },
    });
    const again = await rpc.result<Emission>('emit', { event: 'on_human_input_resolved', kwargs: { request_id: 'r1', outcome: 'answered' } });
    expect(first.hooks).toHaveLength(1);
    expect(again.hooks).toEqual([]); // a repeat runs nothing
    expect(first.payload.extra).toMatchObject({ request_id: 'r1', outcome: 'answered', kind: 'clarify' });
    // The answer itself never reaches hooks (redacted like the prompt's secrets).
    expect(JSON.stringify(first.payload)).not.toContain('the-secret-branch');
    expect((await rpc.result<{ pending_human_input: number }>('health')).pending_human_input).toBe(1);
    await rpc.result('shutdown');
    expect(await served.exited).toBe(0);
    const events = (await import('node:fs'))
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const resolved = events.filter((e) => e.hook_event_name === 'on_human_input_resolved').map((e) => [e.extra.request_id, e.extra.outcome]);
    expect(resolved).toEqual([
      ['r1', 'answered'],
      ['r2', 'withdrawn'],
    ]);
  });

  it('finalizes each session once: by request, by idle timeout (notified with its session), and the rest at shutdown', async () => {
    const dir = tempDir();
    const fin = writeScript(
      join(dir, 'fin.py'),
      `#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({"message": "bye " + str(d["session_id"])}))\n`,
    );
    const home = await approvedHome({ on_session_finalize: [fin] });
    const served = await startServe(home, ['--stdio', '--idle-timeout', '0.4']);
    const rpc = rpcClient(served);
    await rpc.result('emit', { event: 'on_session_start', kwargs: { session_id: 'a' } });
    await rpc.result('emit', { event: 'on_session_start', kwargs: { session_id: 'b', session_key: 'agent:main:telegram:dm:42' } });
    const a = await rpc.result<{ emission: Emission; notices: unknown[] }>('finalize_session', { kwargs: { session_id: 'a', reason: 'user_exit' } });
    expect(a.notices).toEqual([{ session_id: 'a', session_key: null, message: 'bye a' }]);
    const again = await rpc.result<{ emission: Emission; notices: unknown[] }>('finalize_session', { kwargs: { session_id: 'a' } });
    expect(again.emission.hooks).toEqual([]);
    expect(again.notices).toEqual([]);
    // b goes idle: the server finalizes it and pushes the notice with its session and key.
    expect(await waitFor(() => rpc.lines.some((l) => l.method === 'session_finalized'), 5000)).toBe(true);
    expect(rpc.lines.filter((l) => l.method === 'session_finalized')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'session_finalized',
        params: {
          session_id: 'b',
          session_key: 'agent:main:telegram:dm:42',
          reason: 'idle',
          notices: [{ session_id: 'b', session_key: 'agent:main:telegram:dm:42', message: 'bye b' }],
        },
      },
    ]);
    await rpc.result('emit', { event: 'on_session_start', kwargs: { session_id: 'c' } });
    served.child.stdin!.end(); // stdin closing shuts the server down: c is finalized then
    expect(await served.exited).toBe(0);
    const last = rpc.lines[rpc.lines.length - 1];
    expect(last).toEqual({
      jsonrpc: '2.0',
      method: 'session_finalized',
      params: { session_id: 'c', session_key: null, reason: 'shutdown', notices: [{ session_id: 'c', session_key: null, message: 'bye c' }] },
    });
    expect(rpc.lines.filter((l) => l.method === 'session_finalized')).toHaveLength(2);
  });

  it('answers malformed lines, unknown methods and wrong types with clear errors and keeps serving', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--stdio', '--max-body', '2048']);
    const rpc = rpcClient(served);
    rpc.raw('{not json\n');
    rpc.raw('[1,2]\n');
    rpc.raw(`${JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'emit', params: { event: 'pre_tool_cal', kwargs: {} } })}\n`);
    rpc.raw(`${JSON.stringify({ jsonrpc: '2.0', id: 'y', method: 'emit', params: { event: 'pre_tool_call', kwargs: [1] } })}\n`);
    rpc.raw(`${JSON.stringify({ jsonrpc: '2.0', id: 'z', method: 'frobnicate' })}\n`);
    rpc.raw(`${JSON.stringify({ jsonrpc: '1.0', id: 'v', method: 'health' })}\n`);
    rpc.raw(`${JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'emit', params: { event: 'pre_tool_call', kwargs: { pad: 'x'.repeat(4000) } } })}\n`);
    const ok = await rpc.result<Emission>('emit', { event: 'pre_tool_call', kwargs: { tool_name: 'terminal', args: {} } });
    expect(ok.decision.action).toBe('allow');
    await waitFor(() => rpc.lines.length >= 8, 5000);
    const errors = rpc.lines.filter((l) => l.error).map((l) => [l.id, (l.error as { code: number }).code, (l.error as { message: string }).message]);
    // Synchronous rejections come first, then the async ones: compare as a set, every line answered once.
    expect(errors).toHaveLength(7);
    expect(errors).toEqual(
      expect.arrayContaining([
        [null, -32700, expect.stringMatching(/^parse error: .*; send one JSON-RPC 2\.0 object per line$/)],
        [null, -32600, 'invalid request: expected one JSON-RPC 2.0 object per line, got an array (batches are not supported)'],
        ['x', -32602, expect.stringMatching(/^unknown hook event 'pre_tool_cal' \(did you mean 'pre_tool_call'\?\); valid: /)],
        ['y', -32602, '"kwargs" must be a JSON object, not an array'],
        [
          'z',
          -32601,
          "unknown method 'frobnicate' (methods: emit, finalize_session, emit_gateway, gateway_collect, gateway_command, health, reload, shutdown)",
        ],
        ['v', -32600, 'invalid request: "jsonrpc" must be "2.0"'],
        ['big', -32600, 'request line longer than the 2048-byte limit (--max-body); skipped'],
      ]),
    );
    expect(served.child.exitCode).toBeNull();
    await rpc.result('shutdown');
    expect(await served.exited).toBe(0);
    expect(served.stderr()).not.toContain('internal error');
  });
});

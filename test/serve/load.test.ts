// 64 concurrent clients on one server, malformed requests interleaved with good ones: every request
// answered exactly once with its own answer, the malformed ones with a 400, and no hook process
// left afterwards. (The full 64 × 1000 runs in `npm run bench -- --only serve`.)

import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { approvedHome, cleanupTemps, makeHome, groupMembers, http, pidHook, recordedPids, rpcClient, startServe, stopServe, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

const CLIENTS = 64;
const PER_CLIENT = 6;
/** Every third request of a client is malformed. */
const BAD_PER_CLIENT = 2;

describe('serve under load', () => {
  it(`${CLIENTS} clients × ${PER_CLIENT} requests over the socket: each answered once, malformed ones never disturb the rest, no hook left`, async () => {
    const dir = tempDir();
    // Echoes the request's own number back as its block message: an answer that went to the wrong request shows.
    const hook = pidHook(dir, 'echo.sh', `p=$(cat)\nn=\${p#*\\"n\\": }\nn=\${n%%[,\\}]*}\necho "{\\"action\\": \\"block\\", \\"message\\": \\"n=$n\\"}"`);
    const home = await approvedHome({ pre_tool_call: [hook] });
    const served = await startServe(home, []);
    const answers = new Map<string, number>();
    let malformed = 0;
    const client = async (c: number): Promise<void> => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < PER_CLIENT; i++) {
          const n = c * 1000 + i;
          if (i % 3 === 2) {
            // Interleaved garbage on the same connection: broken JSON, a wrong type, an unknown event.
            const bad = [
              ['/v1/emit/pre_tool_call', '{"tool_name": '],
              ['/v1/emit/pre_tool_call', '"str"'],
              ['/v1/emit/no_such_event', '{}'],
            ][(c + i) % 3]!;
            const r = await http({ socketPath: served.socket! }, 'POST', bad[0]!, { body: bad[1], agent });
            if (r.status === 400 || r.status === 404) malformed += 1;
            continue;
          }
          const r = await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', {
            body: JSON.stringify({ tool_name: 'terminal', args: { n }, session_id: `c${c}` }),
            agent,
          });
          expect(r.status).toBe(200);
          const e = JSON.parse(r.body);
          expect(e.decision.message).toBe(`n=${n}`);
          answers.set(String(n), (answers.get(String(n)) ?? 0) + 1);
        }
      } finally {
        agent.destroy();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const good = CLIENTS * (PER_CLIENT - BAD_PER_CLIENT);
    expect(answers.size).toBe(good);
    expect([...answers.values()].every((v) => v === 1)).toBe(true);
    expect(malformed).toBe(CLIENTS * BAD_PER_CLIENT);
    const pids = recordedPids(dir);
    expect(pids).toHaveLength(good);
    expect(pids.flatMap((p) => groupMembers(p))).toEqual([]);
    const health = JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    expect(health).toMatchObject({ in_flight: 0, live_hooks: 0, status: 'ok' });
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('stdio: 300 pipelined requests with 30 broken lines among them, every id answered exactly once', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--stdio']);
    const rpc = rpcClient(served);
    const calls: Promise<Record<string, unknown>>[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 10 === 5) rpc.raw('{"jsonrpc": "2.0", "id": \n');
      calls.push(rpc.call('emit', { event: 'pre_tool_call', kwargs: { tool_name: 't', args: { i }, session_id: `s${i % 7}` } }));
    }
    const results = await Promise.all(calls);
    expect(results.map((r) => (r.result as { payload: { tool_input: { i: number } } }).payload.tool_input.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const byId = new Map<unknown, number>();
    for (const l of rpc.lines) if (l.id !== null && l.id !== undefined) byId.set(l.id, (byId.get(l.id) ?? 0) + 1);
    expect(byId.size).toBe(300);
    expect([...byId.values()].every((v) => v === 1)).toBe(true);
    expect(rpc.lines.filter((l) => l.id === null && (l.error as { code: number })?.code === -32700)).toHaveLength(30);
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);
  }, 60_000);
});

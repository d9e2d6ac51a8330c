// serve --stdio framing (in process, through serveJsonRpc over real streams): lines split anywhere
// (inside a UTF-8 character too), a line over the cap answered with its own id when it can be read
// and skipped to its end, and framing that stays linear in the line's size.

import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { serveJsonRpc } from '../../src/serve/transport-stdio.js';

/** A JSON-RPC channel whose every request is answered with its params (a pad by its length); returns what it wrote. */
function channel(maxLineBytes: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers: Record<string, unknown>[] = [];
  let buf = '';
  output.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      answers.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
    }
  });
  let ended = false;
  serveJsonRpc(input, output, {
    maxLineBytes,
    handle: async (_method, params) => {
      const p = params as Record<string, unknown>;
      return typeof p.pad === 'string' ? { ...p, pad: p.pad.length } : p;
    },
    onEnd: () => (ended = true),
  });
  const settle = async (): Promise<void> => {
    input.end();
    while (!ended) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  };
  return { input, answers, settle };
}

const req = (id: unknown, params: Record<string, unknown> = {}, idLast = false): string =>
  idLast ? JSON.stringify({ jsonrpc: '2.0', method: 'm', params, id }) : JSON.stringify({ jsonrpc: '2.0', id, method: 'm', params });

describe('serve --stdio framing', () => {
  it('a line split across chunks, even inside a UTF-8 character, is one request; the last line needs no newline', async () => {
    const { input, answers, settle } = channel(4096);
    const text = Buffer.from(`${req(1, { word: 'héllo ☃' })}\n${req(2, { word: 'ünïcode' })}`);
    // One byte at a time: every multi-byte character is split.
    for (const b of text) input.write(Buffer.from([b]));
    await settle();
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: { word: 'héllo ☃' } },
      { jsonrpc: '2.0', id: 2, result: { word: 'ünïcode' } },
    ]);
  });

  it('a line over the cap is answered once with its own id (first or last key, string or number), skipped to its end, and the next line is served', async () => {
    const max = 2048;
    const { input, answers, settle } = channel(max);
    const over = (id: unknown, idLast: boolean, nested = false): string => {
      const params: Record<string, unknown> = nested ? { id: 'inner', pad: 'x'.repeat(max) } : { pad: 'x'.repeat(max) };
      return req(id, params, idLast);
    };
    // Exactly at the cap is allowed; one byte more is not.
    const base = req('at-cap', { pad: '' });
    const atCap = req('at-cap', { pad: 'x'.repeat(max - base.length) });
    const oneOver = req('over-1', { pad: 'x'.repeat(max - base.length + 1) });
    expect([Buffer.byteLength(atCap), Buffer.byteLength(oneOver)]).toEqual([max, max + 1]);
    const lines = [
      atCap,
      oneOver,
      over(41, false),
      over('last "one"', true, true),
      over(7.5, true),
      JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { pad: 'x'.repeat(max) } }),
      `[${'1,'.repeat(max)}1]`,
      req('after'),
    ];
    // In 100-byte chunks, so the cap is crossed in the middle of a chunk and the rest streams by.
    const all = Buffer.from(`${lines.join('\n')}\n`);
    for (let i = 0; i < all.length; i += 100) input.write(all.subarray(i, i + 100));
    await settle();
    const tooLong = (id: unknown) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: `request line longer than the ${max}-byte limit (--max-body); skipped` },
    });
    // An error is written at once, a result when its handler resolves: the order is not the lines'.
    expect(answers).toHaveLength(8);
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'at-cap', result: { pad: max - base.length } },
        tooLong('over-1'),
        tooLong(41),
        tooLong('last "one"'), // the top-level id, not the one inside params
        tooLong(7.5),
        tooLong(null), // no id anywhere
        tooLong(null), // not an object
        { jsonrpc: '2.0', id: 'after', result: {} },
      ]),
    );
    // Each error once, in line order.
    expect(answers.filter((a) => a.error).map((a) => a.id)).toEqual(['over-1', 41, 'last "one"', 7.5, null, null]);
  });

  it('framing is linear in the line size: a 32 MiB line in 4 KiB chunks, and one over the cap, cost well under seconds of CPU', async () => {
    // Joining strings and measuring the whole buffer on every chunk cost O(n²): an 8 MiB line took
    // 39 s of CPU that way, so these two would take minutes; linear framing takes well under a second.
    // CPU time of this test process (vitest runs each file in its own fork), not wall time: a busy
    // machine slows the wall clock, not the work.
    const max = 32 * 1024 * 1024;
    const { input, answers, settle } = channel(max);
    const big = Buffer.from(`${req('big', { pad: 'x'.repeat(max - 100) })}\n${req('huge', { pad: 'y'.repeat(max) })}\n${req('after')}\n`);
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < big.length; i += 4096) input.write(big.subarray(i, i + 4096));
    await settle();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    expect(answers.map((a) => [a.id, a.error ? 'error' : 'result']).sort()).toEqual([
      ['after', 'result'],
      ['big', 'result'],
      ['huge', 'error'],
    ]);
    // Generous: framing, parsing and answering both lines take ~1–2 s of CPU here.
    expect(cpuMs).toBeLessThan(20_000);
  }, 60_000);
});

import { existsSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { disposeAllPreparedStdin, prepareStdin } from '../../src/spawn/stdin-file.js';

function readAll(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

describe('prepareStdin', () => {
  it('writes the payload to a private file in a private directory', async () => {
    const prepared = await prepareStdin('{"hook_event_name": "pre_tool_call", "x": "é"}');
    try {
      expect(statSync(prepared.path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(prepared.path)).mode & 0o777).toBe(0o700);
      expect(prepared.size).toBe(Buffer.byteLength('{"hook_event_name": "pre_tool_call", "x": "é"}'));
    } finally {
      prepared.dispose();
    }
  });

  it('gives every open() its own offset', async () => {
    const prepared = await prepareStdin('payload-bytes');
    const a = prepared.open();
    const b = prepared.open();
    try {
      expect(readAll(a).toString()).toBe('payload-bytes');
      expect(readAll(b).toString()).toBe('payload-bytes');
    } finally {
      closeSync(a);
      closeSync(b);
      prepared.dispose();
    }
  });

  it('keeps an open descriptor readable after dispose, removes file and directory, and is idempotent', async () => {
    const prepared = await prepareStdin(new Uint8Array([1, 2, 3]));
    const fd = prepared.open();
    prepared.dispose();
    expect(existsSync(prepared.path)).toBe(false);
    expect(existsSync(dirname(prepared.path))).toBe(false);
    expect([...readAll(fd)]).toEqual([1, 2, 3]);
    closeSync(fd);
    expect(() => prepared.dispose()).not.toThrow();
    expect(() => prepared.open()).toThrow(/disposed/);
  });

  it('writes a large payload (async path) completely', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const prepared = await prepareStdin(big);
    const fd = prepared.open();
    try {
      expect(readAll(fd).length).toBe(big.length);
    } finally {
      closeSync(fd);
      prepared.dispose();
    }
  });

  it('disposeAllPreparedStdin removes payloads nobody disposed', async () => {
    const a = await prepareStdin('a');
    const b = await prepareStdin('b');
    b.dispose();
    expect(disposeAllPreparedStdin()).toBeGreaterThanOrEqual(1);
    expect(existsSync(a.path)).toBe(false);
    expect(existsSync(dirname(a.path))).toBe(false);
  });
});

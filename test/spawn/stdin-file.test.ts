import { closeSync, fstatSync, readdirSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { afterAll, beforeAll } from 'vitest';
import { _forceNamedStdinFiles, openStdinCopy, openStdinCopySync, STDIN_FILE_PREFIX, stdinFileDir, SYNC_WRITE_LIMIT } from '../../src/spawn/stdin-file.js';

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

/** Names this process left in the payload directory. */
const ours = (): string[] => readdirSync(stdinFileDir()).filter((n) => n.startsWith(`${STDIN_FILE_PREFIX}${process.pid}-`));

// Linux creates the files nameless (O_TMPFILE); the named path is what other systems use and the
// fallback where O_TMPFILE or /proc is refused. Both must keep every promise.
describe.each([
  ['as built for this system', false],
  ['with named files (the fallback)', true],
])('openStdinCopySync %s', (_label, named) => {
  beforeAll(() => _forceNamedStdinFiles(named));
  afterAll(() => _forceNamedStdinFiles(false));
  it('returns a read-only descriptor at offset 0 on an unlinked private regular file holding the payload', () => {
    const text = '{"hook_event_name": "pre_tool_call", "x": "é"}';
    const fd = openStdinCopySync(text);
    try {
      const st = fstatSync(fd);
      expect(st.isFile()).toBe(true);
      expect(st.nlink).toBe(0); // unlinked before anyone could be given it
      expect(st.mode & 0o777).toBe(0o400); // nobody opens it for writing by name
      expect(st.size).toBe(Buffer.byteLength(text));
      expect(() => writeSync(fd, 'x')).toThrow(expect.objectContaining({ code: 'EBADF' }));
      expect(readAll(fd).toString('utf8')).toBe(text);
    } finally {
      closeSync(fd);
    }
    expect(ours()).toEqual([]);
  });

  it('makes a separate file (inode) per call from the same bytes', () => {
    const bytes = Buffer.from('payload-bytes');
    const a = openStdinCopySync(bytes);
    const b = openStdinCopySync(bytes);
    try {
      expect(fstatSync(a).ino).not.toBe(fstatSync(b).ino);
      expect(readAll(a).toString()).toBe('payload-bytes');
      expect(readAll(b).toString()).toBe('payload-bytes');
    } finally {
      closeSync(a);
      closeSync(b);
    }
  });

  it('handles an empty payload', () => {
    const fd = openStdinCopySync('');
    try {
      expect(fstatSync(fd).size).toBe(0);
      expect(readAll(fd).length).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});

describe('openStdinCopy', () => {
  it('writes a large payload off the event loop, completely, into an already unlinked file', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x');
    expect(big.byteLength).toBeGreaterThan(SYNC_WRITE_LIMIT);
    const pending = openStdinCopy(big);
    // While the bytes are being written, the file has no name any more.
    expect(ours()).toEqual([]);
    const fd = await pending;
    try {
      expect(fstatSync(fd).nlink).toBe(0);
      expect(readAll(fd).equals(big)).toBe(true);
    } finally {
      closeSync(fd);
    }
    expect(ours()).toEqual([]);
  });

  it('writes a small payload synchronously', async () => {
    const fd = await openStdinCopy(new Uint8Array([1, 2, 3]));
    try {
      expect([...readAll(fd)]).toEqual([1, 2, 3]);
    } finally {
      closeSync(fd);
    }
  });
});

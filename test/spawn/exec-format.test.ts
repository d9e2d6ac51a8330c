import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wouldFailExecFormat } from '../../src/spawn/_exec-format.js';

let dir: string;
const file = (name: string, content: string | Buffer, mode = 0o755): string => {
  const p = join(dir, name);
  writeFileSync(p, content, { mode });
  return p;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'exec-format-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('wouldFailExecFormat', () => {
  it('flags an executable text file without a shebang, and an empty one', () => {
    expect(wouldFailExecFormat(file('plain.sh', 'echo hi\n'))).toBe(true);
    expect(wouldFailExecFormat(file('empty.sh', ''))).toBe(true);
  });

  it('judges a script again once it changed: the verdict kept per file is never reused for other bytes', () => {
    const p = file('flip.sh', '#!/bin/sh\necho hi\n');
    expect(wouldFailExecFormat(p)).toBe(false);
    expect(wouldFailExecFormat(p)).toBe(false); // the kept verdict
    writeFileSync(p, 'echo hello\n'); // no #! line any more (and another size: a stat tells at once)
    expect(wouldFailExecFormat(p)).toBe(true);
    chmodSync(p, 0o644); // not executable: the spawn reports EACCES instead
    expect(wouldFailExecFormat(p)).toBe(false);
    chmodSync(p, 0o755);
    expect(wouldFailExecFormat(p)).toBe(true);
    writeFileSync(p, '#!/bin/sh\necho hi\n');
    expect(wouldFailExecFormat(p)).toBe(false);
  });

  it('accepts shebang scripts and ELF binaries', () => {
    expect(wouldFailExecFormat(file('ok.sh', '#!/bin/sh\necho hi\n'))).toBe(false);
    expect(wouldFailExecFormat(process.execPath)).toBe(false);
  });

  it('leaves other cases to the spawn: not executable, missing, binary data, directories, FIFOs, bare names', () => {
    expect(wouldFailExecFormat(file('nox.sh', 'echo hi\n', 0o644))).toBe(false);
    expect(wouldFailExecFormat(join(dir, 'missing.sh'))).toBe(false);
    expect(wouldFailExecFormat(file('blob', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])))).toBe(false);
    expect(wouldFailExecFormat(dir)).toBe(false);
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(wouldFailExecFormat(fifo)).toBe(false); // and did not block waiting for a writer
    expect(wouldFailExecFormat('bash')).toBe(false);
  });

  it('resolves a relative path against cwd', () => {
    file('rel.sh', 'echo hi\n');
    expect(wouldFailExecFormat('./rel.sh', dir)).toBe(true);
  });
});

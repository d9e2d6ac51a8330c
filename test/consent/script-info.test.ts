import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/file-identity.js';
import { findOnPath, inspectScript } from '../../src/consent/script-info.js';

let dir: string;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'consent-script-'));
  writeFileSync(path.join(dir, 'h.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(dir, 'h.sh'), 0o755);
  writeFileSync(path.join(dir, 'h.py'), 'print(1)\n');
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'bin', 'my-binary'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(dir, 'bin', 'my-binary'), 0o755);
  writeFileSync(path.join(dir, 'bin', 'not-exec'), 'data');
  chmodSync(path.join(dir, 'bin', 'not-exec'), 0o644);
  mkdirSync(path.join(dir, 'home', 'hooks'), { recursive: true });
  writeFileSync(path.join(dir, 'home', 'hooks', 'x.sh'), 'echo home\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('inspectScript: the file behind a hook command, now', () => {
  it('hashes and stats the script an interpreter runs', async () => {
    const info = await inspectScript(`python3 -u ${dir}/h.py`);
    expect(info).toMatchObject({ token: `${dir}/h.py`, path: `${dir}/h.py`, found: true, sha256: sha('print(1)\n'), error: null });
    expect(info.mtime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
  });

  it('expands ~ with the given home directory', async () => {
    const info = await inspectScript('bash ~/hooks/x.sh', { homedir: path.join(dir, 'home') });
    expect(info).toMatchObject({ path: path.join(dir, 'home', 'hooks', 'x.sh'), sha256: sha('echo home\n') });
  });

  it('resolves a relative path against the cwd', async () => {
    const info = await inspectScript('./h.sh --flag', { cwd: dir });
    expect(info).toMatchObject({ path: path.join(dir, 'h.sh'), found: true, sha256: sha('#!/bin/sh\necho hi\n') });
  });

  it('looks a bare command name up on PATH and hashes what would run', async () => {
    const env = { PATH: `/nonexistent:${path.join(dir, 'bin')}` };
    const info = await inspectScript('my-binary --verbose', { env });
    expect(info).toMatchObject({ token: 'my-binary', path: path.join(dir, 'bin', 'my-binary'), found: true, sha256: sha('#!/bin/sh\nexit 0\n') });
  });

  it('reports a bare name that is not on PATH as not found', async () => {
    const info = await inspectScript('no-such-tool-xyz --x', { env: { PATH: path.join(dir, 'bin') } });
    expect(info).toEqual({
      command: 'no-such-tool-xyz --x',
      token: 'no-such-tool-xyz',
      path: null,
      kind: 'program',
      note: null,
      found: false,
      sha256: null,
      mtime: null,
      error: 'not found on PATH',
      identity: null,
      settled: false,
      runs: [],
      untrusted: null,
      named: [],
      unfollowable: null,
    });
  });

  it('reports a missing script with the OS error', async () => {
    const info = await inspectScript(`bash ${dir}/gone.sh`);
    expect(info).toMatchObject({ path: `${dir}/gone.sh`, found: false, sha256: null, mtime: null });
    expect(info.error).toMatch(/^ENOENT/);
  });

  it('does not hash a directory (or anything that is not a regular file)', async () => {
    const info = await inspectScript(`${dir}/bin`);
    expect(info).toMatchObject({ path: `${dir}/bin`, found: false, sha256: null, error: 'not a regular file' });
    expect(info.mtime).not.toBeNull();
  });

  it('an empty command has no script', async () => {
    expect(await inspectScript('')).toMatchObject({ path: null, found: false, error: 'empty command' });
  });

  it('sees an edit (the hash cache keys on inode and times)', async () => {
    const f = path.join(dir, 'edit.sh');
    writeFileSync(f, 'one\n');
    const a = await inspectScript(f);
    writeFileSync(f, 'two, longer\n');
    const b = await inspectScript(f);
    expect(a.sha256).toBe(sha('one\n'));
    expect(b.sha256).toBe(sha('two, longer\n'));
  });
});

describe('findOnPath', () => {
  it('skips non-executable files and missing dirs', async () => {
    const env = { PATH: `${path.join(dir, 'nope')}:${path.join(dir, 'bin')}` };
    expect(await findOnPath('not-exec', env, dir)).toBeNull();
    expect(await findOnPath('my-binary', env, dir)).toBe(path.join(dir, 'bin', 'my-binary'));
  });
});

describe('inspectScript: the file hashed is the file spawn runs (issue 15 §3, §4)', () => {
  it("`node -r ./setup.js ./hook.js` pins hook.js, relative to the hook's working directory", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'pin-node-'));
    writeFileSync(path.join(cwd, 'setup.js'), '// setup\n');
    writeFileSync(path.join(cwd, 'hook.js'), '// hook\n');
    const info = await inspectScript('node -r ./setup.js ./hook.js', { cwd });
    expect([info.path, info.kind, info.sha256]).toEqual([path.join(cwd, 'hook.js'), 'script', createHash('sha256').update('// hook\n').digest('hex')]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it('`"h\\$.sh"` pins h$.sh; `\'~\'/g.sh` and `~root/g2.sh` pin <cwd>/~/g.sh and <cwd>/~root/g2.sh, never $HOME', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'pin-quote-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'pin-home-'));
    expect((await inspectScript(`bash "${cwd}/h\\$.sh"`, { cwd, homedir: home })).path).toBe(`${cwd}/h$.sh`);
    expect((await inspectScript(`bash '~'/g.sh`, { cwd, homedir: home })).path).toBe(`${cwd}/~/g.sh`);
    expect((await inspectScript('~root/g2.sh', { cwd, homedir: home })).path).toBe(`${cwd}/~root/g2.sh`);
    expect((await inspectScript('bash ~/g.sh', { cwd, homedir: home })).path).toBe(`${home}/g.sh`);
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('`python3 -c …` pins the python3 found on PATH and says so', async () => {
    const info = await inspectScript("python3 -c 'print(1)'");
    expect(info.kind).toBe('interpreter');
    expect(info.note).toBe('python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs');
    expect(info.path).toMatch(/\/python3$/);
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('inspectScript: the identity it hashed', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('reports the identity it hashed, settled only once the file has been quiet for SETTLE_MS', async () => {
    const f = path.join(dir, 'fresh.sh');
    writeFileSync(f, 'echo 1\n');
    const fresh = await inspectScript(`bash ${f}`);
    const st = statSync(f, { bigint: true });
    expect(fresh.identity).toEqual({ dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });
    expect(fresh.settled).toBe(false);
    await sleep(SETTLE_MS + 20);
    expect((await inspectScript(`bash ${f}`)).settled).toBe(true);
  });
});

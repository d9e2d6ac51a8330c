import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, loadConfigSync } from '../../src/config/load.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'config');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hermes-hooks-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fixtureCopy(name: string): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  await copyFile(join(FIXTURES, name), file);
  return file;
}

describe('loadConfig', () => {
  it('a missing file is an empty config: exists false, nothing reported', async () => {
    const file = join(dir, 'nope', 'config.yaml');
    const loaded = await loadConfig(file);
    expect(loaded).toMatchObject({ file, exists: false, specs: [], diagnostics: [], autoAccept: false, data: {} });
    expect(loaded.source.file).toBe(file);
  });

  it('a path through a regular file (ENOTDIR) is missing too', async () => {
    const plain = join(dir, 'plain-file');
    await writeFile(plain, 'x');
    const loaded = await loadConfig(join(plain, 'config.yaml'));
    expect(loaded.exists).toBe(false);
    expect(loaded.diagnostics).toEqual([]);
  });

  it('a directory is one error diagnostic naming the file, not a throw', async () => {
    const sub = join(dir, 'a-directory.yaml');
    await mkdir(sub);
    const loaded = await loadConfig(sub);
    expect(loaded.exists).toBe(true);
    expect(loaded.specs).toEqual([]);
    expect(loaded.diagnostics).toEqual([
      { level: 'error', path: '', line: null, column: null, message: 'cannot read config file: it is a directory', file: sub },
    ]);
  });

  it('an unreadable file is one error diagnostic (when permissions apply to this user)', async () => {
    const file = join(dir, 'secret.yaml');
    await writeFile(file, 'hooks: {}');
    await chmod(file, 0o000);
    const loaded = await loadConfig(file);
    // root reads anything; a normal user gets EACCES. Either way nothing throws.
    if (process.getuid?.() === 0) expect(loaded.diagnostics).toEqual([]);
    else expect(loaded.diagnostics.map((d) => d.message)).toEqual(['cannot read config file: permission denied']);
  });

  it('a YAML syntax error is the single diagnostic, with its position', async () => {
    const file = await fixtureCopy('syntax-error.yaml');
    const loaded = await loadConfig(file);
    expect(loaded.exists).toBe(true);
    expect(loaded.specs).toEqual([]);
    expect(loaded.diagnostics).toHaveLength(1);
    expect(loaded.diagnostics[0]).toMatchObject({ level: 'error', file, path: '' });
    expect(loaded.diagnostics[0]?.line).toBeGreaterThanOrEqual(4);
    expect(loaded.diagnostics[0]?.message).toMatch(/^YAML syntax error: /);
    expect(loaded.data).toEqual({});
  });

  it('a valid config gives specs, data and autoAccept', async () => {
    const file = await fixtureCopy('valid.yaml');
    const loaded = await loadConfig(file);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.autoAccept).toBe(false);
    expect(loaded.specs.map((s) => [s.event, s.command, s.matcher, s.timeout, s.fail_closed, s.line])).toEqual([
      ['pre_tool_call', '~/.hermes/agent-hooks/block-rm-rf.sh', 'terminal', 5, true, 7],
      ['pre_tool_call', 'python3 ~/.hermes/agent-hooks/audit.py', null, 60, false, 11],
      ['post_tool_call', '~/.hermes/agent-hooks/log.sh', 'write_file|patch', 60, false, 13],
      ['pre_llm_call', '~/.hermes/agent-hooks/context.sh', null, 10, false, 16],
    ]);
    expect(loaded.specs.every((s) => s.dialect === 'hermes')).toBe(true);
    expect(loaded.data.model).toEqual({ default: 'anthropic/claude-sonnet-4.6' });
    expect((loaded.data.hooks as Record<string, unknown>).outbound).toEqual([{ url: 'https://hooks.example.com/hermes', events: ['post_tool_call'] }]);
  });

  it('reports every problem of a bad config with file, line and column', async () => {
    const file = await fixtureCopy('problems.yaml');
    const loaded = await loadConfig(file);
    expect(loaded.specs.map((s) => s.command)).toEqual(['/guard.sh', '/hello.sh']);
    expect(loaded.diagnostics.map((d) => [d.path, d.line, d.column, d.file])).toEqual([
      ['hooks.pre_tool_cal', 2, 3, file],
      ['hooks.pre_tool_call[0].timeout', 6, 16, file],
      ['hooks.pre_tool_call[0].fail_closed', 7, 20, file],
      ['hooks.pre_tool_call[1]', 8, 7, file],
      ['hooks.on_session_start[0].matcher', 11, 16, file],
    ]);
  });

  it('reads a file with a BOM and an empty file', async () => {
    const bom = join(dir, 'bom.yaml');
    await writeFile(bom, '\ufeffhooks_auto_accept: yes\nhooks:\n  pre_tool_call: [{command: x}]\n');
    const loaded = await loadConfig(bom);
    expect(loaded.autoAccept).toBe(true);
    expect(loaded.specs.map((s) => [s.command, s.line])).toEqual([['x', 3]]);
    const empty = join(dir, 'empty.yaml');
    await writeFile(empty, '');
    expect(await loadConfig(empty)).toMatchObject({ exists: true, specs: [], diagnostics: [], data: {} });
  });

  it('data is {} when the root is not a mapping', async () => {
    const file = join(dir, 'list.yaml');
    await writeFile(file, '- a\n- b\n');
    expect((await loadConfig(file)).data).toEqual({});
  });

  it('loadConfigSync gives the same result', async () => {
    const file = await fixtureCopy('problems.yaml');
    const a = await loadConfig(file);
    const b = loadConfigSync(file);
    expect(b.specs).toEqual(a.specs);
    expect(b.diagnostics).toEqual(a.diagnostics);
    expect(loadConfigSync(join(dir, 'missing.yaml')).exists).toBe(false);
  });
});

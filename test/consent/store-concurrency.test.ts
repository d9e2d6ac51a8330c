// 32 separate processes approve at the same moment; the cross-process lock must lose nothing.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CHILD = path.join(import.meta.dirname, '../fixtures/consent/approve-one.mjs');
const ROOT = path.join(import.meta.dirname, '../..');

interface Child {
  ready: Promise<void>;
  done: Promise<{ code: number | null; stderr: string }>;
}

function approveInChild(home: string, event: string, command: string, goFile: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home, event, command, goFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const ready = new Promise<void>((resolve) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('ready')) resolve();
    });
    child.on('close', () => resolve());
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  return { ready, done };
}

describe('ConsentStore across processes', () => {
  it('32 processes approving distinct commands at once: all 32 entries land', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'consent-32-'));
    const goFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'consent-go-')), 'go');
    const children = Array.from({ length: 32 }, (_, i) =>
      approveInChild(home, i % 2 ? 'post_tool_call' : 'pre_tool_call', `/hooks/h${i}.sh`, goFile),
    );
    // Everyone loaded and waiting: release them together.
    await Promise.all(children.map((c) => c.ready));
    writeFileSync(goFile, '');
    const results = await Promise.all(children.map((c) => c.done));
    for (const r of results) expect(r).toEqual({ code: 0, stderr: '' });
    const file = path.join(home, 'shell-hooks-allowlist.json');
    const approvals = JSON.parse(readFileSync(file, 'utf8')).approvals as { command: string; event: string }[];
    expect(approvals.map((a) => a.command).sort()).toEqual(Array.from({ length: 32 }, (_, i) => `/hooks/h${i}.sh`).sort());
    expect(approvals.every((a, _i, all) => all.filter((b) => b.command === a.command).length === 1)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No temp file, no lock, no break marker left behind.
    expect(readdirSync(home)).toEqual(['shell-hooks-allowlist.json']);
    rmSync(home, { recursive: true, force: true });
    rmSync(path.dirname(goFile), { recursive: true, force: true });
  }, 180_000);
});

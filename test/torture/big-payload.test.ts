// Torture: a 50 MB payload handed to hooks that never read it (exit at once, sleep then exit,
// print a directive, block by exit 2), next to one that peeks and one that reads it all — through
// the real engine and through the built CLI. No EPIPE, no crash, the right directives, bounded time.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/create-engine.js';
import { serializePayload } from '../../src/protocol/payload.js';
import { captureLogger, FIXTURES, killTagged, newTag, realPython, removeTemps, requireBuiltCli, tempDir, waitNoneLeft } from './_helpers.js';

const tag = newTag('payload');
const MB50 = 50 * 1024 * 1024;

afterAll(() => {
  killTagged(tag);
  removeTemps();
});

const q = (s: string): string => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const fx = (name: string): string => q(join(FIXTURES, name));

function configYaml(): string {
  const py = q(realPython());
  const entries = [
    `${fx('exit0.sh')}`,
    `${fx('sleep-exit.sh')}`,
    `${fx('approve-no-read.sh')}`,
    `${fx('modify-no-read.sh')}`,
    `${fx('peek.sh')}`,
    `${py} ${fx('count-stdin.py')}`,
  ];
  let yaml = 'hooks:\n  pre_tool_call:\n';
  for (const c of entries) yaml += `    - command: ${JSON.stringify(c)}\n      timeout: 60\n`;
  // Only runs for the tool `danger`.
  yaml += `    - command: ${JSON.stringify(fx('exit2-no-read.sh'))}\n      matcher: danger\n      timeout: 60\n`;
  return yaml;
}

const blob = 'x'.repeat(MB50);

describe('a 50 MB payload to hooks that never read it', () => {
  it('engine: every hook ends as scripted, directives resolve, and the one reader saw all of it', async () => {
    const home = tempDir('home');
    writeFileSync(join(home, 'config.yaml'), configYaml());
    const logger = captureLogger();
    const engine = await createHookEngine({
      home,
      env: { ...process.env, HERMES_SAFE_MODE: '', HERMES_ACCEPT_HOOKS: '', TORTURE_TAG: tag },
      acceptHooks: true,
      interactive: false,
      logger,
    });
    try {
      const t0 = performance.now();
      const allowed = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { blob }, session_id: 's' });
      const blocked = await engine.emit('pre_tool_call', { tool_name: 'danger', args: { blob }, session_id: 's' });
      // Two emits of seven quick hooks; a minute means something waited on a pipe nobody reads.
      expect(performance.now() - t0).toBeLessThan(60_000);

      const shell = allowed.hooks.filter((h) => h.kind === 'shell');
      expect(shell.map((h) => [h.status, h.exit_code, h.error])).toEqual([
        ['ok', 0, null],
        ['ok', 0, null],
        ['ok', 0, null],
        ['ok', 0, null],
        ['ok', 0, null],
        ['ok', 0, null],
        ['not_matched', null, null],
      ]);
      // The wire form (Python json.dumps separators), exactly what the hook got on stdin.
      const stdinBytes = Buffer.byteLength(serializePayload(allowed.payload as never));
      expect(stdinBytes).toBeGreaterThan(MB50);
      expect(shell.map((h) => h.directive)).toEqual([
        null,
        null,
        { action: 'approve', message: 'approved without reading', rule_key: 'torture' },
        { action: 'modify', args: { extra: 1 } },
        { action: 'modify', args: { peeked: true } },
        { action: 'modify', args: { stdin_bytes: stdinBytes, blob_len: MB50 } },
        null,
      ]);
      const { args, ...rest } = allowed.decision;
      expect(rest).toMatchObject({ action: 'approve', decided_by: 2, modified_by: [3, 4, 5], conflicts: [], rule_key: 'torture' });
      expect(args?.blob === blob).toBe(true);
      expect({ ...args, blob: '…' }).toEqual({ blob: '…', extra: 1, peeked: true, stdin_bytes: stdinBytes, blob_len: MB50 });

      const last = blocked.hooks.filter((h) => h.kind === 'shell').at(-1);
      expect(last).toMatchObject({ status: 'nonzero_exit', exit_code: 2, error: null });
      expect(blocked.decision).toMatchObject({ action: 'block', message: 'stopped without reading the payload', decided_by: 6 });
      expect(logger.warnings.filter((w) => !/exited 2/.test(w))).toEqual([]);
    } finally {
      await engine.close({ finalize: false });
    }
    expect(await waitNoneLeft(tag, 15_000)).toEqual([]);
  }, 120_000);

  it('CLI `run`: 50 MB on stdin, hooks that do not read it, a complete decision on stdout', async () => {
    const cli = requireBuiltCli();
    const home = tempDir('cli-home');
    writeFileSync(join(home, 'config.yaml'), configYaml());
    const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { blob }, session_id: 's' });
    const child = spawn(process.execPath, [cli, 'run', 'pre_tool_call', '--home', home, '--accept-hooks'], {
      env: { ...process.env, HERMES_SAFE_MODE: '', HERMES_ACCEPT_HOOKS: '', TORTURE_TAG: tag, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.end(payload);
    const t0 = performance.now();
    const code = await new Promise<number | null>((res, rej) => {
      child.on('error', rej);
      child.on('close', (c) => res(c));
    });
    expect(performance.now() - t0).toBeLessThan(90_000);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const decision = JSON.parse(Buffer.concat(out).toString('utf8'));
    expect(decision).toMatchObject({ action: 'approve', decided_by: 2, modified_by: [3, 4, 5], rule_key: 'torture' });
    expect(decision.args.blob === blob).toBe(true);
    expect(decision.args).toMatchObject({ extra: 1, peeked: true, blob_len: MB50 });
    expect(await waitNoneLeft(tag, 15_000)).toEqual([]);
  }, 120_000);
});

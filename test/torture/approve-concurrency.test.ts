// Torture: 32 `hermes-hooks approve` processes (the built CLI) started together on one profile.
// The cross-process lock must lose nothing: all 32 entries land, the file is valid JSON, mode
// 0600, and no temp or lock file is left behind.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTemps, requireBuiltCli, tempDir } from './_helpers.js';

afterAll(() => removeTemps());

const N = 32;

function approve(cli: string, home: string, command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, 'approve', '--home', home, '--event', 'pre_tool_call', command], {
    env: { ...process.env, HERMES_HOME: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((res, rej) => {
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

describe('32 processes approving at once', () => {
  it('all 32 entries land in a valid 0600 allowlist', async () => {
    const cli = requireBuiltCli();
    const home = tempDir('approve');
    // Every approved command is configured and its script exists (no pin, no approval).
    const hooks = tempDir('approve-hooks');
    const script = (name: string): string => {
      writeFileSync(join(hooks, name), `#!/bin/sh\n# ${name}\n`, { mode: 0o755 });
      return join(hooks, name);
    };
    const configured = script('configured.sh');
    const commands = Array.from({ length: N }, (_, i) => `${script(`cmd-${i}.sh`)} --flag ${i}`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n${[configured, ...commands].map((c) => `    - command: ${c}\n`).join('')}`);
    // A profile that already has an approval: it must survive too.
    const first = await approve(cli, home, configured);
    expect(first).toMatchObject({ code: 0, stderr: '' });

    const results = await Promise.all(commands.map((c) => approve(cli, home, c)));
    results.forEach((r, i) => {
      expect({ i, code: r.code, stderr: r.stderr }).toEqual({ i, code: 0, stderr: '' });
      expect(r.stdout).toContain(`Approved [pre_tool_call] ${commands[i]}`);
    });

    const file = join(home, 'shell-hooks-allowlist.json');
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { approvals: { event: string; command: string }[] };
    const got = parsed.approvals.map((a) => `${a.event} ${a.command}`).sort();
    expect(got).toEqual([...commands, configured].map((c) => `pre_tool_call ${c}`).sort());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(home).sort()).toEqual(['config.yaml', 'shell-hooks-allowlist.json']);
  }, 120_000);
});

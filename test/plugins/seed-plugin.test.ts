// The seed's own plugin examples through the real CLI: task_id is always there ("" when the host
// has none, as Hermes passes it), what the plugin prints or logs is on stderr by default in run and
// test, and a pre_verify answer in Claude's Stop shape keeps the turn going as Hermes reads it.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, makeHome, runBin } from '../cli/_helpers.js';

afterAll(cleanupTemps);

const PLUGIN = fileURLToPath(new URL('../fixtures/plugins/seed-audit/', import.meta.url));

function pluginHome(): string {
  const home = makeHome('plugins:\n  enabled: [seed-audit]\n');
  mkdirSync(join(home, 'plugins'), { mode: 0o700 });
  cpSync(PLUGIN, join(home, 'plugins', 'seed-audit'), { recursive: true });
  return home;
}

describe("the seed's plugin examples", () => {
  it('run pre_tool_call: audit_tool_call gets task_id "" (no TypeError, no block); its warning and print are on stderr', async () => {
    const home = pluginHome();
    const r = await runBin(['run', 'pre_tool_call', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).action).toBe('allow');
    expect(r.stderr).toContain("[plugins] seed-audit: TOOL_CALL task='' session='' tool=terminal");
    expect(r.stderr).toContain('[plugins] seed-audit: ⚠ Executing potentially dangerous tool: terminal');
    expect(r.stderr).not.toContain('TypeError');
  });

  it('a task_id the host gives is passed as given', async () => {
    const home = pluginHome();
    const r = await runBin(['run', 'pre_tool_call', '--home', home], { stdin: JSON.stringify({ tool_name: 'read_file', args: {}, task_id: 't-7' }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("TOOL_CALL task='t-7'");
    expect(r.stderr).not.toContain('dangerous');
  });

  it('test pre_tool_call shows what the plugin printed too', async () => {
    const home = pluginHome();
    writeFileSync(join(home, 'payload.json'), '{}');
    const r = await runBin(['test', 'pre_tool_call', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[plugins] seed-audit: ⚠ Executing potentially dangerous tool: terminal');
  });

  it('pre_verify {"decision": "block", "reason": …} keeps the turn going with that reason', async () => {
    const home = pluginHome();
    const r = await runBin(['run', 'pre_verify', '--home', home], {
      stdin: JSON.stringify({ session_id: 's', coding: true, attempt: 0, final_response: 'done', changed_paths: ['a.py'] }),
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'continue', message: 'run the tests before you finish' });
  });
});

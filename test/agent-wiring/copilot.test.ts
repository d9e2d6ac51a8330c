// GitHub Copilot CLI (issue 32): its own camelCase preToolUse stdin (as 1.0.102 sent it to a hook here)
// through the BUILT CLI against a Hermes guard with `matcher: terminal` — Copilot's `bash` must reach
// it, and the answer must be in Copilot's own top-level shape (a Claude-shaped one is ignored there and
// the tool runs). Then the wiring: print-config's hooks file (version 1, `bash`, `timeoutSec`), import
// of a Copilot hooks file (told from Cursor's by its `bash` entries), and doctor --agent copilot.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, BIN, cleanupTemps, makeHome, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

/** preToolUse stdin exactly as Copilot CLI 1.0.102 wrote it (captured from the real agent). */
const copilotStdin = (command: string, cwd: string): string =>
  JSON.stringify({
    sessionId: 'd5738d0a-529d-4b79-ab18-c7ffbbf799ae',
    timestamp: 1796564494529,
    cwd,
    toolName: 'bash',
    toolArgs: { command, description: 'run it' },
  });

/** `node dist/cli/bin.js run preToolUse --dialect copilot`: a real process, as Copilot starts it. */
function runBuilt(home: string, stdin: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'run', 'preToolUse', '--dialect', 'copilot', '--home', home], { input: stdin, encoding: 'utf8', env: baseEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function guardHome(body: string): Promise<string> {
  const dir = tempDir('hh-copilot-');
  const guard = writeScript(join(dir, 'guard.sh'), body);
  return approvedHome({ pre_tool_call: [{ command: guard, matcher: 'terminal' }] });
}

describe('run preToolUse --dialect copilot (the built CLI, a real guard)', () => {
  const RM_GUARD = `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"action":"block","message":"no rm -rf"}'; fi\nexit 0\n`;

  it('blocks rm -rf / on Copilot bash with a top-level permissionDecision deny, and allows ls with no answer', async () => {
    const home = await guardHome(RM_GUARD);
    const cwd = tempDir('hh-copilot-cwd-');
    const rm = runBuilt(home, copilotStdin('rm -rf /', cwd));
    expect(rm.code, rm.stderr).toBe(0);
    expect(JSON.parse(rm.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' });
    const ls = runBuilt(home, copilotStdin('ls', cwd));
    expect([ls.code, ls.stdout]).toEqual([0, '']);
  });

  it('a rewrite is modifiedArgs in bash keys, with no permissionDecision (it grants nothing)', async () => {
    const home = await guardHome(`#!/bin/sh\ncat >/dev/null\necho '{"action":"modify","args":{"command":"ls -la"}}'\n`);
    const r = runBuilt(home, copilotStdin('ls', tempDir('hh-copilot-cwd-')));
    expect(JSON.parse(r.stdout)).toEqual({ modifiedArgs: { command: 'ls -la', description: 'run it' } });
  });

  it('the guard sees our terminal tool and its command', async () => {
    const dir = tempDir('hh-copilot-');
    const seen = join(dir, 'seen.json');
    const home = await guardHome(`#!/bin/sh\ncat > ${seen}\n`);
    runBuilt(home, copilotStdin('echo hi', dir));
    const payload = JSON.parse(readFileSync(seen, 'utf8')) as { tool_name: string; tool_input: Record<string, unknown>; session_id: string };
    expect([payload.tool_name, payload.tool_input['command'], payload.session_id]).toEqual(['terminal', 'echo hi', 'd5738d0a-529d-4b79-ab18-c7ffbbf799ae']);
  });
});

describe('print-config copilot', () => {
  it('prints a version 1 hooks file of flat type/bash/timeoutSec entries, the gate one running the client with --gate 1', async () => {
    const home = await guardHome('#!/bin/sh\nexit 0\n');
    const printed = await runMain(['print-config', 'copilot', '--home', home]);
    expect(printed.code, printed.stderr).toBe(0);
    const file = JSON.parse(printed.stdout) as { version: number; hooks: Record<string, Record<string, unknown>[]> };
    expect(file.version).toBe(1);
    const [gate, ...more] = file.hooks['preToolUse']!;
    expect(more).toEqual([]);
    expect(Object.keys(gate!).sort()).toEqual(['bash', 'timeoutSec', 'type']);
    expect(gate!['type']).toBe('command');
    expect(gate!['bash']).toMatch(/hermes-hooks-client'? '?copilot'? '?preToolUse'? .*'?--gate'? '?1'?/);
    expect(typeof gate!['timeoutSec']).toBe('number');
    expect(printed.stderr).toContain('~/.copilot/hooks/hermes-hooks.json');

    const run = JSON.parse((await runMain(['print-config', 'copilot', '--run', '--home', home])).stdout) as typeof file;
    expect(run.hooks['preToolUse']![0]!['bash']).toMatch(/ run preToolUse --dialect copilot/);
  });
});

describe('import of a Copilot hooks file', () => {
  const GUARD = `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"permissionDecision":"deny","permissionDecisionReason":"copilot guard says no"}'; fi\nexit 0\n`;

  for (const where of ['.github/hooks/guard.json', 'plain/hooks.json']) {
    it(`reads ${where} as Copilot's (not Cursor's), carries timeoutSec, reports powershell and cwd, and the result blocks rm -rf`, async () => {
      const dir = tempDir('hh-copilot-import-');
      const guard = writeScript(join(dir, 'guard.sh'), GUARD);
      const file = join(dir, where);
      mkdirSync(dirname(file), { recursive: true });
      const hooks = {
        preToolUse: [{ type: 'command', bash: guard, powershell: 'guard.ps1', cwd: 'scripts', timeoutSec: 12 }],
        // Copilot's own event tells the file by name; without it (plain/), its `bash` entries must.
        ...(where.startsWith('.github') ? { errorOccurred: [{ type: 'command', bash: 'log-error.sh' }] } : {}),
      };
      writeFileSync(file, JSON.stringify({ version: 1, hooks }, null, 2));
      const home = makeHome('hooks: {}\n');
      const imported = await runMain(['import', file, '--write', '--home', home]);
      expect(imported.code, imported.stderr).toBe(0);
      const out = `${imported.stdout}${imported.stderr}`;
      expect(out).toContain('Copilot CLI');
      expect(out).toMatch(/hooks\.preToolUse\[0\]\.cwd.*cwd cannot be carried over/);
      expect(out).toMatch(/hooks\.preToolUse\[0\]\.powershell/);
      if (where.startsWith('.github')) expect(out).toMatch(/errorOccurred.*no Hermes counterpart.*log-error\.sh/);
      const config = readFileSync(join(home, 'config.yaml'), 'utf8');
      expect(config).toContain('dialect: copilot');
      expect(config).toContain('timeout: 12');
      expect((await runMain(['approve', '--all', '--home', home])).code).toBe(0);
      const test = (command: string) =>
        runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', tool_input: { command } }) });
      const rm = await test('rm -rf /');
      expect([rm.code, JSON.parse(rm.stdout).decision.message]).toEqual([2, 'copilot guard says no']);
      expect((await test('ls')).code).toBe(0);
    });
  }
});

describe('doctor --agent copilot', () => {
  type Check = { ok: boolean | null; message: string };
  type Report = { general: Check[]; entries: { event: string; checks: Check[] }[] };
  const doctor = async (home: string, user: string): Promise<Report> => {
    const project = tempDir('hh-copilot-project-');
    const r = await runMain(['doctor', '--agent', 'copilot', '--home', home, '--project', project, '--json'], { env: { PATH: process.env.PATH, HOME: user } });
    return JSON.parse(r.stdout) as Report;
  };
  const problems = (r: Report): string[] => [...r.general, ...r.entries.flatMap((e) => e.checks)].filter((c) => c.ok === false).map((c) => c.message);

  it("finds print-config's file healthy in ~/.copilot/hooks, and names timeoutSec when it is too short", async () => {
    const home = await guardHome('#!/bin/sh\nexit 0\n');
    const printed = JSON.parse((await runMain(['print-config', 'copilot', '--home', home])).stdout) as { hooks: Record<string, Record<string, unknown>[]> };
    const user = tempDir('hh-copilot-user-');
    mkdirSync(join(user, '.copilot/hooks'), { recursive: true });
    writeFileSync(join(user, '.copilot/hooks/hermes-hooks.json'), JSON.stringify(printed));
    const healthy = await doctor(home, user);
    expect(healthy.entries.map((e) => e.event)).toContain('preToolUse');
    expect(problems(healthy)).toEqual([]);

    printed.hooks['preToolUse']![0]!['timeoutSec'] = 5;
    writeFileSync(join(user, '.copilot/hooks/hermes-hooks.json'), JSON.stringify(printed));
    expect(problems(await doctor(home, user)).join('\n')).toMatch(/Copilot CLI stops the hook after 5 s.*set "timeoutSec"/);
  });

  it('says ~/.copilot/hooks.json is never read', async () => {
    const home = await guardHome('#!/bin/sh\nexit 0\n');
    const printed = (await runMain(['print-config', 'copilot', '--home', home])).stdout;
    const user = tempDir('hh-copilot-user-');
    mkdirSync(join(user, '.copilot'), { recursive: true });
    writeFileSync(join(user, '.copilot/hooks.json'), printed);
    expect(problems(await doctor(home, user)).join('\n')).toMatch(/\.copilot\/hooks\.json has \d+ hermes-hooks entr.*never reads that file/);
  });
});

// Strict mode (`hooks_fail_closed: true`), values read as Hermes reads them, and relative script
// paths — through the built CLI as a real process, on real config files and real scripts. Each
// config mistake that leaves the tool gate without its guard blocks the gate under strict mode,
// naming file:line and the fix; without it the call goes ahead with a warning (Hermes semantics).

import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, cleanupTemps, makeHome, runBin, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

// Written after hooks: so the line numbers are the same with and without it.
const STRICT = 'hooks_fail_closed: true\n';
const BLOCKER = '#!/bin/sh\ncat >/dev/null\necho \'{"action":"block","message":"guarded"}\'\n';

/** `run pre_tool_call` on `tool`, consent accepted, from `cwd`. */
async function runGate(home: string, tool = 'terminal', cwd?: string) {
  const env = baseEnv({ HERMES_ACCEPT_HOOKS: '1' });
  const r = await runBin(['run', 'pre_tool_call', '--home', home], {
    env,
    stdin: JSON.stringify({ tool_name: tool, tool_input: { command: 'ls' } }),
    ...(cwd ? { cwd } : {}),
  });
  const decision = JSON.parse(r.stdout) as { action: string; message?: string };
  return { ...r, decision };
}

// Each mistake: the hooks: text (after `hooks:`), the line:column the block names, and the fix it says.
const MISTAKES: [string, string, string, string][] = [
  ['a misspelled gate event', '  pre_tool_use:\n    - command: /bin/true\n', ':2:3:', "did you mean 'pre_tool_call'?"],
  ['a list written as a map', '  pre_tool_call:\n    command: /bin/true\n', ':3:5:', 'write each hook as a list item: `- command: …`'],
  ['a non-object entry', '  pre_tool_call:\n    - /bin/true\n', ':3:7:', 'write it as: - command: "/bin/true"'],
  ['an entry without a command', '  pre_tool_call:\n    - timeout: 5\n', ':3:7:', "is missing a non-empty 'command' field"],
  [
    "Claude Code's matcher group under pre_tool_call",
    '  pre_tool_call:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: /bin/true\n',
    ':3:7:',
    'write each hook as its own entry: - command: "/bin/true"',
  ],
];

describe('strict mode: a mistake that leaves the tool gate unguarded blocks it, with the fix', () => {
  it.each(MISTAKES)('%s blocks under hooks_fail_closed: true, naming file:line and the fix', async (_name, hooks, at, fix) => {
    const home = makeHome(`hooks:\n${hooks}${STRICT}`);
    const r = await runGate(home);
    expect(r.code).toBe(2);
    expect(r.decision.action).toBe('block');
    expect(r.decision.message).toContain(`${join(home, 'config.yaml')}${at}`);
    expect(r.decision.message).toContain(fix);
    expect(r.decision.message).toContain('hooks_fail_closed is on, so this tool call is blocked until the config is fixed');
  });

  it.each(MISTAKES)('%s without strict mode: the call goes ahead, and the mistake is said on stderr', async (_name, hooks, at) => {
    const home = makeHome(`hooks:\n${hooks}`);
    const r = await runGate(home);
    expect(r.code).toBe(0);
    expect(r.decision.action).toBe('allow');
    expect(r.stderr).toContain(`${join(home, 'config.yaml')}${at} error:`);
  });

  it('a refused entry whose matcher could be read blocks only the calls it would have checked', async () => {
    const home = makeHome(`${STRICT}hooks:\n  pre_tool_call:\n    - matcher: terminal\n      dialect: klingon\n`);
    expect((await runGate(home, 'terminal')).decision.action).toBe('block');
    expect((await runGate(home, 'read_file')).decision.action).toBe('allow');
  });

  it('a missing or non-executable script blocks under strict mode (every pre_tool_call hook is fail_closed) and warns without it', async () => {
    const dir = tempDir();
    const notExec = writeScript(join(dir, 'guard.sh'), BLOCKER);
    chmodSync(notExec, 0o644);
    // The missing one cannot be approved (nothing to pin), the other cannot start: both say the fix.
    for (const [command, fix] of [
      [join(dir, 'missing.sh'), 'does not exist'],
      [notExec, `chmod +x ${notExec}`],
    ] as const) {
      const strict = await runGate(makeHome(`${STRICT}hooks:\n  pre_tool_call:\n    - command: ${command}\n`));
      expect(strict.code).toBe(2);
      expect(strict.decision.message).toMatch(`hook ${command} `);
      expect(strict.decision.message).toContain(fix);
      const open = await runGate(makeHome(`hooks:\n  pre_tool_call:\n    - command: ${command}\n`));
      expect(open.decision.action).toBe('allow');
      expect(open.stderr).not.toBe('');
    }
  });

  it('`fail_closed: false` opts one hook out of strict mode', async () => {
    const home = makeHome(`${STRICT}hooks:\n  pre_tool_call:\n    - command: /nonexistent/guard.sh\n      fail_closed: false\n`);
    expect((await runGate(home)).decision.action).toBe('allow');
  });

  it('validate reports the strict-mode cost at the line', async () => {
    const home = makeHome(`${STRICT}hooks:\n  pre_tool_use:\n    - command: /bin/true\n`);
    const r = await runBin(['validate', '--home', home], { env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${join(home, 'config.yaml')}:3:3: error: hooks.pre_tool_use: unknown hook event 'pre_tool_use'`);
    expect(r.stdout).toContain('hooks_fail_closed is on: every pre_tool_call it would have checked is blocked until this is fixed');
  });
});

describe('values read as Hermes reads them, said where it surprises', () => {
  const QUOTED = (extra = '') => `${extra}hooks:\n  pre_tool_call:\n    - command: /nonexistent/guard.sh\n      fail_closed: "true"\n`;

  it('fail_closed: "true" is false as in Hermes (the broken guard lets the call through) and validate and run say so at file:line:col', async () => {
    const home = makeHome(QUOTED());
    const file = join(home, 'config.yaml');
    const r = await runGate(home);
    expect(r.decision.action).toBe('allow');
    const warning = `${file}:4:20: warning: hooks.pre_tool_call[0].fail_closed must be a boolean (got 'true'); using default false (fail open) — 'true' is NOT the boolean true`;
    expect(r.stderr).toContain(warning);
    const v = await runBin(['validate', '--home', home], { env: baseEnv() });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(warning);
  });

  it('under strict mode, fail_closed: "true" keeps the hook fail_closed (the safer reading), and says so', async () => {
    const home = makeHome(QUOTED(STRICT));
    const r = await runGate(home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Hermes would read it as false (fail open), but hooks_fail_closed is on, so this hook is fail_closed');
  });
});

describe('a relative script path resolves against the config file directory, whatever the working directory', () => {
  it('hooks/guard.sh and ./hooks/guard.sh run the same script from two different working directories', async () => {
    const home = makeHome('hooks:\n  pre_tool_call:\n    - command: hooks/guard.sh\n');
    writeScript(join(home, 'hooks/guard.sh'), BLOCKER);
    for (const command of ['hooks/guard.sh', './hooks/guard.sh', 'sh ./hooks/guard.sh']) {
      const again = makeHome(`hooks:\n  pre_tool_call:\n    - command: ${command}\n`);
      writeScript(join(again, 'hooks/guard.sh'), BLOCKER);
      for (const cwd of [tempDir(), again]) {
        const r = await runGate(again, 'terminal', cwd);
        expect([command, cwd, r.decision]).toEqual([command, cwd, { ...r.decision, action: 'block', message: 'guarded' }]);
      }
    }
    const v = await runBin(['validate', '--home', home], { env: baseEnv(), cwd: tempDir() });
    expect([v.code, v.stdout]).toEqual([0, expect.stringContaining(': ok (1 shell hook(s)')]);
  });

  it('list and test show the resolved absolute command (what consent approves and pins)', async () => {
    const home = makeHome('hooks:\n  pre_tool_call:\n    - command: hooks/guard.sh\n');
    writeScript(join(home, 'hooks/guard.sh'), BLOCKER);
    const r = await runBin(['test', 'pre_tool_call', '--json', '--home', home], { env: baseEnv(), cwd: tempDir(), stdin: '{"tool_name":"terminal"}' });
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as { hooks: { command: string; status: string }[] };
    expect(report.hooks.map((h) => [h.command, h.status])).toEqual([[join(home, 'hooks/guard.sh'), 'ok']]);
  });

  it('approve and revoke take the command as written in the config, from any working directory', async () => {
    const home = makeHome('hooks:\n  pre_tool_call:\n    - command: hooks/guard.sh\n');
    writeScript(join(home, 'hooks/guard.sh'), BLOCKER);
    const a = await runBin(['approve', '--home', home, 'hooks/guard.sh'], { env: baseEnv(), cwd: tempDir() });
    expect([a.code, a.stdout]).toEqual([0, expect.stringContaining(`Approved [pre_tool_call] ${join(home, 'hooks/guard.sh')}`)]);
    const r = await runBin(['revoke', '--home', home, 'hooks/guard.sh'], { env: baseEnv(), cwd: tempDir() });
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('Removed 1 allowlist entry')]);
  });
});

describe('doctor and print-config recommend strict mode', () => {
  it('doctor recommends it when a pre_tool_call guard is configured and strict mode is off, and not once it is on', async () => {
    const guard = writeScript(join(tempDir(), 'guard.sh'), BLOCKER);
    const advice = 'Recommended: hooks_fail_closed: true';
    const off = await runBin(['doctor', '--home', makeHome(`hooks:\n  pre_tool_call:\n    - command: ${guard}\n`)], { env: baseEnv() });
    expect(off.stdout).toContain(advice);
    const on = await runBin(['doctor', '--home', makeHome(`hooks:\n  pre_tool_call:\n    - command: ${guard}\n${STRICT}`)], { env: baseEnv() });
    expect(on.stdout).not.toContain(advice);
  });

  it('print-config notes it on stderr', async () => {
    const r = await runBin(['print-config', 'claude', '--run', '--home', makeHome('hooks: {}\n')], { env: baseEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Tip: hooks_fail_closed: true');
  });
});

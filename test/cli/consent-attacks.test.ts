// Issue 15's attacks on consent, each through the real CLI (in-process main, or the built binary
// where the process matters) or a real engine, with real files and real hook processes: the file
// hashed is the file run, a missing script is never approved, an allowlist that is not the user's
// own regular file approves nothing (and fail_closed guards block), a FIFO or a forged lock never
// hangs, corruptions keep every backup, and control characters never reach a terminal raw.

import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/create-engine.js';
import type { PromptInfo } from '../../src/consent/prompt.js';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runBin, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /important' }, session_id: 's-1' });
/** A hook that logs each run to <log> and blocks. */
const blocker = (log: string, tag: string): string => `#!/usr/bin/env bash\necho ${tag} >>'${log}'\necho '{"action":"block","message":"${tag} says no"}'\n`;
const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('the file hashed is the file spawn runs', () => {
  it('"…/h\\$.sh" pins and runs h$.sh: editing h$.sh after approval stops it (the decoy h\\$.sh is irrelevant)', async () => {
    const home = makeHome();
    const log = join(home, 'ran.log');
    const real = writeScript(join(home, 'h$.sh'), blocker(log, 'approved'));
    writeScript(join(home, 'h\\$.sh'), blocker(log, 'decoy'));
    const command = `bash "${home}/h\\$.sh"`;
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [command] }));
    const env = baseEnv({ HERMES_HOME: home });
    expect((await runMain(['approve', '--all'], { env })).code).toBe(0);
    expect(readJson<{ approvals: { script_path: string }[] }>(join(home, 'shell-hooks-allowlist.json')).approvals[0]!.script_path).toBe(real);
    expect((await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env })).code).toBe(2);
    expect(lines(log)).toEqual(['approved']);

    writeFileSync(real, "#!/usr/bin/env bash\necho edited >>'" + log + '\'\necho "{}"\n');
    const r = await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`hermes-hooks: warning: shell hook for pre_tool_call (${command}) was modified since approval — skipped: ${real} changed`);
    expect(lines(log)).toEqual(['approved']);
  });

  it("'~'/g.sh and ~root/g2.sh pin <cwd>/~/g.sh and <cwd>/~root/g2.sh — the files spawn runs — not $HOME's", async () => {
    const home = makeHome();
    const cwd = tempDir('hh-cwd-');
    const log = join(home, 'ran.log');
    mkdirSync(join(cwd, '~'));
    mkdirSync(join(cwd, '~root'));
    const g = writeScript(join(cwd, '~', 'g.sh'), blocker(log, 'g'));
    const g2 = writeScript(join(cwd, '~root', 'g2.sh'), blocker(log, 'g2'));
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: ["bash '~'/g.sh", '~root/g2.sh'] }));
    const env = baseEnv({ HERMES_HOME: home });
    expect((await runMain(['approve', '--all'], { env, cwd })).code).toBe(0);
    const pins = readJson<{ approvals: { command: string; script_path: string }[] }>(join(home, 'shell-hooks-allowlist.json')).approvals;
    expect(pins.map((p) => [p.command, p.script_path])).toEqual([
      ["bash '~'/g.sh", g],
      ['~root/g2.sh', g2],
    ]);

    appendFileSync(g, 'echo tampered >>/dev/null\n');
    const listed = JSON.parse((await runMain(['list', '--json'], { env, cwd })).stdout);
    expect(listed.hooks.map((h: { consent: { state: string } }) => h.consent.state)).toEqual(['modified', 'approved']);
  });

  it('node -r ./setup.js ./hook.js pins hook.js: an edit to hook.js stops it; setup.js (a preload) is not pinned, as documented', async () => {
    // Relative paths are resolved against the config file's directory: the scripts live beside it.
    const home = makeHome();
    const cwd = home;
    const log = join(home, 'ran.log');
    writeFileSync(join(cwd, 'setup.js'), '// preload\n');
    const hook = join(cwd, 'hook.js');
    writeFileSync(hook, `require('fs').appendFileSync(${JSON.stringify(log)}, 'hook\\n'); console.log(JSON.stringify({action: 'block', message: 'no'}));\n`);
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: 'node -r ./setup.js ./hook.js', fail_closed: true }] }));
    const command = `node -r ${join(home, 'setup.js')} ${hook}`;
    const env = baseEnv({ HERMES_HOME: home });
    const approved = await runMain(['approve', command], { env, cwd });
    expect(approved.stdout).toMatch(
      new RegExp(`^Approved \\[pre_tool_call\\] ${command.replace(/[.]/g, '\\.')}  \\(pins ${hook.replace(/[.]/g, '\\.')}, sha256 [0-9a-f]{12}…\\)\\n$`),
    );

    appendFileSync(join(cwd, 'setup.js'), '// edited preload\n');
    expect(JSON.parse((await runMain(['list', '--json'], { env, cwd })).stdout).hooks[0].consent.state).toBe('approved');

    appendFileSync(hook, '// edited\n');
    const r = await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env, cwd });
    // A modified fail_closed guard blocks without running.
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).message).toMatch(
      new RegExp(`^hook ${command.replace(/[.]/g, '\\.')} awaits approval \\(modified since approval: ${hook.replace(/[.]/g, '\\.')} changed`),
    );
    expect(lines(log)).toEqual([]);
  });
});

describe('no pin, no approval', () => {
  it('approve of a missing script, or of a directory, is an error naming the path; approve --all approves nothing', async () => {
    const home = makeHome();
    const ok = writeScript(join(home, 'ok.sh'), '#!/bin/sh\n');
    mkdirSync(join(home, 'dir.sh'));
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [ok, join(home, 'later.sh')], post_tool_call: [join(home, 'dir.sh')] }));
    const env = baseEnv({ HERMES_HOME: home });
    const all = await runMain(['approve', '--all'], { env });
    expect(all).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `hermes-hooks: approve: cannot approve [pre_tool_call] ${home}/later.sh: ${home}/later.sh does not exist; ` +
        `[post_tool_call] ${home}/dir.sh: ${home}/dir.sh is not a regular file — an approval pins the file's sha256, and there is no file to pin. ` +
        'Create the script (or fix the command), then approve again. Nothing was approved.\n',
    });
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
    // --accept-hooks cannot approve it either: a fail_closed guard on a missing script blocks, saying why.
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: join(home, 'later.sh'), fail_closed: true }] }));
    const r = await runMain(['run', 'pre_tool_call', '--accept-hooks'], { stdin: PAYLOAD, env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).message).toBe(
      `hook ${home}/later.sh awaits approval (cannot approve [pre_tool_call] ${home}/later.sh: ${home}/later.sh does not exist — an approval pins the file's sha256, and there is no file to pin. ` +
        `Create the script (or fix the command), then approve again. Nothing was approved.): tool calls it guards are blocked until it is approved — ` +
        `run \`hermes-hooks approve --event pre_tool_call ${home}/later.sh\` (or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true)`,
    );
  });
});

describe("the allowlist must be the user's own regular file", () => {
  function guarded(): { home: string; env: NodeJS.ProcessEnv; guard: string; allowlist: string; log: string } {
    const home = makeHome();
    const log = join(home, 'ran.log');
    const guard = writeScript(join(home, 'guard.sh'), blocker(log, 'guard'));
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: guard, fail_closed: true }] }));
    return { home, env: baseEnv({ HERMES_HOME: home }), guard, allowlist: join(home, 'shell-hooks-allowlist.json'), log };
  }

  it('a symlink to a world-writable file: refused, the fail_closed guard blocks, doctor is not healthy', async () => {
    const f = guarded();
    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    const elsewhere = join(tempDir('hh-elsewhere-'), 'allowlist.json');
    renameSync(f.allowlist, elsewhere);
    chmodSync(elsewhere, 0o666);
    symlinkSync(elsewhere, f.allowlist);
    const refusal = `shell hook allowlist ${f.allowlist} (a symlink to ${elsewhere}) is refused: it is writable by group and others (mode 0666), so no approval in it counts — check what is there, then run chmod go-w '${elsewhere}'`;

    const r = await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env: f.env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).message).toContain(`hook ${f.guard} awaits approval (${refusal}): tool calls it guards are blocked until it is approved`);
    expect(r.stderr).toContain(`hermes-hooks: warning: ${refusal}\n`);
    expect(lines(f.log)).toEqual([]);

    const doctor = await runMain(['doctor'], { env: f.env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`  ✗ ${refusal}\n`);
    expect(doctor.stdout).not.toContain('All hooks look healthy');
    expect(JSON.parse((await runMain(['list', '--json'], { env: f.env })).stdout).allowlist).toEqual({ path: f.allowlist, refused: refusal });
    const list = (await runMain(['list'], { env: f.env })).stdout;
    expect(list).toContain(`  ✗ ${refusal}\n`);
    expect(list).toContain(`    - ${f.guard} (timeout=60s, fail_closed, ✗ not approved (allowlist refused))\n`);

    const approve = await runMain(['approve', f.guard], { env: f.env });
    expect(approve).toMatchObject({ code: 1, stdout: '' });
    expect(approve.stderr).toContain(`hermes-hooks: approve: ${refusal}. Nothing was approved.`);
  });

  it('list without a config file says the allowlist is refused once, then that there is no config', async () => {
    const f = guarded();
    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    chmodSync(f.allowlist, 0o666);
    rmSync(join(f.home, 'config.yaml'));
    const refusal = `shell hook allowlist ${f.allowlist} is refused: it is writable by group and others (mode 0666), so no approval in it counts — check what is there, then run chmod go-w '${f.allowlist}'`;
    const list = await runMain(['list'], { env: f.env });
    expect(list.stdout).toBe(
      `✗ ${refusal}\nNo config file at ${join(f.home, 'config.yaml')}: the profile home ${f.home} (given by $HERMES_HOME) has no config.yaml, so no hooks are configured there.\n`,
    );
  });

  it('a FIFO at the allowlist path: `run` (the real binary) does not hang; it is refused', async () => {
    const f = guarded();
    execFileSync('mkfifo', [f.allowlist]);
    const started = Date.now();
    const r = await runBin(['run', 'pre_tool_call'], { stdin: PAYLOAD, env: f.env, killAfterMs: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`shell hook allowlist ${f.allowlist} is refused: it is a FIFO, not a regular file`);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('a lock file claiming pid 1 with a future mtime does not block `revoke`', async () => {
    const f = guarded();
    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    const lock = `${f.allowlist}.hermes-hooks.lock`;
    writeFileSync(lock, JSON.stringify({ pid: 1, hostname: os.hostname(), token: 'forged', created_at: '2099-01-01T00:00:00Z' }));
    const future = Date.now() / 1000 + 24 * 3600;
    utimesSync(lock, future, future);
    const r = await runMain(['revoke', f.guard], { env: f.env });
    expect(r).toEqual({
      code: 0,
      stdout: `Removed 1 allowlist entry for: ${f.guard}\nHosts already running see this at their next call: the hook stops running (a fail_closed guard blocks the calls it guards).\n`,
      stderr: '',
    });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('two corruptions keep two backups: .invalid and .invalid.1', async () => {
    const f = guarded();
    writeFileSync(f.allowlist, '{"approvals": [', { mode: 0o600 });
    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    writeFileSync(f.allowlist, 'null', { mode: 0o600 });
    const second = await runMain(['approve', f.guard], { env: f.env });
    expect(second.code).toBe(0);
    expect(readFileSync(`${f.allowlist}.invalid`, 'utf8')).toBe('{"approvals": [');
    expect(readFileSync(`${f.allowlist}.invalid.1`, 'utf8')).toBe('null');
    expect(second.stderr).toContain(`its old content was saved to ${f.allowlist}.invalid.1 before rewriting it`);
  });
});

describe('displayed text is inert', () => {
  // A command whose name repaints the line above: erase line, carriage return, a fake Command line.
  const EVIL = '/opt/x\u001b[1A\u001b[2K\r    Command: /bin/true\u202e.sh';
  const SHOWN = '/opt/x\\e[1A\\e[2K\\r    Command: /bin/true\\u202e.sh';

  it("list, doctor, run warnings and test's report escape control characters; --json keeps them exact", async () => {
    const home = makeHome();
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [EVIL] }));
    const env = baseEnv({ HERMES_HOME: home });
    const list = await runMain(['list'], { env });
    expect(list.stdout).toContain(`    - ${SHOWN} (timeout=60s, ✗ not approved)\n`);
    const doctor = await runMain(['doctor'], { env });
    expect(doctor.stdout).toContain(`  [pre_tool_call] ${SHOWN}\n`);
    const run = await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env });
    expect(run.stderr).toContain(`shell hook for pre_tool_call (${SHOWN}) is not approved — skipped.`);
    const test = await runMain(['test', 'pre_tool_call'], { stdin: PAYLOAD, env });
    expect(test.stdout).toContain(SHOWN);
    for (const out of [list.stdout, doctor.stdout, run.stderr, test.stdout, test.stderr]) {
      expect(out).not.toMatch(/[\u001b\r\u202e]/);
    }
    expect(JSON.parse((await runMain(['list', '--json'], { env })).stdout).hooks[0].command).toBe(EVIL);
  });

  it("an agent's answer (run --dialect) carries the message escaped: Codex's stderr, Claude's reason, Cursor's user_message", async () => {
    const home = makeHome();
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: EVIL, fail_closed: true }] }));
    const env = baseEnv({ HERMES_HOME: home });
    const reason = `hook ${SHOWN} awaits approval (not approved yet): tool calls it guards are blocked until it is approved — run `;
    const claudeIn = JSON.stringify({ session_id: 'x', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
    const codex = await runMain(['run', 'PreToolUse', '--dialect', 'codex'], { stdin: claudeIn, env });
    expect([codex.code, codex.stdout]).toEqual([2, '']);
    expect(codex.stderr.startsWith(reason)).toBe(true);
    const claude = await runMain(['run', 'PreToolUse', '--dialect', 'claude'], { stdin: claudeIn, env });
    expect(JSON.parse(claude.stdout).hookSpecificOutput.permissionDecisionReason.startsWith(reason)).toBe(true);
    const cursorIn = JSON.stringify({ conversation_id: 'k', hook_event_name: 'beforeShellExecution', command: 'ls', cwd: '/tmp' });
    const cursor = await runMain(['run', 'beforeShellExecution', '--dialect', 'cursor'], { stdin: cursorIn, env });
    expect(JSON.parse(cursor.stdout).user_message.startsWith(reason)).toBe(true);
    // Nothing raw on the wire, and no JSON escape of a raw ESC either (it would be decoded, then shown).
    for (const out of [codex.stderr, claude.stdout, claude.stderr, cursor.stdout]) expect(out).not.toMatch(/[\u001b\r\u202e]/);
    for (const out of [claude.stdout, cursor.stdout]) expect(out).not.toContain('\\u001b');
  });

  it('the consent prompt of a real engine shows the command escaped', async () => {
    const home = makeHome();
    const cwd = home; // a relative script is resolved against the config file's directory
    mkdirSync(join(cwd, 'x\u001b[2K'));
    writeScript(join(cwd, 'x\u001b[2K', 'h.sh'), '#!/bin/sh\n');
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: ['./x\u001b[2K/h.sh'] }));
    const asked: PromptInfo[] = [];
    const engine = await createHookEngine({
      home,
      cwd,
      env: baseEnv({ HERMES_HOME: home }),
      interactive: true,
      prompt: async (info) => (asked.push(info), false),
      logger: { warn: () => {} },
      exitCleanup: false,
    });
    await engine.close({ finalize: false });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.text).toContain(`    Command: '${home}/x\\e[2K/h.sh'\n`);
    expect(asked[0]!.text).toContain(`    Script:  ${cwd}/x\\e[2K/h.sh\n`);
    expect(asked[0]!.text).not.toContain('\u001b');
  });
});

// Issue 24 item 1: every file that decides what runs is trusted only when its owner could have
// written it (src/consent/trust.ts). Through the real CLI — in-process main, or the built binary
// as a second and third local user (setpriv, as root: CI runs as root) — with real files and real
// hook scripts: an untrusted config grants nothing (hooks_auto_accept, --accept-hooks and
// HERMES_ACCEPT_HOOKS are ignored for it, nothing is recorded), a fail_closed guard it configures
// still blocks, and run, test, doctor, validate and approve say so with the fix.

import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ATTACKER, cleanupUsers, ownedDir, ROOT, runAs, runBinAs, sharedScratch, VICTIM } from '../_as-user.js';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);
afterAll(cleanupUsers);

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /important' }, session_id: 's-1' });
const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
/** A hook that logs each run to <log>, then prints <answer>. */
const logging = (log: string, answer = '{}'): string => `#!/bin/sh\necho ran >>'${log}'\necho '${answer}'\n`;
const ALLOW = { event: 'pre_tool_call', action: 'allow', message: null, args: null, context: null, decided_by: null, modified_by: [], conflicts: [] };
const configLine = (config: string, why: string, fix: string, ignored: string): string =>
  `hermes-hooks: ${config}: warning: the config file ${config} is not trusted: ${why} — check what is there, then ${fix}. ` +
  `Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks)${ignored ? `; ignored: ${ignored}.` : '.'}\n`;
const skippedLine = (command: string): string =>
  `hermes-hooks: warning: shell hook for pre_tool_call (${command}) is not approved — skipped. Approve it with \`hermes-hooks approve --event pre_tool_call ${command}\` (its config file is not trusted, so nothing approves its hooks blindly).\n`;

/**
 * A home whose config.yaml another user can write: owned by uid 12345 as root (CI); mode 0666 when
 * not root (we cannot give a file away then). Returns how the config is judged, for the messages.
 */
function untrustedConfig(home: string, text: string): { why: string; fix: string } {
  const config = join(home, 'config.yaml');
  writeFileSync(config, text);
  if (ROOT) {
    chownSync(config, 12345, 12345);
    return { why: 'it is owned by uid 12345, not by you (uid 0)', fix: `run chown root '${config}'` };
  }
  chmodSync(config, 0o666);
  return { why: 'it is writable by group and others (mode 0666)', fix: `run chmod go-w '${config}'` };
}

describe('issue 24 item 1: a config.yaml someone else can write approves nothing', () => {
  it('as described, with a second and third user: another user’s config (0666, or theirs in a 0777 home) with hooks_auto_accept — `run pre_tool_call` as the victim does not run the script, records nothing, and says why', async () => {
    if (!ROOT) {
      // Without root there is no second user: the 0666 half of the attack, by ourselves.
      const home = makeHome();
      const log = join(tempDir(), 'ran.log');
      const evil = writeScript(join(tempDir(), 'evil.sh'), logging(log));
      const { why, fix } = untrustedConfig(home, hooksYaml({ pre_tool_call: [evil] }, 'hooks_auto_accept: true\n'));
      const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
      expect(r).toMatchObject({ code: 0, stdout: `${JSON.stringify(ALLOW)}\n` });
      expect(r.stderr).toBe(skippedLine(evil) + configLine(join(home, 'config.yaml'), why, fix, 'hooks_auto_accept: true'));
      expect(lines(log)).toEqual([]);
      expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
      return;
    }
    const base = sharedScratch();
    // The script itself passes the trust rule (root's, in root's 0755 directory): what is judged here
    // is the config. (An attacker's own script is refused on its own account: test/cli/trust-what-runs.test.ts.)
    const evilDir = ownedDir(join(base, 'scripts'), 0);
    const logDir = ownedDir(join(base, 'victim-log'), VICTIM, 0o700);
    const log = join(logDir, 'ran.log');
    const evil = join(evilDir, 'evil.sh');
    writeScript(evil, logging(log));
    const yaml = hooksYaml({ pre_tool_call: [evil] }, 'hooks_auto_accept: true\n');

    // (a) the victim's own config.yaml, left mode 0666 in a 0755 home; the attacker writes it.
    const a = ownedDir(join(base, 'a'), VICTIM, 0o755);
    runAs(VICTIM, ['sh', '-c', `umask 0; : > '${a}/config.yaml'; chmod 666 '${a}/config.yaml'`]);
    runAs(ATTACKER, ['sh', '-c', `cat > '${a}/config.yaml'`], { input: yaml });
    // (b) a 0777 home: the attacker creates config.yaml there, as their own file.
    const b = ownedDir(join(base, 'b'), VICTIM, 0o777);
    runAs(ATTACKER, ['sh', '-c', `cat > '${b}/config.yaml'`], { input: yaml });

    const ra = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', a], { stdin: PAYLOAD });
    expect(ra).toEqual({
      code: 0,
      stdout: `${JSON.stringify(ALLOW)}\n`,
      stderr:
        skippedLine(evil) +
        configLine(
          join(a, 'config.yaml'),
          'it is writable by group and others (mode 0666)',
          `run chmod go-w '${join(a, 'config.yaml')}'`,
          'hooks_auto_accept: true',
        ),
    });
    const rb = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', b], { stdin: PAYLOAD });
    expect(rb.code).toBe(0);
    expect(rb.stdout).toBe(`${JSON.stringify(ALLOW)}\n`);
    expect(rb.stderr).toContain(skippedLine(evil));
    expect(rb.stderr).toContain(
      `hermes-hooks: ${b}: warning: the profile home ${b} is not trusted: it is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${b}'. Nothing under it is trusted either`,
    );
    expect(rb.stderr).toContain(
      configLine(
        join(b, 'config.yaml'),
        `it is owned by uid ${ATTACKER}, not by you (uid ${VICTIM})`,
        `run sudo chown ${VICTIM} '${join(b, 'config.yaml')}'`,
        'hooks_auto_accept: true',
      ),
    );
    expect(lines(log)).toEqual([]);
    expect(existsSync(join(a, 'shell-hooks-allowlist.json'))).toBe(false);
    expect(existsSync(join(b, 'shell-hooks-allowlist.json'))).toBe(false);

    // The control: the same config as the victim's own 0644 file in their 0755 home auto-accepts.
    const c = ownedDir(join(base, 'c'), VICTIM, 0o755);
    runAs(VICTIM, ['sh', '-c', `cat > '${c}/config.yaml'`], { input: yaml });
    const rc = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', c], { stdin: PAYLOAD });
    expect(rc).toMatchObject({ code: 0, stderr: '' });
    expect(lines(log)).toEqual(['ran']);
    expect(existsSync(join(c, 'shell-hooks-allowlist.json'))).toBe(true);
  }, 120_000);

  it('--accept-hooks and HERMES_ACCEPT_HOOKS=1 do not approve an untrusted config’s hooks either; nothing is recorded', async () => {
    const home = makeHome();
    const log = join(tempDir(), 'ran.log');
    const hook = writeScript(join(tempDir(), 'h.sh'), logging(log));
    const { why, fix } = untrustedConfig(home, hooksYaml({ pre_tool_call: [hook] }));
    const flag = await runMain(['run', 'pre_tool_call', '--home', home, '--accept-hooks'], { stdin: PAYLOAD });
    expect(flag.stderr).toBe(skippedLine(hook) + configLine(join(home, 'config.yaml'), why, fix, '--accept-hooks'));
    const env = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD, env: baseEnv({ HERMES_ACCEPT_HOOKS: '1' }) });
    expect(env.stderr).toBe(skippedLine(hook) + configLine(join(home, 'config.yaml'), why, fix, 'HERMES_ACCEPT_HOOKS=1'));
    expect(lines(log)).toEqual([]);
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
  });

  it('a fail_closed guard it configures still blocks while unapproved (never vanishes); once you approve it by its command, it runs', async () => {
    const home = makeHome();
    const log = join(tempDir(), 'ran.log');
    const guard = writeScript(join(tempDir(), 'guard.sh'), logging(log, '{"action":"block","message":"guard says no"}'));
    const { why, fix } = untrustedConfig(home, hooksYaml({ pre_tool_call: [{ command: guard, fail_closed: true }] }, 'hooks_auto_accept: true\n'));
    const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
    expect(r.code).toBe(2);
    const awaiting =
      `hook ${guard} awaits approval (not approved yet): tool calls it guards are blocked until it is approved — ` +
      `run \`hermes-hooks approve --event pre_tool_call ${guard}\` (its config file is not trusted, so nothing approves its hooks blindly)`;
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: awaiting });
    expect(r.stderr).toBe(`hermes-hooks: warning: ${awaiting}\n` + configLine(join(home, 'config.yaml'), why, fix, 'hooks_auto_accept: true'));
    expect(lines(log)).toEqual([]);

    // `approve --all` would approve whatever another user wrote: refused. By its command: the user's choice.
    const all = await runMain(['approve', '--all', '--home', home]);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain(`hermes-hooks: approve: --all refused: the config file ${join(home, 'config.yaml')} is not trusted: ${why}`);
    expect(all.stderr).toContain("Fix that first, or review each hook and approve it by its command (hermes-hooks approve '<command>'). Nothing was approved.");
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
    const one = await runMain(['approve', guard, '--home', home]);
    expect(one.code).toBe(0);
    expect(one.stderr).toContain(`hermes-hooks: warning: the config file ${join(home, 'config.yaml')} is not trusted: ${why}`);
    const after = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
    expect(after.code).toBe(2);
    expect(JSON.parse(after.stdout)).toMatchObject({ action: 'block', message: 'guard says no' });
    expect(lines(log)).toEqual(['ran']);
  });

  it('`test` says it on stderr and in its report, and its production view says run would not run the hook', async () => {
    const home = makeHome();
    const hook = writeScript(join(tempDir(), 'h.sh'), logging(join(tempDir(), 'ran.log'), '{"action":"block","message":"no"}'));
    const { why } = untrustedConfig(home, hooksYaml({ pre_tool_call: [hook] }, 'hooks_auto_accept: true\n'));
    const r = await runMain(['test', 'pre_tool_call', '--home', home, '--json'], { stdin: PAYLOAD });
    expect(r.code).toBe(2); // the dry run runs it (consent reported, not enforced)
    const message = `the config file ${join(home, 'config.yaml')} is not trusted: ${why}`;
    expect(r.stderr).toContain(`hermes-hooks: warning: ${message}`);
    const report = JSON.parse(r.stdout);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ level: 'warning', file: join(home, 'config.yaml'), message: expect.stringContaining(message) }),
    );
    expect(report.production).toMatchObject({
      differs: true,
      decision: { action: 'allow' },
      not_run: [{ command: hook, reason: 'not_approved', effect: 'skipped' }],
    });
    const text = await runMain(['test', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
    expect(text.stdout).toContain(message);
  });

  it('a --config file others can write gets the same rule: the warning, and --accept-hooks does not approve its hooks', async () => {
    const home = makeHome();
    const repo = tempDir();
    const log = join(tempDir(), 'ran.log');
    const hook = writeScript(join(tempDir(), 'h.sh'), logging(log));
    const file = join(repo, 'config.yaml');
    writeFileSync(file, hooksYaml({ pre_tool_call: [hook] }));
    chmodSync(repo, 0o777);
    const r = await runMain(['run', 'pre_tool_call', '--home', home, '--config', file, '--accept-hooks'], { stdin: PAYLOAD });
    expect(r.stderr).toBe(
      skippedLine(hook) +
        `hermes-hooks: ${file}: warning: the config file ${file} is not trusted: the directory ${repo} on its path is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${repo}'. ` +
        'Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks); ignored: --accept-hooks.\n',
    );
    expect(lines(log)).toEqual([]);
    // The same file in a directory only we can write: --accept-hooks approves, as before.
    chmodSync(repo, 0o700);
    expect((await runMain(['run', 'pre_tool_call', '--home', home, '--config', file, '--accept-hooks'], { stdin: PAYLOAD })).stderr).toBe('');
    expect(lines(log)).toEqual(['ran']);
  });
});

describe('the profile home and the directories above it (sshd StrictModes)', () => {
  it('a 0777 home: run says so, doctor ✗ with the chmod that fixes it, validate warns', async () => {
    const home = makeHome(hooksYaml({ pre_tool_call: [] }));
    chmodSync(home, 0o777);
    const homeLine =
      `the profile home ${home} is not trusted: it is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${home}'. ` +
      'Nothing under it is trusted either: its allowlist approves nothing (a fail_closed guard blocks), its plugins/, gateway hooks/ and BOOT.md are not loaded, and a config.yaml in it grants nothing.';
    const run = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
    expect(run).toMatchObject({ code: 0, stderr: `hermes-hooks: ${home}: warning: ${homeLine}\n` });
    const doctor = await runMain(['doctor', '--home', home]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`  ✗ ${homeLine}\n`);
    expect(doctor.stdout).toContain('1 issue(s) found.');
    const json = JSON.parse((await runMain(['doctor', '--home', home, '--json'])).stdout);
    expect(json).toMatchObject({ healthy: false, untrusted: [{ what: 'profile home', path: home, message: homeLine }] });
    const validate = await runMain(['validate', '--home', home]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toBe(`${home}: warning: ${homeLine}\n${join(home, 'config.yaml')}: 1 problem(s)\n`);
    chmodSync(home, 0o755);
    expect((await runMain(['validate', '--home', home])).code).toBe(0);
    expect((await runMain(['doctor', '--home', home])).code).toBe(0);
  });

  it('a group-writable directory above the home is named, with its own fix', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o775);
    const home = join(parent, 'profile');
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [] }));
    const why = `the directory ${parent} on its path is writable by group (mode 0775) — check what is there, then run chmod go-w '${parent}'`;
    const doctor = await runMain(['doctor', '--home', home]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`  ✗ the profile home ${home} is not trusted: ${why}. Nothing under it is trusted either`);
    const validate = await runMain(['validate', '--home', home]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(`${home}: warning: the profile home ${home} is not trusted: ${why}.`);
  });

  it('a home under a root-owned sticky directory (as /tmp) is fine: hooks_auto_accept approves as before, nothing is said', async () => {
    // Root's own sticky 1777 directory stands for /tmp; as another user, /tmp itself.
    const sticky = ROOT ? mkdtempSync(join(tmpdir(), 'hh-sticky-')) : tmpdir();
    if (ROOT) chmodSync(sticky, 0o1777);
    const home = mkdtempSync(join(sticky, 'home-'));
    try {
      const log = join(home, 'ran.log');
      const hook = writeScript(join(home, 'h.sh'), logging(log));
      writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [hook] }, 'hooks_auto_accept: true\n'));
      const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(lines(log)).toEqual(['ran']);
      expect(readJson<{ approvals: unknown[] }>(join(home, 'shell-hooks-allowlist.json')).approvals).toHaveLength(1);
      expect((await runMain(['doctor', '--home', home])).stdout).not.toContain('not trusted');
    } finally {
      rmSync(ROOT ? sticky : home, { recursive: true, force: true });
    }
  });
});

describe('doctor judges every file of the profile that runs code without a per-command approval', () => {
  it('plugins/, hooks/, BOOT.md and the serve token file: each ✗ with its fix and what it costs', async () => {
    const home = makeHome(hooksYaml({ pre_tool_call: [] }));
    mkdirSync(join(home, 'plugins'), { mode: 0o777 });
    chmodSync(join(home, 'plugins'), 0o777);
    mkdirSync(join(home, 'hooks'));
    writeFileSync(join(home, 'BOOT.md'), 'check the cron jobs\n');
    chmodSync(join(home, 'BOOT.md'), 0o666);
    writeFileSync(join(home, 'hermes-hooks.token'), 'f'.repeat(64), { mode: 0o644 });
    let hooksWhy = `it is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${join(home, 'hooks')}'`;
    if (ROOT) {
      chownSync(join(home, 'hooks'), 12345, 12345);
      hooksWhy = `it is owned by uid 12345, not by you (uid 0) — check what is there, then run chown root '${join(home, 'hooks')}'`;
    } else {
      chmodSync(join(home, 'hooks'), 0o777);
    }
    const doctor = await runMain(['doctor', '--home', home]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `  ✗ the plugins directory ${join(home, 'plugins')} is not trusted: it is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${join(home, 'plugins')}'. No plugin is loaded from it.\n`,
    );
    expect(doctor.stdout).toContain(`  ✗ the gateway hooks directory ${join(home, 'hooks')} is not trusted: ${hooksWhy}. No gateway hook is loaded from it.\n`);
    expect(doctor.stdout).toContain(
      `  ✗ the BOOT.md ${join(home, 'BOOT.md')} is not trusted: it is writable by group and others (mode 0666) — check what is there, then run chmod go-w '${join(home, 'BOOT.md')}'. It is not run at gateway startup.\n`,
    );
    expect(doctor.stdout).toContain(
      `  ✗ the serve token file ${join(home, 'hermes-hooks.token')} is not trusted: it is readable by group and others (mode 0644) — check what is there, then run chmod 600 '${join(home, 'hermes-hooks.token')}'. serve --http refuses to start with it.\n`,
    );
    expect(doctor.stdout).toContain('4 issue(s) found.');
  });
});

describe('a symlinked allowlist (issue 20 item 5): written through to its target, or refused — never replaced', () => {
  it('approve, hooks_auto_accept at run, and revoke all write the target; the link stays a link', async () => {
    const home = makeHome();
    const log = join(tempDir(), 'ran.log');
    const a = writeScript(join(tempDir(), 'a.sh'), logging(log));
    const b = writeScript(join(tempDir(), 'b.sh'), logging(log));
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [a], post_tool_call: [b] }, 'hooks_auto_accept: true\n'));
    const dotfiles = tempDir();
    const target = join(dotfiles, 'allowlist.json');
    writeFileSync(target, '{"approvals": []}\n', { mode: 0o600 });
    const link = join(home, 'shell-hooks-allowlist.json');
    symlinkSync(target, link);
    const commands = (): string[] => readJson<{ approvals: { command: string }[] }>(target).approvals.map((x) => x.command);

    expect((await runMain(['approve', a, '--home', home])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(commands()).toEqual([a]);
    // hooks_auto_accept approves b at run: recorded in the target too.
    expect((await runMain(['run', 'post_tool_call', '--home', home], { stdin: PAYLOAD })).stderr).toBe('');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(commands()).toEqual([a, b]);
    expect((await runMain(['revoke', a, '--home', home])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(commands()).toEqual([b]);
  });

  it('a link whose target sits in a directory others can write: approve refuses with the reason, the target keeps its content', async () => {
    const home = makeHome();
    const a = writeScript(join(tempDir(), 'a.sh'), logging(join(tempDir(), 'ran.log')));
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [a] }));
    const shared = tempDir();
    chmodSync(shared, 0o777);
    const target = join(shared, 'allowlist.json');
    writeFileSync(target, '{"approvals": []}\n', { mode: 0o600 });
    const link = join(home, 'shell-hooks-allowlist.json');
    symlinkSync(target, link);
    const r = await runMain(['approve', a, '--home', home]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `hermes-hooks: approve: shell hook allowlist ${link} (a symlink to ${target}) is refused: the directory ${shared} on its path is writable by group and others (mode 0777), so no approval in it counts — check what is there, then run chmod go-w '${shared}'. Nothing was approved.`,
    );
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{"approvals": []}\n');
  });
});

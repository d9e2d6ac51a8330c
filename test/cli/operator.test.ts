// The operator commands in-process: list, doctor, validate, approve and revoke — their output,
// --json, exit codes and the config discovery options every one of them reads.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

interface Home {
  home: string;
  env: NodeJS.ProcessEnv;
  config: string;
  script: (name: string, body: string, mode?: number) => string;
  allowlist: () => { approvals: Record<string, unknown>[] };
}

function newHome(): Home {
  const home = makeHome();
  return {
    home,
    env: baseEnv({ HERMES_HOME: home }),
    config: join(home, 'config.yaml'),
    script: (name, body, mode) => writeScript(join(home, name), `#!/usr/bin/env bash\n${body}\n`, mode),
    allowlist: () => readJson(join(home, 'shell-hooks-allowlist.json')),
  };
}

describe('list', () => {
  it('with nothing configured says so, exit 0', async () => {
    const h = newHome();
    writeFileSync(h.config, 'hooks: {}\n');
    const r = await runMain(['list'], { env: h.env });
    expect(r).toEqual({ code: 0, stdout: `No shell hooks or outbound webhooks configured in ${h.config}.\n`, stderr: '' });
    const json = JSON.parse((await runMain(['list', '--json'], { env: h.env })).stdout);
    expect(json).toEqual({
      config: h.config,
      config_exists: true,
      home: h.home,
      profile: 'default',
      allowlist: { path: join(h.home, 'shell-hooks-allowlist.json'), refused: null },
      hooks: [],
      outbound: [],
      diagnostics: [],
    });
  });

  it('a home that was given but holds no config.yaml is said to have none', async () => {
    const h = newHome();
    const r = await runMain(['list'], { env: h.env });
    expect(r).toEqual({
      code: 0,
      stdout: `No config file at ${h.config}: the profile home ${h.home} (given by $HERMES_HOME) has no config.yaml, so no hooks are configured there.\n`,
      stderr: '',
    });
    const json = JSON.parse((await runMain(['list', '--json'], { env: h.env })).stdout);
    expect(json).toEqual({
      config: h.config,
      config_exists: false,
      home: h.home,
      profile: 'default',
      allowlist: { path: join(h.home, 'shell-hooks-allowlist.json'), refused: null },
      hooks: [],
      outbound: [],
      diagnostics: [],
    });
    // The implicit default without a config is a fresh install: no hooks yet.
    const env = baseEnv();
    const fresh = await runMain(['list'], { env });
    expect(fresh).toEqual({
      code: 0,
      stdout: `No config file at ${join(env.HOME as string, '.hermes', 'config.yaml')}: no hooks are configured.\n`,
      stderr: '',
    });
  });

  it('shows hooks per event in config order with matcher, timeout, fail_closed and consent', async () => {
    const h = newHome();
    const a = h.script('a.sh', 'true');
    const b = h.script('b.sh', 'true');
    const c = h.script('c.sh', 'true');
    writeFileSync(
      h.config,
      hooksYaml({
        pre_tool_call: [{ command: b, matcher: 'terminal', timeout: 5, fail_closed: true }, a],
        on_session_start: [c],
      }),
    );
    await runMain(['approve', a], { env: h.env });
    await runMain(['approve', c], { env: h.env });
    appendFileSync(c, '# edit\n');

    for (const cmd of ['list', 'ls']) {
      const r = await runMain([cmd], { env: h.env });
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe(`Configured shell hooks (3 total) in ${h.config}:`);
      expect(lines.filter((l) => /^ {2}\[/.test(l))).toEqual(['  [pre_tool_call]', '  [on_session_start]']);
      expect(r.stdout).toContain(`    - ${c} (timeout=60s, ✗ modified since approval)\n`);
      expect(r.stdout).toMatch(/ {6}⚠ modified since approval: .* — review it, then 'hermes-hooks approve' it again\n/);
      expect(r.stdout).toContain(
        `  [pre_tool_call]\n    - ${b} matcher='terminal' (timeout=5s, fail_closed, ✗ not approved)\n    - ${a} (timeout=60s, ✓ approved)\n      approved_at: `,
      );
      expect(r.stdout).not.toMatch(/\u001b\[/);
    }

    const json = JSON.parse((await runMain(['list', '--json'], { env: h.env })).stdout);
    expect(
      json.hooks.map((x: { event: string; index: number; command: string; consent: { state: string } }) => [x.event, x.index, x.command, x.consent.state]),
    ).toEqual([
      ['pre_tool_call', 0, b, 'not_approved'],
      ['pre_tool_call', 1, a, 'approved'],
      ['on_session_start', 0, c, 'modified'],
    ]);
    expect(json.hooks[0]).toMatchObject({ matcher: 'terminal', timeout: 5, fail_closed: true, dialect: 'hermes' });
    expect(json.hooks[1].consent).toMatchObject({ pinned: true, script_path: a, approved_at: expect.stringMatching(/Z$/) });
  });

  it('reports config diagnostics in --json and still exits 0', async () => {
    const h = newHome();
    writeFileSync(h.config, 'hooks:\n  pre_tool_call:\n    - command: /x.sh\n      timeout: 0\n');
    const r = await runMain(['list', '--json'], { env: h.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([
      expect.objectContaining({ level: 'warning', path: 'hooks.pre_tool_call[0].timeout', line: 4, column: 16 }),
    ]);
  });
});

describe('doctor', () => {
  it('checks each hook: runnable as configured, consent, and a smoke run only when approved', async () => {
    const h = newHome();
    const BLOCK = 'echo \'{"action":"block","message":"x"}\'';
    const noexec = h.script('noexec.sh', BLOCK, 0o644);
    const block = h.script('block.sh', `echo run >>"$HERMES_HOME/ran.log"\n${BLOCK}`);
    const slow = h.script('slow.sh', 'sleep 30');
    const nonjson = h.script('nonjson.sh', 'echo not json');
    const badInterp = writeScript(join(h.home, 'bad-interp.sh'), '#!/nonexistent/interpreter\n');
    const exits = h.script('exits.sh', 'echo broken >&2\nexit 3');
    const ctx = h.script('ctx.sh', 'echo \'{"context":"hi"}\'');
    const obj = h.script('obj.sh', 'echo \'{"note":"nothing to say"}\'');
    const quiet = h.script('quiet.sh', 'true');
    const unapproved = h.script('unapproved.sh', 'echo run >>"$HERMES_HOME/unapproved.log"');
    writeFileSync(
      h.config,
      hooksYaml({
        pre_tool_call: [noexec, `bash ${noexec}`, { command: slow, timeout: 1 }, block, exits],
        post_tool_call: [block, ctx, nonjson, badInterp, obj],
        pre_llm_call: [ctx, quiet, unapproved],
      }),
    );
    expect((await runMain(['approve', '--all'], { env: h.env })).code).toBe(0);
    await runMain(['revoke', unapproved], { env: h.env });

    const t0 = Date.now();
    // --smoke-all: the post_tool_call hooks below are observers, smoke-run only when asked.
    const r = await runMain(['doctor', '--json', '--smoke-all'], { env: h.env });
    // The 1 s hook was stopped at its timeout, not waited for (30 s).
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    type Check = { ok: boolean | null; message: string };
    const checks = (event: string, command: string): Check[] =>
      report.hooks.find((x: { event: string; command: string }) => x.event === event && x.command === command).checks;
    const verdicts = (event: string, command: string): (boolean | null)[] => checks(event, command).map((c) => c.ok);

    // Bare invocation needs the exec bit: no smoke run when it is missing.
    expect(checks('pre_tool_call', noexec)[0]).toEqual({ ok: false, message: `not executable: ${noexec} — run: chmod +x ${noexec}` });
    expect(verdicts('pre_tool_call', noexec)).toEqual([false, true, null]);
    // Interpreter-prefixed needs only read: runnable, and smoke-run.
    expect(checks('pre_tool_call', `bash ${noexec}`)[0]).toEqual({ ok: true, message: `script exists and is readable (${noexec})` });
    expect(checks('pre_tool_call', `bash ${noexec}`)[2]?.message).toMatch(/^answered \{"action":"block","message":"x"\} on the synthetic payload \(exit=0, /);
    expect(checks('pre_tool_call', slow)[2]).toEqual({ ok: false, message: 'timed out on the synthetic payload (timeout=1s)' });
    // A guard's own block of the synthetic call is reported, not counted: it may mean to block it.
    expect(verdicts('pre_tool_call', block)).toEqual([true, true, null]);
    expect(checks('pre_tool_call', block)[2]?.message).toMatch(
      /^answered \{"action":"block","message":"x"\} on the synthetic payload \(exit=0, [0-9.]+s\) — it blocks the synthetic call \(terminal \{"command":"echo hello"\}\); fine if it means to$/,
    );
    expect(checks('pre_tool_call', exits)[2]).toMatchObject({ ok: false, message: expect.stringMatching(/^exited 3 on the synthetic payload: broken /) });
    // Answers the event does not honour.
    expect(checks('post_tool_call', block)[2]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^answered 'block', which post_tool_call does not honour \(it honours: nothing — observer only\)/),
    });
    expect(checks('post_tool_call', ctx)[2]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^answered 'context', which post_tool_call does not honour/),
    });
    expect(checks('post_tool_call', nonjson)[2]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^stdout was not valid JSON \(exit=0, .*\): not json$/),
    });
    // A #! interpreter that does not exist is seen in the file: no smoke run is needed to say so.
    expect(checks('post_tool_call', badInterp)[0]).toEqual({
      ok: false,
      message: `the #! interpreter /nonexistent/interpreter of ${badInterp} does not exist — install it, or correct the #! line`,
    });
    expect(checks('post_tool_call', badInterp)[2]).toEqual({ ok: null, message: 'skipped smoke run — fix the problem above first, then re-run doctor' });
    expect(checks('post_tool_call', obj)[2]).toMatchObject({
      ok: null,
      message: expect.stringContaining('produced a JSON object with no directive post_tool_call reads'),
    });
    expect(checks('pre_llm_call', ctx)[2]).toMatchObject({ ok: true, message: expect.stringContaining('answered {"action":"context","context":"hi"}') });
    expect(checks('pre_llm_call', quiet)[2]).toMatchObject({ ok: true, message: expect.stringContaining('ran clean with empty stdout') });
    // Not approved: reported, and never run.
    expect(checks('pre_llm_call', unapproved)[1]).toMatchObject({ ok: false, message: expect.stringContaining('not approved — hook will NOT run') });
    expect(checks('pre_llm_call', unapproved)[2]).toEqual({ ok: null, message: 'skipped smoke run — approve the hook first, then re-run doctor' });
    expect(existsSync(join(h.home, 'unapproved.log'))).toBe(false);
    // block.sh ran once per approved, runnable entry (pre_tool_call and post_tool_call).
    expect(readFileSync(join(h.home, 'ran.log'), 'utf8')).toBe('run\nrun\n');

    expect(report.healthy).toBe(false);
    expect(report.issues).toBe(8);
    expect(report.config).toBe(h.config);

    const text = await runMain(['doctor', '--smoke-all'], { env: h.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      new RegExp(`^Checking 13 configured shell hook\\(s\\) in ${h.config.replace(/[.]/g, '\\.')}\\.\\.\\.\n\n {2}\\[pre_tool_call\\] `),
    );
    // An approved hook that cannot run is never told to get approved: it is told the fix.
    expect(text.stdout).toContain(`  [pre_tool_call] ${noexec}\n      ✗ not executable: ${noexec} — run: chmod +x ${noexec}\n      ✓ approved (`);
    expect(text.stdout).toContain(`)\n      ℹ skipped smoke run — fix the problem above first, then re-run doctor\n\n  [pre_tool_call] bash ${noexec}\n`);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('8 issue(s) found.  Fix before relying on these hooks.');
  });

  it('a hook modified since approval is a problem and is not smoke-run', async () => {
    const h = newHome();
    const s = h.script('s.sh', 'echo run >>"$HERMES_HOME/ran.log"');
    writeFileSync(h.config, hooksYaml({ pre_llm_call: [s] }));
    await runMain(['approve', s], { env: h.env });
    appendFileSync(s, '# edited\n');
    const r = await runMain(['doctor', '--json'], { env: h.env });
    expect(r.code).toBe(1);
    const [hook] = JSON.parse(r.stdout).hooks;
    expect(hook.checks[1]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^modified since approval: .* changed \(sha256 .* — review the script, then 'hermes-hooks approve' it again$/),
    });
    expect(hook.smoke).toBeNull();
    expect(existsSync(join(h.home, 'ran.log'))).toBe(false);
  });

  it('healthy hooks: exit 0', async () => {
    const h = newHome();
    const s = h.script('ctx.sh', 'echo \'{"context":"hello"}\'');
    writeFileSync(h.config, hooksYaml({ pre_llm_call: [s] }));
    await runMain(['approve', '--all'], { env: h.env });
    const r = await runMain(['doctor'], { env: h.env });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('All hooks look healthy.');
    const json = JSON.parse((await runMain(['doctor', '--json'], { env: h.env })).stdout);
    expect(json).toMatchObject({ healthy: true, issues: 0 });
    expect(json.hooks[0].smoke).toMatchObject({ status: 'ok', directive: { action: 'context', context: 'hello' } });
  });

  it('config problems count as issues; nothing configured has nothing to check', async () => {
    const h = newHome();
    writeFileSync(h.config, 'hooks: {}\n');
    expect(await runMain(['doctor'], { env: h.env })).toEqual({
      code: 0,
      stdout: `No shell hooks configured in ${h.config} — nothing to check.\nNothing to check.\n`,
      stderr: '',
    });
    writeFileSync(h.config, 'hooks:\n  pre_tool_cal:\n    - command: /x.sh\n');
    const r = await runMain(['doctor'], { env: h.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  ${h.config}:2:3: error: hooks.pre_tool_cal: unknown hook event 'pre_tool_cal'`);
    expect(r.stdout).toContain('1 issue(s) found.');
  });
});

describe('validate', () => {
  const BAD = `hooks:
  pre_tool_cal:
    - command: /x.sh
  pre_tool_call:
    - command: /y.sh
      timeout: 900
    - matcher: terminal
`;

  it('prints every diagnostic as file:line:column and exits 1 on any warning', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.yaml');
    writeFileSync(file, BAD);
    const r = await runMain(['validate', file], { env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      `${file}:2:3: error: hooks.pre_tool_cal: unknown hook event 'pre_tool_cal' in hooks: config — did you mean 'pre_tool_call'?`,
      `${file}:6:16: warning: hooks.pre_tool_call[0].timeout=900s exceeds max 300s; clamping`,
      `${file}:7:7: error: hooks.pre_tool_call[1] is missing a non-empty 'command' field`,
      // Read from the disk: the script does not exist.
      `${file}:5:16: warning: hooks.pre_tool_call[0].command: file not found: /y.sh — fix the path`,
      `${file}: 4 problem(s)`,
      '',
    ]);
    const json = JSON.parse((await runMain(['validate', file, '--json'], { env: baseEnv() })).stdout);
    expect(json).toMatchObject({ file, valid: false, hooks: 1 });
    expect(json.diagnostics.map((d: { line: number; column: number }) => [d.line, d.column])).toEqual([
      [2, 3],
      [6, 16],
      [7, 7],
      [5, 16],
    ]);
  });

  it('a home that was given without a config.yaml is an issue, never healthy; the implicit default is not', async () => {
    const h = newHome();
    const r = await runMain(['doctor'], { env: h.env });
    expect(r).toEqual({
      code: 1,
      stdout:
        `✗ No config file at ${h.config}: the profile home ${h.home} (given by $HERMES_HOME) has no config.yaml, so no hooks are configured there.\n` +
        '1 issue(s) found.  Fix before relying on these hooks.\n',
      stderr: '',
    });
    const json = JSON.parse((await runMain(['doctor', '--json'], { env: h.env })).stdout);
    expect(json).toMatchObject({ config: h.config, config_exists: false, healthy: false, issues: 1 });
    const env = baseEnv();
    const fresh = await runMain(['doctor'], { env });
    expect(fresh).toEqual({
      code: 0,
      stdout: `No config file at ${join(env.HOME as string, '.hermes', 'config.yaml')}: no hooks are configured.\nNothing to check.\n`,
      stderr: '',
    });
  });

  it('a YAML syntax error is an error with its position; a missing or unreadable file is an error', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'syntax.yaml'), 'hooks:\n  pre_tool_call: [\n');
    const syntax = await runMain(['validate', join(dir, 'syntax.yaml')], { env: baseEnv() });
    expect(syntax.code).toBe(1);
    expect(syntax.stdout).toMatch(new RegExp(`^${dir}/syntax\\.yaml:\\d+:\\d+: error: YAML syntax error: `));
    const missing = await runMain(['validate', join(dir, 'nope.yaml')], { env: baseEnv() });
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: config file not found: ${dir}/nope.yaml (given on the command line)\n` });
    const home = makeHome();
    const noConfig = await runMain(['validate', '--home', home], { env: baseEnv() });
    expect(noConfig).toEqual({ code: 1, stdout: `${home}/config.yaml: error: config file not found\n${home}/config.yaml: 1 problem(s)\n`, stderr: '' });
    mkdirSync(join(dir, 'adir.yaml'));
    const unreadable = await runMain(['validate', join(dir, 'adir.yaml'), '--json'], { env: baseEnv() });
    expect(unreadable.code).toBe(1);
    expect(JSON.parse(unreadable.stdout).diagnostics[0].message).toContain('it is a directory');
  });

  it('checks the other sections too (plugins, outbound)', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.yaml');
    writeFileSync(file, 'hooks:\n  outbound:\n    - url: 42\nplugins:\n  enabled: nope\n');
    const r = await runMain(['validate', file, '--json'], { env: baseEnv() });
    expect(r.code).toBe(1);
    const paths = JSON.parse(r.stdout).diagnostics.map((d: { path: string }) => d.path);
    expect(paths.some((p: string) => p.startsWith('hooks.outbound'))).toBe(true);
    expect(paths).toContain('plugins.enabled');
  });

  it('a clean config: exit 0 with a summary', async () => {
    const h = newHome();
    const a = writeScript(join(h.home, 'a.sh'), '#!/bin/sh\necho {}\n');
    const b = writeScript(join(h.home, 'b.sh'), '#!/bin/sh\necho {}\n');
    writeFileSync(h.config, hooksYaml({ pre_llm_call: [a, b] }));
    const r = await runMain(['validate'], { env: h.env });
    expect(r).toEqual({ code: 0, stdout: `${h.config}: ok (2 shell hook(s), 0 outbound target(s))\n`, stderr: '' });
    expect(JSON.parse((await runMain(['validate', '--json'], { env: h.env })).stdout)).toEqual({ file: h.config, valid: true, hooks: 2, diagnostics: [] });
  });
});

describe('approve', () => {
  function twoEvents(): Home & { a: string; b: string } {
    const h = newHome();
    const a = h.script('a.sh', 'true');
    const b = h.script('b.sh', 'true');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [a, b], post_tool_call: [a] }));
    return { ...h, a, b };
  }

  it('<command> approves every configured hook with that command and prints what it approved', async () => {
    const h = twoEvents();
    const r = await runMain(['approve', h.a], { env: h.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^Approved \\[pre_tool_call\\] ${h.a} {2}\\(sha256 [0-9a-f]{12}…\\)\nApproved \\[post_tool_call\\] ${h.a} {2}\\(sha256 [0-9a-f]{12}…\\)\n$`),
    );
    expect(h.allowlist().approvals.map((e) => [e.event, e.command])).toEqual([
      ['pre_tool_call', h.a],
      ['post_tool_call', h.a],
    ]);
  });

  it('is idempotent: approving again keeps one entry per (event, command)', async () => {
    const h = twoEvents();
    const first = await runMain(['approve', h.a], { env: h.env });
    const second = await runMain(['approve', h.a], { env: h.env });
    // The second changes nothing, and says so instead of "Approved" again (issue 20 item 7).
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      first.stdout.replace(
        /^Approved (\[\w+\] \S+) {2}\(sha256 ([0-9a-f]{12})…\)$/gm,
        (_m, what: string, sha: string) => `Already approved ${what}  (${h.allowlist().approvals[0]!.approved_at}, sha256 ${sha}… unchanged)`,
      ) + 'Nothing to do: all 2 are already approved and unchanged.\n',
    );
    const all = (await runMain(['approve', '--all'], { env: h.env })).stdout.split('\n').filter(Boolean);
    expect(all.filter((l) => l.startsWith('Approved '))).toHaveLength(1);
    expect(all.filter((l) => l.startsWith('Already approved '))).toHaveLength(2);
    expect(
      h
        .allowlist()
        .approvals.map((e) => `${e.event} ${e.command}`)
        .sort(),
    ).toEqual([`post_tool_call ${h.a}`, `pre_tool_call ${h.a}`, `pre_tool_call ${h.b}`]);
  });

  it('--event only narrows: a command not configured for that event is an error, never an approval of nothing', async () => {
    const h = twoEvents();
    expect((await runMain(['approve', h.a, '--event', 'post_tool_call'], { env: h.env })).stdout).toMatch(/^Approved \[post_tool_call\] \S+a\.sh {2}\(sha256 /);
    expect(h.allowlist().approvals).toHaveLength(1);
    const later = await runMain(['approve', '/opt/hooks/later.sh', '-e', 'pre_llm_call'], { env: h.env });
    expect(later).toEqual({
      code: 1,
      stdout: '',
      stderr: `hermes-hooks: approve: no configured hook matches '/opt/hooks/later.sh' in ${h.config} for pre_llm_call\nno shell hooks are configured there\nNothing was approved.\n`,
    });
    const wrongEvent = await runMain(['approve', h.b, '-e', 'post_tool_call'], { env: h.env });
    expect(wrongEvent.stderr).toBe(
      `hermes-hooks: approve: no configured hook matches '${h.b}' in ${h.config} for post_tool_call\nclosest configured commands: '${h.a}'\nNothing was approved.\n`,
    );
    expect(h.allowlist().approvals).toHaveLength(1);
  });

  it('--all [--event E] approves every configured hook (of E); --json lists them', async () => {
    const h = twoEvents();
    const r = await runMain(['approve', '--all', '--event', 'pre_tool_call', '--json'], { env: h.env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ persisted: true, warning: null });
    expect(out.approved.map((a: { event: string; command: string }) => `${a.event} ${a.command}`)).toEqual([`pre_tool_call ${h.a}`, `pre_tool_call ${h.b}`]);
  });

  it('errors (exit 1): nothing to approve, an unconfigured command without --event, an unknown event', async () => {
    const h = twoEvents();
    const none = await runMain(['approve'], { env: h.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('approve: give a <command> or --all');
    const unconfigured = await runMain(['approve', '/nope.sh'], { env: h.env });
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stderr).toBe(
      `hermes-hooks: approve: no configured hook matches '/nope.sh' in ${h.config}\nclosest configured commands: '${h.b}', '${h.a}'\nNothing was approved.\n`,
    );
    const badEvent = await runMain(['approve', h.a, '--event', 'pre_tool'], { env: h.env });
    expect(badEvent.code).toBe(1);
    expect(badEvent.stderr).toContain("Unknown event: 'pre_tool'");
    const empty = newHome();
    const nothing = await runMain(['approve', '--all'], { env: empty.env });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe(
      `hermes-hooks: approve: No config file at ${empty.config}: the profile home ${empty.home} (given by $HERMES_HOME) has no config.yaml, so no hooks are configured there.\n`,
    );
    writeFileSync(empty.config, 'hooks: {}\n');
    const noHooks = await runMain(['approve', '--all'], { env: empty.env });
    expect(noHooks).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: approve: no hooks configured in ${empty.config}\n` });
    expect(existsSync(join(h.home, 'shell-hooks-allowlist.json'))).toBe(false);
  });
});

describe('revoke', () => {
  it('removes every approval of the command, whatever the event, and prints the count', async () => {
    const h = newHome();
    const a = h.script('a.sh', 'true');
    const b = h.script('b.sh', 'true');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [a, b], post_tool_call: [a] }));
    await runMain(['approve', '--all'], { env: h.env });
    const r = await runMain(['revoke', a], { env: h.env });
    expect(r).toEqual({
      code: 0,
      stdout: `Removed 2 allowlist entries for: ${a}\nHosts already running see this at their next call: the hook stops running (a fail_closed guard blocks the calls it guards).\n`,
      stderr: '',
    });
    expect(h.allowlist().approvals.map((e) => e.command)).toEqual([b]);
    expect(await runMain(['revoke', a], { env: h.env })).toEqual({ code: 0, stdout: `No allowlist entry found for command: ${a}\n`, stderr: '' });
    expect(JSON.parse((await runMain(['revoke', b, '--json'], { env: h.env })).stdout)).toEqual({ command: b, removed: 1 });
    const missing = await runMain(['revoke'], { env: h.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('revoke: missing <command>');
  });
});

describe('every command reads the same discovery options', () => {
  function profiles(): { root: string; work: string; other: string; file: string; env: NodeJS.ProcessEnv; cmd: (home: string) => string } {
    const root = makeHome();
    const work = join(root, 'profiles', 'work');
    mkdirSync(work, { recursive: true });
    const other = makeHome();
    const fileDir = tempDir();
    const cmd = (home: string): string => writeScript(join(home, 'hook.sh'), '#!/usr/bin/env bash\necho \'{"context":"ok"}\'\n');
    for (const home of [root, work, other, fileDir]) writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_llm_call: [cmd(home)] }));
    const file = join(fileDir, 'config.yaml');
    return { root, work, other, file, env: baseEnv({ HERMES_HOME: root }), cmd: (home) => join(home, 'hook.sh') };
  }

  // --config names the file to read; the home (allowlist, HERMES_HOME) is never the file's directory.
  it.each([
    ['(none: $HERMES_HOME)', [], 'root', 'root'],
    ['--profile work', ['--profile', 'work'], 'work', 'work'],
    ['-p work', ['-p', 'work'], 'work', 'work'],
    ['--home', ['--home', '<other>'], 'other', 'other'],
    ['--config', ['--config', '<file>'], 'root', 'file'],
    ['-c', ['-c', '<file>'], 'root', 'file'],
    ['--config --home', ['--config', '<file>', '--home', '<other>'], 'other', 'file'],
    ['-c -p', ['-c', '<file>', '-p', 'work'], 'work', 'file'],
  ] as const)('%s', async (_name, rawArgs, which, configFrom) => {
    const p = profiles();
    const args = rawArgs.map((a) => (a === '<other>' ? p.other : a === '<file>' ? p.file : a));
    const dirOf = (w: string): string => (w === 'root' ? p.root : w === 'work' ? p.work : w === 'other' ? p.other : join(p.file, '..'));
    const home = dirOf(which);
    const config = join(dirOf(configFrom), 'config.yaml');
    const hook = p.cmd(dirOf(configFrom));

    const listed = JSON.parse((await runMain(['list', '--json', ...args], { env: p.env })).stdout);
    expect(listed).toMatchObject({ config, home, profile: which === 'work' ? 'work' : 'default' });
    expect(listed.hooks.map((x: { command: string }) => x.command)).toEqual([hook]);
    expect(JSON.parse((await runMain(['validate', '--json', ...args], { env: p.env })).stdout).file).toBe(config);

    const approved = await runMain(['approve', '--all', ...args], { env: p.env });
    expect(approved.stdout).toContain(`Approved [pre_llm_call] ${hook}`);
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(true);
    const doctor = JSON.parse((await runMain(['doctor', '--json', ...args], { env: p.env })).stdout);
    expect(doctor).toMatchObject({ config, healthy: true });
    const ran = JSON.parse((await runMain(['run', 'pre_llm_call', ...args], { env: p.env })).stdout);
    expect(ran).toMatchObject({ action: 'allow', context: 'ok' });
    expect(JSON.parse((await runMain(['revoke', hook, '--json', ...args], { env: p.env })).stdout)).toEqual({ command: hook, removed: 1 });

    // Nothing leaked into the other homes.
    for (const h of [p.root, p.work, p.other, join(p.file, '..')]) {
      if (h !== home) expect(existsSync(join(h, 'shell-hooks-allowlist.json')), h).toBe(false);
    }
  });
});

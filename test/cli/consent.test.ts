// Consent through the CLI, with real files and real hook processes: `run` honours consent and safe
// mode and never prompts; approve → edit the script → modified → not run (or blocking when
// fail_closed) → approve again → runs; Hermes-written allowlists are read and kept intact; and the
// engine's TTY prompt, driven through a tiny host under a real pseudo-terminal.

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIX, baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runMain, runUnderPty, sh, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf build' }, session_id: 's-1' });

interface Fixture {
  home: string;
  env: NodeJS.ProcessEnv;
  guard: string;
  allowlist: string;
  /** Lines the guard appended to ran.log: one per run. */
  runs: () => number;
}

/** A home whose config runs `<home>/guard.sh` on pre_tool_call; the guard blocks and logs each run. */
function guardHome(opts: { failClosed?: boolean; extraConfig?: string } = {}): Fixture {
  const home = makeHome();
  const guard = writeScript(
    join(home, 'guard.sh'),
    '#!/usr/bin/env bash\necho run >>"$HERMES_HOME/ran.log"\necho \'{"action":"block","message":"guard says no"}\'\n',
  );
  const entry = opts.failClosed ? { command: guard, fail_closed: true } : guard;
  writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [entry] }, opts.extraConfig ?? ''));
  const ranLog = join(home, 'ran.log');
  return {
    home,
    env: baseEnv({ HERMES_HOME: home }),
    guard,
    allowlist: join(home, 'shell-hooks-allowlist.json'),
    runs: () => (existsSync(ranLog) ? readFileSync(ranLog, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

const run = (f: Fixture, ...extra: string[]) => runMain(['run', 'pre_tool_call', ...extra], { stdin: PAYLOAD, env: f.env });
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('run: the production path', () => {
  it('prints only the Decision JSON on stdout; exit 2 when blocked', async () => {
    const f = guardHome();
    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    const r = await run(f);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({
      event: 'pre_tool_call',
      action: 'block',
      message: 'guard says no',
      args: null,
      context: null,
      decided_by: 0,
      modified_by: [],
      conflicts: [],
    });
  });

  it('exit 0 with the merged arguments when a hook modifies', async () => {
    const home = makeHome(hooksYaml({ pre_tool_call: [`${FIX}/hooks/modify.py`] }));
    const env = baseEnv({ HERMES_HOME: home });
    const r = await runMain(['run', 'pre_tool_call', '--accept-hooks'], { stdin: PAYLOAD, env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow', args: { command: 'echo would run: rm -rf build' }, modified_by: [0] });
  });

  it('exit 1 on errors, with nothing on stdout', async () => {
    const f = guardHome();
    for (const [argv, stdin, text] of [
      [['run', 'pre_tool_cal'], PAYLOAD, "did you mean 'pre_tool_call'"],
      [['run'], PAYLOAD, 'run: missing <event>'],
      [['run', 'pre_tool_call'], '{oops', 'invalid payload JSON'],
      [['run', 'pre_tool_call'], '[]', 'expected a JSON object'],
      [['run', 'pre_tool_call', '--dialect', 'vim'], PAYLOAD, "unknown dialect 'vim'"],
    ] as const) {
      const r = await runMain([...argv], { stdin, env: f.env });
      expect(r.code, text).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(text);
    }
    expect(f.runs()).toBe(0);
    // An unreadable config is an error too, never "no hooks, allow".
    const dir = join(f.home, 'broken');
    mkdirSync(join(dir, 'config.yaml'), { recursive: true });
    const unreadable = await runMain(['run', 'pre_tool_call', '--home', dir], { stdin: PAYLOAD, env: f.env });
    expect(unreadable).toEqual({
      code: 1,
      stdout: '',
      stderr: `hermes-hooks: cannot use config: ${join(dir, 'config.yaml')}: cannot read config file: it is a directory\n`,
    });
  });

  it('never prompts: an unapproved hook is skipped with the warning naming the fix (no prompt advice), even with a terminal on stdin', async () => {
    const f = guardHome();
    const r = await runMain(['run', 'pre_tool_call'], { stdinTTY: true, env: f.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).action).toBe('allow');
    expect(r.stderr).not.toContain('[y/N]');
    expect(r.stderr).toBe(
      `hermes-hooks: warning: shell hook for pre_tool_call (${f.guard}) is not approved — skipped. ` +
        `Approve it with \`hermes-hooks approve --event pre_tool_call ${f.guard}\`, or use --accept-hooks / ` +
        'HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true.\n',
    );
    expect(f.runs()).toBe(0);
    expect(existsSync(f.allowlist)).toBe(false);
  });

  it.each([
    ['--accept-hooks', ['--accept-hooks'], {}, ''],
    ['HERMES_ACCEPT_HOOKS=1', [], { HERMES_ACCEPT_HOOKS: '1' }, ''],
    ['hooks_auto_accept: true', [], {}, 'hooks_auto_accept: true\n'],
  ])('%s approves (records the approval with the script hash) and runs', async (_name, flags, env, extraConfig) => {
    const f = guardHome({ extraConfig });
    const r = await runMain(['run', 'pre_tool_call', ...flags], { stdin: PAYLOAD, env: { ...f.env, ...env } });
    expect(r.code).toBe(2);
    expect(f.runs()).toBe(1);
    expect(statSync(f.allowlist).mode & 0o777).toBe(0o600);
    const { approvals } = readJson<{ approvals: Record<string, unknown>[] }>(f.allowlist);
    expect(approvals).toEqual([
      {
        event: 'pre_tool_call',
        command: f.guard,
        approved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        script_mtime_at_approval: expect.stringMatching(/Z$/),
        script_path: f.guard,
        script_sha256: sha256(f.guard),
      },
    ]);
    // Approved now: the next run needs no flag.
    expect((await run(f)).code).toBe(2);
    expect(f.runs()).toBe(2);
  });

  it('HERMES_SAFE_MODE runs nothing, approved or not, and says so', async () => {
    const f = guardHome();
    await runMain(['approve', f.guard], { env: f.env });
    for (const value of ['1', 'true', ' Yes ']) {
      const r = await runMain(['run', 'pre_tool_call', '--accept-hooks'], { stdin: PAYLOAD, env: { ...f.env, HERMES_SAFE_MODE: value } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).action).toBe('allow');
      expect(r.stderr).toContain('HERMES_SAFE_MODE is set: user hooks do not run (1 shell hook(s) skipped)');
    }
    expect(f.runs()).toBe(0);
  });
});

describe('consent state transitions', () => {
  it('approve → edit the script → modified, not run → approve again → runs', async () => {
    const f = guardHome();
    const approved = await runMain(['approve', f.guard], { env: f.env });
    expect(approved.stdout).toBe(`Approved [pre_tool_call] ${f.guard}  (sha256 ${sha256(f.guard).slice(0, 12)}…)\n`);
    expect((await run(f)).code).toBe(2);
    expect(f.runs()).toBe(1);

    appendFileSync(f.guard, '# an edit\n');
    const listed = JSON.parse((await runMain(['list', '--json'], { env: f.env })).stdout);
    expect(listed.hooks[0].consent).toMatchObject({ state: 'modified', pinned: true, script_sha256: sha256(f.guard) });
    const skipped = await run(f);
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout).action).toBe('allow');
    expect(skipped.stderr).toContain(`shell hook for pre_tool_call (${f.guard}) was modified since approval — skipped: ${f.guard} changed (sha256 `);
    expect(f.runs()).toBe(1);
    // The dry run still runs it, and reports it modified.
    const dry = JSON.parse((await runMain(['test', 'pre_tool_call', '--json'], { stdin: PAYLOAD, env: f.env })).stdout);
    expect(dry.hooks[0]).toMatchObject({ consent: 'modified', status: 'ok' });
    expect(f.runs()).toBe(2);

    expect((await runMain(['approve', f.guard], { env: f.env })).code).toBe(0);
    expect(readJson<{ approvals: { script_sha256: string }[] }>(f.allowlist).approvals.map((a) => a.script_sha256)).toEqual([sha256(f.guard)]);
    const again = await run(f);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('');
    expect(f.runs()).toBe(3);
  });

  it('fail_closed: unapproved or modified, it blocks every call it matches without running, until approved', async () => {
    const f = guardHome({ failClosed: true });
    const unapproved = await run(f);
    expect(unapproved.code).toBe(2);
    expect(JSON.parse(unapproved.stdout)).toMatchObject({
      action: 'block',
      decided_by: 0,
      message: expect.stringContaining(`hook ${f.guard} awaits approval (not approved yet): tool calls it guards are blocked until it is approved`),
    });
    expect(f.runs()).toBe(0);

    await runMain(['approve', '--all'], { env: f.env });
    expect((await run(f)).code).toBe(2);
    expect(JSON.parse((await run(f)).stdout).message).toBe('guard says no');
    expect(f.runs()).toBe(2);

    // Edited into something that would allow: still blocks, because it is not the approved script.
    writeFileSync(f.guard, '#!/usr/bin/env bash\necho run >>"$HERMES_HOME/ran.log"\necho {}\n');
    const modified = await run(f);
    expect(modified.code).toBe(2);
    expect(JSON.parse(modified.stdout).message).toMatch(/awaits approval \(modified since approval: .*changed \(sha256 /);
    expect(f.runs()).toBe(2);

    await runMain(['approve', f.guard, '--event', 'pre_tool_call'], { env: f.env });
    const allowed = await run(f);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).action).toBe('allow');
    expect(f.runs()).toBe(3);
  });

  it('revoke takes the approval away again', async () => {
    const f = guardHome();
    await runMain(['approve', f.guard], { env: f.env });
    expect((await run(f)).code).toBe(2);
    const revoked = await runMain(['revoke', f.guard], { env: f.env });
    expect(revoked.stdout).toMatch(/^Removed 1 allowlist entry for: /);
    expect((await run(f)).code).toBe(0);
    expect(f.runs()).toBe(1);
  });
});

describe('an allowlist written by Hermes', () => {
  /** What Hermes writes: sorted keys, indent 2, no script hash; plus keys we do not know. */
  function hermesAllowlist(guard: string): string {
    const doc = {
      approvals: [
        {
          approved_at: '2025-05-01T12:00:00.123456Z',
          command: guard,
          event: 'pre_tool_call',
          note: 'approved by ops',
          script_mtime_at_approval: '2025-04-30T09:00:00Z',
        },
        { approved_at: '2025-05-02T00:00:00Z', command: 'python3 ~/hooks/start.py', event: 'on_session_start', script_mtime_at_approval: null },
      ],
      meta: { a: 'café', b: [3, 2, 1] },
      version: 1,
    };
    // Python's json.dumps(indent=2, sort_keys=True) escapes non-ASCII.
    return `${JSON.stringify(doc, null, 2).replace('café', 'caf\\u00e9')}\n`;
  }

  it('approves by (event, command) without a hash, runs the hook, and list/doctor/test call it exactly unpinned', async () => {
    const f = guardHome();
    const text = hermesAllowlist(f.guard);
    writeFileSync(f.allowlist, text, { mode: 0o600 });
    const r = await run(f);
    expect(r.code).toBe(2);
    expect(f.runs()).toBe(1);
    const listed = JSON.parse((await runMain(['list', '--json'], { env: f.env })).stdout);
    expect(listed.hooks[0].consent).toMatchObject({ state: 'unpinned', pinned: false, approved_at: '2025-05-01T12:00:00.123456Z', approved_sha256: null });
    const human = (await runMain(['list'], { env: f.env })).stdout;
    expect(human).toContain(
      `    - ${f.guard} (timeout=60s, unpinned)\n      approved_at: 2025-05-01T12:00:00.123456Z  (no hash: approved by Hermes or by hand — re-approve to pin)\n`,
    );
    // The script was written after the approval's script_mtime_at_approval: Hermes' rule calls it modified.
    const doctored = (await runMain(['doctor'], { env: f.env })).stdout;
    expect(doctored).toContain(
      '✗ unpinned (approved 2025-05-01T12:00:00.123456Z without a script hash, by Hermes or by hand: it runs whatever the file holds), and the script modified since approval (was 2025-04-30T09:00:00Z, now ',
    );
    expect(doctored).toContain(') — review the changes, then re-approve to pin it');
    expect(doctored).not.toContain('All hooks look healthy');
    // The same approval of an untouched script (its mtime is the one recorded): unpinned, unchanged.
    utimesSync(f.guard, new Date('2025-04-30T09:00:00Z'), new Date('2025-04-30T09:00:00Z'));
    expect((await runMain(['doctor'], { env: f.env })).stdout).toContain(
      'ℹ unpinned (approved 2025-05-01T12:00:00.123456Z without a script hash, by Hermes or by hand: it runs whatever the file holds), script unchanged since approval (mtime) — re-approve to pin it',
    );
    const tested = JSON.parse((await runMain(['test', 'pre_tool_call', '--json'], { stdin: PAYLOAD, env: f.env })).stdout);
    expect(tested.hooks[0].consent).toBe('unpinned');
    expect((await runMain(['test', 'pre_tool_call'], { stdin: PAYLOAD, env: f.env })).stdout).toContain(`${f.guard} [unpinned]`);
    // Reading never rewrites the file.
    expect(readFileSync(f.allowlist, 'utf8')).toBe(text);
  });

  it('our writes keep every Hermes entry, unknown key and the format intact', async () => {
    const f = guardHome();
    const other = writeScript(join(f.home, 'other.sh'), '#!/usr/bin/env bash\necho "{}"\n');
    writeFileSync(join(f.home, 'config.yaml'), hooksYaml({ pre_tool_call: [f.guard], post_tool_call: [other] }));
    writeFileSync(f.allowlist, hermesAllowlist(f.guard), { mode: 0o600 });
    const before = readJson<{ approvals: unknown[]; meta: unknown; version: number }>(f.allowlist);

    expect((await runMain(['approve', other], { env: f.env })).code).toBe(0);
    const text = readFileSync(f.allowlist, 'utf8');
    const after = readJson<{ approvals: Record<string, unknown>[]; meta: unknown; version: number }>(f.allowlist);
    expect(after.meta).toEqual(before.meta);
    expect(after.version).toBe(1);
    expect(after.approvals.slice(0, 2)).toEqual(before.approvals);
    expect(after.approvals[2]).toMatchObject({ event: 'post_tool_call', command: other, script_sha256: sha256(other) });
    // Still Python's json.dumps(indent=2, sort_keys=True) format, so Hermes reads and rewrites it alike.
    expect(text).toContain('"a": "caf\\u00e9"');
    expect(text).toBe(`${JSON.stringify(sortDeep(after), null, 2).replace('café', 'caf\\u00e9')}\n`);
    expect(statSync(f.allowlist).mode & 0o777).toBe(0o600);

    // Revoking our entry leaves Hermes' alone.
    expect((await runMain(['revoke', other], { env: f.env })).stdout).toMatch(/^Removed 1 allowlist entry/);
    expect(readJson<{ approvals: unknown[] }>(f.allowlist).approvals).toEqual(before.approvals);
  });
});

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
  );
}

describe('the TTY consent prompt, through a host under a real pseudo-terminal', () => {
  const QUESTION = 'Allow this hook to run? [y/N]: ';
  const host = (home: string): string => `exec ${[process.execPath, join(FIX, 'tty-host.mjs'), home].map(sh).join(' ')}`;
  const result = (output: string): { tty: boolean; statuses: string[]; decision: string; message: string | null; warnings: string[] } => {
    const m = /RESULT (\{.*\})$/m.exec(output);
    if (!m) throw new Error(`no RESULT line:\n${output}`);
    return JSON.parse(m[1] as string);
  };

  it('y approves and runs; the next start asks nothing; after an edit it asks again, saying MODIFIED', async () => {
    const f = guardHome();

    const first = await runUnderPty(host(f.home), { env: f.env, waitFor: QUESTION, input: 'y\n' });
    expect(first.output).toContain(`    Event:   pre_tool_call\n    Command: ${f.guard}\n    Script:  ${f.guard}\n    SHA-256: ${sha256(f.guard)}\n`);
    expect(result(first.output)).toEqual({ tty: true, statuses: ['ok'], decision: 'block', message: 'guard says no', warnings: [] });
    expect(readJson<{ approvals: { script_sha256: string }[] }>(f.allowlist).approvals[0]?.script_sha256).toBe(sha256(f.guard));

    // Approved: no question (nothing is typed, so a question would hang until the kill).
    const second = await runUnderPty(host(f.home), { env: f.env, killAfterMs: 30_000 });
    expect(second.output).not.toContain(QUESTION);
    expect(result(second.output).statuses).toEqual(['ok']);
    expect(f.runs()).toBe(2);

    appendFileSync(f.guard, '# edited\n');
    const declined = await runUnderPty(host(f.home), { env: f.env, waitFor: QUESTION, input: 'n\n' });
    expect(declined.output).toContain('It was approved before, but it has been MODIFIED since:');
    const no = result(declined.output);
    expect(no).toMatchObject({ tty: true, statuses: ['skipped'], decision: 'allow' });
    expect(no.warnings.join('\n')).toContain('was modified since approval — skipped');
    expect(f.runs()).toBe(2);

    const yes = await runUnderPty(host(f.home), { env: f.env, waitFor: QUESTION, input: 'yes\n' });
    expect(result(yes.output)).toMatchObject({ statuses: ['ok'], decision: 'block' });
    expect(readJson<{ approvals: { script_sha256: string }[] }>(f.allowlist).approvals.map((a) => a.script_sha256)).toEqual([sha256(f.guard)]);
    expect(f.runs()).toBe(3);
  }, 120_000);

  it('a fail_closed hook declined at the prompt blocks instead of vanishing', async () => {
    const f = guardHome({ failClosed: true });
    const r = await runUnderPty(host(f.home), { env: f.env, waitFor: QUESTION, input: '\n' });
    const out = result(r.output);
    expect(out).toMatchObject({ tty: true, statuses: ['awaiting_approval'], decision: 'block' });
    expect(out.message).toContain('awaits approval (not approved yet)');
    expect(f.runs()).toBe(0);
    expect(existsSync(f.allowlist)).toBe(false);
  }, 60_000);
});

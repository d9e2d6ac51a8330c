// `hermes-hooks test <event>` in-process through main(argv, io): stdin handling, matchers, the
// --json report (validated against the published schema), exit codes, discovery options and the
// human-readable report. Every hook is a real process.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failClosedMessage, FAIL_CLOSED_REASON } from '../../src/directives/messages.js';
import { ANSI, HOOKS, ROOT, baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validateReport = ajv.compile(readJson<object>(join(ROOT, 'protocol/test-report.schema.json')));

function expectValidReport(report: unknown): void {
  const ok = validateReport(report);
  expect(validateReport.errors ?? [], JSON.stringify(validateReport.errors)).toEqual([]);
  expect(ok).toBe(true);
}

const rec = (tag: string, stdout?: string): string => `${HOOKS}/record.sh ${tag}${stdout === undefined ? '' : ` '${stdout}'`}`;
const BLOCK = '{"action":"block","message":"blocked by the fixture"}';
const WIRE_KEYS = ['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'cwd', 'profile', 'extra'];

/** A home with the given hooks, and the env that points HERMES_HOME at it. */
function setup(hooks: Parameters<typeof hooksYaml>[0], tail = ''): { home: string; env: NodeJS.ProcessEnv } {
  const home = makeHome(hooksYaml(hooks, tail));
  return { home, env: baseEnv({ HERMES_HOME: home }) };
}

const seen = (home: string, tag: string): Record<string, unknown> => readJson(join(home, `seen-${tag}.json`));

interface ReportHook {
  kind: string;
  status: string;
  consent: string | null;
  [key: string]: unknown;
}
/** The shell hooks of a report (pre_/post_tool_call also list the built-in tool-loop guardrail last). */
const shellHooks = (report: { hooks: ReportHook[] }): ReportHook[] => report.hooks.filter((h) => h.kind === 'shell');
const statuses = (report: { hooks: ReportHook[] }): string[] => shellHooks(report).map((h) => h.status);

describe('stdin: the payload', () => {
  it('a partial wire payload is completed, and every hook gets exactly what the report shows', async () => {
    const { home, env } = setup({ pre_tool_call: [rec('a'), rec('b')] });
    const stdin = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls -la' } });
    const r = await runMain(['test', 'pre_tool_call', '--json'], { stdin, env, cwd: home });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const a = seen(home, 'a');
    expect(Object.keys(a)).toEqual(WIRE_KEYS);
    expect(a).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'ls -la' },
      session_id: '',
      cwd: home,
      profile: 'default',
      extra: {},
    });
    expect(seen(home, 'b')).toEqual(a);
    expect(report.payload).toEqual(a);
  });

  it('keeps the given session_id, cwd, profile and extra; unknown keys go to extra with a diagnostic', async () => {
    const { home, env } = setup({ pre_tool_call: [rec('a')] });
    const stdin = JSON.stringify({
      hook_event_name: 'post_tool_call',
      tool_name: 'write_file',
      tool_input: { path: '.env' },
      session_id: 'sess-42',
      cwd: '/srv/project',
      profile: 'work',
      extra: { task_id: 't-1' },
      surprise: true,
    });
    const r = await runMain(['test', 'pre_tool_call', '--json'], { stdin, env });
    const report = JSON.parse(r.stdout);
    expect(seen(home, 'a')).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'write_file',
      tool_input: { path: '.env' },
      session_id: 'sess-42',
      cwd: '/srv/project',
      profile: 'work',
      extra: { task_id: 't-1', surprise: true },
    });
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ level: 'warning', path: 'hook_event_name', file: '<stdin>', message: expect.stringContaining("using 'pre_tool_call'") }),
      expect.objectContaining({ level: 'warning', path: 'surprise', file: '<stdin>', message: expect.stringContaining('extra.surprise') }),
    ]);
    expectValidReport(report);
  });

  it.each([
    ['empty', ''],
    ['blank', ' \n\t\n'],
  ])('%s stdin → the synthetic payload of the event', async (_name, stdin) => {
    const { home, env } = setup({ pre_tool_call: [rec('a')] });
    const r = await runMain(['test', 'pre_tool_call', '--json'], { stdin, env, cwd: home });
    expect(r.code).toBe(0);
    expect(seen(home, 'a')).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'echo hello' },
      session_id: 'test-session',
      cwd: home,
      profile: 'default',
      extra: { task_id: 'test-task', tool_call_id: 'test-call' },
    });
  });

  it('a terminal on stdin is never read (the stream never ends): synthetic payload, no hang', async () => {
    const { home, env } = setup({ pre_llm_call: [rec('a')] });
    const r = await runMain(['test', 'pre_llm_call'], { stdinTTY: true, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(synthetic payload)');
    expect(seen(home, 'a')).toMatchObject({
      hook_event_name: 'pre_llm_call',
      tool_name: null,
      tool_input: null,
      session_id: 'test-session',
      extra: { user_message: 'What is the weather?', is_first_turn: true, model: 'gpt-4', platform: 'cli' },
    });
  });

  it('invalid JSON, or JSON that is not an object, is an error (exit 1) and runs nothing', async () => {
    const { home, env } = setup({ pre_tool_call: [rec('a')] });
    const bad = await runMain(['test', 'pre_tool_call', '--json'], { stdin: '{"tool_name": ', env });
    expect(bad.code).toBe(1);
    // With --json the error is JSON on stdout too; the human line stays on stderr.
    expect(JSON.parse(bad.stdout)).toEqual({ error: 'invalid payload JSON on stdin: Unexpected end of JSON input', exit_code: 1 });
    expect(bad.stderr).toBe('hermes-hooks: invalid payload JSON on stdin: Unexpected end of JSON input\n');
    for (const [text, kind] of [
      ['[1,2]', 'an array'],
      ['null', 'null'],
      ['"x"', 'string'],
    ]) {
      const r = await runMain(['test', 'pre_tool_call'], { stdin: text, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`expected a JSON object, got ${kind}`);
    }
    expect(existsSync(join(home, 'ran.log'))).toBe(false);
  });
});

describe('matchers', () => {
  const hooks = {
    pre_tool_call: [{ command: rec('term'), matcher: 'terminal' }, { command: rec('files'), matcher: 'write_file|patch' }, rec('all')],
  };

  it("apply to the payload's tool_name", async () => {
    const { home, env } = setup(hooks);
    const r = await runMain(['test', 'pre_tool_call', '--json'], { stdin: '{"tool_name":"patch","tool_input":{}}', env });
    const report = JSON.parse(r.stdout);
    expect(statuses(report)).toEqual(['not_matched', 'ok', 'ok']);
    expect(report.hooks[0]).toMatchObject({ matcher: 'terminal', exit_code: null, directive: null });
    expect(readFileSync(join(home, 'ran.log'), 'utf8').split('\n').sort()).toEqual(['', 'all', 'files']);
  });

  it("--for-tool overrides the payload's tool: matchers test it and the hooks are told it (as Hermes does)", async () => {
    const { home, env } = setup(hooks);
    const r = await runMain(['test', 'pre_tool_call', '--json', '--for-tool', 'terminal'], {
      stdin: '{"tool_name":"patch","tool_input":{}}',
      env,
    });
    const report = JSON.parse(r.stdout);
    expect(statuses(report)).toEqual(['ok', 'not_matched', 'ok']);
    expect(seen(home, 'term').tool_name).toBe('terminal');
    expect(report.payload.tool_name).toBe('terminal');
  });

  it('on the synthetic payload the matchers see its tool, terminal', async () => {
    const { env } = setup(hooks);
    const r = await runMain(['test', 'pre_tool_call', '--json'], { env });
    expect(statuses(JSON.parse(r.stdout))).toEqual(['ok', 'not_matched', 'ok']);
  });
});

describe('--json', () => {
  it('prints exactly one object with the documented shape', async () => {
    const { home, env } = setup({
      pre_tool_call: [
        { command: `${HOOKS}/modify.py`, matcher: 'terminal', timeout: 9 },
        { command: rec('b', BLOCK), fail_closed: true },
      ],
    });
    const r = await runMain(['test', 'pre_tool_call', '--json'], { stdin: '{"tool_name":"terminal","tool_input":{"command":"make"}}', env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('}\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(['event', 'payload', 'hooks', 'decision', 'production', 'diagnostics']);
    expect(report.event).toBe('pre_tool_call');
    // The built-in tool-loop guardrail is resolved after the shell hooks; it said nothing here, so
    // the report does not list it.
    expect(report.hooks.map((h: ReportHook) => h.kind)).toEqual(['shell', 'shell']);
    const [modify, block] = report.hooks;
    for (const h of report.hooks) {
      for (const key of [
        'index',
        'command',
        'matcher',
        'timeout',
        'fail_closed',
        'consent',
        'status',
        'exit_code',
        'signal',
        'duration_ms',
        'stdout',
        'stderr',
        'error',
        'warning',
        'directive',
      ]) {
        expect(h, key).toHaveProperty(key);
      }
    }
    expect(modify).toMatchObject({
      index: 0,
      command: `${HOOKS}/modify.py`,
      matcher: 'terminal',
      timeout: 9,
      fail_closed: false,
      consent: 'not_approved',
      status: 'ok',
      exit_code: 0,
      signal: null,
      stderr: '',
      error: null,
      directive: { action: 'modify', args: { command: 'echo would run: make' } },
    });
    expect(modify.duration_ms).toBeGreaterThan(0);
    expect(block).toMatchObject({ index: 1, matcher: null, timeout: 60, fail_closed: true, stdout: `${BLOCK}\n` });
    expect(report.decision).toMatchObject({
      action: 'block',
      message: 'blocked by the fixture',
      decided_by: 1,
      // A block carries no arguments: the call does not happen.
      modified_by: [],
      conflicts: [],
      args: null,
      context: null,
    });
    expect(report.diagnostics).toEqual([]);
    // Neither hook is approved: `run` would skip the modify and let the fail_closed guard block
    // without running it — the same action, another message, and the report says so.
    expect(report.production).toMatchObject({
      decision: {
        action: 'block',
        decided_by: 1,
        message: expect.stringMatching(
          /^hook \S+record\.sh b '.*' awaits approval \(not approved yet\): tool calls it guards are blocked until it is approved/,
        ),
      },
      differs: true,
      safe_mode: false,
      not_run: [
        { index: 0, command: `${HOOKS}/modify.py`, reason: 'not_approved', effect: 'skipped' },
        { index: 1, command: rec('b', BLOCK), reason: 'not_approved', effect: 'blocks' },
      ],
    });
    expect(report.production.why).toBe(
      `\`hermes-hooks run\` would BLOCK too, but differently: #0 (${HOOKS}/modify.py) is not approved: it is skipped; ` +
        `#1 (${rec('b', BLOCK)}) is not approved and fail_closed: it blocks every call it matches without running — approve with \`hermes-hooks approve\``,
    );
    expectValidReport(report);
    void home;
  });

  it('reports config diagnostics with path, line and column, and validates', async () => {
    const yaml = `hooks:\n  pre_tool_call:\n    - command: ${HOOKS}/record.sh a\n      timeout: 999\n  pre_tool_cal:\n    - command: /x.sh\n`;
    const home = makeHome(yaml);
    const r = await runMain(['test', 'pre_tool_call', '--json', '--home', home], { env: baseEnv() });
    const report = JSON.parse(r.stdout);
    expect(report.hooks[0].timeout).toBe(300);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ level: 'warning', path: 'hooks.pre_tool_call[0].timeout', line: 4, column: 16 }),
      expect.objectContaining({
        level: 'error',
        path: 'hooks.pre_tool_cal',
        line: 5,
        column: 3,
        message: expect.stringContaining("did you mean 'pre_tool_call'"),
      }),
    ]);
    expectValidReport(report);
  });

  it.each([
    ['pre_llm_call', { pre_llm_call: [rec('a', '{"context":"one"}'), rec('b', '{"context":"two"}')] }, 'allow'],
    ['pre_verify', { pre_verify: [rec('a', '{"action":"continue","message":"run the tests"}')] }, 'continue'],
    ['on_session_finalize', { on_session_finalize: [rec('a', '{"message":"bye"}')] }, 'allow'],
    ['post_tool_call', { post_tool_call: [`${HOOKS}/exit2.sh`, `${HOOKS}/nonjson.sh`, '/nonexistent/hook.sh'] }, 'allow'],
    ['pre_tool_call', { pre_tool_call: [{ command: `${HOOKS}/sleep.sh 30`, timeout: 1, fail_closed: true }] }, 'block'],
  ])('%s: the report validates against protocol/test-report.schema.json', async (event, hooks, action) => {
    const { env } = setup(hooks);
    const r = await runMain(['test', event, '--json'], { env });
    const report = JSON.parse(r.stdout);
    expectValidReport(report);
    expect(report.decision.action).toBe(action);
    expect(r.code).toBe(action === 'block' ? 2 : 0);
    if (event === 'pre_llm_call') expect(report.decision.context).toBe('one\n\ntwo');
    if (event === 'on_session_finalize') expect(report.decision.notifications).toEqual(['bye']);
    if (event === 'post_tool_call') {
      expect(statuses(report)).toEqual(['nonzero_exit', 'ok', 'launch_failed']);
      expect(report.hooks[2].error).toBe('command not found: /nonexistent/hook.sh (no such file)');
    }
    if (event === 'pre_tool_call') {
      expect(report.hooks[0]).toMatchObject({ status: 'timeout', exit_code: null, signal: 'SIGTERM' });
      expect(report.decision.message).toBe(failClosedMessage(`${HOOKS}/sleep.sh 30`, FAIL_CLOSED_REASON.timedOut(1)));
    }
  });
});

describe('exit codes', () => {
  it('0 when nothing blocks, 2 when a hook blocks by stdout or by exit 2', async () => {
    const { env } = setup({ pre_tool_call: [rec('a', '{"action":"approve","message":"ask"}')] });
    expect((await runMain(['test', 'pre_tool_call'], { env })).code).toBe(0);
    const byStdout = setup({ pre_tool_call: [rec('a', BLOCK)] });
    expect((await runMain(['test', 'pre_tool_call'], { env: byStdout.env })).code).toBe(2);
    const byExit = setup({ pre_tool_call: [`${HOOKS}/exit2.sh`] });
    const r = await runMain(['test', 'pre_tool_call', '--json'], { env: byExit.env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).decision.message).toBe('exit2.sh: refusing pre_tool_call');
  });

  it('exit 2 from a hook does not block a non-blocking event', async () => {
    const { env } = setup({ post_tool_call: [`${HOOKS}/exit2.sh`] });
    expect((await runMain(['test', 'post_tool_call'], { env })).code).toBe(0);
  });

  it('1 for an unknown event, with a did-you-mean or the list of events', async () => {
    const { env } = setup({ pre_tool_call: [rec('a')] });
    const typo = await runMain(['test', 'pre_tool_cal'], { env });
    expect(typo).toMatchObject({ code: 1, stdout: '' });
    expect(typo.stderr).toBe("hermes-hooks: Unknown event: 'pre_tool_cal' — did you mean 'pre_tool_call'?\n");
    const bogus = await runMain(['test', 'zzz', '--json'], { env });
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/Valid events: agent_loop_stopped, .*pre_tool_call/);
  });

  it('1 for an unreadable config', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'config.yaml'));
    const r = await runMain(['test', 'pre_tool_call', '--home', dir], { env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`hermes-hooks: cannot use config: ${join(dir, 'config.yaml')}: cannot read config file: it is a directory\n`);
  });

  it('1 for a missing event, an extra argument or an unknown option', async () => {
    const env = baseEnv({ HERMES_HOME: makeHome() });
    const missing = await runMain(['test'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('test: missing <event>');
    const extra = await runMain(['test', 'pre_tool_call', 'post_tool_call'], { env });
    expect(extra.code).toBe(1);
    expect(extra.stderr).toContain("unexpected argument 'post_tool_call'");
    const flag = await runMain(['test', 'pre_tool_call', '--tool', 'x'], { env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("Unknown option '--tool'");
  });

  it('a profile with no config is not an error: no hooks, exit 0', async () => {
    const env = baseEnv({ HERMES_HOME: makeHome() });
    const r = await runMain(['test', 'pre_tool_call'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No hooks configured for event: pre_tool_call');
    expect(r.stdout).toContain('Decision: ALLOW');
  });
});

describe('consent is reported, not enforced', () => {
  it('runs unapproved, approved and modified hooks alike and writes no approval', async () => {
    const { home, env } = setup({ pre_tool_call: [] });
    const script = (n: string): string => writeScript(join(home, `${n}.sh`), `#!/usr/bin/env bash\necho ${n} >>"$HERMES_HOME/ran.log"\n`);
    const [a, b, c] = [script('approved'), script('modified'), script('new')];
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [a, b, c] }));
    for (const cmd of [a, b]) expect((await runMain(['approve', cmd], { env })).code).toBe(0);
    writeFileSync(b, '#!/usr/bin/env bash\necho modified >>"$HERMES_HOME/ran.log"\n# edited\n');
    const allowlist = readFileSync(join(home, 'shell-hooks-allowlist.json'), 'utf8');

    const r = await runMain(['test', 'pre_tool_call', '--json'], { env });
    const report = JSON.parse(r.stdout);
    expect(shellHooks(report).map((h) => [h.consent, h.status])).toEqual([
      ['approved', 'ok'],
      ['modified', 'ok'],
      ['not_approved', 'ok'],
    ]);
    expect(readFileSync(join(home, 'ran.log'), 'utf8').split('\n').sort()).toEqual(['', 'approved', 'modified', 'new']);
    expect(readFileSync(join(home, 'shell-hooks-allowlist.json'), 'utf8')).toBe(allowlist);
    const text = await runMain(['test', 'pre_tool_call'], { env });
    expect(text.stdout).toContain('[approved]');
    expect(text.stdout).toContain('[modified]');
    expect(text.stdout).toContain('[not approved]');
  });
});

describe('config discovery', () => {
  const hooks = (tag: string): string => hooksYaml({ pre_llm_call: [rec(tag, `{"context":"from ${tag}"}`)] });

  it('home: --profile › --home › $HERMES_HOME; --config only names the file to read', async () => {
    const root = makeHome(hooks('root'));
    const profileHome = join(root, 'profiles', 'work');
    mkdirSync(profileHome, { recursive: true });
    writeFileSync(join(profileHome, 'config.yaml'), hooks('work'));
    const other = makeHome(hooks('other'));
    const file = join(tempDir(), 'custom.yaml');
    writeFileSync(file, hooks('file'));
    const env = baseEnv({ HERMES_HOME: root });
    const context = async (...args: string[]): Promise<[string, string]> => {
      const r = await runMain(['test', 'pre_llm_call', '--json', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout);
      return [report.decision.context, report.payload.profile];
    };
    expect(await context()).toEqual(['from root', 'default']);
    expect(await context('--home', other)).toEqual(['from other', 'default']);
    expect(await context('--profile', 'work')).toEqual(['from work', 'work']);
    expect(await context('-p', 'work', '--home', other)).toEqual(['from work', 'work']);
    // Hooks get the profile home as HERMES_HOME: record.sh wrote its stdin there.
    expect(existsSync(join(profileHome, 'seen-work.json'))).toBe(true);
    expect(await context('--config', file, '--home', other)).toEqual(['from file', 'default']);
    // The home (allowlist, HERMES_HOME) is --home's, never the config file's directory.
    expect(existsSync(join(other, 'seen-file.json'))).toBe(true);
    expect(existsSync(join(dirname(file), 'seen-file.json'))).toBe(false);
    rmSync(join(other, 'seen-file.json'));
    expect(await context('-c', file, '-p', 'work')).toEqual(['from file', 'work']);
    expect(existsSync(join(profileHome, 'seen-file.json'))).toBe(true);
    expect(await context('-c', file)).toEqual(['from file', 'default']);
    expect(existsSync(join(root, 'seen-file.json'))).toBe(true);
    expect(existsSync(join(other, 'seen-file.json'))).toBe(false);
  });

  it('without $HERMES_HOME it is ~/.hermes', async () => {
    const env = baseEnv();
    const dotHermes = join(env.HOME as string, '.hermes');
    mkdirSync(dotHermes);
    writeFileSync(join(dotHermes, 'config.yaml'), hooks('dot'));
    const r = await runMain(['test', 'pre_llm_call', '--json'], { env });
    expect(JSON.parse(r.stdout).decision.context).toBe('from dot');
  });

  it('an invalid profile name is an error', async () => {
    const r = await runMain(['test', 'pre_llm_call', '--profile', '../x'], { env: baseEnv({ HERMES_HOME: makeHome() }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid profile name');
  });
});

describe('the readable report', () => {
  it('shows each hook with status, exit, duration, timeline, trimmed output and directive, then the decision and diagnostics', async () => {
    const long = 'y'.repeat(600);
    const yaml = hooksYaml({
      pre_tool_call: [
        { command: rec('a', BLOCK), matcher: 'terminal' },
        { command: `${HOOKS}/nonjson.sh`, matcher: 'terminal' },
        { command: rec('c'), matcher: 'write_file' },
        { command: `${HOOKS}/record.sh d ${long}`, timeout: 999 },
      ],
    });
    const home = makeHome(yaml);
    const r = await runMain(['test', 'pre_tool_call', '--config', join(home, 'config.yaml'), '--home', home], { env: baseEnv(), cwd: home });
    expect(r.code).toBe(2);
    const out = r.stdout;
    expect(out).not.toMatch(ANSI);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`hermes-hooks test pre_tool_call  config ${join(home, 'config.yaml')} (profile default)`);
    expect(lines[1]).toBe('payload: tool_name="terminal"  session_id="test-session"  (synthetic payload)');
    const row = (n: number): string => lines.find((l) => l.startsWith(`  #${n} `)) ?? '';
    expect(row(0)).toMatch(/^ {2}#0 ✓ ok +exit 0 +\d+\.\d ms +\|[ █]{24}\| {2}\S+record\.sh a '\{.*\}' \[not approved\]$/);
    // Non-JSON stdout is a problem, never a clean ✓ ok.
    expect(row(1)).toMatch(/^ {2}#1 ! unreadable stdout +exit 0 +\d+\.\d ms +\|[ █]*█[ █]*\|/);
    expect(row(2)).toMatch(/^ {2}#2 · not matched {2,}\S+record\.sh c \[not approved\]$/);
    expect(out).toContain("      matcher 'write_file' did not match");
    expect(out).toContain(`      stdout: ${BLOCK}\n      directive: {"action":"block","message":"blocked by the fixture"}`);
    expect(out).toContain(
      '      warning: stdout is not valid JSON, so it was ignored: "this is not json"\n' +
        '      stdout: this is not json\n      stderr: a warning on stderr\n      directive: none — contributed nothing',
    );
    // Output is trimmed to 400 characters.
    expect(out).toContain(`      stdout: ${'y'.repeat(397)}...\n`);
    expect(out).toContain('Decision: BLOCK by #0 (');
    expect(out).toContain('  message: blocked by the fixture');
    expect(out).toMatch(/\nDiagnostics:\n {2}\S+config\.yaml:\d+:\d+: warning: hooks\.pre_tool_call\[3\]\.timeout=\d+s exceeds max 300s/);
  });

  it('the timeline bar shows hooks that ran at the same time side by side', async () => {
    const { env } = setup({ pre_tool_call: [`${HOOKS}/sleep.sh 2`, `${HOOKS}/sleep.sh 2.0`, rec('quick')] });
    const r = await runMain(['test', 'pre_tool_call'], { env });
    const bars = r.stdout
      .split('\n')
      .filter((l) => /^ {2}#\d /.test(l))
      .map((l) => /\|([ █]{24})\|/.exec(l)?.[1] ?? '');
    expect(bars).toHaveLength(3);
    // Both sleepers span most of the emit: they overlapped instead of running one after the other
    // (run in turn, each would fill at most half the bar).
    for (const bar of bars.slice(0, 2)) expect(bar.replace(/ /g, '').length).toBeGreaterThanOrEqual(16);
  });

  it('shows the decision details: modified args, context, notifications', async () => {
    const modify = setup({ pre_tool_call: [`${HOOKS}/modify.py`] });
    const m = await runMain(['test', 'pre_tool_call'], { env: modify.env });
    expect(m.stdout).toContain('Decision: ALLOW');
    expect(m.stdout).toContain('  args: {"command":"echo would run: echo hello"}  (modified by #0)');
    const ctx = setup({ pre_llm_call: [rec('a', '{"context":"remember the milk"}')] });
    expect((await runMain(['test', 'pre_llm_call'], { env: ctx.env })).stdout).toContain('  context: remember the milk');
    const fin = setup({ on_session_finalize: [rec('a', '{"message":"see you"}')] });
    expect((await runMain(['test', 'on_session_finalize'], { env: fin.env })).stdout).toContain('  notifications: "see you"');
  });

  it('colour only on a terminal, and never with NO_COLOR', async () => {
    const { home } = setup({ pre_tool_call: [rec('a', BLOCK)] });
    const env = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => baseEnv({ HERMES_HOME: home, ...extra });
    const tty = await runMain(['test', 'pre_tool_call'], { env: env(), stdoutTTY: true });
    expect(tty.stdout).toMatch(ANSI);
    expect(tty.stdout).toContain('\u001b[31mBLOCK\u001b[39m');
    const noColor = await runMain(['test', 'pre_tool_call'], { env: env({ NO_COLOR: '1' }), stdoutTTY: true });
    expect(noColor.stdout).not.toMatch(ANSI);
    expect(noColor.stdout).toContain('Decision: BLOCK by #0');
    const piped = await runMain(['test', 'pre_tool_call'], { env: env() });
    expect(piped.stdout).not.toMatch(ANSI);
    // --json is never coloured.
    const json = await runMain(['test', 'pre_tool_call', '--json'], { env: env(), stdoutTTY: true });
    expect(json.stdout).not.toMatch(ANSI);
    JSON.parse(json.stdout);
  });
});

describe('help and version', () => {
  it('test --help prints usage with examples on stdout and exits 0', async () => {
    const r = await runMain(['test', '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: hermes-hooks test <event> \[--for-tool NAME\] \[--json\]/);
    expect(r.stdout).toContain('Examples:\n  hermes-hooks test pre_tool_call < ');
    expect(r.stdout).toContain('Exit: 0 not blocked, 2 blocked, 1 error');
  });

  it('--help / help list every command with examples; no command prints it on stderr with exit 1', async () => {
    for (const arg of ['--help', '-h', 'help']) {
      const r = await runMain([arg]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      for (const cmd of ['test <event>', 'run <event>', 'list', 'doctor', 'validate [FILE]', 'approve [CMD]', 'revoke <CMD>']) {
        expect(r.stdout).toContain(`  ${cmd}`);
      }
    }
    const none = await runMain([]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('Usage:\n  hermes-hooks <command> [options]');
  });

  it('--version prints the package version', async () => {
    const { version } = readJson<{ version: string }>(join(ROOT, 'package.json'));
    for (const arg of ['--version', '-v', '-V']) expect(await runMain([arg])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('an unknown command is exit 1 naming it', async () => {
    const r = await runMain(['tset']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe("hermes-hooks: unknown command 'tset'. Run 'hermes-hooks --help'.\n");
  });

  it.each(['run', 'list', 'doctor', 'validate', 'approve', 'revoke'])('%s --help exits 0 with a usage line', async (cmd) => {
    const r = await runMain([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: hermes-hooks ${cmd}`));
  });
});

// Where the config and the profile home come from, and the mistakes a user makes with them, through
// main(argv, io) in-process: a location given that does not exist is an error for every command
// (never "no hooks, allow"), a broken config is an error naming file:line:col, --config never
// brings its own allowlist or hooks_auto_accept, no profile directory is created as a side effect,
// global options work before the command and --json errors are JSON.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigLocationError } from '../../src/config/locate.js';
import { createHookEngine } from '../../src/engine/create-engine.js';
import { ROOT, baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf build' }, session_id: 's-1' });
const CLAUDE = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });

/** A Claude Code settings.json to import, written fresh for each test. */
function importFile(): string {
  const file = join(tempDir('hh-import-'), 'settings.json');
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/x.sh' }] }] } }));
  return file;
}

/** Every command that reads a profile, as a user types it (discovery options appended by the caller). */
function commands(): [string, string[], string][] {
  return [
    ['test', ['test', 'pre_tool_call'], PAYLOAD],
    ['run', ['run', 'pre_tool_call'], PAYLOAD],
    ['run --dialect', ['run', 'PreToolUse', '--dialect', 'claude'], CLAUDE],
    ['list', ['list'], ''],
    ['doctor', ['doctor'], ''],
    ['validate', ['validate'], ''],
    ['approve', ['approve', '--all'], ''],
    ['revoke', ['revoke', '/x.sh'], ''],
    ['import', ['import', '<settings.json>'], ''],
    ['print-config', ['print-config', 'claude'], ''],
  ];
}

/** A guard home: `<home>/guard.sh` blocks every pre_tool_call and logs its runs to `<home>/ran.log`. */
function guardHome(): { home: string; guard: string; runs: () => number } {
  const home = makeHome();
  const guard = writeScript(join(home, 'guard.sh'), '#!/usr/bin/env bash\necho run >>"$HERMES_HOME/ran.log"\necho \'{"action":"block","message":"no"}\'\n');
  writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [guard] }));
  const log = join(home, 'ran.log');
  return { home, guard, runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0) };
}

/**
 * How a command fails on a problem that keeps hermes-hooks from deciding: exit 1 naming it — except
 * `run --dialect`, which answers the agent with a block naming it (an agent reads exit 1 as "go ahead").
 */
function failure(argv: string[], message: string): { code: number; stdout: string; stderr: string } {
  if (!argv.includes('--dialect')) return { code: 1, stdout: '', stderr: `hermes-hooks: ${message}\n` };
  const reason = `hermes-hooks cannot decide, so it blocks this call: ${message} (fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide)`;
  return {
    code: 0,
    stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
    stderr: `hermes-hooks: ${message}\n`,
  };
}

describe('a location that was given but does not exist is an error for every command', () => {
  it.each(commands())('%s', async (_name, rawArgv, stdin) => {
    const argv = rawArgv.map((a) => (a === '<settings.json>' ? importFile() : a));
    const dir = tempDir();
    const root = makeHome();
    mkdirSync(join(root, 'profiles', 'a'), { recursive: true });
    mkdirSync(join(root, 'profiles', 'b'));
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [['--config', join(dir, 'nope.yaml')], baseEnv(), `config file not found: ${join(dir, 'nope.yaml')} (given by --config)`],
      [['-c', join(dir, 'nope.yaml')], baseEnv(), `config file not found: ${join(dir, 'nope.yaml')} (given by --config)`],
      [
        ['--profile', 'ghost'],
        baseEnv({ HERMES_HOME: root }),
        `profile 'ghost' not found: ${join(root, 'profiles', 'ghost')} does not exist (profiles here: a, b)`,
      ],
      [['--home', join(dir, 'nope')], baseEnv(), `profile home not found: ${join(dir, 'nope')} does not exist (given by --home)`],
      [[], baseEnv({ HERMES_HOME: join(dir, 'nope') }), `profile home not found: ${join(dir, 'nope')} does not exist (given by $HERMES_HOME)`],
      [['--config', ''], baseEnv(), '--config is empty: give the path of a config file, or leave the option out to use the profile home'],
      [['--home', ''], baseEnv(), '--home is empty: give a profile home directory, or leave the option out'],
      [['--profile', ''], baseEnv(), '--profile is empty: give a profile name (a directory under <root>/profiles), or leave the option out'],
    ];
    for (const [extra, env, message] of cases) {
      const r = await runMain([...argv, ...extra], { stdin, env });
      expect(r, `${argv.join(' ')} ${extra.join(' ')}`).toEqual(failure(argv, message));
    }
    // Nothing was created on the way: no profile directory, no home.
    expect(readdirSync(join(root, 'profiles')).sort()).toEqual(['a', 'b']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--profile names where it looked when there are no profiles at all', async () => {
    const root = makeHome();
    const r = await runMain(['list', '--profile', 'ghost'], { env: baseEnv({ HERMES_HOME: root }) });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `hermes-hooks: profile 'ghost' not found: ${join(root, 'profiles', 'ghost')} does not exist (there are no profiles in ${join(root, 'profiles')})\n`,
    });
  });

  it('a --home that is a file is not a home', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const r = await runMain(['run', 'pre_tool_call', '--home', file], { stdin: PAYLOAD, env: baseEnv() });
    expect(r).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: profile home not found: ${file} is not a directory (given by --home)\n` });
  });

  it('the implicit default (~/.hermes absent) is "no hooks": run allows, saying on stderr that nothing checked the call', async () => {
    const env = baseEnv();
    const ran = await runMain(['run', 'pre_tool_call'], { stdin: PAYLOAD, env });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ action: 'allow' });
    const file = join(env.HOME as string, '.hermes', 'config.yaml');
    expect(ran.stderr).toBe(`hermes-hooks: warning: No config file at ${file}: no hooks are configured. The call is allowed unchecked.\n`);
    expect(existsSync(join(env.HOME as string, '.hermes'))).toBe(false);
  });

  it('a given home without config.yaml runs no hooks, and run, list, doctor and validate say there is none', async () => {
    const home = makeHome();
    const env = baseEnv();
    const ran = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD, env });
    const note = `No config file at ${join(home, 'config.yaml')}: the profile home ${home} (given by --home) has no config.yaml, so no hooks are configured there.`;
    expect(ran).toMatchObject({ code: 0, stderr: `hermes-hooks: warning: ${note} The call is allowed unchecked.\n` });
    expect(JSON.parse(ran.stdout)).toMatchObject({ action: 'allow' });
    // The same through an agent's dialect: the agent gets its allow, the person reading stderr the reason.
    const claude = await runMain(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], {
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }),
      env,
    });
    expect(claude.code).toBe(0);
    expect(claude.stderr).toContain(`${note} The call is allowed unchecked.`);
    expect(await runMain(['list', '--home', home], { env })).toEqual({ code: 0, stdout: `${note}\n`, stderr: '' });
    const doctor = await runMain(['doctor', '--home', home], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).not.toContain('healthy');
    expect(doctor.stdout).toBe(`✗ ${note}\n1 issue(s) found.  Fix before relying on these hooks.\n`);
    const validate = await runMain(['validate', '--home', home], { env });
    expect(validate).toEqual({ code: 1, stdout: `${home}/config.yaml: error: config file not found\n${home}/config.yaml: 1 problem(s)\n`, stderr: '' });
  });
});

describe('a config that cannot be read or parsed is an error naming file:line:col for every command', () => {
  const BROKEN = 'hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n';

  it.each(commands().filter(([name]) => name !== 'validate'))('%s', async (_name, rawArgv, stdin) => {
    const argv = rawArgv.map((a) => (a === '<settings.json>' ? importFile() : a));
    const home = makeHome(BROKEN);
    const file = join(home, 'config.yaml');
    const r = await runMain([...argv, '--home', home], { stdin, env: baseEnv() });
    const syntax = new RegExp(`^hermes-hooks: (cannot use config: ${file}:4:\\d+: YAML syntax error: .+)\\n$`).exec(r.stderr);
    expect(syntax, r.stderr).not.toBeNull();
    expect(r).toEqual(failure(argv, syntax?.[1] as string));

    const dirAsConfig = tempDir();
    mkdirSync(join(dirAsConfig, 'config.yaml'));
    const d = await runMain([...argv, '--config', join(dirAsConfig, 'config.yaml')], { stdin, env: baseEnv() });
    expect(d).toEqual(failure(argv, `cannot use config: ${join(dirAsConfig, 'config.yaml')}: cannot read config file: it is a directory`));
  });

  it('validate lists the problem with its position, once', async () => {
    const home = makeHome(BROKEN);
    const r = await runMain(['validate', '--home', home], { env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^${home}/config\\.yaml:4:\\d+: error: YAML syntax error: [^\\n]+\\n${home}/config\\.yaml: 1 problem\\(s\\)\\n$`));
    const dir = tempDir();
    mkdirSync(join(dir, 'config.yaml'));
    const d = await runMain(['validate', join(dir, 'config.yaml')], { env: baseEnv() });
    // The path is said once per line, not repeated inside the message.
    expect(d.stdout.split('\n')[0]).toBe(`${dir}/config.yaml: error: cannot read config file: it is a directory`);
  });
});

describe('the allowlist belongs to the profile home, never to the --config file', () => {
  it("a repository's config and its own allowlist approve nothing", async () => {
    const repo = guardHome();
    // The repository ships an allowlist approving its own hook, with the right hash.
    const self = makeHome();
    expect((await runMain(['approve', repo.guard, '--home', repo.home], { env: baseEnv() })).code).toBe(0);
    const shipped = readJson<{ approvals: unknown[] }>(join(repo.home, 'shell-hooks-allowlist.json'));
    expect(shipped.approvals).toHaveLength(1);

    const env = baseEnv({ HERMES_HOME: self });
    const r = await runMain(['run', 'pre_tool_call', '--config', join(repo.home, 'config.yaml')], { stdin: PAYLOAD, env });
    expect(repo.runs()).toBe(0);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow' });
    expect(r.stderr).toContain(`not approved`);
    // list says so, reading the user's allowlist.
    const listed = JSON.parse((await runMain(['list', '--json', '--config', join(repo.home, 'config.yaml')], { env })).stdout);
    expect(listed).toMatchObject({ config: join(repo.home, 'config.yaml'), home: self });
    expect(listed.hooks.map((h: { consent: { state: string } }) => h.consent.state)).toEqual(['not_approved']);

    // Approving with --config writes the user's allowlist; then the hook runs.
    expect((await runMain(['approve', '--all', '--config', join(repo.home, 'config.yaml')], { env })).code).toBe(0);
    expect(readJson<{ approvals: { command: string }[] }>(join(self, 'shell-hooks-allowlist.json')).approvals.map((a) => a.command)).toEqual([repo.guard]);
    const after = await runMain(['run', 'pre_tool_call', '--config', join(repo.home, 'config.yaml')], { stdin: PAYLOAD, env });
    expect(after.code).toBe(2);
    // HERMES_HOME for the hook is the profile home, not the config's directory.
    expect(existsSync(join(self, 'ran.log'))).toBe(true);
  });

  it('hooks_auto_accept in a --config file is ignored with a warning at the key; in the profile config it approves', async () => {
    const repo = guardHome();
    writeFileSync(join(repo.home, 'config.yaml'), `hooks_auto_accept: true\n${hooksYaml({ pre_tool_call: [repo.guard] })}`);
    const self = makeHome();
    const env = baseEnv({ HERMES_HOME: self });
    const config = join(repo.home, 'config.yaml');
    const r = await runMain(['run', 'pre_tool_call', '--config', config], { stdin: PAYLOAD, env });
    expect(r.code).toBe(0);
    expect(repo.runs()).toBe(0);
    expect(existsSync(join(self, 'shell-hooks-allowlist.json'))).toBe(false);
    const why =
      `ignored here: it is honoured only in the profile's own config ${join(self, 'config.yaml')}, not in a config given ` +
      "with --config; approve these hooks with 'hermes-hooks approve' (they do not run until approved)";
    expect(r.stderr).toContain(`${config}:1:1: hooks_auto_accept ${why}`);
    const v = await runMain(['validate', '--json', '--config', config], { env });
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).diagnostics).toEqual([{ level: 'warning', path: 'hooks_auto_accept', line: 1, column: 1, message: why, file: config }]);
    const text = await runMain(['validate', '--config', config], { env });
    // The key is said once per line.
    expect(text.stdout.split('\n')[0]).toBe(`${config}:1:1: warning: hooks_auto_accept: ${why}`);

    // The same file as the profile's own config.yaml: honoured.
    const own = await runMain(['run', 'pre_tool_call', '--home', repo.home], { stdin: PAYLOAD, env: baseEnv() });
    expect(own.code).toBe(2);
    expect(repo.runs()).toBe(1);
    const byPath = await runMain(['validate', '--config', config, '--home', repo.home], { env: baseEnv() });
    expect(byPath.code).toBe(0);
    // Reached through a symlink, it is still the profile's own file.
    const link = join(tempDir(), 'link.yaml');
    symlinkSync(config, link);
    const byLink = await runMain(['validate', '--config', link, '--home', repo.home], { env: baseEnv() });
    expect(byLink).toEqual({ code: 0, stdout: `${link}: ok (1 shell hook(s), 0 outbound target(s))\n`, stderr: '' });
  });
});

describe('no command creates a profile directory as a side effect', () => {
  it('approve and revoke with a missing --profile fail before writing anything', async () => {
    const root = makeHome();
    const env = baseEnv({ HERMES_HOME: root });
    for (const argv of [
      ['approve', '/x.sh', '--event', 'pre_tool_call'],
      ['revoke', '/x.sh'],
      ['approve', '--all'],
    ]) {
      const r = await runMain([...argv, '--profile', 'ghost'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`profile 'ghost' not found: ${join(root, 'profiles', 'ghost')} does not exist`);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('the first approval with the implicit default creates ~/.hermes', async () => {
    const env = baseEnv();
    const repo = guardHome();
    const r = await runMain(['approve', '--all', '--config', join(repo.home, 'config.yaml')], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      readJson<{ approvals: { command: string }[] }>(join(env.HOME as string, '.hermes', 'shell-hooks-allowlist.json')).approvals.map((a) => a.command),
    ).toEqual([repo.guard]);
    expect(existsSync(join(repo.home, 'shell-hooks-allowlist.json'))).toBe(false);
  });
});

describe('global options before the command, and --json errors', () => {
  it('--config, --profile, --home, --json and --help work before the command', async () => {
    const g = guardHome();
    const env = baseEnv();
    const after = await runMain(['list', '--json', '--home', g.home], { env });
    expect(after.code).toBe(0);
    for (const argv of [
      ['--home', g.home, 'list', '--json'],
      ['--json', '--home', g.home, 'list'],
      [`--home=${g.home}`, '--json', 'list'],
      ['-c', join(g.home, 'config.yaml'), '--home', g.home, '--json', 'list'],
    ]) {
      expect(await runMain(argv, { env }), argv.join(' ')).toEqual(after);
    }
    const root = makeHome();
    mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
    writeFileSync(join(root, 'profiles', 'work', 'config.yaml'), 'hooks: {}\n');
    const p = await runMain(['-p', 'work', 'list'], { env: baseEnv({ HERMES_HOME: root }) });
    expect(p).toEqual({ code: 0, stdout: `No shell hooks or outbound webhooks configured in ${join(root, 'profiles', 'work', 'config.yaml')}.\n`, stderr: '' });
    const help = await runMain(['--help', 'list']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: hermes-hooks list /);
  });

  it('with --json every error is one JSON object on stdout as well, exit 1', async () => {
    const dir = tempDir();
    const cases: [string[], string][] = [
      [['list', '--json', '--config', join(dir, 'nope.yaml')], `config file not found: ${join(dir, 'nope.yaml')} (given by --config)`],
      [['--json', 'list', '--home', join(dir, 'nope')], `profile home not found: ${join(dir, 'nope')} does not exist (given by --home)`],
      [['--json', 'frobnicate'], "unknown command 'frobnicate'. Run 'hermes-hooks --help'."],
      [['list', '--json', '--frob'], "list: Unknown option '--frob'\nRun 'hermes-hooks list --help' for usage."],
      [['--json', '--frob', 'list'], "unknown option '--frob' before the command. Run 'hermes-hooks --help'."],
      [['--json'], "missing <command>. Run 'hermes-hooks --help'."],
      [['test', '--json'], 'test: missing <event>'],
      [['approve', '--json', '--home', dir], 'approve: give a <command> or --all'],
    ];
    for (const [argv, message] of cases) {
      const r = await runMain(argv, { env: baseEnv() });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout), argv.join(' ')).toEqual({ error: message, exit_code: 1 });
      expect(r.stderr.startsWith(`hermes-hooks: ${message}`), r.stderr).toBe(true);
    }
  });

  it('an option that needs a value says so', async () => {
    const r = await runMain(['--config'], { env: baseEnv() });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: "hermes-hooks: option '--config' needs a value, as in '--config <value> <command>'. Run 'hermes-hooks --help'.\n",
    });
  });

  it.each(['test', 'run', 'list', 'doctor', 'validate', 'approve', 'revoke', 'import', 'print-config'])('%s --help has an Examples section', async (cmd) => {
    const r = await runMain([cmd, '--help']);
    expect(r.code).toBe(0);
    const examples = /\nExamples:\n((?: {2}\S.*\n)+)/.exec(r.stdout)?.[1] ?? '';
    const lines = examples.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`hermes-hooks (.* )?${cmd}\\b`));
  });
});

describe('serve: the same location and config errors, before anything listens', () => {
  it('a given location that does not exist names the option as typed', async () => {
    const dir = tempDir();
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [['--config', join(dir, 'nope.yaml')], baseEnv(), `config file not found: ${join(dir, 'nope.yaml')} (given by --config)`],
      [['--home', join(dir, 'nope')], baseEnv(), `profile home not found: ${join(dir, 'nope')} does not exist (given by --home)`],
      [[], baseEnv({ HERMES_HOME: join(dir, 'nope') }), `profile home not found: ${join(dir, 'nope')} does not exist (given by $HERMES_HOME)`],
      [['--config', ''], baseEnv(), '--config is empty: give the path of a config file, or leave the option out to use the profile home'],
      [
        ['--profile', 'ghost'],
        baseEnv({ HERMES_HOME: dir }),
        `profile 'ghost' not found: ${join(dir, 'profiles', 'ghost')} does not exist (there are no profiles in ${join(dir, 'profiles')})`,
      ],
    ];
    for (const [extra, env, message] of cases) {
      const r = await runMain(['serve', '--stdio', ...extra], { env, stdin: '' });
      expect(r, extra.join(' ')).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: ${message}\n` });
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a broken config is one error line naming file:line:col', async () => {
    const home = makeHome('hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n');
    const r = await runMain(['serve', '--stdio', '--home', home], { env: baseEnv(), stdin: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^hermes-hooks: serve: ${join(home, 'config.yaml')}:4:\\d+: YAML syntax error: [^\\n]+\\n$`));
  });

  it('serve --help has an Examples section', async () => {
    const r = await runMain(['serve', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\nExamples:\n  hermes-hooks serve --home ~/.hermes ');
  });
});

describe('createHookEngine with a location that does not exist rejects', () => {
  it.each([
    [{ config: '/nonexistent/hh/config.yaml' }, {}, 'config file not found: /nonexistent/hh/config.yaml (given by the `config` option)'],
    [{ home: '/nonexistent/hh' }, {}, 'profile home not found: /nonexistent/hh does not exist (given by the `home` option)'],
    [{}, { HERMES_HOME: '/nonexistent/hh' }, 'profile home not found: /nonexistent/hh does not exist (given by $HERMES_HOME)'],
    [{ config: '' }, {}, 'the `config` option is empty: give the path of a config file, or leave the option out to use the profile home'],
  ] as const)('%j %j', async (opts, extraEnv, message) => {
    const env = baseEnv(extraEnv);
    const created = createHookEngine({ ...opts, env, interactive: false });
    await expect(created).rejects.toThrow(new ConfigLocationError(message));
    await expect(created).rejects.toBeInstanceOf(ConfigLocationError);
  });

  it('a missing profile names the profiles that exist', async () => {
    const root = makeHome();
    mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
    await expect(createHookEngine({ profile: 'ghost', env: baseEnv({ HERMES_HOME: root }), interactive: false })).rejects.toThrow(
      `profile 'ghost' not found: ${join(root, 'profiles', 'ghost')} does not exist (profiles here: work)`,
    );
  });

  it('a config that cannot be parsed is no rejection, but the host hears it: a warning and an error diagnostic', async () => {
    const home = makeHome('hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n');
    const warnings: string[] = [];
    const engine = await createHookEngine({ home, env: baseEnv(), interactive: false, exitCleanup: false, logger: { warn: (m) => warnings.push(m) } });
    try {
      const error = engine.diagnostics.find((d) => d.level === 'error');
      expect(error).toMatchObject({ path: '', line: 4, message: expect.stringMatching(/^YAML syntax error: /) });
      expect(warnings).toEqual([
        `cannot use config: ${join(home, 'config.yaml')}:4:${error?.column}: ${error?.message} — no shell hooks are registered from it`,
      ]);
      expect(engine.specs).toEqual([]);
    } finally {
      await engine.close({ finalize: false });
    }
  });

  it('the implicit default without ~/.hermes is an engine with no hooks', async () => {
    const env = baseEnv();
    const engine = await createHookEngine({ env, interactive: false, exitCleanup: false });
    try {
      expect(engine.home).toBe(join(env.HOME as string, '.hermes'));
      expect(engine.specs).toEqual([]);
      expect(engine.config.exists).toBe(false);
    } finally {
      await engine.close({ finalize: false });
    }
  });
});

describe('one index scheme: report positions and config paths', () => {
  it('a shell hook after plugin hooks carries the config path its diagnostics use', async () => {
    const home = makeHome();
    cpSync(join(ROOT, 'test/fixtures/plugins/alpha'), join(home, 'plugins/alpha'), { recursive: true });
    const hook = writeScript(join(home, 'ok.sh'), '#!/usr/bin/env bash\necho {}\n');
    writeFileSync(join(home, 'config.yaml'), `plugins:\n  enabled: [alpha]\n${hooksYaml({ pre_tool_call: [{ command: hook, timeout: 999 }] })}`);
    const stdin = JSON.stringify({ tool_name: 'read_file', tool_input: { path: 'x' } });
    const r = await runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin, env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const rows = report.hooks.map((h: { index: number; kind: string; config_path: string | null }) => [h.index, h.kind, h.config_path]);
    expect(rows).toEqual([
      [0, 'plugin', null],
      [1, 'plugin', null],
      [2, 'shell', 'hooks.pre_tool_call[0]'],
    ]);
    expect(report.diagnostics.map((d: { path: string }) => d.path)).toEqual(['hooks.pre_tool_call[0].timeout']);
    const text = await runMain(['test', 'pre_tool_call', '--home', home], { stdin, env: baseEnv() });
    const row = text.stdout.split('\n').find((l) => l.startsWith('  #2 ')) ?? '';
    expect(row.endsWith(`${hook} [not approved] (hooks.pre_tool_call[0])`)).toBe(true);
  });
});

it('import --write with the implicit default creates ~/.hermes and its config.yaml', async () => {
  const env = baseEnv();
  const file = join(tempDir('hh-import-'), 'settings.json');
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/x.sh' }] }] } }));
  const r = await runMain(['import', file, '--write'], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(env.HOME as string, '.hermes', 'config.yaml'), 'utf8')).toContain('/x.sh');
});

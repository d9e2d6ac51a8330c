// Issue 16: a guard that would not guard as written is reported by validate (exit 1), shown by
// test, and repeated once on run's stderr for the event being run — while the engine still runs
// the entries as Hermes would.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, cleanupTemps, HOOKS, makeHome, runMain } from './_helpers.js';

afterAll(cleanupTemps);

const GUARD = `${HOOKS}/record.sh guard`;

// Line numbers below refer to this text.
const CONFIG = `model: {default: x}
hooks:
  pre_tool_call:
    - command: ${GUARD}
      matchr: terminal
      timout: 5
      failclosed: true
    - command: echo hi | cat
  post_tool_call:
    - command: ${HOOKS}/record.sh post
      matcher: Terminal
`;

describe('validate', () => {
  it('reports each mistake with file:line:col and exits 1', async () => {
    const home = makeHome(CONFIG);
    const file = join(home, 'config.yaml');
    const r = await runMain(['validate', file], { env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      `${file}:5:7: warning: hooks.pre_tool_call[0].matchr: unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run for every tool`,
      `${file}:6:7: warning: hooks.pre_tool_call[0].timout: unknown key 'timout' — did you mean 'timeout'? As written it is ignored, so this hook gets the default timeout of 60s`,
      `${file}:7:7: warning: hooks.pre_tool_call[0].failclosed: unknown key 'failclosed' — did you mean 'fail_closed'? As written it is ignored, so this hook is not fail_closed: a failure will allow the call`,
      `${file}:8:16: warning: hooks.pre_tool_call[1].command: runs without a shell, so the pipe '|' is passed to echo as literal text — write: bash -c 'echo hi | cat' — or move it into a script`,
      `${file}:11:16: warning: hooks.post_tool_call[0].matcher: matcher 'Terminal' matches no Hermes tool name (a matcher is case-sensitive and must match the whole name) — did you mean 'terminal'? As written, this hook never runs for it`,
      `${file}: 5 problem(s)`,
      '',
    ]);
  });

  it('a config with only infos is still ok (exit 0)', async () => {
    const home = makeHome(`hooks:\n  pre_tool_call:\n    - command: ${GUARD}\n      matcher: browser_navigate\n      description: guards the browser\n`);
    const r = await runMain(['validate', join(home, 'config.yaml')], { env: baseEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${join(home, 'config.yaml')}:5:7: info: hooks.pre_tool_call[0].description: unknown key 'description' is ignored`);
    expect(r.stdout).toContain(`${join(home, 'config.yaml')}: ok (1 shell hook(s), 0 outbound target(s))`);
  });
});

describe('test', () => {
  it('shows the diagnostics in the report and in --json, and still runs the entries as Hermes would', async () => {
    const home = makeHome(CONFIG);
    const text = await runMain(['test', 'pre_tool_call', '--home', home], { env: baseEnv() });
    expect(text.stdout).toContain(`  ${join(home, 'config.yaml')}:5:7: warning: hooks.pre_tool_call[0].matchr: unknown key 'matchr' — did you mean 'matcher'?`);
    const json = await runMain(['test', 'pre_tool_call', '--json', '--for-tool', 'read_file', '--home', home], { env: baseEnv() });
    const report = JSON.parse(json.stdout);
    expect(report.diagnostics.map((d: { path: string; level: string }) => `${d.level} ${d.path}`)).toEqual([
      'warning hooks.pre_tool_call[0].matchr',
      'warning hooks.pre_tool_call[0].timout',
      'warning hooks.pre_tool_call[0].failclosed',
      'warning hooks.pre_tool_call[1].command',
      'warning hooks.post_tool_call[0].matcher',
    ]);
    // No matcher was read, so the guard ran for read_file too (once per dry run), with the default
    // timeout, failing open.
    expect(report.hooks[0]).toMatchObject({ command: GUARD, matcher: null, timeout: 60, fail_closed: false, status: 'ok' });
    expect(readFileSync(join(home, 'ran.log'), 'utf8')).toBe('guard\nguard\n');
  });
});

describe('run <event>', () => {
  it("prints the problems of that event's entries once on stderr, and only those", async () => {
    const home = makeHome(CONFIG);
    const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' } });
    const r = await runMain(['run', 'pre_tool_call', '--accept-hooks', '--home', home], { env: baseEnv(), stdin: payload });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).action).toBe('allow');
    const file = join(home, 'config.yaml');
    const configLines = r.stderr.split('\n').filter((l) => l.startsWith(`hermes-hooks: ${file}`));
    expect(configLines).toEqual([
      `hermes-hooks: ${file}:5:7: warning: hooks.pre_tool_call[0].matchr: unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run for every tool`,
      `hermes-hooks: ${file}:6:7: warning: hooks.pre_tool_call[0].timout: unknown key 'timout' — did you mean 'timeout'? As written it is ignored, so this hook gets the default timeout of 60s`,
      `hermes-hooks: ${file}:7:7: warning: hooks.pre_tool_call[0].failclosed: unknown key 'failclosed' — did you mean 'fail_closed'? As written it is ignored, so this hook is not fail_closed: a failure will allow the call`,
      `hermes-hooks: ${file}:8:16: warning: hooks.pre_tool_call[1].command: runs without a shell, so the pipe '|' is passed to echo as literal text — write: bash -c 'echo hi | cat' — or move it into a script`,
    ]);
    expect(r.stderr).not.toContain('post_tool_call');
  });

  it('says nothing about the config when the event being run has no problem', async () => {
    const home = makeHome(CONFIG);
    const r = await runMain(['run', 'post_llm_call', '--accept-hooks', '--home', home], { env: baseEnv(), stdin: '{}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('a hooks: block that is lost concerns every event', async () => {
    const home = makeHome(`hook:\n  pre_tool_call:\n    - command: ${GUARD}\n`);
    const r = await runMain(['run', 'pre_tool_call', '--home', home], { env: baseEnv(), stdin: '{}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `hermes-hooks: ${join(home, 'config.yaml')}:1:1: warning: hook: unknown top-level key — did you mean 'hooks'? As written, none of the hooks under it are registered\n`,
    );
  });

  it('--dialect claude prints them too, for the event its input maps to', async () => {
    const home = makeHome(CONFIG);
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's', cwd: home });
    const r = await runMain(['run', '--dialect', 'claude', '--accept-hooks', '--home', home], { env: baseEnv(), stdin: input });
    expect(r.code).toBe(0);
    const file = join(home, 'config.yaml');
    expect(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith(`hermes-hooks: ${file}`))
        .map((l) => l.split(': ').slice(0, 4).join(': ')),
    ).toEqual([
      `hermes-hooks: ${file}:5:7: warning: hooks.pre_tool_call[0].matchr`,
      `hermes-hooks: ${file}:6:7: warning: hooks.pre_tool_call[0].timout`,
      `hermes-hooks: ${file}:7:7: warning: hooks.pre_tool_call[0].failclosed`,
      `hermes-hooks: ${file}:8:16: warning: hooks.pre_tool_call[1].command`,
    ]);
    expect(r.stderr).not.toContain('post_tool_call');
  });
});

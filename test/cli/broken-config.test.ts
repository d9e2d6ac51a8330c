// A config file that exists but cannot be read or parsed must never read as "no hooks" on the
// paths that run hooks: the guards it holds would silently vanish.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, cleanupTemps, makeHome, runMain } from './_helpers.js';

afterAll(cleanupTemps);

const BROKEN_YAML = 'hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n';
const payload = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /' } });
const claudeStdin = JSON.stringify({
  session_id: 's',
  transcript_path: null,
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' },
});

describe.each([
  ['a YAML syntax error', () => makeHome(BROKEN_YAML), /YAML syntax error/],
  [
    'a config path that is a directory',
    () => {
      const home = makeHome();
      mkdirSync(join(home, 'config.yaml'));
      return home;
    },
    /cannot read config file/,
  ],
])('%s', (_name, makeBrokenHome, message) => {
  it('run exits 1 naming the problem instead of allowing', async () => {
    const home = makeBrokenHome();
    const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: payload, env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it("run --dialect answers a tool gate with the agent's block naming the problem (an exit 1 would let the call through)", async () => {
    const home = makeBrokenHome();
    const r = await runMain(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: claudeStdin, env: baseEnv() });
    expect(r.code).toBe(0);
    const hso = (JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput;
    expect(hso['permissionDecision']).toBe('deny');
    expect(hso['permissionDecisionReason']).toMatch(/^hermes-hooks cannot decide, so it blocks this call: /);
    expect(hso['permissionDecisionReason']).toMatch(message);
    expect(r.stderr).toMatch(message);
  });

  it('run --dialect --fail-open exits 1 naming the problem', async () => {
    const home = makeBrokenHome();
    const r = await runMain(['run', 'PreToolUse', '--dialect', 'claude', '--home', home, '--fail-open'], { stdin: claudeStdin, env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('test exits 1 too', async () => {
    const home = makeBrokenHome();
    const r = await runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin: payload, env: baseEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});

it('the syntax error names the file, line and column', async () => {
  const home = makeHome(BROKEN_YAML);
  const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: payload, env: baseEnv() });
  expect(r.stderr).toContain(`${join(home, 'config.yaml')}:4:`);
});

it('a missing config is not an error: no hooks, allow', async () => {
  const home = makeHome();
  chmodSync(home, 0o755);
  const r = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: payload, env: baseEnv() });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow' });
});

// The outcome's stdout `warning`: said when a Hermes-wire hook's stdout is not one JSON object,
// never when it is — whatever decided the call (stdout, exit 2 with stderr, fail_closed).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../cli/_helpers.js';
import { tempHome, testEngine } from './_helpers.js';

async function runOne(body: string, entry = '') {
  const home = tempHome('hh-warn-');
  const hook = writeScript(join(home, 'hook.sh'), `#!/bin/bash\ncat >/dev/null\n${body}\n`);
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${hook}\n${entry}`);
  const engine = await testEngine(home);
  const { hooks, decision } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
  return { hook: hooks[0]!, decision };
}

describe('the stdout warning of a shell hook', () => {
  it('is null when stdout gave the directive', async () => {
    const { hook, decision } = await runOne(`echo '{"action": "block", "message": "no"}'`);
    expect(decision).toMatchObject({ action: 'block', message: 'no' });
    expect(hook.warning).toBeNull();
  });

  it('is null for an empty object and for no output', async () => {
    expect((await runOne(`echo '{}'`)).hook.warning).toBeNull();
    expect((await runOne(':')).hook.warning).toBeNull();
  });

  it('is said for text on stdout, and the call is allowed', async () => {
    const { hook, decision } = await runOne('echo hello');
    expect(decision.action).toBe('allow');
    expect(hook.warning).toBe('stdout is not valid JSON, so it was ignored: "hello"');
  });

  it('is still said when exit 2 blocked with stderr as the message', async () => {
    const { hook, decision } = await runOne('echo not-json; echo "stop there" >&2; exit 2');
    expect(decision).toMatchObject({ action: 'block', message: 'stop there' });
    expect(hook.warning).toBe('stdout is not valid JSON, so it was ignored: "not-json"');
  });

  it('is said, as failing closed, when a fail_closed guard printed text', async () => {
    const { hook, decision } = await runOne('echo Traceback', '      fail_closed: true\n');
    expect(decision.action).toBe('block');
    expect(hook.warning).toBe('stdout is not valid JSON, so the hook failed closed: "Traceback"');
  });

  it('is null when a fail_closed guard answered with its own block on stdout', async () => {
    const { hook, decision } = await runOne(`echo '{"action": "block", "message": "guard says no"}'`, '      fail_closed: true\n');
    expect(decision).toMatchObject({ action: 'block', message: 'guard says no' });
    expect(hook.warning).toBeNull();
  });
});

// Issue 15's consent rules held by a running `serve` (the real binary, real hooks, a real socket):
// an approve or revoke made by another process counts at the next call; a config given with
// --config approves nothing by itself (neither the allowlist beside it nor its hooks_auto_accept,
// before or after a reload); HERMES_SAFE_MODE runs no hook on any route; what serve writes on
// stderr is inert; and a rewrite answered on /v1/agent grants no permission.

import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { runBin } from '../cli/_helpers.js';
import { approvedHome, baseEnv, cleanupTemps, hooksYaml, http, makeHome, postJson, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
/** A hook that logs `tag` to `log` each time it runs, then prints `answer`. */
const logging = (log: string, tag: string, answer: string): string => `#!/bin/bash\ncat >/dev/null\necho ${tag} >>'${log}'\necho '${answer}'\n`;
const CALL = { tool_name: 'terminal', args: { command: 'rm -rf /important' }, session_id: 's1' };

/** An approved fail_closed guard that logs each run and blocks, a serve for its home, and one call's decision. */
async function servedGuard() {
  const dir = tempDir();
  const log = join(dir, 'ran.log');
  const guard = writeScript(join(dir, 'guard.sh'), logging(log, 'guard', '{"action":"block","message":"guard says no"}'));
  const home = await approvedHome({ pre_tool_call: [{ command: guard, fail_closed: true }] });
  const served = await startServe(home, []);
  const decision = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', CALL)).body).decision;
  return { log, guard, home, served, decision };
}

describe('serve: consent', () => {
  it('a revoke from another process stops the hook at the next call (the fail_closed guard blocks); an approve starts it again', async () => {
    const { log, guard, home, served, decision } = await servedGuard();
    expect((await decision()).message).toBe('guard says no');
    expect(lines(log)).toEqual(['guard']);

    expect((await runBin(['revoke', guard, '--home', home])).code).toBe(0);
    const revoked = await decision();
    expect(revoked.action).toBe('block');
    expect(revoked.message.startsWith(`hook ${guard} awaits approval (its approval was revoked`)).toBe(true);
    expect(lines(log)).toEqual(['guard']);

    expect((await runBin(['approve', guard, '--home', home])).code).toBe(0);
    expect((await decision()).message).toBe('guard says no');
    expect(lines(log)).toEqual(['guard', 'guard']);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('a revoke that reaches serve as a reload first still says revoked (serve reloads when the allowlist changes)', async () => {
    const { log, guard, home, served, decision } = await servedGuard();
    expect((await decision()).message).toBe('guard says no');
    expect((await runBin(['revoke', guard, '--home', home])).code).toBe(0);
    expect(JSON.parse((await http({ socketPath: served.socket! }, 'POST', '/v1/reload')).body).ok).toBe(true);
    const revoked = await decision();
    expect(revoked.action).toBe('block');
    expect(revoked.message.startsWith(`hook ${guard} awaits approval (its approval was revoked`)).toBe(true);
    expect(lines(log)).toEqual(['guard']);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('--config FILE outside the profile home: its own allowlist and hooks_auto_accept approve nothing, before or after a reload', async () => {
    const repo = tempDir('hh-repo-');
    const log = join(repo, 'ran.log');
    const evil = writeScript(join(repo, '.hermes', 'evil.sh'), logging(log, 'evil', '{}'));
    const config = join(repo, '.hermes', 'config.yaml');
    writeFileSync(config, `hooks_auto_accept: true\n${hooksYaml({ pre_tool_call: [evil] })}`);
    const sha = createHash('sha256').update(readFileSync(evil)).digest('hex');
    const beside = join(repo, '.hermes', 'shell-hooks-allowlist.json');
    const forged = JSON.stringify({
      approvals: [{ event: 'pre_tool_call', command: evil, approved_at: '2026-01-01T00:00:00Z', script_mtime_at_approval: null, script_sha256: sha }],
    });
    writeFileSync(beside, forged, { mode: 0o600 });
    const home = makeHome(); // the user's profile home: no config.yaml, no allowlist
    const served = await startServe(home, ['--config', config]);
    const shell = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', CALL)).body).hooks[0];
    expect(await shell()).toMatchObject({ command: evil, consent: 'not_approved', status: 'skipped' });
    expect(served.stderr()).toContain(
      `hermes-hooks: warning: ${config}:1:1: hooks_auto_accept ignored here: it is honoured only in the profile's own config ${join(home, 'config.yaml')}, not in a config given with --config;`,
    );

    // An edit of the repository's config (a reload) changes nothing.
    writeFileSync(config, `hooks_auto_accept: true\n${hooksYaml({ pre_tool_call: [evil] })}# edited\n`);
    const reload = JSON.parse((await http({ socketPath: served.socket! }, 'POST', '/v1/reload')).body);
    expect(reload.ok).toBe(true);
    expect(await shell()).toMatchObject({ command: evil, consent: 'not_approved', status: 'skipped' });

    expect(lines(log)).toEqual([]);
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
    expect(readFileSync(beside, 'utf8')).toBe(forged);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it("the profile's own config: hooks_auto_accept added by a reload is honoured, and once removed a later edit is not approved", async () => {
    const dir = tempDir();
    const log = join(dir, 'ran.log');
    const hook = writeScript(join(dir, 'h.sh'), logging(log, 'h', '{}'));
    const home = makeHome(hooksYaml({ pre_tool_call: [hook] }));
    const served = await startServe(home, []);
    const consent = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', CALL)).body).hooks[0].consent;
    expect(await consent()).toBe('not_approved');
    writeFileSync(join(home, 'config.yaml'), `hooks_auto_accept: true\n${hooksYaml({ pre_tool_call: [hook] })}`);
    expect(JSON.parse((await http({ socketPath: served.socket! }, 'POST', '/v1/reload')).body).ok).toBe(true);
    expect(await consent()).toBe('approved');
    expect(lines(log)).toEqual(['h']);

    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [hook] }));
    expect(JSON.parse((await http({ socketPath: served.socket! }, 'POST', '/v1/reload')).body).ok).toBe(true);
    writeFileSync(hook, logging(log, 'edited', '{}'));
    expect(await consent()).toBe('modified');
    expect(lines(log)).toEqual(['h']);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('HERMES_SAFE_MODE: no hook runs on /v1/emit, /v1/agent or /v1/finalize, and serve says so', async () => {
    const dir = tempDir();
    const log = join(dir, 'ran.log');
    const hook = writeScript(join(dir, 'h.sh'), logging(log, 'h', '{"action":"block","message":"no"}'));
    const home = await approvedHome({ pre_tool_call: [hook], on_session_finalize: [hook] });
    const served = await startServe(home, [], { env: baseEnv({ HERMES_SAFE_MODE: '1' }) });
    expect(served.stderr()).toContain('hermes-hooks: warning: HERMES_SAFE_MODE is set: user hooks do not run (2 shell hook(s) skipped)\n');
    const emitted = JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', CALL)).body);
    expect(emitted.decision.action).toBe('allow');
    expect(emitted.hooks.filter((h: { kind: string }) => h.kind === 'shell')).toEqual([]);
    const agent = await postJson(served, '/v1/agent/claude/PreToolUse', {
      session_id: 'c',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: '/tmp',
    });
    expect([agent.status, agent.body, agent.headers['x-hermes-hooks-exit']]).toEqual([200, '', '0']);
    expect((await postJson(served, '/v1/finalize', { session_id: 's1' })).status).toBe(200);
    expect(await stopServe(served)).toBe(0);
    expect(lines(log)).toEqual([]);
  }, 60_000);

  it("control characters in a hook's command reach serve's stderr escaped", async () => {
    const evil = '/opt/x\u001b[1A\u001b[2K\r    Command: /bin/true.sh';
    const home = makeHome(hooksYaml({ pre_tool_call: [{ command: evil, fail_closed: true }] }));
    const served = await startServe(home, []);
    const body = JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', CALL)).body);
    expect(body.decision.action).toBe('block');
    expect(await stopServe(served)).toBe(0);
    expect(served.stderr()).toContain('hermes-hooks: warning: hook /opt/x\\e[1A\\e[2K\\r    Command: /bin/true.sh awaits approval (not approved yet)');
    expect(served.stderr()).not.toMatch(/[\u001b\r]/);
  }, 60_000);

  it('/v1/agent: a rewrite is never answered as a permission grant (Claude, Gemini), only as the rewrite', async () => {
    const dir = tempDir();
    const hook = writeScript(join(dir, 'rw.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"modify","args":{"command":"touch /outside"}}'\n`);
    const home = await approvedHome({ pre_tool_call: [hook] });
    const served = await startServe(home, []);
    const claude = await postJson(served, '/v1/agent/claude/PreToolUse', {
      session_id: 'c',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo original' },
      cwd: '/tmp',
    });
    expect([claude.status, claude.body, claude.headers['x-hermes-hooks-exit']]).toEqual([
      200,
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch /outside"}}}\n',
      '0',
    ]);
    const gemini = await postJson(served, '/v1/agent/gemini/BeforeTool', {
      session_id: 'g',
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'echo original' },
      cwd: '/tmp',
    });
    expect([gemini.status, gemini.body]).toEqual([200, '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"touch /outside"}}}\n']);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);
});

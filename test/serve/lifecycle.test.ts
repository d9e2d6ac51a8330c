// serve's life: SIGTERM (and SIGHUP) drains requests in flight, finalizes open sessions and exits 0; a client
// that goes away mid-emit leaves no hook process; config edits reload between emits (a broken
// config keeps the last good one and says so in health); an approved script edited while the
// server runs stops running at once.

import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvedHome,
  baseEnv,
  cleanupTemps,
  groupMembers,
  hooksYaml,
  http,
  pidHook,
  postJson,
  recordedPids,
  startServe,
  stopServe,
  tempDir,
  waitFor,
  writeScript,
} from './_helpers.js';

afterAll(cleanupTemps);

describe('serve lifecycle', () => {
  it('SIGTERM: the emit in flight completes, open sessions are finalized, the socket goes, exit 0', async () => {
    const dir = tempDir();
    const slow = writeScript(
      join(dir, 'slow.sh'),
      `#!/bin/bash\ncat > /dev/null\ntouch ${dir}/started\nsleep 1\necho '{"action":"block","message":"slow no"}'\n`,
    );
    const fin = writeScript(join(dir, 'fin.sh'), `#!/bin/bash\ncat >> ${dir}/finalized.jsonl\necho >> ${dir}/finalized.jsonl\n`);
    const home = await approvedHome({ pre_tool_call: [slow], on_session_finalize: [fin] });
    const served = await startServe(home, []);
    const inFlight = postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: {}, session_id: 'drained' });
    expect(await waitFor(() => existsSync(join(dir, 'started')), 10_000, 10)).toBe(true);
    served.child.kill('SIGTERM');
    const r = await inFlight;
    expect(r.status).toBe(200);
    const e = JSON.parse(r.body);
    expect(e.hooks[0]).toMatchObject({ status: 'ok', error: null });
    expect(e.decision).toMatchObject({ action: 'block', message: 'slow no' });
    expect(await served.exited).toBe(0);
    const finals = readFileSync(join(dir, 'finalized.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(finals.map((f) => [f.session_id, f.extra.reason])).toEqual([['drained', 'shutdown']]);
    expect(existsSync(served.socket!)).toBe(false);
  });

  it("SIGHUP is a shutdown like SIGTERM: the running hook's process group is killed, the socket removed, exit 0", async () => {
    const dir = tempDir();
    const hook = pidHook(dir, 'sleeper.sh', 'cat > /dev/null\nsleep 30 &\nsleep 30\necho "{}"');
    const home = await approvedHome({ pre_tool_call: [hook] });
    const served = await startServe(home, ['--drain-timeout', '1']);
    const req = postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal' }).catch((e: Error) => e);
    expect(await waitFor(() => recordedPids(dir).length === 1, 10_000, 10)).toBe(true);
    const [pgid] = recordedPids(dir);
    expect(await waitFor(() => groupMembers(pgid!).length === 3, 5000, 10)).toBe(true); // bash and its two sleeps
    served.child.kill('SIGHUP');
    expect(await served.exited).toBe(0);
    expect(groupMembers(pgid!)).toEqual([]);
    expect(existsSync(served.socket!)).toBe(false);
    await req;
  });

  it('a client that disconnects mid-emit leaves no hook process, and the server keeps serving', async () => {
    const dir = tempDir();
    const hook = pidHook(dir, 'wedged.sh', 'cat > /dev/null\nsleep 30 &\nsleep 30\necho "{}"');
    const home = await approvedHome({ pre_tool_call: [hook] });
    const served = await startServe(home, []);
    const ac = new AbortController();
    const req = http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', { body: '{"tool_name":"terminal"}', signal: ac.signal }).catch(
      (e: Error) => e,
    );
    expect(await waitFor(() => recordedPids(dir).length === 1, 10_000, 10)).toBe(true);
    const [pgid] = recordedPids(dir);
    expect(await waitFor(() => groupMembers(pgid!).length === 3, 5000, 10)).toBe(true); // bash and its two sleeps
    ac.abort();
    expect(await req).toBeInstanceOf(Error);
    expect(await waitFor(() => groupMembers(pgid!).length === 0, 5000, 20)).toBe(true);
    const health = async () => JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    // The engine's own books close too (the run settles once its group is gone).
    expect(await waitForAsync(async () => (await health()).live_hooks === 0, 3000)).toBe(true);
    expect(await health()).toMatchObject({ in_flight: 0, live_hooks: 0, status: 'ok' });
    expect(await stopServe(served)).toBe(0);
  });

  it('reloads an edited config between emits; a broken one keeps the last good config and health says why', async () => {
    const dir = tempDir();
    const blockA = writeScript(join(dir, 'a.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"from a"}'\n`);
    const blockB = writeScript(join(dir, 'b.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"from b"}'\n`);
    // Both approved for pre_tool_call up front (an approval is per event and command).
    const home = await approvedHome({ pre_tool_call: [blockA, blockB] });
    const served = await startServe(home, []);
    const decide = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal' })).body).decision.message;
    const health = async () => JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    expect(await decide()).toBe('from a'); // the first block in order gives the message

    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [blockB] }));
    let seen = '';
    expect(await waitForAsync(async () => (seen = await decide()) === 'from b', 5000)).toBe(true);
    expect((await health()).generation).toBe(1);

    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  pre_tool_call: [\n');
    expect(await waitForAsync(async () => (await health()).status === 'degraded', 5000)).toBe(true);
    const h = await health();
    expect(h.reload_error).toMatch(new RegExp(`^${join(home, 'config.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: `));
    // The refused file's own diagnostics, with their position, next to the reason.
    expect(h.reload_diagnostics.length).toBeGreaterThan(0);
    expect(h.reload_diagnostics[0]).toMatchObject({ level: 'error', file: join(home, 'config.yaml') });
    expect(h.reload_error).toBe(
      `${join(home, 'config.yaml')}:${h.reload_diagnostics[0].line}:${h.reload_diagnostics[0].column}: ${h.reload_diagnostics[0].message}`,
    );
    expect(await decide()).toBe('from b'); // the last good config stays in force
    expect(served.stderr()).toContain('hermes-hooks: warning: config reload refused, the last good config stays in force: ');

    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [blockA] }));
    expect(await waitForAsync(async () => (await health()).status === 'ok' && (await decide()) === 'from a', 5000)).toBe(true);
    expect((await health()).reload_diagnostics).toEqual([]);
    expect(seen).toBe('from b');
    expect(await stopServe(served)).toBe(0);
  });

  it('at start says what run says of a config that runs but not as written (a failclosed: typo)', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho '{}'\n`);
    const home = await approvedHome({ pre_tool_call: [{ command: guard, failclosed: true }] });
    const served = await startServe(home, []);
    expect(await waitFor(() => served.stderr().includes("unknown key 'failclosed'"), 5000)).toBe(true);
    const line = served
      .stderr()
      .split('\n')
      .find((l) => l.includes("unknown key 'failclosed'"))!;
    expect(line).toMatch(
      new RegExp(`^hermes-hooks: warning: ${join(home, 'config.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: unknown key 'failclosed'`),
    );
    expect(line).toContain('not fail_closed: a failure will allow the call');
    expect(await stopServe(served)).toBe(0);
  });

  it('a reload that loses a guard says so: an entry that no longer runs as written, then the file gone', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"guarded"}'\n`);
    const home = await approvedHome({ pre_tool_call: [{ command: guard, fail_closed: true }] });
    const served = await startServe(home, []);
    const decide = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal' })).body).decision.action;
    const health = async () => JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    expect(await decide()).toBe('block');
    expect((await health()).status).toBe('ok');

    const file = join(home, 'config.yaml');
    writeFileSync(file, `hooks:\n  pre_tool_call:\n    - comand: ${guard}\n      fail_closed: true\n`);
    // Both the lint's warning (the typo) and the error (the entry has no command) are said.
    expect(await waitFor(() => served.stderr().includes("is missing a non-empty 'command' field"), 5000)).toBe(true);
    expect(served.stderr()).toContain(`hermes-hooks: warning: config reloaded with a problem: ${file}:3:7: unknown key 'comand' — did you mean 'command'?`);
    const problem = `${file}:3:7: hooks.pre_tool_call[0] is missing a non-empty 'command' field`;
    expect(served.stderr()).toContain(`hermes-hooks: warning: config reloaded with a problem: ${problem}\n`);
    expect(await health()).toMatchObject({ status: 'degraded', degraded_because: [`config error, the entry does not run as written: ${problem}`] });

    rmSync(file);
    expect(
      await waitFor(
        () =>
          served
            .stderr()
            .includes(`hermes-hooks: warning: config reloaded: ${file} is gone, so no hooks are configured; every call is allowed until it is written again\n`),
        5000,
      ),
    ).toBe(true);
    expect(await decide()).toBe('allow');
    expect((await health()).degraded_because).toEqual([`no config file at ${file}: no hooks are configured`]);
    expect(await stopServe(served)).toBe(0);
  });

  it('started on a home without config.yaml: says so, allows, and guards once a config is written there', async () => {
    const home = tempDir();
    const served = await startServe(home, []);
    expect(served.stderr()).toContain(
      `hermes-hooks: warning: No config file at ${join(home, 'config.yaml')}: the profile home ${home} (given by --home) has no config.yaml, so no hooks are configured there. Every call is allowed until one is written (the server picks it up).`,
    );
    const decide = async () =>
      JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' } })).body).decision;
    expect((await decide()).action).toBe('allow');
    const health = async () => JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    expect(await health()).toMatchObject({
      status: 'degraded',
      degraded_because: [`no config file at ${join(home, 'config.yaml')}: no hooks are configured`],
      config_exists: false,
    });
    const guard = writeScript(join(home, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"guarded"}'\n`);
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: guard, fail_closed: true }] }));
    // Written but not approved: a fail_closed guard blocks (consent), it never allows quietly.
    expect(await waitForAsync(async () => (await decide()).action === 'block', 5000)).toBe(true);
    expect(await health()).toMatchObject({ status: 'ok', degraded_because: [], config_exists: true });
    expect(await stopServe(served)).toBe(0);
  });

  it('in safe mode health says degraded, and why: no user hook runs', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"guarded"}'\n`);
    const home = await approvedHome({ pre_tool_call: [guard] });
    const served = await startServe(home, [], { env: { ...baseEnv(), HERMES_SAFE_MODE: '1' } });
    const h = JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
    expect(h).toMatchObject({ status: 'degraded', degraded_because: ['HERMES_SAFE_MODE is set: no user hook runs'], safe_mode: true });
    expect(await stopServe(served)).toBe(0);
  });

  it('sessions idle past --idle-timeout are finalized once; HTTP hosts fetch the notices from GET /v1/notices', async () => {
    const dir = tempDir();
    const fin = writeScript(join(dir, 'fin.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"message": "see you"}'\n`);
    const home = await approvedHome({ on_session_finalize: [fin] });
    const served = await startServe(home, ['--idle-timeout', '0.3']);
    await postJson(served, '/v1/emit/on_session_start', { session_id: 'quiet', session_key: 'agent:main:slack:dm:7' });
    const notices = async () => JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/notices')).body).notices;
    let got: unknown[] = [];
    expect(await waitForAsync(async () => (got = await notices()).length > 0, 5000)).toBe(true);
    expect(got).toEqual([{ session_id: 'quiet', session_key: 'agent:main:slack:dm:7', message: 'see you' }]);
    expect(await notices()).toEqual([]); // taken once
    const again = JSON.parse((await postJson(served, '/v1/finalize', { session_id: 'quiet' })).body);
    expect([again.emission.hooks, again.notices]).toEqual([[], []]); // already finalized
    expect(await stopServe(served)).toBe(0);
  });

  it('an approved fail_closed script edited while the server runs is blocked on the very next call', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"guarded"}'\n`);
    const home = await approvedHome({ pre_tool_call: [{ command: guard, fail_closed: true }] });
    const served = await startServe(home, []);
    const call = async () => JSON.parse((await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal' })).body);
    expect((await call()).decision.message).toBe('guarded');
    // The edit turns the guard into an allow-everything script that leaves a trace if it ever runs.
    writeFileSync(guard, `#!/bin/bash\ntouch ${dir}/edited-ran\necho '{}'\n`);
    const after = await call(); // at once: no waiting for a file watcher
    expect(after.decision.action).toBe('block');
    expect(after.decision.decided_by).toBe(0);
    expect(after.decision.message.startsWith(`hook ${guard} `)).toBe(true);
    expect(existsSync(join(dir, 'edited-ran'))).toBe(false);
    expect(statSync(guard).size).toBeGreaterThan(0);
    expect(await stopServe(served)).toBe(0);
  });
});

async function waitForAsync(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// serve --profiles: one real serve hosts the profiles of one Hermes root. A request names its
// profile (X-Hermes-Profile on HTTP, a `profile` param on JSON-RPC); each profile's engine is
// built on its first request, reloads on its own, and its hook children get its HERMES_HOME and
// none of the default profile's secrets (Hermes' secret scope).

import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, cleanupTemps, hooksYaml, http, rpcClient, startServe, stopServe, tempDir, writeScript, type Served } from './_helpers.js';

afterAll(cleanupTemps);

/** A hook that records its environment in `<dir>/<name>.env`, then blocks saying `message`. */
function envHook(dir: string, name: string, message: string): string {
  return writeScript(join(dir, `${name}.sh`), `#!/bin/bash\ncat > /dev/null\nenv > ${dir}/${name}.env\necho '{"action":"block","message":"${message}"}'\n`);
}

/** A Hermes root: the default profile at the root, `work` and `idle` under profiles/. */
function makeRoot(): { root: string; dir: string; work: string } {
  const root = tempDir('hh-root-');
  const dir = tempDir('hh-rec-');
  writeFileSync(join(root, 'config.yaml'), hooksYaml({ pre_tool_call: [envHook(dir, 'default', 'default says no')] }));
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-default\nexport DEFAULT_ONLY_SETTING="d"\n');
  const work = join(root, 'profiles', 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'config.yaml'), hooksYaml({ pre_tool_call: [envHook(dir, 'work', 'work says no')] }));
  writeFileSync(join(work, '.env'), 'WORK_TOKEN=w-secret\n');
  mkdirSync(join(root, 'profiles', 'idle'), { recursive: true });
  return { root, dir, work };
}

/** serve's environment as Hermes' gateway has it: the default profile's .env loaded into it. */
function serveEnv(root: string): NodeJS.ProcessEnv {
  return baseEnv({ HERMES_HOME: root, OPENAI_API_KEY: 'sk-default', DEFAULT_ONLY_SETTING: 'd', SHELL_EXPORTED_API_KEY: 'sk-shell' });
}

function emit(served: Served, profile: string | null, body: unknown = { tool_name: 'terminal', args: {} }) {
  const headers: Record<string, string> = profile === null ? {} : { 'x-hermes-profile': profile };
  return http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', { body: JSON.stringify(body), headers });
}

async function health(served: Served, profile?: string): Promise<Record<string, any>> {
  const r = await http({ socketPath: served.socket! }, 'GET', '/v1/health', profile ? { headers: { 'x-hermes-profile': profile } } : {});
  return JSON.parse(r.body);
}

function envFile(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('serve --profiles over the socket', () => {
  it("routes by X-Hermes-Profile, builds a profile on its first request, scopes its hooks' env", async () => {
    const { root, dir, work } = makeRoot();
    const served = await startServe(root, ['--profiles', '--accept-hooks'], { env: serveEnv(root) });
    try {
      expect((await health(served)).profiles).toEqual({ default: 'default', loaded: ['default'], known: ['default', 'idle', 'work'] });

      const d = await emit(served, null);
      expect(JSON.parse(d.body).decision).toMatchObject({ action: 'block', message: 'default says no' });
      // Not built until its first request.
      expect((await health(served)).profiles.loaded).toEqual(['default']);

      const w = await emit(served, 'work');
      expect(w.status).toBe(200);
      expect(JSON.parse(w.body).decision).toMatchObject({ action: 'block', message: 'work says no' });
      expect((await health(served)).profiles.loaded).toEqual(['default', 'work']);
      // The name of the default profile is the default profile.
      expect(JSON.parse((await emit(served, 'default')).body).decision.message).toBe('default says no');

      const defaultEnv = envFile(join(dir, 'default.env'));
      expect(defaultEnv).toMatchObject({ HERMES_HOME: root, OPENAI_API_KEY: 'sk-default' });
      const workEnv = envFile(join(dir, 'work.env'));
      expect(workEnv.HERMES_HOME).toBe(work);
      expect(workEnv.WORK_TOKEN).toBe('w-secret'); // its own .env: its secret scope
      expect(workEnv).not.toHaveProperty('OPENAI_API_KEY'); // the default profile's secret
      expect(workEnv).not.toHaveProperty('DEFAULT_ONLY_SETTING'); // anything the default's .env sets
      expect(workEnv).not.toHaveProperty('SHELL_EXPORTED_API_KEY'); // credential-named, serve's own env
      expect(workEnv.PATH).toBe(process.env.PATH); // a deployment setting every profile shares
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });

  it('refuses unknown and malformed profile names, listing the known ones', async () => {
    const { root } = makeRoot();
    const served = await startServe(root, ['--profiles', '--accept-hooks'], { env: serveEnv(root) });
    try {
      const unknown = await emit(served, 'nope');
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body).error.message).toMatch(/unknown profile 'nope' \(profiles: default, idle, work;/);
      for (const bad of ['..', 'work/../..', '../profiles/work']) {
        const r = await emit(served, bad);
        expect(r.status).toBe(400);
        expect(JSON.parse(r.body).error.message).toMatch(/invalid profile name/);
      }
      // An agent's tool gate for a profile that cannot be served is that agent's block, never a 4xx
      // (which agents take as "go ahead"); a route that is no gate keeps the 404.
      const claude = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's' };
      const gate = await http({ socketPath: served.socket! }, 'POST', '/v1/agent/claude/PreToolUse', {
        body: JSON.stringify(claude),
        headers: { 'x-hermes-profile': 'nope' },
      });
      expect(gate.status).toBe(200);
      expect(gate.body).toMatch(/"deny".*unknown profile 'nope'/s);
      const notGate = await http({ socketPath: served.socket! }, 'POST', '/v1/agent/claude/Notification', {
        body: '{}',
        headers: { 'x-hermes-profile': 'nope' },
      });
      expect(notGate.status).toBe(404);
      // The connection still works after a refusal whose body was never used.
      expect((await emit(served, null)).status).toBe(200);
      expect((await health(served)).profiles.loaded).toEqual(['default']);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });

  it("reloading one profile's config leaves the other's engine alone", async () => {
    const { root, dir, work } = makeRoot();
    const served = await startServe(root, ['--profiles', '--accept-hooks'], { env: serveEnv(root) });
    try {
      expect(JSON.parse((await emit(served, 'work')).body).decision.message).toBe('work says no');
      const before = await health(served);
      const workBefore = await health(served, 'work');
      expect(workBefore).toMatchObject({ profile: 'work', home: work });
      const allow = writeScript(join(dir, 'allow.sh'), '#!/bin/bash\ncat > /dev/null\necho "{}"\n');
      writeFileSync(join(work, 'config.yaml'), hooksYaml({ pre_tool_call: [allow] }));
      let action = '';
      for (const end = Date.now() + 10_000; action !== 'allow' && Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        action = JSON.parse((await emit(served, 'work')).body).decision.action;
      }
      expect(action).toBe('allow');
      expect((await health(served, 'work')).generation).toBeGreaterThan(workBefore.generation);
      // The default profile kept its config and its engine was not reloaded.
      expect(JSON.parse((await emit(served, null)).body).decision.message).toBe('default says no');
      const after = await health(served);
      expect(after).toMatchObject({ profile: 'default', home: root, generation: before.generation });
      expect((await health(served, 'work')).profiles.loaded).toEqual(['default', 'work']);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });

  it('without --profiles a request naming another profile is refused, not answered by this one', async () => {
    const { root } = makeRoot();
    const served = await startServe(root, ['--accept-hooks'], { env: serveEnv(root) });
    try {
      const r = await emit(served, 'work');
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error.message).toMatch(/serves only profile 'default'.*--profiles/);
      expect((await health(served)).profiles).toBeUndefined();
      expect(JSON.parse((await emit(served, null)).body).decision.message).toBe('default says no');
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });
});

describe('serve --profiles over stdio', () => {
  it('routes by the profile param; guards and sessions stay per profile; shutdown closes every engine', async () => {
    const { root, dir } = makeRoot();
    const fin = writeScript(join(dir, 'fin.sh'), `#!/bin/bash\ncat >> ${dir}/work-finalized.jsonl\necho >> ${dir}/work-finalized.jsonl\n`);
    const work = join(root, 'profiles', 'work');
    writeFileSync(join(work, 'config.yaml'), hooksYaml({ pre_tool_call: [envHook(dir, 'work', 'work says no')], on_session_finalize: [fin] }));
    const served = await startServe(root, ['--stdio', '--profiles', '--accept-hooks'], { env: serveEnv(root), stdio: true });
    const rpc = rpcClient(served);
    const call = { event: 'pre_tool_call', kwargs: { tool_name: 'terminal', args: {}, session_id: 's1' } };
    expect((await rpc.result<any>('emit', call)).decision.message).toBe('default says no');
    expect((await rpc.result<any>('health')).profiles.loaded).toEqual(['default']);
    expect((await rpc.result<any>('emit', { ...call, profile: 'work' })).decision.message).toBe('work says no');
    // Sessions are the profile's own: s1 is open in both engines, counted apart.
    expect(await rpc.result<any>('health', { profile: 'work' })).toMatchObject({ profile: 'work', open_sessions: 1 });
    expect(await rpc.result<any>('health')).toMatchObject({ profile: 'default', open_sessions: 1 });
    expect((await rpc.result<any>('health')).profiles.loaded).toEqual(['default', 'work']);

    const unknown = await rpc.call('emit', { ...call, profile: 'nope' });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/unknown profile 'nope' \(profiles: default, idle, work;/) });
    const bad = await rpc.call('emit', { ...call, profile: '../work' });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/invalid profile name/) });
    const notString = await rpc.call('health', { profile: 7 });
    expect(notString.error).toMatchObject({ code: -32602 });

    expect(await rpc.result('shutdown')).toEqual({ shutting_down: true });
    expect(await served.exited).toBe(0);
    // The work profile's open session was finalized by its own engine at shutdown.
    const finals = readFileSync(join(dir, 'work-finalized.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(finals.map((f) => [f.session_id, f.extra.reason])).toEqual([['s1', 'shutdown']]);
  });
});

describe('serve --profiles keeps guardrail counts per profile', () => {
  it("a loop counted in one profile's session does not stop the same session id in another", async () => {
    const root = tempDir('hh-root-');
    const guard = 'tool_loop_guardrails:\n  hard_stop_enabled: true\n  hard_stop_after:\n    exact_failure: 1\n';
    writeFileSync(join(root, 'config.yaml'), guard);
    mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
    writeFileSync(join(root, 'profiles', 'work', 'config.yaml'), guard);
    const served = await startServe(root, ['--stdio', '--profiles'], { env: serveEnv(root), stdio: true });
    const rpc = rpcClient(served);
    const call = { tool_name: 'terminal', args: { command: 'make' }, session_id: 's1' };
    await rpc.result('emit', { event: 'post_tool_call', kwargs: { ...call, status: 'error', result: '{"error":"boom"}' }, profile: 'work' });
    expect((await rpc.result<any>('emit', { event: 'pre_tool_call', kwargs: call, profile: 'work' })).decision.action).toBe('block');
    expect((await rpc.result<any>('emit', { event: 'pre_tool_call', kwargs: call })).decision.action).toBe('allow');
    expect(await rpc.result('shutdown')).toEqual({ shutting_down: true });
    expect(await served.exited).toBe(0);
  });
});

describe('serve --profiles --surface gateway', () => {
  it("a routed profile's gateway handler.py loads with its engine and sees its HERMES_HOME, not the default's secret", async () => {
    const { root, work } = makeRoot();
    const probe = join(work, 'hooks', 'env-probe');
    mkdirSync(probe, { recursive: true, mode: 0o700 });
    writeFileSync(join(probe, 'HOOK.yaml'), 'name: env-probe\ndescription: says what its environment holds\nevents:\n  - command:whoami\n');
    writeFileSync(
      join(probe, 'handler.py'),
      'import os\n\ndef handle(event_type, context):\n    return {"decision": "deny", "message": "%s|%s" % (os.environ.get("HERMES_HOME"), "OPENAI_API_KEY" in os.environ)}\n',
    );
    const served = await startServe(root, ['--profiles', '--accept-hooks', '--surface', 'gateway'], { env: serveEnv(root) });
    try {
      const command = async (profile: string | null) => {
        const headers: Record<string, string> = profile === null ? {} : { 'x-hermes-profile': profile };
        const r = await http({ socketPath: served.socket! }, 'POST', '/v1/gateway/command', {
          body: JSON.stringify({ context: { command: 'whoami' } }),
          headers,
        });
        expect(r.status).toBe(200);
        return JSON.parse(r.body).result;
      };
      expect(await command(null)).toEqual({ decision: 'allow' }); // the default profile has no such hook
      expect(await command('work')).toEqual({ decision: 'deny', message: `${work}|False` });
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });
});

// serve over HTTP: the 0600 Unix socket (stale one replaced, live one refused), loopback TCP with
// its bearer token and browser refusals, routes and their errors, and /v1/agent answering exactly
// what `run --dialect` prints.

import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, readlinkSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runBin } from '../cli/_helpers.js';
import { approvedHome, baseEnv, cleanupTemps, http, makeHome, postJson, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

function blockRmHome(): Promise<string> {
  const dir = tempDir();
  const hook = writeScript(
    join(dir, 'guard.sh'),
    `#!/bin/bash\np=$(cat)\nif [[ "$p" == *'rm -rf'* ]]; then echo '{"action":"block","message":"no rm -rf here"}'; else echo '{}'; fi\n`,
  );
  return approvedHome({ pre_tool_call: [{ command: hook, fail_closed: true }] });
}

describe('serve --socket', () => {
  it('listens on <home>/hermes-hooks.sock mode 0600 by default and removes it at shutdown', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, []);
    expect(served.socket).toBe(join(home, 'hermes-hooks.sock'));
    const st = statSync(served.socket!);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    const h = await http({ socketPath: served.socket! }, 'GET', '/v1/health');
    expect(h.status).toBe(200);
    expect(JSON.parse(h.body)).toMatchObject({ status: 'ok', home, transports: [`unix:${served.socket}`], in_flight: 0 });
    expect(await stopServe(served)).toBe(0);
    expect(() => statSync(served.socket!)).toThrow(/ENOENT/);
  });

  it('replaces a stale socket, refuses a live one and a path that is not a socket', async () => {
    const dir = tempDir();
    const home = makeHome('hooks: {}\n');
    const sock = join(dir, 's.sock');
    // A stale socket: bound by a process that died without removing it (as after a crash).
    execFileSync('python3', ['-c', 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])', sock]);
    expect(statSync(sock).isSocket()).toBe(true);
    const served = await startServe(home, ['--socket', sock]);
    expect((await http({ socketPath: sock }, 'GET', '/v1/health')).status).toBe(200);

    const second = await runBin(['serve', '--home', home, '--socket', sock], { killAfterMs: 20_000 });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`hermes-hooks: serve: a server is already listening on ${sock}; stop it first, or pass --socket another path\n`);
    expect((await http({ socketPath: sock }, 'GET', '/v1/health')).status).toBe(200); // untouched

    const file = join(dir, 'plain');
    writeFileSync(file, 'keep me');
    const third = await runBin(['serve', '--home', home, '--socket', file], { killAfterMs: 20_000 });
    expect(third.code).toBe(1);
    expect(third.stderr).toBe(`hermes-hooks: serve: ${file} exists and is not a socket; refusing to replace it (move it away or pass --socket another path)\n`);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(await stopServe(served)).toBe(0);
  });

  it('routes: emit, finalize, health; a blocked emit is 200; bad requests are 4xx and the server keeps serving', async () => {
    const home = await blockRmHome();
    const served = await startServe(home, ['--max-body', '4096']);
    const blocked = await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's' });
    expect(blocked.status).toBe(200);
    expect(JSON.parse(blocked.body).decision).toMatchObject({ action: 'block', message: 'no rm -rf here', decided_by: 0 });
    const err = async (r: Promise<{ status: number; body: string }>) => {
      const x = await r;
      return [x.status, JSON.parse(x.body).error.message];
    };
    expect(await err(postJson(served, '/v1/emit/pre_tool_call', '{"tool_name":'))).toEqual([
      400,
      expect.stringMatching(/^the request body is not valid JSON: /),
    ]);
    expect(await err(postJson(served, '/v1/emit/pre_tool_call', '[1]'))).toEqual([400, '"kwargs" must be a JSON object, not an array']);
    expect(await err(postJson(served, '/v1/emit/pre_tool_cal', {}))).toEqual([
      404,
      expect.stringMatching(/^unknown hook event 'pre_tool_cal' \(did you mean 'pre_tool_call'\?\)/),
    ]);
    const big = JSON.stringify({ pad: 'x'.repeat(5000) });
    expect(await err(postJson(served, '/v1/emit/pre_tool_call', big))).toEqual([
      413,
      `request body of ${big.length} bytes is over the 4096-byte limit (--max-body)`,
    ]);
    expect(await err(http({ socketPath: served.socket! }, 'GET', '/v1/emit/pre_tool_call'))).toEqual([405, '/v1/emit/pre_tool_call takes POST, not GET']);
    expect(await err(http({ socketPath: served.socket! }, 'GET', '/nope'))).toEqual([
      404,
      "no route GET /nope; routes live under /v1/ (GET /v1/health lists the server's state)",
    ]);
    expect(await err(postJson(served, '/v1/agent/vim/PreToolUse', {}))).toEqual([
      404,
      "unknown agent 'vim' (one of: claude, codex, gemini, cursor, copilot, qwen, droid, goose, antigravity)",
    ]);
    expect(await err(postJson(served, '/v1/gateway', { event: 'agent:start' }))).toEqual([400, 'emit_gateway needs a server started with --surface gateway']);
    const fin = await postJson(served, '/v1/finalize', { session_id: 's' });
    expect(fin.status).toBe(200);
    expect(JSON.parse(fin.body)).toMatchObject({ emission: { event: 'on_session_finalize' }, notices: [] });
    const allowed = await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    expect(JSON.parse(allowed.body).decision.action).toBe('allow');
    expect(await stopServe(served)).toBe(0);
  });

  it('POST /v1/agent/<agent>/<event> answers byte for byte what run --dialect prints, exit code in a header', async () => {
    const home = await blockRmHome();
    const served = await startServe(home, []);
    const cases: [string, string, Record<string, unknown>][] = [
      ['claude', 'PreToolUse', { session_id: 'c1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' }],
      ['claude', 'PreToolUse', { session_id: 'c1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' }],
      ['codex', 'PreToolUse', { session_id: 'x1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' }],
      [
        'gemini',
        'BeforeTool',
        { session_id: 'g1', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' },
      ],
      [
        'cursor',
        'preToolUse',
        { conversation_id: 'k1', hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'rm -rf /' }, workspace_roots: ['/tmp'] },
      ],
    ];
    for (const [agent, event, stdin] of cases) {
      const viaRun = await runBin(['run', event, '--dialect', agent, '--home', home], { stdin: JSON.stringify(stdin) });
      const viaServe = await postJson(served, `/v1/agent/${agent}/${event}`, stdin);
      expect(viaServe.status).toBe(200);
      expect([agent, viaServe.body]).toEqual([agent, viaRun.stdout]);
      expect([agent, Number(viaServe.headers['x-hermes-hooks-exit'])]).toEqual([agent, viaRun.code]);
      const stderr = viaServe.headers['x-hermes-hooks-stderr'];
      expect([agent, stderr === undefined ? '' : decodeURIComponent(String(stderr))]).toEqual([agent, viaRun.stderr]);
    }
    // What cannot be decided on a tool gate is that agent's own block, as run --dialect answers it.
    for (const [agent, event] of [
      ['codex', 'PreToolUse'],
      ['claude', 'PreToolUse'],
    ] as const) {
      for (const stdin of ['{"tool_name": ', '[1]']) {
        const viaRun = await runBin(['run', event, '--dialect', agent, '--home', home], { stdin });
        const viaServe = await postJson(served, `/v1/agent/${agent}/${event}`, stdin);
        expect([agent, viaServe.status, viaServe.body, Number(viaServe.headers['x-hermes-hooks-exit'])]).toEqual([agent, 200, viaRun.stdout, viaRun.code]);
        expect(viaRun.code === 2 || viaRun.stdout.includes('"deny"')).toBe(true);
        if (agent === 'codex') expect(decodeURIComponent(String(viaServe.headers['x-hermes-hooks-stderr']))).toBe(viaRun.stderr);
      }
    }
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('POST /v1/agent: a body over --max-body on a tool gate is the agent\'s own block, not a 413 it would take as "go ahead"', async () => {
    const home = await blockRmHome();
    const served = await startServe(home, ['--max-body', '4096']);
    const big = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls', pad: 'x'.repeat(5000) } };
    const r = await postJson(served, '/v1/agent/claude/PreToolUse', big);
    expect(r.status).toBe(200);
    expect(r.headers.connection).toBe('close');
    expect(Number(r.headers['x-hermes-hooks-exit'])).toBe(0);
    const size = Buffer.byteLength(JSON.stringify(big));
    expect(JSON.parse(r.body).hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining(`request body of ${size} bytes is over the 4096-byte limit (--max-body)`),
    });
    // Not a tool gate: an error as before.
    const postBody = { ...big, hook_event_name: 'PostToolUse' };
    const post = await postJson(served, '/v1/agent/claude/PostToolUse', postBody);
    const postSize = Buffer.byteLength(JSON.stringify(postBody));
    expect([post.status, JSON.parse(post.body).error.message]).toEqual([413, `request body of ${postSize} bytes is over the 4096-byte limit (--max-body)`]);
    expect(await stopServe(served)).toBe(0);
  });
});

/** Local addresses (hex, as in /proc/net/tcp*) of the listening TCP sockets of `pid`. */
function listeningAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!)) out.push(f[1]!);
    }
  }
  return out;
}

describe('serve --http', () => {
  it('needs the bearer token (401), refuses an Origin header or a foreign Host (403), and listens on loopback only', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--http', '127.0.0.1:0']);
    const t = { port: served.port! };
    const tokenFile = join(home, 'hermes-hooks.token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(served.token).toMatch(/^[0-9a-f]{64}$/);
    const auth = { authorization: `Bearer ${served.token}` };

    const none = await http(t, 'GET', '/v1/health');
    expect([none.status, JSON.parse(none.body).error.message]).toEqual([
      401,
      'missing Authorization: Bearer <token> (the token is in the profile home, hermes-hooks.token)',
    ]);
    const wrong = await http(t, 'GET', '/v1/health', { headers: { authorization: 'Bearer 0000000000000000' } });
    expect([wrong.status, JSON.parse(wrong.body).error.message]).toEqual([401, 'wrong bearer token']);
    const origin = await http(t, 'POST', '/v1/emit/pre_tool_call', { body: '{}', headers: { ...auth, origin: 'http://127.0.0.1:1234' } });
    expect([origin.status, JSON.parse(origin.body).error.message]).toEqual([403, 'requests from a browser (with an Origin header) are refused']);
    const rebound = await http(t, 'GET', '/v1/health', { headers: { ...auth, host: `evil.example:${served.port}` } });
    expect([rebound.status, JSON.parse(rebound.body).error.message]).toEqual([403, `Host 'evil.example:${served.port}' is not this server's address`]);
    const ok = await http(t, 'GET', '/v1/health', { headers: auth });
    expect(ok.status).toBe(200);
    const local = await http(t, 'GET', '/v1/health', { headers: { ...auth, host: `localhost:${served.port}` } });
    expect(local.status).toBe(200);

    // Nothing listens on a non-loopback address: 127.0.0.1 is 0100007F in /proc/net/tcp.
    expect(listeningAddresses(served.child.pid!)).toEqual([`0100007F:${served.port!.toString(16).toUpperCase().padStart(4, '0')}`]);
    expect(await stopServe(served)).toBe(0);

    // The same token is used on the next start.
    const again = await startServe(home, ['--http', '127.0.0.1:0']);
    expect(again.token).toBe(served.token);
    expect(await stopServe(again)).toBe(0);
  });

  it('refuses a non-loopback address unless --allow-remote; --token-env takes the token from the environment', async () => {
    const home = makeHome('hooks: {}\n');
    const r = await runBin(['serve', '--home', home, '--http', '0.0.0.0:0'], { killAfterMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'hermes-hooks: serve: refusing to listen on 0.0.0.0: it is not a loopback address; pass --allow-remote if other machines must reach this server (every request still needs the token)\n',
    );
    const secret = 'a-long-secret-from-the-environment';
    const served = await startServe(home, ['--http', '127.0.0.1:0', '--token-env', 'HH_TOKEN'], { env: baseEnv({ HH_TOKEN: secret }) });
    expect((await http({ port: served.port! }, 'GET', '/v1/health', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await http({ port: served.port! }, 'GET', '/v1/health', { headers: { authorization: 'Bearer a-long-secret-from-the-environmenT' } })).status).toBe(
      401,
    );
    // The secret stays in the environment: no token file is written.
    expect(() => statSync(join(home, 'hermes-hooks.token'))).toThrow(/ENOENT/);
    expect(await stopServe(served)).toBe(0);
  });

  it('refuses a token file others can read', async () => {
    const home = makeHome('hooks: {}\n');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'hermes-hooks.token'), 'f'.repeat(64), { mode: 0o644 });
    const r = await runBin(['serve', '--home', home, '--http', '127.0.0.1:0'], { killAfterMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `hermes-hooks: serve: token file ${join(home, 'hermes-hooks.token')} is readable by others (mode 644); run: chmod 600 ${join(home, 'hermes-hooks.token')}\n`,
    );
  });
});

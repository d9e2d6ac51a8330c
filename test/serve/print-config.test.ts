// print-config <agent> wires an agent to serve: by default every agent through the bundled client
// on the socket, Claude Code with --http through its http hooks with the bearer token.
// The wired calls, made as the agent makes them, answer what `run --dialect` answers; with the
// server down the client blocks (exit 2) instead of failing open.

import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_HOOK_TIMEOUT_S } from '../../src/deadlines.js';
import { runBin, runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, CLIENT, cleanupTemps, http, runShell as sh, servesOf, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

/** A pre_tool_call guard; `more`: hooks on other events too (print-config wires only the profile's events). */
async function guardedHome(more: Record<string, string[]> = {}): Promise<string> {
  const dir = tempDir();
  const hook = writeScript(
    join(dir, 'g.sh'),
    `#!/bin/bash\np=$(cat)\nif [[ "$p" == *'rm -rf'* ]]; then echo '{"action":"block","message":"no rm -rf"}'; else echo '{}'; fi\n`,
  );
  return approvedHome({ pre_tool_call: [{ command: hook, fail_closed: true }], ...more });
}

describe('print-config: the serve wirings', () => {
  it('Claude Code --http: http hooks to the loopback URL with the token header, failing closed', async () => {
    const home = await guardedHome();
    const r = await runMain(['print-config', 'claude', '--http', '--url', 'http://127.0.0.1:8765', '--home', home]);
    expect(r.code).toBe(0);
    const pre = JSON.parse(r.stdout).hooks.PreToolUse;
    expect(pre).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'http',
            url: 'http://127.0.0.1:8765/v1/agent/claude/PreToolUse',
            headers: { Authorization: 'Bearer $HERMES_HOOKS_TOKEN' },
            allowedEnvVars: ['HERMES_HOOKS_TOKEN'],
            timeout: AGENT_HOOK_TIMEOUT_S,
            onFailure: 'block',
          },
        ],
      },
    ]);
    // The notes say what onFailure depends on, and do not suggest adding what the snippet has.
    expect(r.stderr).toContain(
      'Needs Claude Code 2.1.295+ for "onFailure": "block": an older one lets every call through while the\n' +
        '  server is down or the token is wrong — wire it with print-config claude (no --http) there.\n',
    );
    expect(r.stderr).not.toContain('add "onFailure"');
    // The wired request, as Claude sends it (header filled from the environment), gets run's answer.
    const served = await startServe(home, ['--http', '127.0.0.1:0']);
    const stdin = JSON.stringify({ session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });
    const url = new URL(pre[0].hooks[0].url.replace('8765', String(served.port)));
    const res = await http({ port: served.port! }, 'POST', url.pathname, { body: stdin, headers: { authorization: `Bearer ${served.token}` } });
    const viaRun = await runBin(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin });
    expect(res.status).toBe(200);
    expect(res.body).toBe(viaRun.stdout);
    expect(JSON.parse(res.body).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(await stopServe(served)).toBe(0);
  });

  it('by default (and with --serve) Codex, Gemini, Cursor get the client on the profile socket, answering as run --dialect; a server that is down blocks', async () => {
    const home = await guardedHome();
    const socket = join(home, 'hermes-hooks.sock');
    const guard = (agent: string) =>
      `/bin/sh -c 'test -x "$0" && test -x "$1" && exec "$0" "$@"; echo "hermes-hooks: $1 or $0 is missing; reinstall, then print-config ${agent}" >&2; exit 2'`;
    // The perl client, run by the perl found on PATH (absolute: the agent's PATH may have none).
    // The short form: the socket is the home's default, node and CLI are in the home's client settings.
    const perl = (await sh('command -v perl', '', baseEnv())).stdout.trim();
    const wired = (agent: string, event: string) => `${guard(agent)} ${perl} ${CLIENT} ${agent} ${event} --gate 1 --home ${home}`;
    const cfg = async (agent: string) => JSON.parse((await runMain(['print-config', agent, '--home', home])).stdout);
    expect(await cfg('codex')).toEqual(JSON.parse((await runMain(['print-config', 'codex', '--serve', '--home', home])).stdout));
    const codex = (await cfg('codex')).hooks.PreToolUse[0].hooks[0];
    expect(codex).toEqual({ type: 'command', command: wired('codex', 'PreToolUse'), timeout: AGENT_HOOK_TIMEOUT_S });
    const gemini = (await cfg('gemini')).hooks.BeforeTool[0].hooks[0];
    expect(gemini).toEqual({ name: 'hermes-hooks', type: 'command', command: wired('gemini', 'BeforeTool'), timeout: AGENT_HOOK_TIMEOUT_S * 1000 });
    const cursor = (await cfg('cursor')).hooks.preToolUse[0];
    expect(cursor).toEqual({ command: wired('cursor', 'preToolUse'), timeout: AGENT_HOOK_TIMEOUT_S, failClosed: true });

    const cases: [string, string, string][] = [
      [
        'codex',
        codex.command,
        JSON.stringify({ session_id: 'x', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' }),
      ],
      [
        'gemini',
        gemini.command,
        JSON.stringify({ session_id: 'g', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' }),
      ],
      [
        'cursor',
        cursor.command,
        JSON.stringify({ conversation_id: 'k', hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'ls' }, workspace_roots: ['/tmp'] }),
      ],
    ];
    // Down: every wired call blocks with the reason.
    for (const [agent, command, stdin] of cases) {
      const down = await sh(command, stdin, baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }));
      expect([agent, down.code, down.stdout]).toEqual([agent, 2, '']);
      expect(down.stderr).toBe(
        `hermes-hooks-client: no hermes-hooks serve is running for ${socket} (there is no socket there); start it with: hermes-hooks serve --home ${home}; blocking this call (exit 2) rather than letting it through unguarded\n`,
      );
    }
    // The client gone (package removed): blocked with the reason, not "command not found".
    const gone = await sh(codex.command.replace(CLIENT, '/nonexistent/hermes-hooks-client'), cases[0]![2], baseEnv());
    expect([gone.code, gone.stdout, gone.stderr]).toEqual([
      2,
      '',
      `hermes-hooks: /nonexistent/hermes-hooks-client or ${perl} is missing; reinstall, then print-config codex\n`,
    ]);
    // perl gone (removed, or the snippet copied to a machine without it): blocked with the reason.
    const noPerl = await sh(codex.command.replace(` ${perl} `, ' /nonexistent/perl '), cases[0]![2], baseEnv());
    expect([noPerl.code, noPerl.stdout, noPerl.stderr]).toEqual([
      2,
      '',
      `hermes-hooks: ${CLIENT} or /nonexistent/perl is missing; reinstall, then print-config codex\n`,
    ]);
    const served = await startServe(home, []);
    for (const [agent, command, stdin] of cases) {
      const event = /\/hermes-hooks-client \S+ (\S+) /.exec(command)![1]!;
      const viaClient = await sh(command, stdin, baseEnv());
      const viaRun = await runBin(['run', event, '--dialect', agent, '--home', home], { stdin });
      expect([agent, viaClient.code, viaClient.stdout, viaClient.stderr]).toEqual([agent, viaRun.code, viaRun.stdout, viaRun.stderr]);
    }
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it('only tool gates fail closed: with the server down or the client gone, Stop and AfterAgent are a non-blocking error (exit 1), never a forced turn', async () => {
    const home = await guardedHome({ pre_verify: ['/bin/true'] });
    const socket = join(home, 'hermes-hooks.sock');
    const cfg = async (agent: string, ...extra: string[]) => JSON.parse((await runMain(['print-config', agent, ...extra, '--home', home])).stdout);
    const claude = (await cfg('claude', '--http')).hooks;
    expect(claude.PreToolUse[0].hooks[0].onFailure).toBe('block');
    for (const event of ['Stop', 'UserPromptSubmit', 'PostToolUse', 'SessionStart'])
      expect([event, claude[event][0].hooks[0].onFailure]).toEqual([event, undefined]);

    const perl = (await sh('command -v perl', '', baseEnv())).stdout.trim();
    const codexStop = (await cfg('codex')).hooks.Stop[0].hooks[0].command as string;
    const geminiAfter = (await cfg('gemini')).hooks.AfterAgent[0].hooks[0].command as string;
    const stdin = JSON.stringify({ session_id: 'x', hook_event_name: 'Stop', stop_hook_active: false, cwd: '/tmp' });
    for (const [event, command] of [
      ['Stop', codexStop],
      ['AfterAgent', geminiAfter],
    ] as const) {
      const down = await sh(command, stdin, baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }));
      expect([event, down.code, down.stdout]).toEqual([event, 1, '']);
      expect(down.stderr).toBe(
        `hermes-hooks-client: no hermes-hooks serve is running for ${socket} (there is no socket there); start it with: hermes-hooks serve --home ${home}; ${event} is not a tool gate, so the agent goes on without hermes-hooks (exit 1, a non-blocking error)\n`,
      );
      const gone = await sh(command.replace(CLIENT, '/nonexistent/hermes-hooks-client'), stdin, baseEnv());
      expect([event, gone.code, gone.stderr]).toEqual([
        event,
        1,
        `hermes-hooks: /nonexistent/hermes-hooks-client or ${perl} is missing; reinstall, then print-config ${event === 'Stop' ? 'codex' : 'gemini'}\n`,
      ]);
    }
    // As run --dialect answers when it cannot decide outside a tool gate.
    writeFileSync(join(home, 'config.yaml'), 'hooks: [\n');
    expect((await runBin(['run', 'Stop', '--dialect', 'codex', '--home', home], { stdin })).code).toBe(1);
  }, 60_000);

  it('the client carries a tool call over 1 MiB (curl would send Expect: 100-continue) and answers as run --dialect', async () => {
    const dir = tempDir();
    const hook = writeScript(join(dir, 'big.sh'), `#!/bin/bash\np=$(cat)\necho "{\\"action\\": \\"block\\", \\"message\\": \\"saw \${#p} bytes\\"}"\n`);
    const home = await approvedHome({ pre_tool_call: [hook] });
    const socket = join(home, 'hermes-hooks.sock');
    const stdin = JSON.stringify({
      session_id: 'big',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/tmp/x', content: 'a'.repeat(1_500_000) },
      cwd: '/tmp',
    });
    const served = await startServe(home, []);
    const viaClient = await sh(`${CLIENT} codex PreToolUse ${socket}`, stdin, baseEnv());
    const viaRun = await runBin(['run', 'PreToolUse', '--dialect', 'codex', '--home', home], { stdin });
    expect([viaRun.code, viaRun.stdout]).toEqual([2, '']);
    expect(viaRun.stderr).toMatch(/^saw 15\d{5} bytes\n$/);
    expect([viaClient.code, viaClient.stdout, viaClient.stderr]).toEqual([viaRun.code, viaRun.stdout, viaRun.stderr]);
    expect(await stopServe(served)).toBe(0);
  }, 60_000);

  it("--config: the serve the printed client starts reads that file (with the home's allowlist), not the home's config.yaml", async () => {
    const home = await approvedHome({ post_tool_call: ['/bin/true'] }); // its own config.yaml has no guard
    const dir = tempDir();
    const guard = writeScript(join(dir, 'g.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"action":"block","message":"from the --config file"}'\n`);
    const config = join(dir, 'other.yaml');
    writeFileSync(config, `hooks:\n  pre_tool_call:\n    - command: ${guard}\n`);
    expect((await runBin(['approve', '--all', '--home', home, '--config', config])).code).toBe(0);
    const printed = JSON.parse((await runMain(['print-config', 'codex', '--home', home, '--config', config])).stdout);
    const command = printed.hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toContain(` --serve-args '--config ${config}'`);
    const stdin = JSON.stringify({ session_id: 'x', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
    try {
      const r = await sh(command, stdin, baseEnv());
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'from the --config file\n']);
    } finally {
      for (const pid of servesOf(home)) process.kill(pid, 'SIGKILL');
    }
    writeFileSync(join(dir, 'a b.yaml'), 'hooks: {}\n');
    const spaced = await runMain(['print-config', 'codex', '--home', home, '--config', join(dir, 'a b.yaml')]);
    expect([spaced.code, spaced.stderr]).toEqual([
      1,
      `hermes-hooks: print-config: the serve the client starts cannot be given --config ${join(dir, 'a b.yaml')} (a path with spaces); move the file, or wire --run\n`,
    ]);
  }, 60_000);

  it("the client's interpreter is an executable found in an absolute PATH directory (else /usr/bin, /bin): never a relative one, never one that cannot run", async () => {
    const home = await guardedHome();
    const cwd = tempDir();
    writeScript(join(cwd, 'rel', 'perl'), '#!/bin/sh\nexit 0\n'); // on PATH as a relative directory
    const notExecutable = join(tempDir(), 'bin');
    writeScript(join(notExecutable, 'perl'), '#!/bin/sh\nexit 0\n', 0o644);
    // The real process, in that directory: a relative PATH entry is looked up from the process's cwd.
    const r = await runBin(['print-config', 'codex', '--home', home], { cwd, env: baseEnv({ PATH: `rel:${notExecutable}` }) });
    expect(r.code).toBe(0);
    const perl = (await sh('command -v perl', '', baseEnv())).stdout.trim();
    expect(JSON.parse(r.stdout).hooks.PreToolUse[0].hooks[0].command).toContain(`' ${perl} ${CLIENT} codex PreToolUse `);
  });

  it('flags that do not go together are errors that say why', async () => {
    const said = async (...args: string[]) => {
      const r = await runMain(['print-config', ...args]);
      return [r.code, r.stdout, r.stderr];
    };
    expect(await said('codex', '--url', 'http://127.0.0.1:1')).toEqual([
      1,
      '',
      'hermes-hooks: print-config: --url is for agents with http hooks (claude); Codex runs commands — drop --url\n',
    ]);
    expect(await said('gemini', '--http')).toEqual([
      1,
      '',
      'hermes-hooks: print-config: --http is for agents with http hooks (claude); Gemini CLI runs commands — drop --http\n',
    ]);
    expect(await said('claude', '--run', '--http')).toEqual([1, '', 'hermes-hooks: print-config: --run and --http are two different wirings; give one\n']);
    expect(await said('claude', '--command', 'hh', '--url', 'http://127.0.0.1:1')).toEqual([
      1,
      '',
      'hermes-hooks: print-config: --command and --url are two different wirings; give one\n',
    ]);
    expect(await said('codex', '--run', '--serve')).toEqual([1, '', 'hermes-hooks: print-config: --run and --serve are two different wirings; give one\n']);
    expect(await said('codex', '--run', '--socket', '/tmp/x.sock')).toEqual([
      1,
      '',
      'hermes-hooks: print-config: --socket is for the serve wiring (the default); --run starts no server\n',
    ]);
  });

  it('Claude Code by default: every event through the client, no token, nothing to start; --url implies --http', async () => {
    const home = await guardedHome();
    const hooks = JSON.parse((await runMain(['print-config', 'claude', '--home', home])).stdout).hooks as Record<
      string,
      { hooks: Record<string, unknown>[] }[]
    >;
    for (const [event, groups] of Object.entries(hooks)) {
      const handler = groups[0]!.hooks[0]!;
      expect([event, handler.type, handler.timeout]).toEqual([event, 'command', AGENT_HOOK_TIMEOUT_S]);
      expect(handler.command).toContain(`${CLIENT} claude ${event} `);
    }
    const viaUrl = JSON.parse((await runMain(['print-config', 'claude', '--url', 'http://127.0.0.1:9', '--home', home])).stdout).hooks;
    expect(viaUrl.PreToolUse[0].hooks[0].url).toBe('http://127.0.0.1:9/v1/agent/claude/PreToolUse');
    const served = await startServe(home, []);
    const stdin = JSON.stringify({ session_id: 'c', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });
    const viaClient = await sh(hooks.PreToolUse![0]!.hooks[0]!.command as string, stdin, baseEnv());
    const viaRun = await runBin(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin });
    expect([viaClient.code, viaClient.stdout, viaClient.stderr]).toEqual([viaRun.code, viaRun.stdout, viaRun.stderr]);
    expect(JSON.parse(viaClient.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(await stopServe(served)).toBe(0);
  }, 60_000);
});

// The bundled client beside a `serve --http` the person runs (issue 33): a serve started with
// --http alone used to hold the port but no socket, so the client's autostart (which asks for the
// same port, for Claude's http hooks) died on EADDRINUSE and SessionStart / UserPromptSubmit were
// skipped. Now serve --http listens on the profile's socket too, and a serve the client starts
// leaves a port that is already held alone. Real serves, the real clients, print-config's commands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, CLIENT, CLIENT_BASH, cleanupTemps, http, runShell, servesOf, startServe, stopServe, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

const PROMPT = JSON.stringify({ session_id: 'p1', hook_event_name: 'UserPromptSubmit', prompt: 'hi', cwd: '/tmp' });
const START = JSON.stringify({ session_id: 'p1', transcript_path: null, cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' });
const TOOL = JSON.stringify({ session_id: 'p1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

/** A home with one approved guard that blocks. */
async function guardedHome(): Promise<{ home: string; dir: string }> {
  const dir = tempDir();
  const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\necho '{"action":"block","message":"no"}'\n`);
  return { home: await approvedHome({ pre_tool_call: [guard] }), dir };
}

/** print-config claude --http's client command for `event` (the wiring for `port`), run by `client` (perl's or bash's). */
async function printed(home: string, port: number, client: string): Promise<(event: string) => string> {
  const hooks = JSON.parse((await runMain(['print-config', 'claude', '--http', '--url', `http://127.0.0.1:${port}`, '--home', home])).stdout).hooks;
  const bash = (await runShell('command -v bash', '')).stdout.trim();
  return (event) => {
    const command = hooks[event][0].hooks[0].command as string;
    return client === CLIENT ? command : command.replace(/ \S+ \S+hermes-hooks-client claude /, ` ${bash} ${CLIENT_BASH} claude `);
  };
}

/** Claude's http tool gate, as it sends it, to `port`: the permission decision. */
async function gate(port: number, home: string, path: string): Promise<string> {
  const token = readFileSync(join(home, 'hermes-hooks.token'), 'utf8').trim();
  const res = await http({ port }, 'POST', path, { body: TOOL, headers: { authorization: `Bearer ${token}` } });
  return JSON.parse(res.body).hookSpecificOutput.permissionDecision;
}

describe('the client and a serve started with --http alone', () => {
  it.each([
    ['perl', CLIENT],
    ['bash', CLIENT_BASH],
  ])(
    '(%s client) SessionStart and UserPromptSubmit are answered by that serve, on the socket it now also holds',
    async (_name, client) => {
      const { home } = await guardedHome();
      const served = await startServe(home, ['--http', '127.0.0.1:0']);
      try {
        expect(served.socket).toBe(join(home, 'hermes-hooks.sock'));
        const command = await printed(home, served.port!, client);
        for (const [event, stdin] of [
          ['SessionStart', START],
          ['UserPromptSubmit', PROMPT],
        ] as const) {
          const r = await runShell(command(event), stdin);
          expect([event, r.code, r.stderr]).toEqual([event, 0, '']);
        }
        expect(servesOf(home)).toEqual([served.child.pid]); // none started beside it
        expect(await gate(served.port!, home, '/v1/agent/claude/PreToolUse')).toBe('deny');
      } finally {
        expect(await stopServe(served)).toBe(0);
      }
    },
    60_000,
  );

  it.each([
    ['perl', CLIENT],
    ['bash', CLIENT_BASH],
  ])(
    '(%s client) the port held by an http serve with its socket elsewhere: the serve the client starts is socket-only and answers',
    async (_name, client) => {
      const { home, dir } = await guardedHome();
      const served = await startServe(home, ['--socket', join(dir, 'elsewhere.sock'), '--http', '127.0.0.1:0']);
      try {
        const command = await printed(home, served.port!, client);
        const r = await runShell(command('UserPromptSubmit'), PROMPT);
        expect([r.code, r.stderr]).toEqual([0, '']);
        const started = servesOf(home).filter((pid) => pid !== served.child.pid);
        expect(started).toHaveLength(1);
        const argv = readFileSync(`/proc/${started[0]}/cmdline`, 'utf8').split('\0');
        expect(argv).not.toContain('--http');
        expect(argv).toContain(join(home, 'hermes-hooks.sock'));
        // Both go on answering: the client's events on the socket, Claude's http gate on the port.
        expect((await runShell(command('SessionStart'), START)).code).toBe(0);
        expect(await gate(served.port!, home, '/v1/agent/claude/PreToolUse')).toBe('deny');
      } finally {
        for (const pid of servesOf(home)) if (pid !== served.child.pid) process.kill(pid, 'SIGKILL');
        expect(await stopServe(served)).toBe(0);
      }
    },
    60_000,
  );
});

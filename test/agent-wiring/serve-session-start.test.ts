// Claude Code wired by `print-config claude --http` (issue 23): SessionStart, which Claude never
// sends over HTTP, reaches a real serve through the client's command hook on the socket, and the
// tool gate over http still answers; serve started the way print-config says (--socket + --http).

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, cleanupTemps, http, runShell, servesOf, startServe, stopServe, tempDir, waitFor, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

const sh = (command: string, stdin: string) => runShell(command, stdin);

describe('print-config claude --http against a real serve', () => {
  it('SessionStart goes through the client on the socket and reaches the profile hook; PreToolUse over http still blocks', async () => {
    const dir = tempDir();
    const seen = join(dir, 'session-started');
    const started = writeScript(join(dir, 'start.sh'), `#!/bin/bash\ncat > ${JSON.stringify(seen)}\necho '{}'\n`);
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\necho '{"action":"block","message":"no"}'\n`);
    const home = await approvedHome({ on_session_start: [started], pre_tool_call: [guard] });
    const printed = await runMain(['print-config', 'claude', '--http', '--home', home]);
    const hooks = JSON.parse(printed.stdout).hooks;
    const socket = join(home, 'hermes-hooks.sock');
    const served = await startServe(home, ['--socket', socket, '--http', '127.0.0.1:0']);
    try {
      const start = await sh(
        hooks.SessionStart[0].hooks[0].command,
        JSON.stringify({ session_id: 'c1', transcript_path: null, cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' }),
      );
      expect([start.code, start.stderr]).toEqual([0, '']);
      expect(await waitFor(() => existsSync(seen), 10_000)).toBe(true);
      expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ hook_event_name: 'on_session_start', session_id: 'c1' });

      const url = new URL(hooks.PreToolUse[0].hooks[0].url);
      const stdin = JSON.stringify({ session_id: 'c1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
      const res = await http({ port: served.port! }, 'POST', url.pathname, { body: stdin, headers: { authorization: `Bearer ${served.token}` } });
      expect(JSON.parse(res.body).hookSpecificOutput.permissionDecision).toBe('deny');
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 60_000);
});

describe('print-config claude --http with no serve running', () => {
  it("the first prompt's client command starts a serve that listens on the socket and on the printed --http address", async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\necho '{"action":"block","message":"no"}'\n`);
    const home = await approvedHome({ pre_tool_call: [guard] });
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const printed = await runMain(['print-config', 'claude', '--http', '--url', `http://127.0.0.1:${port}`, '--home', home]);
    const hooks = JSON.parse(printed.stdout).hooks;
    try {
      const prompt = await sh(
        hooks.UserPromptSubmit[0].hooks[0].command,
        JSON.stringify({ session_id: 'c2', hook_event_name: 'UserPromptSubmit', prompt: 'hi', cwd: '/tmp' }),
      );
      expect([prompt.code, prompt.stderr]).toEqual([0, '']);
      expect(servesOf(home)).toHaveLength(1);
      // The turn's tool gate, over http, as Claude sends it: the serve the client started answers it.
      const token = readFileSync(join(home, 'hermes-hooks.token'), 'utf8').trim();
      const stdin = JSON.stringify({ session_id: 'c2', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
      const res = await http({ port }, 'POST', new URL(hooks.PreToolUse[0].hooks[0].url).pathname, {
        body: stdin,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(JSON.parse(res.body).hookSpecificOutput.permissionDecision).toBe('deny');
    } finally {
      for (const pid of servesOf(home)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});

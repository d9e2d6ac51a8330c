// The short printed command (issue 33): `client AGENT EVENT --gate N --home H`, the rest in
// <home>/hermes-hooks-client.env, which print-config writes and the client reads at each call — only
// when it is yours and no other user can write it (it names the program a start runs). The old,
// long form keeps working. Real print-config, the real clients, a real serve they start.
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, BIN, CLIENT, CLIENTS, cleanupTemps, runShell, servesOf, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

const TOOL = JSON.stringify({ session_id: 'x', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });
// The agent's PATH without hermes-hooks or node on it: the client starts serve with what the file names.
const BARE = baseEnv({ PATH: '/usr/bin:/bin' });

async function wiredHome(client: string): Promise<{ home: string; command: string; file: string }> {
  const guard = writeScript(join(tempDir(), 'guard.sh'), `#!/bin/bash\necho '{"action":"block","message":"no rm"}'\n`);
  const home = await approvedHome({ pre_tool_call: [guard] });
  const hooks = JSON.parse((await runMain(['print-config', 'codex', '--home', home])).stdout).hooks;
  const bash = (await runShell('command -v bash', '')).stdout.trim();
  const printed = hooks.PreToolUse[0].hooks[0].command as string;
  const command = client === CLIENT ? printed : printed.replace(/ \S+ \S+hermes-hooks-client codex /, ` ${bash} ${client} codex `);
  return { home, command, file: join(home, 'hermes-hooks-client.env') };
}

const killServes = (home: string) => {
  for (const pid of servesOf(home)) process.kill(pid, 'SIGKILL');
};

describe.each(CLIENTS)('the client settings file ($name client)', ({ path: client }) => {
  it('print-config writes it (mode 644, node and CLI); the short command starts serve with them on a bare PATH and is answered', async () => {
    const { home, command, file } = await wiredHome(client);
    try {
      expect(command).toMatch(/hermes-hooks-client(\.bash)? codex PreToolUse --gate 1 --home \S+$/);
      expect(statSync(file).mode & 0o777).toBe(0o644);
      expect(readFileSync(file, 'utf8')).toContain(`\nHERMES_HOOKS_NODE=${process.execPath}\nHERMES_HOOKS_BIN=${BIN}\n`);
      // Codex's block: exit 2 with the guard's reason (the serve the client started answered it).
      const r = await runShell(command, TOOL, BARE);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'no rm\n']);
      expect(servesOf(home)).toHaveLength(1);
    } finally {
      killServes(home);
    }
  }, 60_000);

  it('writable by other users: not read, and the gate blocks saying so; gone: the start fails saying what is missing', async () => {
    const { home, command, file } = await wiredHome(client);
    try {
      chmodSync(file, 0o666);
      const open = await runShell(command, TOOL, BARE);
      expect([open.code, open.stdout]).toEqual([2, '']);
      expect(open.stderr).toBe(
        `hermes-hooks-client: the client's settings cannot be used: ${file} is writable by other users (mode 666); run: chmod go-w ${file}; ` +
          'blocking this call (exit 2) rather than letting it through unguarded\n',
      );
      rmSync(file);
      const gone = await runShell(command, TOOL, BARE);
      expect(gone.code).toBe(2);
      expect(gone.stderr).toContain('starting one failed: hermes-hooks is not installed (or not on PATH)');
      expect(servesOf(home)).toEqual([]);
    } finally {
      killServes(home);
    }
  }, 60_000);

  it('the old long form (SOCKET word, --node, --bin on the command line) still works', async () => {
    const { home, command, file } = await wiredHome(client);
    try {
      rmSync(file);
      const old = command.replace(
        / codex PreToolUse --gate 1 --home (\S+)$/,
        ` codex PreToolUse $1/hermes-hooks.sock --gate 1 --home $1 --node ${process.execPath} --bin ${BIN}`,
      );
      expect(old).not.toBe(command);
      const r = await runShell(old, TOOL, BARE);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'no rm\n']);
    } finally {
      killServes(home);
    }
  }, 60_000);
});

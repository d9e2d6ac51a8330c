// Issue 29: another user must not be able to silence serve. With a profile home too long for
// <home>/hermes-hooks.sock and no $XDG_RUNTIME_DIR, the short socket lives in /tmp/hermes-hooks-<uid>;
// an attacker who makes that directory first (0777, theirs) used to make every tool call block.
// Now serve skips it — saying whose it is — and listens in the next candidate ($HOME/.cache/hermes-hooks,
// then /tmp/hermes-hooks-<uid>-1 …), and both bundled clients compute the same place and get an answer.
// The victim is a second uid too (setpriv, as root), so the real /tmp/hermes-hooks-0 is left alone.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asUser, ATTACKER, cleanupUsers, ownedDir, ROOT, runAs, sharedScratch, VICTIM } from '../_as-user.js';
import { runMain } from '../cli/_helpers.js';
import { chooseSocket } from '../../src/serve/socket-path.js';
import { BIN, CLIENTS, cleanupTemps, runWithStdin, servesOf, tempDir, waitFor, type Ran } from './_helpers.js';

const GATE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });
const TAKEN = `/tmp/hermes-hooks-${VICTIM}`;
const started: ChildProcess[] = [];

function clearTmp(): void {
  for (const d of [TAKEN, ...[1, 2, 3, 4].map((n) => `${TAKEN}-${n}`)]) rmSync(d, { recursive: true, force: true });
}

beforeEach(clearTmp);
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL');
  clearTmp();
});
afterAll(() => {
  cleanupTemps();
  cleanupUsers();
});

interface Victim {
  home: string;
  profile: string;
  env: NodeJS.ProcessEnv;
}

/** The victim's HOME (`extra` lengthens its path) and a profile home in it too long for its own socket, with a guard. */
function victim(extra = ''): Victim {
  const home = ownedDir(join(sharedScratch(), `victim${extra}`), VICTIM, 0o700);
  const profile = join(home, 'profiles', 'a-profile-home-with-a-rather-long-name'.repeat(2));
  runAs(VICTIM, ['mkdir', '-p', profile]);
  const guard = join(home, 'guard.sh');
  runAs(VICTIM, [
    'sh',
    '-c',
    `printf '%s\\n' '#!/bin/sh' 'echo "{\\"decision\\":\\"block\\",\\"reason\\":\\"guarded by the victim hook\\"}"' > ${guard} && chmod 755 ${guard}`,
  ]);
  runAs(VICTIM, ['sh', '-c', `printf 'hooks:\\n  pre_tool_call:\\n    - command: ${guard}\\n' > ${join(profile, 'config.yaml')}`]);
  return { home, profile, env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', HERMES_ACCEPT_HOOKS: '1' } };
}

const hex16 = (home: string): string => createHash('sha256').update(home).digest('hex').slice(0, 16);

/** The attacker's move: /tmp/hermes-hooks-<victim uid>, theirs, 0777, before the victim's serve. */
function takeTmpDir(): void {
  runAs(ATTACKER, ['sh', '-c', `mkdir ${TAKEN} && chmod 777 ${TAKEN}`]);
}

/** serve as the victim (no --socket: its own default); resolves once it listens. */
async function serveAsVictim(v: Victim): Promise<{ socket: string; stderr: () => string }> {
  const [cmd, ...args] = asUser(VICTIM, [process.execPath, BIN, 'serve', '--home', v.profile]);
  const child = spawn(cmd!, args, { env: v.env, stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  let err = '';
  let gone = false;
  child.stderr!.on('data', (d: Buffer) => (err += d));
  child.once('exit', () => (gone = true));
  await waitFor(() => gone || /serving HTTP on unix socket /.test(err), 20_000);
  const socket = /serving HTTP on unix socket (\S+) /.exec(err)?.[1];
  if (socket === undefined) throw new Error(`serve did not start: ${err}`);
  return { socket, stderr: () => err };
}

/** A bundled client as the victim. */
function clientAsVictim(client: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const interpreter = client.endsWith('.bash') ? 'bash' : 'perl';
  const [cmd, ...rest] = asUser(VICTIM, [interpreter, client, ...args]);
  return runWithStdin(cmd!, rest, GATE, env);
}

const denied = (r: Ran): string =>
  (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;

describe.each(CLIENTS)('a socket directory another user made first ($name client)', ({ path: client }) => {
  it('serve skips /tmp/hermes-hooks-<uid>, saying whose, and listens in $HOME/.cache/hermes-hooks; the client finds it there', async () => {
    if (!ROOT) return notRoot();
    const v = victim();
    takeTmpDir();
    const served = await serveAsVictim(v);
    expect(served.socket).toBe(`${v.home}/.cache/hermes-hooks/${hex16(v.profile)}.sock`);
    expect(served.stderr()).toContain(`socket directory skipped: ${TAKEN} belongs to uid ${ATTACKER}, not to you`);
    expect(statSync(`${v.home}/.cache/hermes-hooks`).mode & 0o777).toBe(0o700);
    const r = await clientAsVictim(client, ['claude', 'PreToolUse'], { ...v.env, HERMES_HOME: v.profile, HERMES_HOOKS_AUTOSTART: '0' });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(denied(r)).toContain('guarded by the victim hook');
  }, 60_000);

  it('a HOME too long for .cache: the next one is /tmp/hermes-hooks-<uid>-1, and the client finds it', async () => {
    if (!ROOT) return notRoot();
    const v = victim(`-${'h'.repeat(60)}`);
    takeTmpDir();
    const served = await serveAsVictim(v);
    expect(served.socket).toBe(`${TAKEN}-1/${hex16(v.profile)}.sock`);
    expect(served.stderr()).toContain(`${v.home}/.cache/hermes-hooks would make the socket path over 100 bytes`);
    const r = await clientAsVictim(client, ['claude', 'PreToolUse'], { ...v.env, HERMES_HOME: v.profile, HERMES_HOOKS_AUTOSTART: '0' });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(denied(r)).toContain('guarded by the victim hook');
  }, 60_000);

  it('taken after print-config: the printed command (no socket baked in) starts serve in the fallback and is answered', async () => {
    if (!ROOT) return notRoot();
    const v = victim();
    const printed = await runMain(['print-config', 'claude', '--home', v.profile], { env: v.env });
    expect(printed.code).toBe(0);
    const command = (JSON.parse(printed.stdout) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks['PreToolUse']![0]!.hooks[0]!.command;
    // The short form: no socket word and no --socket (the client finds the home's socket as serve does).
    expect(command).toMatch(/ claude PreToolUse --gate 1 --home \S+$/);
    const options = command.slice(command.indexOf(' PreToolUse ') + ' PreToolUse '.length).split(' ');
    takeTmpDir(); // after print-config, before the first call (say, after a reboot)
    const r = await clientAsVictim(client, ['claude', 'PreToolUse', ...options], v.env);
    try {
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(denied(r)).toContain('guarded by the victim hook');
    } finally {
      for (const pid of servesOf(v.profile)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});

describe('every socket directory taken', () => {
  it('the client blocks, naming each directory and whose it is', async () => {
    if (!ROOT) return notRoot();
    const v = victim(`-${'h'.repeat(60)}`);
    takeTmpDir();
    runAs(ATTACKER, ['sh', '-c', [1, 2, 3, 4].map((n) => `mkdir -m 777 ${TAKEN}-${n}`).join(' && ')]);
    for (const { path: client } of CLIENTS) {
      const r = await clientAsVictim(client, ['claude', 'PreToolUse'], { ...v.env, HERMES_HOME: v.profile, HERMES_HOOKS_AUTOSTART: '0' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`no private directory for the socket of ${v.profile}: ${TAKEN} belongs to uid ${ATTACKER}, not to you;`);
      expect(r.stderr).toContain(`${TAKEN}-4 belongs to uid ${ATTACKER}, not to you`);
    }
  }, 60_000);
});

/** No second user: our own $XDG_RUNTIME_DIR/hermes-hooks made 0777 is skipped the same way, for the next directory. */
function notRoot(): void {
  const runtime = tempDir();
  mkdirSync(join(runtime, 'hermes-hooks'));
  chmodSync(join(runtime, 'hermes-hooks'), 0o777);
  const profile = join(tempDir(), 'a-profile-home-with-a-rather-long-name'.repeat(3));
  const choice = chooseSocket(profile, { XDG_RUNTIME_DIR: runtime, HOME: tempDir() });
  expect(choice.skipped).toEqual([{ dir: join(runtime, 'hermes-hooks'), why: `${join(runtime, 'hermes-hooks')} is writable by other users (mode 777)` }]);
  expect(choice.socket).toBe(`/tmp/hermes-hooks-${process.getuid!()}/${hex16(profile)}.sock`);
}

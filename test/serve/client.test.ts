// The bundled client (scripts-examples/hosts/hermes-hooks-client) talks only to a socket that is
// its user's (or root's), in a directory no other user can swap it in: an impostor listening under
// another user's name is never sent the call, and a tool gate then blocks, saying why. When serve
// is not there, the error names the socket and how to start serve (not curl's "localhost port 80").
// (With HERMES_HOOKS_AUTOSTART=0 where serve is absent: autostart.test.ts covers starting one.)
// Another user is played with `setpriv` (CI runs as root).

import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, cleanupTemps, clientAt, CLIENTS, makeHome, startServe, stopServe, tempDir, waitFor } from './_helpers.js';

const OTHER_UID = 4242;
const GATE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });

const impostors: ChildProcess[] = [];
afterAll(() => {
  for (const c of impostors) c.kill('SIGKILL');
  cleanupTemps();
});

/** An HTTP server on `path` run as another user, answering every call "allow"; counts what it was sent. */
async function impostor(path: string): Promise<{ calls: () => number }> {
  const code = `require('http').createServer((q, r) => { q.resume(); q.on('end', () => { console.log('call'); r.setHeader('x-hermes-hooks-exit', '0'); r.end('{}'); }); }).listen(process.argv[1], () => console.log('listening'));`;
  const c = spawn('setpriv', ['--reuid', String(OTHER_UID), '--regid', String(OTHER_UID), '--clear-groups', process.execPath, '-e', code, path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  impostors.push(c);
  let out = '';
  c.stdout!.on('data', (d: Buffer) => (out += d));
  c.stderr!.on('data', (d: Buffer) => (out += d));
  if (!(await waitFor(() => out.includes('listening'), 10_000))) throw new Error(`impostor did not start: ${out}`);
  return { calls: () => out.split('\n').filter((l) => l === 'call').length };
}

describe.each(CLIENTS)('hermes-hooks-client: whom it talks to ($name client)', ({ path }) => {
  const client = clientAt(path);

  it('options after the socket stand for their variables; an unknown one (or one without a value) is refused: a gate blocks, saying which', async () => {
    const home = tempDir();
    const sock = join(home, 'hermes-hooks.sock');
    const env = baseEnv({ HERMES_HOOKS_AUTOSTART: '0' });
    const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} });
    // --home names the home in the start line (no socket there, autostart off).
    const known = await client(['codex', 'PreToolUse', sock, '--home', home, '--node', process.execPath], stdin, env);
    expect([known.code, known.stderr]).toEqual([
      2,
      `hermes-hooks-client: no hermes-hooks serve is running for ${sock} (there is no socket there); start it with: hermes-hooks serve --home ${home}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    const list = '--gate, --agent-env, --bin, --home, --node, --serve-args, --socket VALUE';
    for (const args of [['--homes', home], ['--home'], ['--gate', 'yes'], ['--gate']]) {
      const r = await client(['codex', 'PreToolUse', sock, ...args], stdin, env);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `hermes-hooks-client: unknown option or one without its value: ${args[0]} (options after AGENT EVENT SOCKET: ${list}); blocking this call (exit 2) rather than letting it through unguarded\n`,
      ]);
    }
  });

  it("another user's socket at the path is never sent the call: a tool gate blocks, another event is a non-blocking error", async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777); // the other user creates its socket here …
    const sock = join(dir, 'hermes-hooks.sock');
    const fake = await impostor(sock);
    chmodSync(dir, 0o755); // … then the directory is ours alone again; the socket stays theirs.
    const gate = await client(['codex', 'PreToolUse', sock], GATE);
    expect([gate.code, gate.stdout]).toEqual([2, '']);
    expect(gate.stderr).toBe(
      `hermes-hooks-client: ${sock} belongs to user ${OTHER_UID}, not to you (uid 0): it is not your hermes-hooks serve, so the call is not sent there; remove it (or ask its owner to), then start yours with: hermes-hooks serve --home ${dir}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    );
    // The client keeps no list of gates: print-config tells it (--gate 0 here) ...
    const stop = await client(['codex', 'Stop', sock, '--gate', '0'], '{"hook_event_name":"Stop"}');
    expect(stop.code).toBe(1);
    expect(stop.stderr).toMatch(
      /belongs to user 4242, [^]*; Stop is not a tool gate, so the agent goes on without hermes-hooks \(exit 1, a non-blocking error\)\n$/,
    );
    // ... and without --gate every event is a gate, whatever the agent: it fails closed.
    for (const [agent, event] of [
      ['codex', 'Stop'],
      ['some-new-agent', 'BeforeAnything'],
    ]) {
      const bare = await client([agent!, event!, sock], `{"hook_event_name":"${event}"}`);
      expect([bare.code, bare.stdout]).toEqual([2, '']);
      expect(bare.stderr).toMatch(/belongs to user 4242, [^]*; blocking this call \(exit 2\) rather than letting it through unguarded\n$/);
    }
    const told = await client(['some-new-agent', 'BeforeAnything', sock, '--gate', '1'], '{}');
    expect(told.code).toBe(2);
    expect(fake.calls()).toBe(0);
  }, 30_000);

  it('a socket in a directory another user can write to (not sticky), or owns, is not trusted; a sticky one such as /tmp is', async () => {
    const home = makeHome('hooks: {}\n');
    const dir = tempDir();
    const sock = join(dir, 's.sock');
    const served = await startServe(home, ['--socket', sock]);
    const stdin = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
    expect((await client(['codex', 'PreToolUse', sock], stdin)).code).toBe(0); // 0700, ours

    chmodSync(dir, 0o1777); // sticky: only an entry's owner can replace it
    expect((await client(['codex', 'PreToolUse', sock], stdin)).code).toBe(0);

    chmodSync(dir, 0o777);
    const open = await client(['codex', 'PreToolUse', sock], stdin);
    expect([open.code, open.stderr]).toEqual([
      2,
      `hermes-hooks-client: the socket's directory ${dir} is writable by other users (mode 777), who could swap the socket for another; run: chmod go-w ${dir}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);

    chmodSync(dir, 0o755);
    chownSync(dir, OTHER_UID, OTHER_UID);
    const theirs = await client(['codex', 'PreToolUse', sock], stdin);
    expect([theirs.code, theirs.stderr]).toEqual([
      2,
      `hermes-hooks-client: the socket's directory ${dir} belongs to user ${OTHER_UID}, who could swap the socket for another; keep the socket in a directory of yours (serve --socket PATH); blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    chownSync(dir, 0, 0);
    expect(await stopServe(served)).toBe(0);
  }, 30_000);

  it('a symlinked profile home is checked and reached where it really is; a directory above the socket that others can write to is not trusted', async () => {
    const base = tempDir();
    const real = join(base, 'real-home');
    mkdirSync(real, { mode: 0o700 });
    const home = makeHome('hooks: {}\n');
    const sock = join(real, 'hermes-hooks.sock');
    const served = await startServe(home, ['--socket', sock]);
    const stdin = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });
    // ~/.hermes → elsewhere: a symlink's own mode reads 777; what counts is the directory it leads to.
    const link = join(base, 'dot-hermes');
    symlinkSync(real, link);
    const viaLink = await client(['codex', 'PreToolUse'], stdin, baseEnv({ HERMES_HOME: link }));
    expect([viaLink.code, viaLink.stderr]).toEqual([0, '']);

    // Two levels up, writable by every user and not sticky: the whole directory could be swapped.
    chmodSync(base, 0o777);
    const open = await client(['codex', 'PreToolUse'], stdin, baseEnv({ HERMES_HOME: link }));
    expect([open.code, open.stderr]).toEqual([
      2,
      `hermes-hooks-client: ${base}, a directory above the socket, is writable by other users (mode 777), who could swap the socket for another; run: chmod go-w ${base}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    chmodSync(base, 0o700);
    expect(await stopServe(served)).toBe(0);
  }, 30_000);

  it('no server: the error names the socket and how to start serve, never curl\'s "localhost port 80"', async () => {
    const dir = tempDir();
    // Nothing at the path; at the default path plain `serve` is the way to start it.
    const none = await client(['claude', 'PreToolUse'], GATE, baseEnv({ HERMES_HOME: dir, HERMES_HOOKS_AUTOSTART: '0' }));
    expect([none.code, none.stdout, none.stderr]).toEqual([
      2,
      '',
      `hermes-hooks-client: no hermes-hooks serve is running for ${dir}/hermes-hooks.sock (there is no socket there); start it with: hermes-hooks serve --home ${dir}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    // A socket left behind by a server that stopped: connection refused.
    const stale = join(dir, 'other.sock');
    const made = spawn('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', stale]);
    await new Promise((r) => made.once('close', r));
    expect(existsSync(stale)).toBe(true);
    const refused = await client(['gemini', 'BeforeTool', stale], GATE, baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }));
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `hermes-hooks-client: nothing answers on ${stale} (connection refused: the server that made it has stopped); start it with: hermes-hooks serve --socket ${stale}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    expect(refused.stderr).not.toMatch(/localhost|port 80|curl/);
  }, 30_000);

  it('a path that is not a socket, or a symbolic link, is refused with the reason', async () => {
    const dir = tempDir();
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    const plain = await client(['cursor', 'preToolUse', file], GATE);
    expect([plain.code, plain.stderr]).toEqual([
      2,
      `hermes-hooks-client: ${file} is not a socket, so it is not hermes-hooks serve; move it away, then start the server with: hermes-hooks serve --socket ${file}; blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
    mkdirSync(join(dir, 'real'));
    const link = join(dir, 'link.sock');
    symlinkSync(join(dir, 'real', 'x.sock'), link);
    const linked = await client(['cursor', 'preToolUse', link], GATE);
    expect([linked.code, linked.stderr]).toEqual([
      2,
      `hermes-hooks-client: ${link} is a symbolic link; point the client at the socket itself (serve's --socket path); blocking this call (exit 2) rather than letting it through unguarded\n`,
    ]);
  }, 30_000);
});

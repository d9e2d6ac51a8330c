// A profile home too long for <home>/hermes-hooks.sock (over 100 bytes): serve listens on a short
// path named after the home — $XDG_RUNTIME_DIR/hermes-hooks/<16 hex>.sock, else
// /tmp/hermes-hooks-<uid>/<16 hex>.sock, the directory 0700 and trusted; one that is not ours or
// private is skipped (socket-fallback.test.ts) — and the bundled client, given no socket, finds the
// same path the same way. Real serve, real client.

import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSocketPath } from '../../src/serve/socket-path.js';
import { baseEnv, cleanupTemps, clientAt, CLIENTS, startServe, stopServe, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

const GATE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

/** A profile home whose socket path would be over 100 bytes, with an empty hook config. */
function longHome(): string {
  const home = join(tempDir(), 'a-profile-home-with-a-rather-long-name'.repeat(2), 'and-deeper-still');
  mkdirSync(home, { recursive: true });
  return home;
}

const hex16 = (home: string): string => createHash('sha256').update(realpathSync(home)).digest('hex').slice(0, 16);

describe.each(CLIENTS)('the short default socket of a long home ($name client)', ({ path }) => {
  const runClient = clientAt(path);

  it('$XDG_RUNTIME_DIR/hermes-hooks/<16 hex>.sock, 0700; the client finds it with no socket given', async () => {
    const home = longHome();
    expect(Buffer.byteLength(join(home, 'hermes-hooks.sock'))).toBeGreaterThan(100);
    const runtime = tempDir();
    const env = baseEnv({ XDG_RUNTIME_DIR: runtime, HERMES_HOME: home, HERMES_HOOKS_AUTOSTART: '0' });
    const served = await startServe(home, [], { env });
    try {
      const expected = join(runtime, 'hermes-hooks', `${hex16(home)}.sock`);
      expect(served.socket).toBe(expected);
      expect(defaultSocketPath(home, env)).toBe(expected);
      expect(statSync(join(runtime, 'hermes-hooks')).mode & 0o777).toBe(0o700);
      const c = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect([c.code, c.stderr]).toEqual([0, '']);
      // Through a symlink to the same home: the same socket (the home's real path is hashed).
      const link = join(tempDir(), 'x'.repeat(100));
      symlinkSync(home, link);
      const viaLink = await runClient(['claude', 'PreToolUse'], GATE, { ...env, HERMES_HOME: link });
      expect([viaLink.code, viaLink.stderr]).toEqual([0, '']);
    } finally {
      await stopServe(served);
    }
  }, 30_000);

  it('without $XDG_RUNTIME_DIR: /tmp/hermes-hooks-<uid>/<16 hex>.sock, and the client finds it', async () => {
    const home = longHome();
    const env = baseEnv({ XDG_RUNTIME_DIR: undefined, HERMES_HOME: home, HERMES_HOOKS_AUTOSTART: '0' });
    const served = await startServe(home, [], { env });
    try {
      expect(served.socket).toBe(`/tmp/hermes-hooks-${process.getuid!()}/${hex16(home)}.sock`);
      const c = await runClient(['gemini', 'BeforeTool'], GATE, env);
      expect([c.code, c.stderr]).toEqual([0, '']);
    } finally {
      await stopServe(served);
    }
  }, 30_000);

  it('a socket directory other users can write to is skipped, saying why: serve listens in the next one, and the client finds it', async () => {
    const home = longHome();
    const runtime = tempDir();
    mkdirSync(join(runtime, 'hermes-hooks'), { mode: 0o700 });
    chmodSync(join(runtime, 'hermes-hooks'), 0o777);
    const env = baseEnv({ XDG_RUNTIME_DIR: runtime, HERMES_HOME: home, HERMES_HOOKS_AUTOSTART: '0' });
    const served = await startServe(home, [], { env });
    try {
      expect(served.socket).toBe(`/tmp/hermes-hooks-${process.getuid!()}/${hex16(home)}.sock`);
      expect(served.stderr()).toContain(`socket directory skipped: ${join(runtime, 'hermes-hooks')} is writable by other users (mode 777)`);
      const c = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect([c.code, c.stderr]).toEqual([0, '']);
    } finally {
      await stopServe(served);
    }
  }, 30_000);
});

// A frozen serve (SIGSTOP: the kernel accepts, nobody answers) through the bundled client: the first
// call gives up after 1.5 s of silence (the bash+curl client 2 s; not its deadline) and blocks; the next calls block at once for
// HERMES_HOOKS_RETRY_AFTER instead of each waiting again; a serve started since gets its chance.
// A hook that is only slow keeps serve sending signs of life: its answer arrives.
import { afterAll, describe, expect, it } from 'vitest';
import { approvedHome, baseEnv, cleanupTemps, clientAt, CLIENTS, http, startServe, stopServe, tempDir, writeScript } from './_helpers.js';
import { join } from 'node:path';

afterAll(cleanupTemps);

const GATE = JSON.stringify({ session_id: 'f', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

describe.each(CLIENTS)('the client and a frozen serve ($name client)', ({ name, path }) => {
  const runClient = clientAt(path);
  // perl waits 1.5 s (three missed beats); curl counts its --speed-time in whole seconds.
  const silence = name === 'perl' ? '1.5s' : '2s';

  it('gives up on its silence (1.5 s, curl 2 s), then fails at once while serve stays frozen; a restarted serve answers', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'g.sh'), `#!/bin/bash\necho '{"action":"block","message":"guarded"}'\n`);
    const home = await approvedHome({ pre_tool_call: [guard] });
    // A deadline of 60 s: blocking within 10 s can only be the silence seen.
    const env = baseEnv({ HERMES_HOME: home, HERMES_HOOKS_TIMEOUT: '60', HERMES_HOOKS_AUTOSTART: '0' });
    const served = await startServe(home, []);
    process.kill(served.child.pid!, 'SIGSTOP');
    try {
      let t = Date.now();
      const first = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(first.code).toBe(2);
      expect(first.stderr).toContain(`is not answering (no sign of life for ${silence}): it is frozen or wedged; blocking this call (exit 2)`);
      // Not a timing target: proof that the 60 s deadline was not waited out.
      expect(Date.now() - t).toBeLessThan(10_000);
      t = Date.now();
      const second = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('did not answer a moment ago, so this call does not wait again (for 60s, HERMES_HOOKS_RETRY_AFTER)');
      // Not a timing target: proof that the second call did not wait for silence again.
      expect(Date.now() - t).toBeLessThan(name === 'perl' ? 1400 : 1900);
      const stop = await runClient(['claude', 'Stop', '', '--gate', '0'], JSON.stringify({ session_id: 'f', hook_event_name: 'Stop', cwd: '/tmp' }), env);
      expect(stop.code).toBe(1); // not a gate: the agent goes on, at once
    } finally {
      process.kill(served.child.pid!, 'SIGKILL');
      await served.exited;
    }
    // A serve started since removes the mark when it listens: it is asked again, and answers.
    const again = await startServe(home, []);
    try {
      const answered = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(answered.code).toBe(0);
      expect(JSON.parse(answered.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    } finally {
      expect(await stopServe(again)).toBe(0);
    }
  }, 60_000);

  it('a hook that takes 5 s is answered, not taken for a frozen serve', async () => {
    const dir = tempDir();
    const slow = writeScript(join(dir, 's.sh'), `#!/bin/bash\nsleep 5\necho '{"action":"block","message":"slow guard"}'\n`);
    const home = await approvedHome({ pre_tool_call: [{ command: slow, timeout: 30 }] });
    const served = await startServe(home, []);
    try {
      const env = baseEnv({ HERMES_HOME: home, HERMES_HOOKS_TIMEOUT: '60', HERMES_HOOKS_AUTOSTART: '0' });
      const answered = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(answered.stderr).not.toContain('not answering');
      expect(answered.code).toBe(0);
      // The liveness bytes are not part of what the agent reads.
      expect(answered.stdout.startsWith('{')).toBe(true);
      const out = JSON.parse(answered.stdout);
      expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(out.hookSpecificOutput.permissionDecisionReason).toContain('slow guard');
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 60_000);
});

describe('signs of life on the wire', () => {
  it('asked for: a 200 once the hooks take 0.5 s, spaces while they run, the answer and its headers as trailers; not asked: as before', async () => {
    const dir = tempDir();
    const slow = writeScript(join(dir, 's.sh'), `#!/bin/bash\nsleep 2\necho 'err line' >&2\necho '{"action":"block","message":"slow guard"}'\n`);
    const home = await approvedHome({ pre_tool_call: [{ command: slow, timeout: 30 }] });
    const served = await startServe(home, []);
    try {
      const path = '/v1/agent/claude/PreToolUse';
      const [plain, beaten] = await Promise.all([
        http({ socketPath: served.socket! }, 'POST', path, { body: GATE }),
        http({ socketPath: served.socket! }, 'POST', path, { body: GATE, headers: { 'x-hermes-hooks-heartbeat': '1' } }),
      ]);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(plain.body)));
      expect(plain.headers['x-hermes-hooks-exit']).toBe('0');
      expect(plain.body.startsWith('{')).toBe(true);
      expect(beaten.status).toBe(200);
      expect(beaten.headers['transfer-encoding']).toBe('chunked');
      expect(beaten.headers['x-hermes-hooks-exit']).toBeUndefined();
      const beats = Number(beaten.trailers['x-hermes-hooks-beats']);
      expect(beats).toBeGreaterThanOrEqual(2); // 2 s of hooks, a beat every 0.5 s
      expect(beaten.body.slice(0, beats)).toBe(' '.repeat(beats));
      expect(beaten.body.slice(beats)).toBe(plain.body); // the same answer, after the liveness bytes
      expect(JSON.parse(beaten.body)).toEqual(JSON.parse(plain.body));
      expect(beaten.trailers['x-hermes-hooks-exit']).toBe(plain.headers['x-hermes-hooks-exit']);
      expect(beaten.trailers['x-hermes-hooks-stderr']).toBe(plain.headers['x-hermes-hooks-stderr']);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 60_000);
});

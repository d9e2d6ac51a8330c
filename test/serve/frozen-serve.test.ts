// A frozen serve (SIGSTOP: the kernel accepts, nobody answers) through the bundled client: the first
// call waits out the client's deadline and blocks; the next calls block at once for
// HERMES_HOOKS_RETRY_AFTER instead of each waiting again; a serve started since gets its chance.
import { afterAll, describe, expect, it } from 'vitest';
import { approvedHome, baseEnv, cleanupTemps, clientAt, CLIENTS, startServe, stopServe, tempDir, writeScript } from './_helpers.js';
import { join } from 'node:path';

afterAll(cleanupTemps);

const GATE = JSON.stringify({ session_id: 'f', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

describe.each(CLIENTS)('the client and a frozen serve ($name client)', ({ path }) => {
  const runClient = clientAt(path);

  it('waits once, then fails at once while serve stays frozen; a restarted serve answers', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'g.sh'), `#!/bin/bash\necho '{"action":"block","message":"guarded"}'\n`);
    const home = await approvedHome({ pre_tool_call: [guard] });
    const env = baseEnv({ HERMES_HOME: home, HERMES_HOOKS_TIMEOUT: '5', HERMES_HOOKS_AUTOSTART: '0' });
    const served = await startServe(home, []);
    process.kill(served.child.pid!, 'SIGSTOP');
    try {
      let t = Date.now();
      const first = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(first.code).toBe(2);
      expect(first.stderr).toContain('did not answer within 5s (HERMES_HOOKS_TIMEOUT)');
      expect(Date.now() - t).toBeGreaterThanOrEqual(4900); // the deadline was waited out
      t = Date.now();
      const second = await runClient(['claude', 'PreToolUse'], GATE, env);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('did not answer within 5s a moment ago, so this call does not wait again (for 60s, HERMES_HOOKS_RETRY_AFTER)');
      const waited = Date.now() - t;
      // Not a timing target: proof that the second call did not wait the 5 s deadline again.
      expect(waited).toBeLessThan(4900);
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
});

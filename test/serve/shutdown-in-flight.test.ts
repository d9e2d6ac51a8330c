// Shutting serve down with calls in flight answers them (issue 23 item 4): SIGINT/SIGTERM while a
// fail_closed guard runs, --drain-timeout 2 — the bundled client gets the agent's own block, never
// an empty reply (curl exit 52), and serve's stderr says the hook was cancelled after ~2 s because
// serve was shutting down (not "timed out after 120s (cancelled)"). Real serve, real client.

import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { approvedHome, baseEnv, cleanupTemps, postJson, clientAt, CLIENTS, startServe, tempDir, waitFor, writeScript } from './_helpers.js';
import { existsSync, readFileSync } from 'node:fs';

afterAll(cleanupTemps);

const GATE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

describe.each(CLIENTS)('shutdown with calls in flight ($name client)', ({ path }) => {
  const runClient = clientAt(path);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: the client's tool gate and an emit are answered with a block saying serve is shutting down`, async () => {
      const dir = tempDir();
      const started = join(dir, 'started');
      const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\ncat >/dev/null\necho x >> ${started}\nsleep 120\necho '{}'\n`);
      const home = await approvedHome({ pre_tool_call: [{ command: guard, fail_closed: true, timeout: 120 }] });
      const served = await startServe(home, ['--drain-timeout', '2']);
      const call = runClient(['codex', 'PreToolUse', served.socket!], GATE, baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }));
      const emit = postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
      expect(await waitFor(() => existsSync(started) && readFileSync(started, 'utf8').split('\n').length > 2, 10_000)).toBe(true);
      const t0 = Date.now();
      served.child.kill(signal);
      const c = await call;
      expect(Date.now() - t0).toBeLessThan(7000);
      expect(c.stderr).not.toContain('closed the connection without an answer');
      // Codex reads exit 2 + stderr as a block.
      expect(c.code).toBe(2);
      expect(c.stderr).toContain('serve is shutting down and its drain of 2s, --drain-timeout, ran out');
      const r = await emit;
      const decision = (JSON.parse(r.body) as { decision: { action: string; message: string } }).decision;
      expect(decision.action).toBe('block');
      expect(decision.message).toContain('serve is shutting down');
      expect(await served.exited).toBe(0);
      const err = served.stderr();
      expect(err).toMatch(/was cancelled after 2(\.\d)?s: serve is shutting down and its drain of 2s, --drain-timeout, ran out/);
      expect(err).not.toContain('timed out after 120s');
    }, 30_000);
  }
});

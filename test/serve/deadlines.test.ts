// The deadline chain (src/deadlines.ts): each deadline inside the next, the bundled client's
// default the chain's, and a call serve's own deadline cuts short answered with a block on a tool
// gate — a slow or overloaded serve never lets a call through. Real serve child, real client.

import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_HOOK_TIMEOUT_S, CLIENT_TIMEOUT_S, HOOK_TIMEOUT_MAX_S, SERVE_REQUEST_TIMEOUT_S } from '../../src/deadlines.js';
import { approvedHome, baseEnv, cleanupTemps, CLIENTS, postJson, runClient, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

const GATE = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

describe('the deadline chain', () => {
  it('each deadline is inside the next, with room for the kill grace and the answer', () => {
    expect(HOOK_TIMEOUT_MAX_S + 1).toBeLessThan(SERVE_REQUEST_TIMEOUT_S);
    expect(SERVE_REQUEST_TIMEOUT_S).toBeLessThan(CLIENT_TIMEOUT_S);
    expect(CLIENT_TIMEOUT_S).toBeLessThan(AGENT_HOOK_TIMEOUT_S);
    expect([HOOK_TIMEOUT_MAX_S, SERVE_REQUEST_TIMEOUT_S, CLIENT_TIMEOUT_S, AGENT_HOOK_TIMEOUT_S]).toEqual([300, 305, 310, 315]);
  });

  it.each(CLIENTS)("the bundled $name client's default deadline is the chain's", ({ path }) => {
    const text = readFileSync(path, 'utf8');
    // bash: ${HERMES_HOOKS_TIMEOUT:-310}; perl: env('HERMES_HOOKS_TIMEOUT', 310)
    const defaults = [...text.matchAll(/HERMES_HOOKS_TIMEOUT(?::-|', )(\d+)/g)].map((m) => Number(m[1]));
    expect(defaults.length).toBeGreaterThan(0);
    expect(new Set(defaults)).toEqual(new Set([CLIENT_TIMEOUT_S]));
  });
});

describe("serve's per-call deadline on a tool gate", () => {
  it('a hook still running at --request-timeout: the emit is a block saying why, and so is the agent call through the client', async () => {
    const dir = tempDir();
    // Not fail_closed: before, its cancellation allowed the call.
    const slow = writeScript(join(dir, 'slow.sh'), '#!/bin/bash\ncat >/dev/null\nsleep 30\necho "{}"\n');
    const home = await approvedHome({ pre_tool_call: [{ command: slow, timeout: 60 }] });
    const served = await startServe(home, ['--request-timeout', '1']);
    try {
      const t0 = Date.now();
      const r = await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
      expect(Date.now() - t0).toBeLessThan(5000);
      const decision = (JSON.parse(r.body) as { decision: { action: string; message: string } }).decision;
      expect(decision.action).toBe('block');
      expect(decision.message).toContain('stopped checking this call before its hooks decided it');
      expect(decision.message).toContain('deadline of 1s, --request-timeout, passed');

      const c = await runClient(['claude', 'PreToolUse', served.socket!], GATE, baseEnv({ HERMES_HOOKS_AUTOSTART: '0' }));
      expect(c.code).toBe(0);
      const out = JSON.parse(c.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(out.hookSpecificOutput.permissionDecisionReason).toContain('--request-timeout, passed');
      // serve says what happened to the hook: cancelled, and why, not "timed out after 60s".
      expect(served.stderr()).toMatch(/was cancelled after 1(\.\d)?s: its per-call deadline of 1s, --request-timeout, passed/);
      expect(served.stderr()).not.toContain('timed out after 60s');
    } finally {
      await stopServe(served);
    }
  }, 30_000);
});

// Issue 30 through serve (/v1/agent/<agent>/<event>, what the bundled client posts): a problem is
// told to the person once per agent session — at SessionStart or at the first gate that meets it —
// not on every call; another session is told too; and once the config changes (serve reloads), what
// is still wrong is told again.

import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { baseEnv, http, makeHome, postJson, startServe, stopServe, tempDir, writeScript, cleanupTemps } from './_helpers.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(cleanupTemps);

const dir = tempDir('hh-once-');
const GUARD = writeScript(join(dir, 'guard.sh'), '#!/bin/sh\nexit 0\n');

const gate = (session: string): Record<string, unknown> => ({
  hook_event_name: 'PreToolUse',
  session_id: session,
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  cwd: '/tmp',
});
const systemMessage = (body: string): unknown => (body.trim() === '' ? undefined : (JSON.parse(body) as Record<string, unknown>)['systemMessage']);

describe('serve tells a problem once per session', () => {
  it('SessionStart or the first gate tells it, later calls do not, a new session does, a config change tells again', async () => {
    // The guard is written under a misspelled event: it guards nothing.
    const home = makeHome(`hooks:\n  pre_tool_use:\n    - command: ${GUARD}\n`);
    const served = await startServe(home, [], { env: baseEnv({ HERMES_ACCEPT_HOOKS: '1' }) });
    const post = async (path: string, body: unknown): Promise<unknown> => {
      const r = await postJson(served, path, body);
      expect(r.status).toBe(200);
      return systemMessage(r.body);
    };
    const start = await post('/v1/agent/claude/SessionStart', { hook_event_name: 'SessionStart', session_id: 's1', source: 'startup' });
    expect(start).toMatch(/did you mean 'pre_tool_call'/);
    // Told at the start: the session's gates say nothing more about it.
    expect(await post('/v1/agent/claude/PreToolUse', gate('s1'))).toBeUndefined();
    // A session without SessionStart hears it at its first gate, once.
    expect(await post('/v1/agent/codex/PreToolUse', gate('s2'))).toMatch(/did you mean 'pre_tool_call'/);
    expect(await post('/v1/agent/codex/PreToolUse', gate('s2'))).toBeUndefined();
    expect(await post('/v1/agent/gemini/BeforeTool', { ...gate('s3'), hook_event_name: 'BeforeTool', tool_name: 'run_shell_command' })).toMatch(/pre_tool_use/);

    // The config changes (still wrong): serve reloads, and the sessions are told again.
    const generation = async (): Promise<number> =>
      (JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body) as { generation: number }).generation;
    const reloaded = async (change: () => void): Promise<void> => {
      const before = await generation();
      change();
      let now = before;
      for (let i = 0; i < 400 && now <= before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        now = await generation();
      }
      expect(now).toBeGreaterThan(before);
    };
    await reloaded(() => appendFileSync(join(home, 'config.yaml'), '# edited\n'));
    expect(await post('/v1/agent/claude/PreToolUse', gate('s1'))).toMatch(/did you mean 'pre_tool_call'/);
    expect(await post('/v1/agent/claude/PreToolUse', gate('s1'))).toBeUndefined();

    // Fixed: nothing to tell, in any session.
    await reloaded(() => writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${GUARD}\n`));
    expect(await post('/v1/agent/claude/PreToolUse', gate('s9'))).toBeUndefined();
    expect(await post('/v1/agent/claude/SessionStart', { hook_event_name: 'SessionStart', session_id: 's9', source: 'startup' })).toBeUndefined();
    expect(await stopServe(served)).toBe(0);
  });
});

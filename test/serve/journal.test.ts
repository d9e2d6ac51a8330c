// Issue 34: `serve --journal FILE` records every emit a long-lived engine answers — our kwargs on
// /v1/emit, another agent's stdin on /v1/agent — and `replay` reads both back, each in its dialect.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runBin } from '../cli/_helpers.js';
import { approvedHome, baseEnv, cleanupTemps, postJson, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);
vi.setConfig({ testTimeout: 120_000 });

describe('serve --journal', () => {
  it('records /v1/emit and /v1/agent calls, and replay against the same hooks changes nothing', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"action":"block","message":"no"}'; else echo '{}'; fi\n`);
    const home = await approvedHome({ pre_tool_call: [guard] });
    const journal = join(dir, 'serve.jsonl');
    const served = await startServe(home, ['--journal', journal]);
    const emitted = await postJson(served, '/v1/emit/pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's' });
    expect(emitted.status).toBe(200);
    const stdin = { hook_event_name: 'PreToolUse', session_id: 'c', cwd: dir, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_7' };
    expect((await postJson(served, '/v1/agent/claude/PreToolUse', stdin)).status).toBe(200);
    expect(await stopServe(served)).toBe(0);

    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.dialect, l.their_event, (l.decision as { action: string }).action, l.call_id])).toEqual([
      ['hermes', 'pre_tool_call', 'block', null],
      ['claude', 'PreToolUse', 'allow', 'toolu_7'],
      // The engine's own finalize of each open session at shutdown is an event too.
      ['hermes', 'on_session_finalize', 'allow', null],
      ['hermes', 'on_session_finalize', 'allow', null],
    ]);
    expect(lines[1]!.received).toEqual(stdin);
    const r = await runBin(['replay', journal, '--home', home], { env: baseEnv() });
    expect([r.code, r.stdout]).toEqual([0, `4 event(s) replayed from ${journal}: 0 verdict(s) changed\n`]);
  });
});

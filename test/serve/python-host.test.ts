// scripts-examples/hosts/hermes_host.py, a real python3 process, drives `serve --stdio`: a block is
// not run, a modify runs with the merged arguments, an approve asks the user, the session is
// finalized with its notice, and shutdown exits 0.

import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { approvedHome, baseEnv, BIN, cleanupTemps, ROOT, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

const HOST = join(ROOT, 'scripts-examples/hosts/hermes_host.py');

function runHost(home: string, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'python3',
      [HOST, '--hermes-hooks', `${process.execPath} ${BIN}`, '--home', home, ...extra],
      { env: baseEnv(), timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('Python host over serve --stdio', () => {
  it('honours block, modify and approve, finalizes the session and shuts the server down', async () => {
    const dir = tempDir();
    const guard = writeScript(
      join(dir, 'guard.py'),
      `#!/usr/bin/env python3
import json, sys
p = json.load(sys.stdin)
cmd = p["tool_input"].get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"action": "block", "message": "destructive command refused"}))
elif "git push --force" in cmd:
    print(json.dumps({"action": "approve", "message": "force push needs a human", "rule_key": "git-force"}))
elif p["tool_name"] == "write_file":
    print(json.dumps({"action": "modify", "args": {"path": "sandbox/" + p["tool_input"]["path"]}}))
else:
    print("{}")
`,
    );
    const fin = writeScript(join(dir, 'fin.sh'), `#!/bin/bash\ncat >/dev/null\necho '{"message": "session saved"}'\n`);
    const home = await approvedHome({ pre_tool_call: [guard], on_session_finalize: [fin] });
    const r = await runHost(home);
    expect(r.stderr).toBe('hermes-hooks: serving JSON-RPC 2.0 on stdin/stdout, one object per line\n');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.calls.map((c: { tool: string; action: string; status: string }) => [c.tool, c.action, c.status])).toEqual([
      ['terminal', 'allow', 'ok'],
      ['terminal', 'block', 'blocked'],
      ['write_file', 'allow', 'ok'],
      ['terminal', 'approve', 'ok'],
    ]);
    expect(report.calls[1].result).toEqual({ error: 'destructive command refused' });
    expect(report.calls[2].args).toEqual({ path: 'sandbox/notes.txt', content: 'hi' });
    expect(report.calls[2].result).toEqual({ output: 'write_file {"content": "hi", "path": "sandbox/notes.txt"}' });
    expect(report.finalize).toEqual([{ session_id: 'py-host-session', session_key: null, message: 'session saved' }]);
    expect(report.exit_code).toBe(0);
    // The session was finalized by the host: shutdown does not finalize it again.
    expect(report.notifications).toEqual([]);

    const denied = JSON.parse((await runHost(home, ['--deny-approvals'])).stdout);
    expect(denied.calls[3]).toMatchObject({ action: 'approve', status: 'blocked', result: { error: 'denied by the user' } });
  }, 90_000);
});

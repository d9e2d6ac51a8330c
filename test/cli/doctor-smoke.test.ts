// doctor's smoke run is a real run. An observer's run (post_tool_call, on_session_* …) decides
// nothing and shows only its side effects — a fake entry in a real audit log — so doctor checks it
// can start and runs it only with --smoke-all. Gates still run, on a payload marked as a test.
// Real scripts writing real files, through the built CLI's main().

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, runMain, writeScript } from './_helpers.js';

vi.setConfig({ testTimeout: 60_000 });
afterAll(cleanupTemps);

/** A hook that appends what it was given (payload session, marker env) to `log`, then answers nothing. */
function logger(dir: string, name: string, log: string): string {
  return writeScript(
    join(dir, name),
    `#!/usr/bin/env python3
import json, os, sys
p = json.load(sys.stdin)
with open(${JSON.stringify(log)}, "a") as f:
    f.write(json.dumps({"event": p["hook_event_name"], "session_id": p["session_id"], "smoke": os.environ.get("HERMES_HOOKS_SMOKE_RUN")}) + "\\n")
`,
  );
}

function lines(file: string): Record<string, unknown>[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
}

async function profile(): Promise<{ home: string; audit: string; guardLog: string; env: NodeJS.ProcessEnv }> {
  const dir = makeHome();
  const audit = join(dir, 'audit.jsonl');
  const guardLog = join(dir, 'guard.jsonl');
  const observer = logger(dir, 'audit.py', audit);
  const guard = logger(dir, 'guard.py', guardLog);
  const home = makeHome(hooksYaml({ pre_tool_call: [guard], post_tool_call: [observer], on_session_end: [observer], on_session_finalize: [observer] }));
  const env = baseEnv();
  const approved = await runMain(['approve', '--all', '--home', home], { env });
  expect(approved.code).toBe(0);
  return { home, audit, guardLog, env };
}

describe('doctor and observers', () => {
  it('runs no observer by default: says so per hook, and the audit log stays untouched', async () => {
    const { home, audit, guardLog, env } = await profile();
    const r = await runMain(['doctor', '--home', home], { env });
    expect(r.code).toBe(0);
    for (const event of ['post_tool_call', 'on_session_end', 'on_session_finalize']) {
      expect(r.stdout).toContain(`      ℹ not run: observer (${event}); --smoke-all runs it with a test payload\n`);
    }
    expect(existsSync(audit)).toBe(false);
    // The gate still runs, on a payload that says it is doctor's test.
    expect(lines(guardLog)).toEqual([{ event: 'pre_tool_call', session_id: 'hermes-hooks-doctor', smoke: '1' }]);
    expect(r.stdout).toContain('All hooks look healthy.');

    const json = await runMain(['doctor', '--json', '--home', home], { env });
    const hooks = (JSON.parse(json.stdout) as { hooks: { event: string; smoke: unknown }[] }).hooks;
    expect(hooks.map((h) => [h.event, h.smoke === null])).toEqual([
      ['pre_tool_call', false],
      ['post_tool_call', true],
      ['on_session_end', true],
      ['on_session_finalize', true],
    ]);
    expect(existsSync(audit)).toBe(false);
  });

  it('--smoke-all runs them too, on the test payload', async () => {
    const { home, audit, env } = await profile();
    const r = await runMain(['doctor', '--smoke-all', '--home', home], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('not run: observer');
    expect(lines(audit)).toEqual([
      { event: 'post_tool_call', session_id: 'hermes-hooks-doctor', smoke: '1' },
      { event: 'on_session_end', session_id: 'hermes-hooks-doctor', smoke: '1' },
      { event: 'on_session_finalize', session_id: 'hermes-hooks-doctor', smoke: '1' },
    ]);
  });

  it('an observer that cannot start is still a problem without --smoke-all', async () => {
    const home = makeHome(hooksYaml({ post_tool_call: ['/nonexistent/audit.py'] }));
    const r = await runMain(['doctor', '--home', home]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ ');
    expect(r.stdout).not.toContain('not run: observer');
  });
});

// One payload, one meaning on every face (issue 20 item 2): the same payloads — the wire form a
// hook reads on stdin and the call-site kwargs a host emits with, blocking, modifying and allowing,
// with extra keys and with keys the event does not take — go through `run`, `test --json`, the
// library's emit, and a real `serve` over HTTP (Unix socket) and stdio JSON-RPC. Every face must
// decide alike, hand the hooks the same stdin, and report the same keys in its diagnostics.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runBin } from '../cli/_helpers.js';
import { createHookEngine, type HookEngine } from '../../src/index.js';
import type { Decision, Diagnostic, Emission } from '../../src/types.js';
import { approvedHome, baseEnv, cleanupTemps, postJson, rpcClient, startServe, stopServe, tempDir, writeScript, type Served } from './_helpers.js';

afterAll(cleanupTemps);

// Decides on the stdin it got: rm -rf blocks, --force is rewritten, a forbidden task blocks (extra
// keys must reach hooks on every face), anything else is allowed. It also echoes what it saw into
// the block message, so a difference in the stdin shows up as a difference in the decision.
const GUARD = `#!/usr/bin/env python3
import json, sys
p = json.load(sys.stdin)
cmd = (p.get("tool_input") or {}).get("command", "")
extra = p.get("extra") or {}
if "rm -rf" in cmd:
    print(json.dumps({"action": "block", "message": "no rm -rf (session %r, task %r)" % (p.get("session_id"), extra.get("task_id"))}))
elif extra.get("task_id") == "forbidden":
    print(json.dumps({"action": "block", "message": "task %s is forbidden" % extra["task_id"]}))
elif "--force" in cmd:
    print(json.dumps({"action": "modify", "args": {"command": cmd.replace(" --force", "")}}))
`;

interface Case {
  name: string;
  payload: Record<string, unknown>;
  action: Decision['action'];
  /** Keys a face must name in its diagnostics (warnings). */
  reported?: string[];
}

const CASES: Case[] = [
  { name: 'wire: block', payload: { tool_name: 'terminal', tool_input: { command: 'rm -rf /' }, session_id: 's1', extra: { task_id: 't1' } }, action: 'block' },
  { name: 'kwargs: block', payload: { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's1', task_id: 't1' }, action: 'block' },
  { name: 'wire: modify', payload: { tool_name: 'terminal', tool_input: { command: 'git push --force' } }, action: 'allow' },
  { name: 'kwargs: modify', payload: { tool_name: 'terminal', args: { command: 'git push --force' } }, action: 'allow' },
  { name: 'wire: allow', payload: { tool_name: 'terminal', tool_input: { command: 'ls' }, cwd: '/srv', profile: 'work' }, action: 'allow' },
  { name: 'kwargs: allow', payload: { tool_name: 'terminal', args: { command: 'ls' }, tool_call_id: 'c1' }, action: 'allow' },
  { name: 'wire: an extra key decides', payload: { tool_name: 'terminal', tool_input: { command: 'ls' }, extra: { task_id: 'forbidden' } }, action: 'block' },
  { name: 'kwargs: an extra key decides', payload: { tool_name: 'terminal', args: { command: 'ls' }, task_id: 'forbidden' }, action: 'block' },
  {
    name: 'wire: a key that is not a stdin key',
    payload: { tool_name: 'terminal', tool_input: { command: 'ls' }, mystery: 1 },
    action: 'allow',
    reported: ['mystery'],
  },
  // A newcomer's payload: the tool's argument at the top level. Hooks see no command; it is said.
  { name: 'kwargs: a tool argument outside args', payload: { tool_name: 'terminal', command: 'rm -rf /' }, action: 'allow', reported: ['command'] },
  {
    name: 'both forms at once: args decides, tool_input is said',
    payload: { tool_name: 'terminal', args: { command: 'ls' }, tool_input: { command: 'rm -rf /' } },
    action: 'allow',
    reported: ['tool_input'],
  },
];

/** What must be equal on every face. */
function essence(d: Decision): Pick<Decision, 'action' | 'message' | 'args'> {
  return { action: d.action, message: d.message, args: d.args };
}
const reportedKeys = (diagnostics: readonly Diagnostic[]): string[] =>
  diagnostics
    .filter((d) => d.level !== 'info')
    .map((d) => d.path)
    .sort();

describe('one payload, one meaning: run, test, the library and serve (HTTP and stdio) decide alike', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let engine: HookEngine;
  let served: Served;

  beforeAll(async () => {
    const guard = writeScript(join(tempDir(), 'guard.py'), GUARD);
    home = await approvedHome({ pre_tool_call: [{ command: guard, fail_closed: true }] });
    env = baseEnv();
    engine = await createHookEngine({ home, env, interactive: false, exitCleanup: false });
    served = await startServe(home, ['--stdio', '--socket', join(home, 'hh.sock')], { env });
  }, 60_000);

  afterAll(async () => {
    await engine?.close({ finalize: false });
    if (served) await stopServe(served);
  });

  it.each(CASES)(
    '$name',
    async ({ payload, action, reported = [] }) => {
      const stdin = JSON.stringify(payload);
      const [run, test, library, http, stdio] = await Promise.all([
        runBin(['run', 'pre_tool_call', '--home', home], { stdin, env }),
        runBin(['test', 'pre_tool_call', '--json', '--home', home], { stdin, env }),
        engine.emit('pre_tool_call', payload),
        postJson(served, '/v1/emit/pre_tool_call', payload),
        rpcClient(served).result<Emission>('emit', { event: 'pre_tool_call', kwargs: payload }),
      ]);
      expect(http.status).toBe(200);
      const viaHttp = JSON.parse(http.body) as Emission;
      const runDecision = JSON.parse(run.stdout) as Decision;
      const testReport = JSON.parse(test.stdout) as Emission;

      const expected = essence(library.decision);
      expect(expected.action).toBe(action);
      expect(essence(runDecision)).toEqual(expected);
      expect(essence(testReport.decision)).toEqual(expected);
      expect(essence(viaHttp.decision)).toEqual(expected);
      expect(essence(stdio.decision)).toEqual(expected);
      expect(run.code).toBe(action === 'block' ? 2 : 0);
      expect(test.code).toBe(action === 'block' ? 2 : 0);

      // The hooks got the same stdin on every face (cwd aside: the CLI's is its own working directory).
      const stdinOf = (e: Emission): unknown => ({ ...e.payload, cwd: null });
      expect(stdinOf(viaHttp)).toEqual(stdinOf(library));
      expect(stdinOf(stdio)).toEqual(stdinOf(library));
      expect(stdinOf(testReport)).toEqual(stdinOf(library));

      // Every face reports the same keys, and never drops one silently.
      expect(reportedKeys(library.diagnostics)).toEqual(reported);
      expect(reportedKeys(viaHttp.diagnostics)).toEqual(reported);
      expect(reportedKeys(stdio.diagnostics)).toEqual(reported);
      expect(reportedKeys(testReport.diagnostics.filter((d) => d.file === '<stdin>'))).toEqual(reported);
      for (const key of reported) expect(run.stderr).toContain(`hermes-hooks: <stdin>: warning: ${key}: `);
      if (reported.length === 0) expect(run.stderr).toBe('');
    },
    120_000,
  );

  it('the modify is the same rewrite everywhere, and the wire form keeps its cwd and profile for the hooks', async () => {
    const wire = await engine.emit('pre_tool_call', CASES[2]!.payload);
    const kwargs = await engine.emit('pre_tool_call', CASES[3]!.payload);
    expect(wire.decision.args).toEqual({ command: 'git push' });
    expect(kwargs.decision.args).toEqual({ command: 'git push' });
    const located = await engine.emit('pre_tool_call', CASES[4]!.payload);
    expect(located.payload).toMatchObject({ cwd: '/srv', profile: 'work', tool_input: { command: 'ls' }, extra: {} });
  });
});

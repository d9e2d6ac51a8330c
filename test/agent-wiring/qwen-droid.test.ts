// Qwen Code and Factory Droid (issue 32): their own PreToolUse stdin (as 0.24.4 and 0.225.2 send it,
// seen in scripts/e2e/qwen.mjs and droid.mjs) through the built CLI against a Hermes guard with
// `matcher: terminal`; print-config in their files' shapes; doctor --agent on Droid's `hooks`
// wrapper (ignored by Droid) and on Qwen's ignored rewrite; the session-start summary saying the drop.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, BIN, cleanupTemps, runWithStdin, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

const GUARD = `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"action":"block","message":"no rm -rf"}'; fi\nexit 0\n`;

async function guarded(): Promise<string> {
  const guard = writeScript(join(tempDir('hh-qd-'), 'guard.sh'), GUARD);
  return approvedHome({ pre_tool_call: [{ command: guard, matcher: 'terminal' }] });
}

/** Qwen Code 0.24.4's PreToolUse stdin for a shell call. */
const qwenStdin = (command: string, cwd: string): string =>
  JSON.stringify({
    session_id: 'qwen-session',
    transcript_path: '/root/.qwen/tmp/x/chats/qwen-session.jsonl',
    cwd,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-12-06T13:00:00.000Z',
    permission_mode: 'yolo',
    tool_name: 'run_shell_command',
    tool_input: { command, description: 'run it' },
    tool_use_id: 'call_1',
    tool_call_id: 'call_1',
    prompt_id: 'qwen-session########1',
  });

/** Factory Droid 0.225.2's PreToolUse stdin for a shell call. */
const droidStdin = (command: string, cwd: string): string =>
  JSON.stringify({
    session_id: 'droid-session',
    transcript_path: '/root/.factory/sessions/droid-session.jsonl',
    cwd,
    permission_mode: 'auto-high',
    hook_event_name: 'PreToolUse',
    tool_name: 'Execute',
    tool_input: { command, summary: 'run it', riskLevel: 'high', riskLevelReason: 'deletes files' },
  });

const run = (dialect: string, home: string, stdin: string) => runWithStdin(BIN, ['run', 'PreToolUse', '--dialect', dialect, '--home', home], stdin, baseEnv());

describe.each([
  ['qwen', qwenStdin],
  ['droid', droidStdin],
] as const)('%s: its own PreToolUse through the built CLI', (dialect, stdinOf) => {
  it('rm -rf / is blocked in its (Claude) shape by a matcher: terminal guard; ls goes ahead', async () => {
    const home = await guarded();
    const cwd = tempDir('hh-qd-cwd-');
    const rm = await run(dialect, home, stdinOf('rm -rf /', cwd));
    expect(rm.code, rm.stderr).toBe(0);
    expect(JSON.parse(rm.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' },
    });
    const ls = await run(dialect, home, stdinOf('ls', cwd));
    expect([ls.code, ls.stdout]).toEqual([0, '']);
  });
});

describe('print-config qwen and droid', () => {
  it("Qwen: Claude's settings shape under hooks, timeouts in seconds (below the 1000 that Qwen reads as ms)", async () => {
    const home = await guarded();
    for (const extra of [[], ['--run']]) {
      const r = await runMain(['print-config', 'qwen', ...extra, '--home', home]);
      expect(r.code, r.stderr).toBe(0);
      const snippet = JSON.parse(r.stdout) as { hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }[]> };
      expect(Object.keys(snippet)).toEqual(['hooks']);
      const gate = snippet.hooks['PreToolUse']![0]!;
      expect(gate.matcher).toBe('*');
      expect(gate.hooks[0]!.timeout).toBeGreaterThan(60);
      expect(gate.hooks[0]!.timeout).toBeLessThan(1000);
      expect(gate.hooks[0]!.command).toContain(extra.length ? 'run PreToolUse --dialect qwen' : 'qwen PreToolUse');
    }
    expect((await runMain(['print-config', 'qwen', '--home', home])).stderr).toContain('ignores updatedInput');
  });

  it('Droid: the events at the top level of hooks.json, no "hooks" wrapper (Droid ignores one there)', async () => {
    const home = await guarded();
    for (const extra of [[], ['--run']]) {
      const r = await runMain(['print-config', 'droid', ...extra, '--home', home]);
      expect(r.code, r.stderr).toBe(0);
      const snippet = JSON.parse(r.stdout) as Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
      expect(snippet).not.toHaveProperty('hooks');
      expect(Object.keys(snippet)).toContain('PreToolUse');
      expect(snippet['PreToolUse']![0]!.hooks[0]!.command).toContain(extra.length ? 'run PreToolUse --dialect droid' : 'droid PreToolUse');
    }
  });
});

describe('doctor --agent', () => {
  type Check = { ok: boolean | null; message: string; warning?: boolean };
  const doctor = async (agent: string, home: string, user: string, json: boolean) =>
    runMain(['doctor', '--agent', agent, '--home', home, '--project', tempDir('hh-qd-project-'), ...(json ? ['--json'] : [])], {
      env: { PATH: process.env.PATH, HOME: user, LANG: 'C.UTF-8' },
    });

  it('Droid: a hooks.json with a "hooks" wrapper is ✗ (none of it runs); the printed top-level one is healthy', async () => {
    const home = await guarded();
    const printed = JSON.parse((await runMain(['print-config', 'droid', '--home', home])).stdout) as Record<string, unknown>;
    const user = tempDir('hh-qd-user-');
    mkdirSync(join(user, '.factory'));
    writeFileSync(join(user, '.factory/hooks.json'), JSON.stringify({ hooks: printed }));
    const wrapped = await doctor('droid', home, user, true);
    expect(wrapped.code).toBe(1);
    const report = JSON.parse(wrapped.stdout) as { general: Check[]; entries: unknown[] };
    expect(report.entries).toEqual([]);
    const wrapper = report.general.find((c) => c.message.includes('under a "hooks" key'));
    expect(wrapper?.ok).toBe(false);
    expect(wrapper?.message).toContain('Factory Droid ignores in this file (it reads the events at the top level): none of them runs');

    writeFileSync(join(user, '.factory/hooks.json'), JSON.stringify(printed));
    const healthy = await doctor('droid', home, user, true);
    expect(healthy.code, healthy.stdout).toBe(0);
    expect((JSON.parse(healthy.stdout) as { general: Check[] }).general.filter((c) => c.warning)).toEqual([]);
  });

  it('Qwen: a timeout of 1000 or more is read as ms (5000 = 5 s: too short, ✗), below that as seconds (315 ✓)', async () => {
    const home = await guarded();
    const printed = JSON.parse((await runMain(['print-config', 'qwen', '--home', home])).stdout) as {
      hooks: Record<string, { hooks: { timeout: number }[] }[]>;
    };
    const user = tempDir('hh-qd-user-');
    mkdirSync(join(user, '.qwen'));
    const gateChecks = async (timeout: number): Promise<Check[]> => {
      printed.hooks['PreToolUse']![0]!.hooks[0]!.timeout = timeout;
      writeFileSync(join(user, '.qwen/settings.json'), JSON.stringify(printed));
      const report = JSON.parse((await doctor('qwen', home, user, true)).stdout) as { entries: { event: string; checks: Check[] }[] };
      return report.entries.find((e) => e.event === 'PreToolUse')!.checks;
    };
    const ms = (await gateChecks(5000)).find((c) => c.message.includes('stops the hook after'));
    expect(ms).toMatchObject({ ok: false });
    expect(ms!.message).toContain('Qwen Code stops the hook after 5 s');
    expect((await gateChecks(315)).filter((c) => c.ok === false)).toEqual([]);
  });

  it('Qwen: ⚠ a rewrite from a pre_tool_call hook is dropped, naming the hook; not a problem (exit 0)', async () => {
    const home = await guarded();
    const printed = (await runMain(['print-config', 'qwen', '--home', home])).stdout;
    const user = tempDir('hh-qd-user-');
    mkdirSync(join(user, '.qwen'));
    writeFileSync(join(user, '.qwen/settings.json'), printed);
    const text = await doctor('qwen', home, user, false);
    expect(text.code, text.stdout).toBe(0);
    const line = text.stdout.split('\n').find((l) => l.includes('ignores updatedInput'));
    expect(line).toMatch(
      /^ {2}⚠ Qwen Code 0\.24\.4 ignores updatedInput on PreToolUse .*: a rewrite from hook \S+guard\.sh is dropped, the original call runs$/,
    );
    const report = JSON.parse((await doctor('qwen', home, user, true)).stdout) as { general: Check[] };
    expect(report.general.filter((c) => c.warning)).toEqual([{ ok: null, warning: true, message: line!.slice(4) }]);
  });
});

describe('the session-start summary says what the agent drops', () => {
  const sessionStart = (dialect: string, home: string) =>
    runWithStdin(
      BIN,
      ['run', 'SessionStart', '--dialect', dialect, '--home', home],
      JSON.stringify({ session_id: 's1', transcript_path: '/t', cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' }),
      baseEnv(),
    );

  it('Qwen: systemMessage names the guard whose rewrite Qwen drops; Droid (which rewrites) says nothing', async () => {
    const home = await guarded();
    const qwen = await sessionStart('qwen', home);
    expect(qwen.code, qwen.stderr).toBe(0);
    expect(String(JSON.parse(qwen.stdout).systemMessage)).toMatch(/Qwen Code 0\.24\.4 ignores updatedInput .*a rewrite from hook \S+guard\.sh is dropped/);
    const droid = await sessionStart('droid', home);
    expect([droid.code, droid.stdout]).toEqual([0, '']);
  });
});

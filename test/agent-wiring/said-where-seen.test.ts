// Issue 30: an agent hides a hook command's stderr when it exits 0, so every mistake that leaves a
// guard not guarding is also in the field the agent shows the person (`systemMessage` for Claude
// Code, Codex and Gemini CLI; Cursor's `user_message` on its gates), naming the problem and its fix;
// SessionStart summarises the profile's problems; a healthy call says nothing; the verdict is Hermes'.
// Real scripts, real `run <AgentEvent> --dialect X` runs (main in-process, hooks as real processes).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { baseEnv, cleanupTemps, makeHome, runMain, tempDir, writeScript } from '../cli/_helpers.js';

vi.setConfig({ testTimeout: 120_000 });
afterAll(cleanupTemps);

const dir = tempDir('hh-seen-');
const BLOCK = writeScript(join(dir, 'guard.sh'), '#!/bin/sh\necho \'{"action":"block","message":"no rm"}\'\n');
const ALLOW = writeScript(join(dir, 'allow.sh'), '#!/bin/sh\nexit 0\n');
const NOEXEC = writeScript(join(dir, 'noexec.sh'), '#!/bin/sh\nexit 0\n', 0o644);
const NOSHEBANG = writeScript(join(dir, 'noshebang.sh'), 'exit 0\n');
const CRLF = writeScript(join(dir, 'crlf.sh'), '#!/bin/sh\r\nexit 0\r\n');
const TRACEBACK = writeScript(join(dir, 'tb.py'), '#!/usr/bin/env python3\nraise ValueError("boom")\n');
const SLOW = writeScript(join(dir, 'slow.sh'), '#!/bin/sh\nexec sleep 30\n');
// The relative path resolves against the config file's folder (where no guard.sh is), not the agent's cwd.
const ELSEWHERE = tempDir('hh-seen-cwd-');

const hook = (command: string, extra = ''): string => `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(command)}\n${extra}`;

/** Each mistake: its config.yaml and what the person must read (the problem, and the fix). */
const MISTAKES: Record<string, { config: string; says: RegExp[] }> = {
  'wrong event name': {
    config: `hooks:\n  pre_tool_use:\n    - command: ${BLOCK}\n`,
    says: [/unknown hook event 'pre_tool_use'/, /did you mean 'pre_tool_call'/],
  },
  'event at the top level': { config: `pre_tool_call:\n  - command: ${BLOCK}\n`, says: [/at the top level is not read/, /indent it under hooks:/] },
  'list written as a map': { config: `hooks:\n  pre_tool_call:\n    command: ${BLOCK}\n`, says: [/must be a list/, /write each hook as a list item/] },
  "Claude's matcher-group shape": {
    config: `hooks:\n  pre_tool_call:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${BLOCK}\n`,
    says: [/hooks\.pre_tool_call\[0\]/, /'command'/],
  },
  'no x bit': { config: hook(NOEXEC), says: [/not executable/, /chmod \+x/] },
  'no shebang': { config: hook(NOSHEBANG), says: [/Exec format error/, /add #!\/usr\/bin\/env bash/] },
  CRLF: { config: hook(CRLF), says: [/CRLF line endings/, /sed -i/] },
  'relative path': { config: hook('./guard.sh'), says: [/\/guard\.sh does not exist/, /fix the command/] },
  'python traceback': { config: hook(TRACEBACK), says: [/exited 1/, /use exit 2/, /ValueError: boom/] },
  timeout: { config: hook(SLOW, '      timeout: 1\n'), says: [/timed out after 1s/, /raise its timeout/] },
};

const AGENTS = {
  claude: { event: 'PreToolUse', stdin: { hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } } },
  codex: { event: 'PreToolUse', stdin: { hook_event_name: 'PreToolUse', session_id: 's1', turn_id: 't', tool_name: 'Bash', tool_input: { command: 'ls' } } },
  gemini: { event: 'BeforeTool', stdin: { hook_event_name: 'BeforeTool', session_id: 's1', tool_name: 'run_shell_command', tool_input: { command: 'ls' } } },
} as const;

const SESSION_START = { hook_event_name: 'SessionStart', session_id: 's1', source: 'startup' };

async function run(
  home: string,
  agent: string,
  event: string,
  stdin: object,
  accept = true,
): Promise<{ code: number; answer: Record<string, unknown> | null; stderr: string }> {
  const env = baseEnv(accept ? { HERMES_ACCEPT_HOOKS: '1' } : {});
  const r = await runMain(['run', event, '--dialect', agent, '--home', home], { stdin: JSON.stringify(stdin), env, cwd: ELSEWHERE });
  return { code: r.code, answer: r.stdout.trim() === '' ? null : (JSON.parse(r.stdout) as Record<string, unknown>), stderr: r.stderr };
}

describe('a mistake that leaves a guard inactive reaches the person, in the agent’s own field', () => {
  for (const [name, mistake] of Object.entries(MISTAKES)) {
    it(name, async () => {
      const home = makeHome(mistake.config);
      for (const [agent, a] of Object.entries(AGENTS)) {
        const r = await run(home, agent, a.event, a.stdin);
        // The verdict stays Hermes': none of these guards blocked, so the call goes ahead (exit 0).
        expect([agent, r.code]).toEqual([agent, 0]);
        const message = String(r.answer?.['systemMessage'] ?? '');
        for (const says of mistake.says) expect([agent, message]).toEqual([agent, expect.stringMatching(says)]);
        expect(message.startsWith('hermes-hooks')).toBe(true);
        expect(message.length).toBeLessThan(1600);
        // No deny or rewrite slipped in beside the message.
        expect([agent, Object.keys(r.answer ?? {})]).toEqual([agent, ['systemMessage']]);
      }
    });
  }
});

describe('the verdict, a healthy call, Cursor', () => {
  it('a block stays a block and carries what else went wrong; a healthy profile says nothing', async () => {
    const home = makeHome(`hooks:\n  pre_tool_call:\n    - command: ${BLOCK}\n    - command: ${NOEXEC}\n`);
    const claude = await run(home, 'claude', 'PreToolUse', AGENTS.claude.stdin);
    expect(claude.answer).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
      systemMessage: expect.stringMatching(/chmod \+x/),
    });
    // Codex reads only stderr on exit 2: the problem follows the reason there.
    const codex = await run(home, 'codex', 'PreToolUse', AGENTS.codex.stdin);
    expect(codex.code).toBe(2);
    expect(codex.stderr).toMatch(/no rm\n[^]*chmod \+x/);

    const healthy = makeHome(`hooks:\n  pre_tool_call:\n    - command: ${ALLOW}\n  on_session_start:\n    - command: ${ALLOW}\n`);
    for (const [agent, a] of Object.entries(AGENTS)) {
      const r = await run(healthy, agent, a.event, a.stdin);
      expect([agent, r.code, r.answer]).toEqual([agent, 0, null]);
      const start = await run(healthy, agent, 'SessionStart', SESSION_START);
      expect([agent, start.code, start.answer]).toEqual([agent, 0, null]);
    }
    const blocked = await run(makeHome(hook(BLOCK)), 'gemini', 'BeforeTool', AGENTS.gemini.stdin);
    expect(blocked.answer).toEqual({ decision: 'deny', reason: 'no rm' });
  });

  it('Cursor: the problem is in user_message on its gate, after the block reason when there is one', async () => {
    const stdin = { hook_event_name: 'beforeShellExecution', conversation_id: 'k1', command: 'ls', cwd: '/tmp', workspace_roots: ['/tmp'] };
    const allow = await run(makeHome(hook(NOEXEC)), 'cursor', 'beforeShellExecution', stdin);
    expect(allow.answer).toEqual({ permission: 'allow', user_message: expect.stringMatching(/^hermes-hooks: .*chmod \+x/) });
    const deny = await run(makeHome(`hooks:\n  pre_tool_call:\n    - command: ${BLOCK}\n    - command: ${CRLF}\n`), 'cursor', 'beforeShellExecution', stdin);
    expect(deny.answer).toMatchObject({ permission: 'deny', agent_message: 'no rm', user_message: expect.stringMatching(/^no rm\nhermes-hooks: .*sed -i/) });
  });
});

describe('SessionStart summarises the profile', () => {
  it('config mistakes, unapproved hooks and programs that cannot start, each with its fix, in every agent', async () => {
    const home = makeHome(
      `hooks:\n  pre_tool_use:\n    - command: ${BLOCK}\n  pre_tool_call:\n    - command: ${NOEXEC}\n  post_tool_call:\n    - command: ${ALLOW}\n`,
    );
    for (const agent of ['claude', 'codex', 'gemini']) {
      // Not accepted: the hooks stay unapproved, which is one of the problems told.
      const r = await run(home, agent, 'SessionStart', SESSION_START, false);
      expect([agent, r.code]).toEqual([agent, 0]);
      const message = String(r.answer?.['systemMessage'] ?? '');
      expect(message).toMatch(/^hermes-hooks found \d+ problems:/);
      expect(message).toMatch(/did you mean 'pre_tool_call'/);
      expect(message).toMatch(/not executable: .*noexec\.sh — run: chmod \+x/);
      expect(message).toMatch(/allow\.sh \(post_tool_call\) is not approved, so it does not run — run: hermes-hooks approve --event post_tool_call/);
      expect(message.split('\n').length).toBeLessThanOrEqual(7);
    }
  });

  it('many problems are capped, the rest counted', async () => {
    const many = Array.from({ length: 9 }, (_, i) => `  pre_tool_cal${i}:\n    - command: ${BLOCK}\n`).join('');
    const home = makeHome(`hooks:\n${many}`);
    writeFileSync(join(home, 'unused'), '');
    const r = await run(home, 'claude', 'SessionStart', SESSION_START);
    const message = String(r.answer?.['systemMessage']);
    expect(message).toMatch(/^hermes-hooks found 9 problems:/);
    expect(message).toMatch(/\+4 more — run: hermes-hooks doctor$/);
  });
});

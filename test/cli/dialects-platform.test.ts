// `run --dialect` passes the platform an agent session counts as (issue 23) to the profile's hooks
// when the agent's payload names none: the real binary, a real hook script that reports it.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentReads, agentStdin, approvedHome, assertBuilt, cliBin, cliHook, q, removeTempDirs, type Agent } from './dialects-helpers.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
beforeAll(assertBuilt);
afterAll(removeTempDirs);

const HOOK = cliHook('hermes-platform.sh');
const config = (extra = ''): string => `hooks:\n  pre_tool_call:\n    - command: ${q(HOOK)}\n${extra}`;

function platformSeen(agent: Agent, sample: string, home: string, env: Record<string, string | undefined>): string | undefined {
  const stdin = agentStdin(sample);
  const event = stdin['hook_event_name'] as string;
  const r = cliBin(['run', event, '--dialect', agent, '--home', home], { stdin, env });
  const verdict = agentReads(agent, event, r);
  expect(verdict.kind, r.stderr).toBe('block');
  return verdict.kind === 'block' ? String(verdict.reason).replace(/^platform=/, '') : undefined;
}

describe('run --dialect: the platform kwarg', () => {
  let home: string;
  let configured: string;
  beforeAll(async () => {
    home = await approvedHome(config());
    configured = await approvedHome(config('dialects:\n  claude:\n    platform: telegram\n  gemini:\n    platform: cron\n'));
  });

  it('Claude: from CLAUDE_CODE_SESSION_ATTENDED in the hook env (0 → headless; 1 or absent → cli)', () => {
    expect(platformSeen('claude', 'claude-PreToolUse-Bash', home, { CLAUDE_CODE_SESSION_ATTENDED: '0' })).toBe('headless');
    expect(platformSeen('claude', 'claude-PreToolUse-Bash', home, { CLAUDE_CODE_SESSION_ATTENDED: '1' })).toBe('cli');
    expect(platformSeen('claude', 'claude-PreToolUse-Bash', home, { CLAUDE_CODE_SESSION_ATTENDED: undefined })).toBe('cli');
  });

  it('Gemini (no indicator): cli; the config says otherwise for both', () => {
    expect(platformSeen('gemini', 'gemini-BeforeTool', home, { CLAUDE_CODE_SESSION_ATTENDED: '0' })).toBe('cli');
    expect(platformSeen('gemini', 'gemini-BeforeTool', configured, {})).toBe('cron');
    expect(platformSeen('claude', 'claude-PreToolUse-Bash', configured, { CLAUDE_CODE_SESSION_ATTENDED: '1' })).toBe('telegram');
  });
});

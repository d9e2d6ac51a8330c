// Which platform an agent session counts as (issue 23): the rule (agent-wiring/platform.ts), the
// config's `dialects.<agent>.platform`, and a real tool loop through a real engine: the warning
// reaches Claude as additionalContext, and the hard stop ends its turn only when the session is
// unattended (CLAUDE_CODE_SESSION_ATTENDED=0) or the config names a non-interactive platform.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentPlatform, platformRule } from '../../src/agent-wiring/platform.js';
import { answerAgentCall } from '../../src/agent-wiring/call.js';
import { parseDialectsConfig } from '../../src/config/dialects.js';
import { parseConfigText } from '../../src/config/source.js';
import { createHookEngine } from '../../src/index.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('agentPlatform', () => {
  it('Claude: CLAUDE_CODE_SESSION_ATTENDED=0 → headless, 1 → cli, absent → cli (default)', () => {
    expect(agentPlatform('claude', undefined, { CLAUDE_CODE_SESSION_ATTENDED: '0' })).toEqual({ platform: 'headless', source: 'agent env' });
    expect(agentPlatform('claude', undefined, { CLAUDE_CODE_SESSION_ATTENDED: '1' })).toEqual({ platform: 'cli', source: 'agent env' });
    expect(agentPlatform('claude', undefined, {})).toEqual({ platform: 'cli', source: 'default' });
    expect(agentPlatform('claude', undefined, { CLAUDE_CODE_SESSION_ATTENDED: 'yes' })).toEqual({ platform: 'cli', source: 'default' });
  });

  it('Codex, Gemini, Cursor: no indicator → cli, whatever the env says', () => {
    for (const agent of ['codex', 'gemini', 'cursor'] as const) {
      expect(agentPlatform(agent, undefined, { CLAUDE_CODE_SESSION_ATTENDED: '0' })).toEqual({ platform: 'cli', source: 'default' });
    }
  });

  it('the config wins over the agent env', () => {
    expect(agentPlatform('claude', 'telegram', { CLAUDE_CODE_SESSION_ATTENDED: '1' })).toEqual({ platform: 'telegram', source: 'config' });
    expect(agentPlatform('codex', 'cron', {})).toEqual({ platform: 'cron', source: 'config' });
  });
});

describe('dialects.<agent>.platform in config.yaml', () => {
  it('is read (lower-cased) next to the name maps; a bad value is a positioned warning', () => {
    const text = ['dialects:', '  claude:', '    platform: Telegram', '  codex:', '    platform: 42', '  gemini:', '    platform: null', ''].join('\n');
    const { platforms, diagnostics } = parseDialectsConfig(parseConfigText(text, 'config.yaml'));
    expect(platforms).toEqual({ claude: 'telegram' });
    expect(diagnostics.map((d) => [d.level, d.path, d.line, d.message])).toEqual([
      ['warning', 'dialects.codex.platform', 5, 'must be a platform name (a non-empty string, e.g. cli or telegram); got number 42; ignoring'],
    ]);
  });
});

/** A profile home with guardrails at low thresholds and no shell hooks. */
function guardHome(extra = ''): string {
  const home = mkdtempSync(join(tmpdir(), 'hh-platform-'));
  homes.push(home);
  writeFileSync(join(home, 'config.yaml'), `tool_loop_guardrails:\n  warn_after: {exact_failure: 1}\n  hard_stop_after: {exact_failure: 2}\n${extra}`);
  return home;
}

const pre = (session: string) => ({
  session_id: session,
  transcript_path: null,
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'false' },
  tool_use_id: 't',
});
const failed = (session: string) => ({ ...pre(session), hook_event_name: 'PostToolUseFailure', error: 'exit 1' });

/** Three failing rounds of the same call in one session; the PreToolUse answers, parsed. */
async function loop(home: string, env: Record<string, string>): Promise<unknown[]> {
  const engine = await createHookEngine({ home, env: {}, interactive: false, exitCleanup: false });
  try {
    const answers: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await answerAgentCall(engine, 'claude', null, pre('s1'), { env });
      if ('error' in a) throw new Error(a.error);
      answers.push(a.answer.stdout === '' ? null : JSON.parse(a.answer.stdout));
      await answerAgentCall(engine, 'claude', null, failed('s1'), { env });
    }
    return answers;
  } finally {
    await engine.close({ finalize: false });
  }
}

describe('a failing loop through a real engine, answered as Claude', () => {
  it('attended: the warning is additionalContext, then the stop is only a warning (interactive)', async () => {
    const [first, second, third] = (await loop(guardHome(), { CLAUDE_CODE_SESSION_ATTENDED: '1' })) as Record<string, any>[];
    expect(first).toBeNull();
    expect(second!.hookSpecificOutput.additionalContext).toMatch(/failed/);
    expect(second).not.toHaveProperty('continue');
    expect(third!.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(third!.hookSpecificOutput.additionalContext).toMatch(/failed/);
  });

  it('unattended (CLAUDE_CODE_SESSION_ATTENDED=0): the hard stop denies and ends the turn', async () => {
    const answers = (await loop(guardHome(), { CLAUDE_CODE_SESSION_ATTENDED: '0' })) as Record<string, any>[];
    const third = answers[2]!;
    expect(third['continue']).toBe(false);
    expect(third['stopReason']).toBe(third['hookSpecificOutput'].permissionDecisionReason);
    expect(third['hookSpecificOutput'].permissionDecision).toBe('deny');
  });

  it('the config says otherwise: dialects.claude.platform: telegram stops an attended session', async () => {
    const answers = (await loop(guardHome('dialects:\n  claude:\n    platform: telegram\n'), { CLAUDE_CODE_SESSION_ATTENDED: '1' })) as Record<string, any>[];
    expect(answers[2]!['continue']).toBe(false);
  });
});

describe('platformRule (doctor --agent says it)', () => {
  it('names the source and the setting that changes it', () => {
    expect(platformRule('claude', undefined)).toBe(
      "guardrails count Claude Code sessions as platform 'headless' (hard stops on) when CLAUDE_CODE_SESSION_ATTENDED=0 in the hook's env, else 'cli' (interactive) — set dialects.claude.platform in config.yaml to choose (behind serve's http hooks the variable does not arrive)",
    );
    expect(platformRule('codex', undefined)).toMatch(
      /^guardrails count Codex sessions as platform 'cli' \(interactive: .*set dialects\.codex\.platform in config\.yaml to choose$/,
    );
    expect(platformRule('gemini', 'cron')).toBe("guardrails count Gemini CLI sessions as platform 'cron' (dialects.gemini.platform in config.yaml)");
  });
});

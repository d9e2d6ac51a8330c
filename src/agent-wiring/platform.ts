// Which Hermes platform an agent's session counts as, for the tool-loop guardrails: hard stops are
// on by default only on platforms that are not interactive (guardrails/_verdict.ts). Pure.
//
// The rule, in order: a `platform` in the payload itself wins (this module is not asked); else the
// config's `dialects.<agent>.platform`; else the agent's own attended indicator (Claude Code's
// CLAUDE_CODE_SESSION_ATTENDED in its hook env: "0" → unattended); else interactive — Codex,
// Gemini CLI and Cursor give their hooks no indicator, and a guess must not stop a person's session.

import { agentModule } from '../dialects/agents/index.js';
import type { AgentDialect } from '../dialects/names.js';

/** The platform an attended agent session counts as (one of the guardrails' interactive ones). */
export const ATTENDED_PLATFORM = 'cli';
/** The platform an unattended one counts as (not interactive, so hard stops apply by default). */
export const UNATTENDED_PLATFORM = 'headless';

export interface AgentPlatform {
  platform: string;
  /** Where it came from, for doctor and the README's rule. */
  source: 'config' | 'agent env' | 'default';
}

export function agentPlatform(dialect: AgentDialect, configured: string | undefined, env: Readonly<Record<string, string | undefined>>): AgentPlatform {
  if (configured !== undefined) return { platform: configured, source: 'config' };
  const indicator = agentModule(dialect).attendedEnv;
  const value = indicator === undefined ? undefined : env[indicator.variable];
  if (indicator === undefined || (value !== indicator.attended && value !== indicator.unattended)) return { platform: ATTENDED_PLATFORM, source: 'default' };
  return { platform: value === indicator.unattended ? UNATTENDED_PLATFORM : ATTENDED_PLATFORM, source: 'agent env' };
}

/** The rule for one agent in words (doctor --agent says it), given the config's platform if any. */
export function platformRule(dialect: AgentDialect, configured: string | undefined): string {
  const agent = agentModule(dialect);
  const setting = `dialects.${dialect}.platform`;
  if (configured !== undefined) return `guardrails count ${agent.label} sessions as platform '${configured}' (${setting} in config.yaml)`;
  const indicator = agent.attendedEnv;
  if (indicator === undefined) {
    return (
      `guardrails count ${agent.label} sessions as platform '${ATTENDED_PLATFORM}' (interactive: a loop is warned, not stopped, unless ` +
      `hard_stop_enabled): ${agent.label} tells its hooks nothing about who is watching — set ${setting} in config.yaml to choose`
    );
  }
  return (
    `guardrails count ${agent.label} sessions as platform '${UNATTENDED_PLATFORM}' (hard stops on) when ` +
    `${indicator.variable}=${indicator.unattended} in the hook's env, else '${ATTENDED_PLATFORM}' (interactive) — set ${setting} in config.yaml to ` +
    `choose (behind serve's http hooks the variable does not arrive)`
  );
}

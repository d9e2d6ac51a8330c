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

export function agentPlatform(
  dialect: AgentDialect,
  configured: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): AgentPlatform {
  if (configured !== undefined) return { platform: configured, source: 'config' };
  const attended = agentModule(dialect).attendedFromEnv?.(env);
  if (attended === undefined) return { platform: ATTENDED_PLATFORM, source: 'default' };
  return { platform: attended ? ATTENDED_PLATFORM : UNATTENDED_PLATFORM, source: 'agent env' };
}

// The registry: every agent hermes-hooks speaks for, one record each (see module.ts). Every list
// of agents in the code derives from AGENTS, and its order is meaningful: it is the order agents are
// listed in (help, errors, `valid:` lists) and the order of preference when an event name or a
// hooks block fits several agents (the first that knows it is named).
//
// Adding an agent: write its record in a file beside these (a copy of the closest one) and add it to
// AGENTS below; test/agent-wiring/every-agent.test.ts runs it through every consumer and says what
// is missing. Add its own cases beside the others' under test/dialects/ and test/agent-wiring/.

import { antigravity } from './antigravity.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { droid } from './droid.js';
import { gemini } from './gemini.js';
import { goose } from './goose.js';
import type { AgentModule } from './module.js';
import { qwen } from './qwen.js';

export const AGENTS = [claude, codex, gemini, cursor, copilot, qwen, droid, goose, antigravity] as const;

/** The agents' dialect names (`claude` …); `hermes` is the native wire and has no record. */
export type AgentDialect = (typeof AGENTS)[number]['name'];

// Tell the ground floor's Dialect (types.ts) which agents exist, without types.ts importing up here.
declare module '../../types.js' {
  interface AgentDialectNames extends Record<AgentDialect, true> {}
}

export const AGENT_DIALECTS: readonly AgentDialect[] = AGENTS.map((a) => a.name);

const BY_NAME = new Map<string, AgentModule<AgentDialect>>(AGENTS.map((a) => [a.name, a]));

export function isAgentDialect(value: unknown): value is AgentDialect {
  return typeof value === 'string' && BY_NAME.has(value);
}

/** The record of one agent. */
export function agentModule(name: AgentDialect): AgentModule<AgentDialect> {
  return BY_NAME.get(name)!;
}

/** Each agent's name as its users know it, for messages. */
export const AGENT_LABELS: Readonly<Record<AgentDialect, string>> = Object.fromEntries(AGENTS.map((a) => [a.name, a.label])) as Record<AgentDialect, string>;

/** The agents that write `name`'s event names and shape (Codex for Claude Code): a block may be theirs. */
export function mimicsOf(name: AgentDialect): AgentModule<AgentDialect>[] {
  return AGENTS.filter((a: AgentModule<AgentDialect>) => a.mimics === name);
}

export type { AgentModule } from './module.js';

// Where an agent drops what a hook says (its record's support.drops — Qwen Code 0.24.4 ignores a
// rewrite): the warning doctor --agent and the session-start summary give for each kind of answer
// that the profile's hooks could give there. Generic: it reads the record of whichever agent it is
// given and never asks which one. Pure.

import type { EventName } from '../events.js';
import { agentModule, type AgentDialect } from '../dialects/agents/index.js';
import type { AgentSupport } from '../dialects/agents/module.js';

export type DropKind = keyof NonNullable<AgentSupport['drops']>;

/** The events a hook gives each kind of answer on, and what follows when the agent drops it. */
const KINDS: Readonly<Record<DropKind, { events: readonly EventName[]; noun: string; after: string }>> = {
  block: { events: ['pre_tool_call'], noun: 'a block', after: 'the call runs anyway' },
  rewrite: { events: ['pre_tool_call'], noun: 'a rewrite', after: 'the original call runs' },
  context: { events: ['pre_llm_call', 'on_session_start', 'pre_tool_call', 'post_tool_call'], noun: 'context', after: 'the model never sees it' },
  stop: { events: ['pre_verify'], noun: 'a "keep going"', after: 'the agent stops anyway' },
};

/** One hook of the profile: its event and how it is named to the person (its command, or a plugin's name). */
export interface ProfileHook {
  event: EventName;
  name: string;
}

/** The drops that weaken what a guard enforces: the session-start summary says only these (a lost context is doctor's). */
export const ENFORCING_DROPS: readonly DropKind[] = ['block', 'rewrite', 'stop'];

/** One line per kind of answer the agent drops and some hook could give: the agent's sentence, the hooks, the consequence. */
export function dropWarnings(dialect: AgentDialect, hooks: readonly ProfileHook[], kinds?: readonly DropKind[]): string[] {
  const drops = agentModule(dialect).support?.drops ?? {};
  const lines: string[] = [];
  for (const [kind, sentence] of Object.entries(drops) as [DropKind, string | undefined][]) {
    if (sentence === undefined || (kinds !== undefined && !kinds.includes(kind))) continue;
    const { events, noun, after } = KINDS[kind];
    const names = [...new Set(hooks.filter((h) => events.includes(h.event)).map((h) => h.name))];
    if (names.length === 0) continue;
    lines.push(`${sentence}: ${noun} from ${names.length === 1 ? 'hook' : 'hooks'} ${names.join(', ')} is dropped, ${after}`);
  }
  return lines;
}

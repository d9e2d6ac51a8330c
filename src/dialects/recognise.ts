// Another agent's hooks where Hermes' are expected (issue 20 item 1): a Claude Code, Codex, Gemini
// CLI or Cursor `hooks:` block pasted into config.yaml, or that agent's hook stdin piped to
// `run <event>` without `--dialect`. Hermes reads neither (an unknown event is skipped; Claude's
// `Bash` never matches a `terminal` matcher), so a guard written for them allows everything in
// silence. This module names the agent and the fix; config/ and the engine say it. Pure; the
// event names come from the dialect name maps (names.ts), never from a second list.

import { EVENTS, isEventName, type EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { shellQuote } from '../shell-words.js';
import { AGENTS, agentModule, mimicsOf, type AgentModule } from './agents/index.js';
import { commandKeyOf } from './agents/module.js';
import { AGENT_DIALECTS, AGENT_LABELS, toOurEvent, toTheirEvent, type AgentDialect, type DialectMaps } from './names.js';

/** How the entries under an event key are written. */
export type AgentHooksShape = 'groups' | 'flat' | 'other';

/** One key under `hooks:` that is another agent's event (or another agent's shape). */
export interface ForeignHooksKey {
  key: string;
  agent: AgentDialect;
  /** Our event for it, by that agent's name map; null when Hermes has no counterpart. */
  event: EventName | null;
  /** `groups`: matcher groups with nested `hooks:` lists (Claude, Codex, Gemini); `flat`: `- command:` entries. */
  shape: AgentHooksShape;
  /** Codex writes Claude Code's names and shape: a Claude block may be a Codex one. */
  maybeCodex: boolean;
}

/** Keys under `hooks:` that are not event names but other parsers' sections. */
const NOT_EVENTS = new Set(['outbound', 'output_spill']);

function shapeOf(value: unknown): AgentHooksShape {
  if (!Array.isArray(value) || value.length === 0) return 'other';
  const items = value.map((v) => (v instanceof Map ? Object.fromEntries(v) : v));
  if (items.some((g) => isPlainObject(g) && Array.isArray(g['hooks']))) return 'groups';
  const commandKeys = new Set(AGENTS.map((a: AgentModule) => commandKeyOf(a)));
  if (items.some((e) => isPlainObject(e) && (e['type'] === 'command' || Object.keys(e).some((k) => commandKeys.has(k) && typeof e[k] === 'string')))) {
    return 'flat';
  }
  return 'other';
}

/** Names only this agent uses, among the agents that know the key. */
function agentsKnowing(maps: DialectMaps, key: string): AgentDialect[] {
  return AGENT_DIALECTS.filter((d) => maps[d].events.has(key));
}

/**
 * The keys of a `hooks:` mapping that belong to another agent, with one agent for the whole block:
 * the one that knows every foreign key (Gemini's or Cursor's names tell; Claude's and Codex's are
 * the same, and Claude Code is named), or, for names no map knows, the shape of the entries.
 * `root` is the whole config (Cursor's file has `version: 1` beside `hooks:`).
 */
export function recogniseAgentHooks(hooks: ReadonlyMap<unknown, unknown>, root: ReadonlyMap<unknown, unknown> | null, maps: DialectMaps): ForeignHooksKey[] {
  const found: { key: string; shape: AgentHooksShape; agents: AgentDialect[] }[] = [];
  for (const [key, value] of hooks) {
    if (typeof key !== 'string' || isEventName(key) || NOT_EVENTS.has(key)) continue;
    const agents = agentsKnowing(maps, key);
    const shape = shapeOf(value);
    // An unknown name is another agent's only when its entries are written the agents' way.
    if (agents.length === 0 && shape !== 'groups' && !(shape === 'flat' && hasTypeCommand(value))) continue;
    found.push({ key, shape, agents });
  }
  if (found.length === 0) return [];
  const versioned = typeof root?.get('version') === 'number';
  const named = found.filter((f) => f.agents.length > 0);
  const everyKnows = (d: AgentDialect): boolean => named.every((f) => f.agents.includes(d));
  // Entries under an agent's own command key (Copilot's `bash`) name it first; then a versioned file
  // puts the agents whose hooks file is versioned (Cursor's, Copilot's) first.
  const ownKey = (d: AgentDialect): boolean =>
    agentModule(d).handlerKeys !== undefined && [...hooks.values()].some((v) => usesKey(v, commandKeyOf(agentModule(d))));
  const byKey = [...AGENT_DIALECTS.filter(ownKey), ...AGENT_DIALECTS.filter((d) => !ownKey(d))];
  const preference: AgentDialect[] = versioned ? [...byKey.filter(isVersioned), ...byKey.filter((d) => !isVersioned(d))] : byKey;
  const agent = preference.find(everyKnows) ?? named[0]?.agents[0] ?? preference[0]!;
  // Codex writes Claude Code's names and shape: a Claude block may be a Codex one.
  const maybeCodex = named.length > 0 && mimicsOf(agent).some((m) => everyKnows(m.name));
  return found.map((f) => ({ key: f.key, agent, event: toOurEvent(maps, agent, f.key), shape: f.shape, maybeCodex }));
}

const isVersioned = (d: AgentDialect): boolean => agentModule(d).versionedConfig === true;

/** A list of entries, one of which has a string under `key`. */
function usesKey(value: unknown, key: string): boolean {
  return Array.isArray(value) && value.some((e) => typeof (e instanceof Map ? e.get(key) : isPlainObject(e) ? e[key] : undefined) === 'string');
}

function hasTypeCommand(value: unknown): boolean {
  return Array.isArray(value) && value.some((e) => (e instanceof Map ? e.get('type') : isPlainObject(e) ? e['type'] : undefined) === 'command');
}

/** The exact command that converts another agent's block in a Hermes config file, in place. */
export function importCommandFor(file: string, agent: AgentDialect): string {
  return `hermes-hooks import ${shellQuote(file)} --dialect ${agent} --write`;
}

/** The error for one foreign key under `hooks:` in `file`: the agent, what Hermes calls it, the fix. */
export function foreignHooksMessage(f: ForeignHooksKey, file: string): string {
  const label = AGENT_LABELS[f.agent];
  const mimic = f.maybeCodex
    ? mimicsOf(f.agent)
        .map((m) => `; a ${m.label} block: --dialect ${m.name}`)
        .join('')
    : '';
  const convert = `convert it with: ${importCommandFor(file, f.agent)} (a backup is kept; without --write it only prints the result${mimic})`;
  if (f.event === null) {
    return `'${f.key}' is a ${label} hook event with no Hermes counterpart: its hooks never run here — ${convert}, which lists what cannot be carried over`;
  }
  const meant = `did you mean '${f.event}' with 'dialect: ${f.agent}'?`;
  if (f.shape !== 'groups' && agentModule(f.agent).configShape !== 'flat') {
    return (
      `unknown hook event '${f.key}': it is ${label}'s name — ${meant} As written none of its hooks run; rename the key and add dialect: ` +
      `${f.agent} to each entry, or ${convert}`
    );
  }
  const format = f.shape === 'groups' ? `${label}'s hooks format (matcher groups with nested hooks: lists)` : `${label}'s hooks format`;
  return (
    `'${f.key}' is ${format}, which Hermes does not read, so none of its hooks ` +
    `run${EVENTS[f.event].canBlock ? ' (each tool call they would have checked is blocked until then)' : ''} — ${meant} ` +
    `${convert[0]!.toUpperCase()}${convert.slice(1)}`
  );
}

/** Another agent's event name (`PreToolUse`, `BeforeTool`, `beforeShellExecution`) and ours for it. */
export function agentEventName(name: string, maps: DialectMaps): { agent: AgentDialect; event: EventName } | null {
  if (isEventName(name)) return null;
  const agent = agentsKnowing(maps, name)[0];
  const event = agent === undefined ? null : toOurEvent(maps, agent, name);
  return agent === undefined || event === null ? null : { agent, event };
}

// ---- stdin -----------------------------------------------------------------------------------

/** Another agent's hook stdin sent where the Hermes wire was expected. */
export interface ForeignInput {
  agent: AgentDialect;
  /** Their event name: the stdin's `hook_event_name` when it is theirs. */
  theirEvent: string | null;
  /** The keys that gave it away, for the message. */
  clues: string[];
}

/** The agents whose stdin keys (agents/<agent>.ts recognise.stdinKeys) are in `body`. */
function stdinClues(body: Readonly<Record<string, unknown>>, decisive: boolean): { agent: AgentDialect; keys: string[] }[] {
  return AGENTS.filter((a: AgentModule<AgentDialect>) => (a.recognise.decisive ?? false) === decisive)
    .map((a) => ({ agent: a.name, keys: (a.recognise.stdinKeys ?? []).filter((k) => k in body) }))
    .filter((c) => c.keys.length > 0);
}

/** `body` is unmistakably another agent's hook stdin: a foreign `hook_event_name`, or keys only agents send. */
export function recogniseAgentInput(body: Readonly<Record<string, unknown>>, maps: DialectMaps): ForeignInput | null {
  const named = typeof body.hook_event_name === 'string' && !isEventName(body.hook_event_name) ? body.hook_event_name : null;
  const agents = named !== null ? agentsKnowing(maps, named) : [];
  // Decisive keys tell alone (Cursor's); the others need their first key or two of them (Claude's).
  const decisive = stdinClues(body, true);
  const hints = stdinClues(body, false);
  const strong = hints.filter((c) => c.keys.includes(agentModule(c.agent).recognise.stdinKeys![0]!) || c.keys.length >= 2);
  const clues = [...(agents.length > 0 ? [`hook_event_name '${named}'`] : []), ...hints.flatMap((c) => c.keys), ...decisive.flatMap((c) => c.keys)];
  if (agents.length === 0 && decisive.length === 0 && strong.length === 0) return null;
  const told = decisive.find((c) => agents.length === 0 || agents.includes(c.agent));
  let agent: AgentDialect;
  if (told !== undefined) agent = told.agent;
  else if (agents.length > 0) agent = mimickedBy(agents[0]!, agents, body);
  else agent = AGENTS.find((a: AgentModule<AgentDialect>) => a.recognise.stdinMark !== undefined && a.recognise.stdinMark in body)?.name ?? strong[0]!.agent;
  return { agent, theirEvent: agents.includes(agent) ? named : null, clues };
}

/** The agent that mimics `agent` and whose own mark is in the stdin (Codex's turn_id), else `agent`. */
function mimickedBy(agent: AgentDialect, agents: readonly AgentDialect[], body: Readonly<Record<string, unknown>>): AgentDialect {
  const mimic = mimicsOf(agent).find((m) => agents.includes(m.name) && m.recognise.mimicMark !== undefined && typeof body[m.recognise.mimicMark] === 'string');
  return mimic?.name ?? agent;
}

/** What to do instead, for `run <event>` (or /v1/emit/<event>) fed another agent's stdin. */
export function foreignInputMessage(f: ForeignInput, event: EventName, maps: DialectMaps): string {
  const label = AGENT_LABELS[f.agent];
  const theirs = f.theirEvent ?? toTheirEvent(maps, f.agent, event) ?? event;
  // Several agents write Claude Code's stdin (Codex, Qwen Code, Factory Droid): one parenthesis naming each.
  const mimics = mimicsOf(f.agent).map((m) => `a ${m.label} hook: --dialect ${m.name}`);
  const also = mimics.length > 0 ? ` (${mimics.join('; ')})` : '';
  return (
    `this is ${label}'s hook input (${f.clues.join(', ')}), not the Hermes stdin form: its tool names and arguments are ${label}'s, ` +
    `so Hermes hooks and matchers do not see the call they expect — run: hermes-hooks run ${theirs} --dialect ${f.agent}${also} ` +
    `(serve: POST /v1/agent/${f.agent}/${theirs})`
  );
}

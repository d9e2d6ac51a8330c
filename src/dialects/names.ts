// The name maps between our wire and each agent's hook protocol: events, tools and argument keys.
// Pure data plus lookups. Everything else in src/dialects reads names through this module, so a
// user's `dialects:` block in config.yaml (parsed in config/dialects.ts) changes every direction at once.
//
// Direction: every map is written *theirs → ours*. The reverse (ours → theirs) takes the FIRST
// entry that maps to our name, so order is meaningful: `Edit` before `MultiEdit` means our `patch`
// is rendered as `Edit`. A user's entries come before the defaults, so theirs win both ways.
//
// MCP tools: the agents call them `mcp__<server>__<tool>` (Claude, Codex, Gemini); Hermes registers
// them as `mcp_<server>_<tool>` with every character outside [A-Za-z0-9_] turned into `_`. Going
// back we split at the first `_` after `mcp_`, so a server whose name contains `_` or `-` does not
// round-trip: pin it with an explicit `tools:` entry (explicit entries are looked up first).

import type { EventName } from '../events.js';
import type { JsonObject } from '../types.js';
import { AGENTS, agentModule, AGENT_DIALECTS, type AgentDialect } from './agents/index.js';
import type { DialectNamesData, ToolFamily } from './agents/module.js';

export { AGENT_DIALECTS, AGENT_LABELS, isAgentDialect, type AgentDialect } from './agents/index.js';

/** Argument-key maps of one tool: their key → our key. */
export type ArgKeyMap = ReadonlyMap<string, string>;

export interface DialectNames {
  /** Their event name → ours. The first entry for one of our events is the name we render. */
  readonly events: ReadonlyMap<string, EventName>;
  /** Their tool name → ours. The first entry for one of our tools is the name we render. */
  readonly tools: ReadonlyMap<string, string>;
  /** Their tool name (or `*`, for every tool) → argument-key map. A tool's own map beats `*`. */
  readonly args: ReadonlyMap<string, ArgKeyMap>;
}

export type DialectMaps = Readonly<Record<AgentDialect, DialectNames>>;

export type { DialectNamesData } from './agents/module.js';

function toNames(data: DialectNamesData): DialectNames {
  return {
    events: new Map(Object.entries(data.events)),
    tools: new Map(Object.entries(data.tools)),
    args: new Map(Object.entries(data.args).map(([tool, keys]) => [tool, new Map(Object.entries(keys))])),
  };
}

/** Each agent's built-in maps, as its record (agents/<agent>.ts) writes them. */
export const DEFAULT_DIALECT_MAPS: DialectMaps = Object.freeze(
  Object.fromEntries(AGENTS.map((a) => [a.name, toNames(a.names)])) as Record<AgentDialect, DialectNames>,
);

/** The built-in maps (what a config without `dialects:` gets). */
export function defaultDialectMaps(): DialectMaps {
  return DEFAULT_DIALECT_MAPS;
}

// ---------------------------------------------------------------------------------------------
// Lookups

/** Our event for their event name, or null when it has no counterpart. */
export function toOurEvent(maps: DialectMaps, dialect: AgentDialect, theirEvent: string): EventName | null {
  return maps[dialect].events.get(theirEvent) ?? null;
}

/** Every name of theirs for one of our events, in preference order. */
export function theirEventNames(maps: DialectMaps, dialect: AgentDialect, ourEvent: EventName): string[] {
  return [...maps[dialect].events].filter(([, ours]) => ours === ourEvent).map(([theirs]) => theirs);
}

/** Their preferred event name for ours, or null when that agent has no such event. */
export function toTheirEvent(maps: DialectMaps, dialect: AgentDialect, ourEvent: EventName): string | null {
  return theirEventNames(maps, dialect, ourEvent)[0] ?? null;
}

const usesMcpDoubleUnderscore = (dialect: AgentDialect): boolean => agentModule(dialect).mcpDoubleUnderscore;

/** `mcp__github__create_issue` → `mcp_github_create_issue` (null if not an MCP name). */
export function mcpNameToOurs(name: string): string | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  if (!m) return null;
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, '_');
  return `mcp_${clean(m[1]!)}_${clean(m[2]!)}`;
}

/** `mcp_github_create_issue` → `mcp__github__create_issue` (null if not an MCP name). */
export function mcpNameToTheirs(name: string): string | null {
  const m = /^mcp_([^_]+)_(.+)$/.exec(name);
  return m ? `mcp__${m[1]}__${m[2]}` : null;
}

export function isOurMcpTool(name: string): boolean {
  return /^mcp_[^_]+_./.test(name);
}

/** Our tool name for theirs: explicit map, then the MCP pattern, else unchanged. */
export function toOurTool(maps: DialectMaps, dialect: AgentDialect, theirTool: string): string {
  const mapped = maps[dialect].tools.get(theirTool);
  if (mapped !== undefined) return mapped;
  return (usesMcpDoubleUnderscore(dialect) ? mcpNameToOurs(theirTool) : null) ?? theirTool;
}

/** Every name of theirs for one of our tools, preferred first (the MCP form, else our own name, last). */
export function theirToolNames(maps: DialectMaps, dialect: AgentDialect, ourTool: string): string[] {
  const names = [...maps[dialect].tools].filter(([, ours]) => ours === ourTool).map(([theirs]) => theirs);
  if (names.length > 0) return names;
  const mcp = usesMcpDoubleUnderscore(dialect) ? mcpNameToTheirs(ourTool) : null;
  return [mcp ?? ourTool];
}

/** Their preferred tool name for ours. */
export function toTheirTool(maps: DialectMaps, dialect: AgentDialect, ourTool: string): string {
  return theirToolNames(maps, dialect, ourTool)[0]!;
}

function keyMapFor(maps: DialectMaps, dialect: AgentDialect, theirTool: string | null): Map<string, string> {
  const names = maps[dialect];
  // The tool's own entries first, so they beat `*` for the same key in both directions.
  const merged = new Map<string, string>(theirTool !== null ? (names.args.get(theirTool) ?? []) : []);
  for (const [k, v] of names.args.get('*') ?? []) if (!merged.has(k)) merged.set(k, v);
  return merged;
}

function renameKeys(input: JsonObject, rename: ReadonlyMap<string, string>): JsonObject {
  const out: JsonObject = {};
  const renamedTargets = new Set<string>();
  for (const [key, value] of Object.entries(input)) {
    const target = rename.get(key);
    if (target !== undefined) {
      out[target] = value;
      renamedTargets.add(target);
    } else if (!renamedTargets.has(key)) {
      // A key that is already the target of a rename keeps the renamed value (it is the meant one).
      out[key] = value;
    }
  }
  return out;
}

/** Their tool arguments with our keys (`file_path` → `path`). `theirTool` null = only the `*` map. */
export function argsToOurs(maps: DialectMaps, dialect: AgentDialect, theirTool: string | null, input: JsonObject): JsonObject {
  return renameKeys(input, keyMapFor(maps, dialect, theirTool));
}

/** Our tool arguments with their keys (`path` → `file_path`). */
export function argsToTheirs(maps: DialectMaps, dialect: AgentDialect, theirTool: string | null, input: JsonObject): JsonObject {
  const reverse = new Map<string, string>();
  for (const [theirs, ours] of keyMapFor(maps, dialect, theirTool)) if (!reverse.has(ours)) reverse.set(ours, theirs);
  return renameKeys(input, reverse);
}

// ---------------------------------------------------------------------------------------------
// Merging the user's `dialects:` overrides (parsed in config/dialects.ts)

/** User entries first (null removes), then the defaults the user did not mention. */
function mergeEntries<V>(defaults: ReadonlyMap<string, V>, user: ReadonlyMap<string, V | null>): Map<string, V> {
  const out = new Map<string, V>();
  for (const [k, v] of user) if (v !== null) out.set(k, v);
  for (const [k, v] of defaults) if (!user.has(k)) out.set(k, v);
  return out;
}

export interface DialectOverrides {
  events?: ReadonlyMap<string, EventName | null>;
  tools?: ReadonlyMap<string, string | null>;
  args?: ReadonlyMap<string, ReadonlyMap<string, string | null> | null>;
}

/** Apply already-validated user overrides to a set of maps (pure; returns new maps). */
export function mergeDialectOverrides(base: DialectMaps, overrides: Partial<Record<AgentDialect, DialectOverrides>>): DialectMaps {
  const out = { ...base } as Record<AgentDialect, DialectNames>;
  for (const dialect of AGENT_DIALECTS) {
    const o = overrides[dialect];
    if (!o) continue;
    const names = base[dialect];
    const args = new Map<string, ArgKeyMap>();
    const userArgs = o.args ?? new Map<string, ReadonlyMap<string, string | null> | null>();
    for (const [tool, keys] of userArgs) {
      if (keys === null) continue;
      args.set(tool, mergeEntries(names.args.get(tool) ?? new Map<string, string>(), keys));
    }
    for (const [tool, keys] of names.args) if (!userArgs.has(tool)) args.set(tool, keys);
    out[dialect] = {
      events: mergeEntries(names.events, o.events ?? new Map()),
      tools: mergeEntries(names.tools, o.tools ?? new Map()),
      args,
    };
  }
  return Object.freeze(out);
}

/** The tool family one of their events stands for (Cursor's beforeShellExecution …), if any. */
export function toolFamily(dialect: AgentDialect, theirEvent: string): ToolFamily | undefined {
  return agentModule(dialect).families?.[theirEvent];
}

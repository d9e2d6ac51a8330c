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
import type { Dialect, JsonObject } from '../types.js';

export type AgentDialect = Exclude<Dialect, 'hermes'>;

export const AGENT_DIALECTS: readonly AgentDialect[] = ['claude', 'codex', 'gemini', 'cursor'];

/** Each agent's name as its users know it, for messages. */
export const AGENT_LABELS: Readonly<Record<AgentDialect, string>> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', cursor: 'Cursor' };

export function isAgentDialect(value: unknown): value is AgentDialect {
  return typeof value === 'string' && (AGENT_DIALECTS as readonly string[]).includes(value);
}

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

/** The user-facing shape of one dialect's maps (also the shape of `dialects.<agent>` in config). */
export interface DialectNamesData {
  events: Record<string, EventName>;
  tools: Record<string, string>;
  args: Record<string, Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------
// Defaults. Hermes tool names/keys: terminal{command, workdir, background, timeout},
// read_file{path, offset, limit}, write_file{path, content}, patch{mode, path, old_string,
// new_string, replace_all, patch}, search_files{pattern, target, path, file_glob}, web_search{query},
// web_extract{urls}, delegate_task{goal, context}, todo{todos}, memory.
// Only keys that mean the same thing are renamed; values are never converted (Claude's Bash
// `timeout` is in ms, Hermes' terminal `timeout` in s: the key passes through unchanged).

const CLAUDE: DialectNamesData = {
  events: {
    PreToolUse: 'pre_tool_call',
    PostToolUse: 'post_tool_call',
    PostToolUseFailure: 'post_tool_call',
    UserPromptSubmit: 'pre_llm_call',
    Stop: 'pre_verify',
    SessionStart: 'on_session_start',
    SessionEnd: 'on_session_end',
    SubagentStart: 'subagent_start',
    SubagentStop: 'subagent_stop',
  },
  tools: {
    Bash: 'terminal',
    Read: 'read_file',
    Write: 'write_file',
    Edit: 'patch',
    MultiEdit: 'patch',
    Grep: 'search_files',
    Glob: 'search_files',
    WebSearch: 'web_search',
    WebFetch: 'web_extract',
    Task: 'delegate_task',
    TodoWrite: 'todo',
  },
  args: {
    '*': { file_path: 'path' },
    Bash: { run_in_background: 'background' },
    // Grep and Glob name their folder `path`, as we do: pinned, or `*` would render it file_path.
    Grep: { glob: 'file_glob', path: 'path' },
    Glob: { path: 'path' },
    Task: { prompt: 'goal' },
  },
};

// Codex speaks Claude's event names (only the ones it fires). Its hook tool names are canonical:
// `Bash` for every shell-like tool and `apply_patch` for edits; `Write`/`Edit` are matcher aliases
// of apply_patch (reference §b2). apply_patch carries the patch text in `command` (as shell tools
// do); Hermes' patch tool takes V4A text in `patch`.
const CODEX: DialectNamesData = {
  events: {
    PreToolUse: 'pre_tool_call',
    PostToolUse: 'post_tool_call',
    UserPromptSubmit: 'pre_llm_call',
    Stop: 'pre_verify',
    SessionStart: 'on_session_start',
  },
  tools: {
    Bash: 'terminal',
    shell: 'terminal',
    local_shell: 'terminal',
    exec_command: 'terminal',
    apply_patch: 'patch',
    Edit: 'patch',
    Write: 'patch',
  },
  args: {
    apply_patch: { command: 'patch' },
  },
};

const GEMINI: DialectNamesData = {
  events: {
    BeforeTool: 'pre_tool_call',
    AfterTool: 'post_tool_call',
    BeforeAgent: 'pre_llm_call',
    AfterAgent: 'pre_verify',
    SessionStart: 'on_session_start',
    SessionEnd: 'on_session_end',
  },
  tools: {
    run_shell_command: 'terminal',
    read_file: 'read_file',
    write_file: 'write_file',
    replace: 'patch',
    search_file_content: 'search_files',
    glob: 'search_files',
    google_web_search: 'web_search',
    web_fetch: 'web_extract',
    write_todos: 'todo',
    save_memory: 'memory',
  },
  args: {
    // Older Gemini releases called read_file's key `absolute_path`; `file_path` renders first.
    '*': { file_path: 'path', absolute_path: 'path' },
    run_shell_command: { dir_path: 'workdir', directory: 'workdir' },
    search_file_content: { include: 'file_glob', dir_path: 'path' },
    glob: { dir_path: 'path' },
  },
};

// Cursor fires per-family events (beforeShellExecution …) next to preToolUse; see CURSOR_FAMILIES.
const CURSOR: DialectNamesData = {
  events: {
    preToolUse: 'pre_tool_call',
    beforeShellExecution: 'pre_tool_call',
    beforeMCPExecution: 'pre_tool_call',
    beforeReadFile: 'pre_tool_call',
    postToolUse: 'post_tool_call',
    postToolUseFailure: 'post_tool_call',
    afterShellExecution: 'post_tool_call',
    afterMCPExecution: 'post_tool_call',
    afterFileEdit: 'post_tool_call',
    beforeSubmitPrompt: 'pre_llm_call',
    afterAgentResponse: 'post_llm_call',
    stop: 'pre_verify',
    sessionStart: 'on_session_start',
    sessionEnd: 'on_session_end',
    subagentStart: 'subagent_start',
    subagentStop: 'subagent_stop',
  },
  tools: {
    Shell: 'terminal',
    Read: 'read_file',
    Write: 'write_file',
    Edit: 'patch',
    Grep: 'search_files',
    Task: 'delegate_task',
  },
  args: {
    '*': { file_path: 'path' },
    Shell: { cwd: 'workdir' },
  },
};

/**
 * Cursor's tool-family events: which tools they cover on our side. A pre_tool_call for a tool in a
 * family renders as that family's event; anything else renders as preToolUse / postToolUse.
 */
export const CURSOR_FAMILIES: Readonly<Record<string, { tools: 'mcp' | readonly string[]; phase: 'pre' | 'post' }>> = {
  beforeShellExecution: { tools: ['terminal'], phase: 'pre' },
  beforeReadFile: { tools: ['read_file'], phase: 'pre' },
  beforeMCPExecution: { tools: 'mcp', phase: 'pre' },
  afterShellExecution: { tools: ['terminal'], phase: 'post' },
  afterFileEdit: { tools: ['write_file', 'patch'], phase: 'post' },
  afterMCPExecution: { tools: 'mcp', phase: 'post' },
};

export const DEFAULT_DIALECT_DATA: Readonly<Record<AgentDialect, DialectNamesData>> = {
  claude: CLAUDE,
  codex: CODEX,
  gemini: GEMINI,
  cursor: CURSOR,
};

function toNames(data: DialectNamesData): DialectNames {
  return {
    events: new Map(Object.entries(data.events)),
    tools: new Map(Object.entries(data.tools)),
    args: new Map(Object.entries(data.args).map(([tool, keys]) => [tool, new Map(Object.entries(keys))])),
  };
}

export const DEFAULT_DIALECT_MAPS: DialectMaps = Object.freeze({
  claude: toNames(CLAUDE),
  codex: toNames(CODEX),
  gemini: toNames(GEMINI),
  cursor: toNames(CURSOR),
});

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

const usesMcpDoubleUnderscore = (dialect: AgentDialect): boolean => dialect !== 'cursor';

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
export function mergeDialectOverrides(
  base: DialectMaps,
  overrides: Partial<Record<AgentDialect, DialectOverrides>>,
): DialectMaps {
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

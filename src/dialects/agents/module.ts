// What one agent is, as one record (AgentModule): its names, how its hook stdin looks, how it reads
// a hook's answer, how we answer as its hook, and the facts import, print-config and doctor need
// about its config files. Everything agent-specific in the code comes from these records; the
// machinery in dialects/, import/ and agent-wiring/ reads them and never asks which agent it is.

import type { EventName } from '../../events.js';
import type { Decision, Directive, JsonObject, RunRecord } from '../../types.js';

/** The user-facing shape of one agent's name maps (also the shape of `dialects.<agent>` in config). */
export interface DialectNamesData {
  events: Record<string, EventName>;
  tools: Record<string, string>;
  args: Record<string, Record<string, string>>;
}

/** An event that stands for a family of tools (Cursor's beforeShellExecution …) on our side. */
export interface ToolFamily {
  tools: 'mcp' | readonly string[];
  phase: 'pre' | 'post';
  /** How the call's arguments sit in the stdin: a shell `command`, a `file_path`, or tool_name/tool_input. */
  input: 'command' | 'file' | 'tool';
}

/** Everything a stdin builder needs, already in the agent's names (render.ts computes it). */
export interface StdinFields {
  ourEvent: EventName;
  theirEvent: string;
  ourTool: string | null;
  theirTool: string | null;
  /** The call's arguments with our keys, and with theirs. */
  input: JsonObject;
  toolInput: JsonObject;
  extra: JsonObject;
  sessionId: string;
  cwd: string;
  model: string | null;
  transcriptPath: string | null;
  permissionMode: string;
  attempt: number;
  timestamp: string | undefined;
  fileContent: string | null | undefined;
}

/** One finished run of an agent's hook, for its reader. */
export interface ReadInput {
  event: EventName;
  run: RunRecord;
  stdout: string;
  /** First 400 chars of trimmed stderr, as our wire quotes it. */
  stderr: string;
  /** Their tool arguments → ours. */
  toOurArgs: (input: JsonObject) => JsonObject;
}

/** What one reader made of a run: a directive, and whether stdout was unreadable (for fail_closed). */
export interface Reading {
  directive: Directive | null;
  garbled: boolean;
}

/** Our resolved decision, in the agent's names, for its answer. */
export interface AnswerInput {
  theirEvent: string;
  decision: Decision;
  theirTool: string | null;
  theirArgs: JsonObject | null;
  /**
   * What the person must hear about this call (a guard that could not run, a config mistake), or
   * null on a healthy call: put where the agent shows it to the person, never changing the verdict.
   */
  notice?: string | null;
}

/** Exactly what the agent reads back from its hook command. */
export interface DialectAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One file format `import` reads (Qwen Code's settings are a Claude Code format). */
export interface ImportFormat {
  /** The format's id (`qwen`), and who writes it, for messages (`Qwen Code`). */
  id: string;
  writer: string;
  title: string;
  /** The agent's config folder (`.claude`): a path through it tells the format. */
  dir: string;
  timeoutUnit: 's' | 'ms';
  /** The agent's default handler timeout in seconds, null when it is not documented. */
  defaultTimeout: number | null;
  /** The variable the agent sets to the project folder (`CLAUDE_PROJECT_DIR`). */
  projectDirVar?: string;
  /** Prefix of the other variables the agent sets (`CLAUDE` for CLAUDE_*). */
  envPrefix: string;
  /** Said once when a file is read in this format. */
  note?: string;
  /** This format's matchers, when they differ from its agent's (Qwen: regexes). */
  matcherStyle?: 'names-or-regex' | 'regex';
  invalidMatcher?: 'skip' | 'exact';
}

export interface ImportRules {
  formats: readonly ImportFormat[];
  /** `names-or-regex`: a word list is exact names, anything else an unanchored regex (Claude's); `regex`: always a regex. */
  matcherStyle: 'names-or-regex' | 'regex';
  /** A regex matcher that does not compile: the agent skips the group, or matches it as an exact name. */
  invalidMatcher: 'skip' | 'exact';
  /** Their events on which the agent itself ignores the matcher (no warning when we drop it). */
  matcherIgnoredOn?: readonly string[];
  /** The shell a command with shell syntax runs through. */
  shell: 'sh' | 'bash';
  /** A relative script path is resolved from the folder of the config file. */
  scriptsFromConfigDir?: boolean;
  /** Event names only this agent uses: a file with one of them is this agent's. */
  ownEvents?: readonly string[];
  /** A file name that tells the format when nothing else does. */
  fileName?: RegExp;
  /** Files this agent keeps hooks in that import does not read, and what to do instead. */
  unsupported?: { file: RegExp; message: string };
}

/** Where an agent reads hooks from (or where people paste them and it never looks). */
export interface AgentFileSpec {
  under: 'home' | 'project';
  path: string;
  role: 'reads' | 'wrong';
  instead?: string;
}

export interface DoctorFacts {
  files: readonly AgentFileSpec[];
  /** The tool-gate event (where guards block) and the tool events a matcher applies to. */
  gate: string;
  toolEvents: readonly string[];
  /** Default handler timeout (s), null when not documented; per-event exceptions. */
  defaultTimeout: number | null;
  defaultTimeoutOn?: Readonly<Record<string, number>>;
  /** Claude reads a word list as exact tool names. */
  exactNameMatchers: boolean;
  /** How the agent treats a matcher that does not compile. */
  invalidMatcher: 'skip' | 'exact';
  /** Said after a timeout under 1000 in an ms agent (default: `<label> counts milliseconds`). */
  msTimeoutHint?: string;
  /** The tool names a matcher must let through, grouped by tool (default: the tools map, one each). */
  matcherTools?: readonly (readonly string[])[];
  /** Said (ℹ) when the agent runs hermes-hooks entries: what the files cannot tell. */
  notes?: readonly string[];
  /** The agent keeps hook trust in a file of its own (Codex's config.toml). */
  trust?: TrustFacts;
}

/** One doctor finding: ✓ true, ✗ false, ℹ null. */
export interface AgentCheck {
  ok: boolean | null;
  message: string;
  /** With ok null: a warning (⚠) — the agent will drop what a hook says — not a plain note (ℹ). */
  warning?: boolean;
}

/** An agent that runs a hook only once it is trusted, and records that trust in a file. */
export interface TrustFacts {
  /** The file under $HOME where trust is recorded. */
  file: string;
  /** The check of one entry: the hooks file (and its real path), its event, and where the entry sits. */
  check(
    config: { path: string; text: string | null } | undefined,
    entry: { filePath: string; realPath: string | undefined; event: string; group: number; index: number },
  ): AgentCheck;
  /** A general note on the trust file (hooks wired elsewhere than the files doctor reads), or null. */
  note(config: { path: string; text: string | null }, mentionsUs: (text: string) => boolean): AgentCheck | null;
}

export interface PrintConfigFacts {
  /** Gemini names each command handler. */
  handlerName?: string;
  /** Claude Code can call a URL itself (`type: "http"`), so `--http` wires it without the client. */
  httpHooks?: boolean;
  /** Their events the agent never runs an http hook on: `--http` wires them through the client. */
  noHttpOn?: readonly string[];
  /**
   * Their events `--http` wires through the client although http would reach serve: a command hook
   * can start a serve that is not running (an http hook cannot), so a session outlives serve's idle exit.
   */
  startsServeOn?: readonly string[];
  /**
   * Fields every printed tool-gate handler carries so the agent blocks when the command cannot start,
   * times out or exits oddly (Claude's `onFailure: "block"`); doctor --agent warns when one lacks them.
   */
  gateFailClosed?: Readonly<Record<string, unknown>>;
  /** The matcher print-config writes for "every tool" on tool events (default `*`; Goose reads `*` as a bad regex and skips the rule). */
  matchAll?: string;
  /** Where the snippet goes and what the agent needs before it runs it (the doctor line is added). */
  setupNotes: readonly string[];
  /** print-config --http's notes, when they differ: given the token file (quoted) and setupNotes. */
  httpNotes?: (tokenFile: string, setupNotes: readonly string[]) => string[];
  /** The agent runs plugins in process (Claude Code's mods): `--mod DIR` writes one. */
  mod?: ModFacts;
}

/** What a mod (a plugin the agent runs in its own process) can carry. */
export interface ModFacts {
  /** Their events a mod sees, in their hook names (what it sends to serve). */
  events: readonly string[];
  /** The first agent version that loads one. */
  since: string;
  /** Where the agent reads the plugin's manifest, relative to the plugin folder. */
  manifest: string;
  /** The mod's template, relative to scripts-examples/hosts/ (kept beside the bundled client). */
  template: string;
  /** How to enable the mod written to `dir` (quoted), said on stderr. */
  enable: (dir: string) => string[];
}

export interface RecogniseFacts {
  /** Keys of its hook stdin no Hermes payload has; `decisive`: one alone tells (else the first, or two). */
  stdinKeys?: readonly string[];
  decisive?: boolean;
  /** A key that tells this agent's stdin from the others' when its event names do not. */
  stdinMark?: string;
  /** A string key that tells this agent's stdin apart from the agent it mimics. */
  mimicMark?: string;
}

/** How its hook stdin reads as our kwargs (the rest of its fields pass under their own names). */
export interface StdinReading {
  /**
   * Their stdin laid out as the machinery reads it (`hook_event_name`, `tool_name`, `tool_input` at the
   * top level), for an agent that names or nests them otherwise (Goose's `event`, Antigravity's `toolCall`).
   */
  normalise?: (raw: JsonObject) => JsonObject;
  sessionKeys?: readonly string[];
  /** The keys holding the call's tool and its arguments, when not `tool_name`/`tool_input` (Copilot's camelCase `toolName`/`toolArgs`). */
  toolKeys?: { name: string; input: string };
  renames?: Readonly<Record<string, string>>;
  /**
   * Per our event: their field → our kwarg (`result` becomes a JSON string, `user_message` the prompt's text);
   * `outer.inner` reads a field of an object (Copilot's `toolResult.textResultForLlm`), leaving the object as it is.
   */
  kwargs?: Partial<Readonly<Record<EventName, Readonly<Record<string, string>>>>>;
  /** How it counts verify attempts: `loops` so far (a number), or only a `repeat` flag (a boolean). */
  attempt?: { key: string; counts: 'loops' | 'repeat' };
}

/** What one kind of answer does in this agent. `yes`/`no`, or `ignored`: the agent accepts the field and drops it. */
export type SupportLevel = 'yes' | 'no' | 'ignored';

/**
 * What an answer can do in this agent, how its failures behave and how we know: the support matrix
 * in the docs is generated from these, and `drops` feeds the warnings (doctor --agent, SessionStart
 * summary) where the agent would drop what a hook said.
 */
export interface AgentSupport {
  /** On the tool gate: block the call, rewrite its arguments, add context for the model; stop the agent (its stop event). */
  block: SupportLevel;
  rewrite: SupportLevel;
  context: SupportLevel;
  stop: SupportLevel;
  /** How the agent treats a hook that times out, cannot start, exits non-zero or prints garbage: one short sentence each. */
  failures: { timeout: string; crash: string; garbled: string };
  /** Proven against the real agent (its version), or built from its docs (the source read and the date). */
  verified: { how: 'real-agent'; version: string } | { how: 'docs'; source: string; date: string };
  /** Per answer kind the agent drops although a hook can say it: the sentence doctor and the summary say. */
  drops?: Partial<Record<'block' | 'rewrite' | 'context' | 'stop', string>>;
}

export interface AgentModule<N extends string = string> {
  /** The dialect name (`dialect: claude`, `--dialect claude`, /v1/agent/claude/…). */
  readonly name: N;
  /** The agent as its users know it, for messages. */
  readonly label: string;
  /** Another agent whose event names and config shape this one writes (Codex writes Claude Code's). */
  readonly mimics?: string;
  readonly names: DialectNamesData;
  /** Events that stand for a family of tools; a call in a family renders as its event. */
  readonly families?: Readonly<Record<string, ToolFamily>>;
  /** MCP tools are `mcp__<server>__<tool>` (else they pass under our own name). */
  readonly mcpDoubleUnderscore: boolean;
  /** Its config file: matcher groups with nested `hooks:` lists, or flat `- command:` entries. */
  readonly configShape: 'groups' | 'flat';
  /** Its hooks file carries `"version": 1` beside `hooks`. */
  readonly versionedConfig?: boolean;
  /**
   * A handler's keys in its hooks file when they are not `command`/`timeout` (Copilot: `bash`, `timeoutSec`),
   * and the `type` every handler must carry there (`"command"`), if any.
   */
  readonly handlerKeys?: { command: string; timeout: string; type?: string };
  /** Its settings file allows comments (JSON with comments). */
  readonly configComments?: boolean;
  /** Handler timeouts are in this unit. */
  readonly timeoutUnit: 's' | 'ms';
  /** A timeout at or above this is read as milliseconds whatever the unit (Qwen Code 0.24.4: seconds, but 1000 and up are ms). */
  readonly timeoutMsFrom?: number;
  /**
   * The hooks files (by path) that hold the events at the top level, not under a `hooks` key
   * (Droid's hooks.json): the agent ignores a `hooks` wrapper there. Its other files use `hooks`.
   */
  readonly topLevelEvents?: RegExp;
  /** The handler field that makes the tool gate block when the command cannot start (Cursor's failClosed). */
  readonly failClosedField?: string;
  /** It takes all of stderr as the block reason (exit 2): nothing else may be written there then. */
  readonly stderrIsBlockReason?: boolean;
  /** Their post-tool event that reports a failed tool. */
  readonly toolFailureEvents?: readonly string[];
  /** Their stdin: which key holds the session (first present wins), other keys we rename, and each event's own fields. */
  readonly stdin?: StdinReading;
  /**
   * The variable the agent sets in its command hooks' env to say whether the session is attended
   * (a person watching), and its two values; absent: the agent gives no indicator.
   */
  readonly attendedEnv?: { variable: string; attended: string; unattended: string };
  /** How its hook says "block" on stdout: the advice to a hook on the gate that exited 1 meaning "no". */
  readonly blockOnStdout: string;
  renderStdin(f: StdinFields): Record<string, unknown>;
  readRun(r: ReadInput): Reading;
  answer(a: AnswerInput): DialectAnswer;
  readonly recognise: RecogniseFacts;
  readonly import: ImportRules;
  readonly doctor: DoctorFacts;
  readonly printConfig: PrintConfigFacts;
  /** What its answers can do, how its failures behave, how we know: the support matrix (docs/agents.md) and the drop warnings read it. */
  readonly support: AgentSupport;
}

/** The key of a handler's command in this agent's hooks file (`command` unless the record says). */
export const commandKeyOf = (agent: Pick<AgentModule, 'handlerKeys'>): string => agent.handlerKeys?.command ?? 'command';

/** The key of a handler's timeout in this agent's hooks file (`timeout` unless the record says). */
export const timeoutKeyOf = (agent: Pick<AgentModule, 'handlerKeys'>): string => agent.handlerKeys?.timeout ?? 'timeout';

/** A handler's `timeout` value in seconds, as the agent reads it (its unit; Qwen's large values are ms). */
export function handlerSeconds(agent: Pick<AgentModule, 'timeoutUnit' | 'timeoutMsFrom'>, value: number): number {
  const ms = agent.timeoutUnit === 'ms' || (agent.timeoutMsFrom !== undefined && value >= agent.timeoutMsFrom);
  return ms ? value / 1000 : value;
}

/** The events of a parsed hooks file: its top level in a file the agent reads that way (Droid's hooks.json), else its `hooks`. */
export function eventsIn(agent: Pick<AgentModule, 'topLevelEvents'>, file: string, json: Record<string, unknown>): unknown {
  return agent.topLevelEvents?.test(file) ? json : json['hooks'];
}

/** Keeps the record's name a literal type, so the registry can derive the union of names. */
export function defineAgent<const N extends string>(module: AgentModule<N>): AgentModule<N> {
  return module;
}

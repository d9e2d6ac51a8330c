// `hermes-hooks doctor --agent X`, the judging half (pure: file texts and probes in, findings out).
// It looks at an agent's own hook config files for hermes-hooks entries that agent will not run, or
// that fail open: the wrong file, a command that is missing / npx / relative, a tool gate that is not
// wired or whose matcher lets tools past, a timeout shorter than the profile's hooks, the wrong event
// or dialect, and for Codex a hook that is not trusted (Codex skips those without a word).
//
// Facts per agent come from reference/peer-hook-protocols.md §a1–§b4. What cannot be known from the
// files (Claude's workspace trust; whether Codex's trusted_hash still matches an edited entry) is
// said as exactly that, with the step that settles it.

import { isAbsolute } from 'node:path';
import type { EventName } from '../events.js';
import { isPlainObject } from '../_json.js';
import { splitCommand } from '../spawn/argv.js';
import { blankJsonComments } from '../util/jsonc.js';
import { AGENT_DIALECTS, AGENT_LABELS, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { errorText } from '../errors.js';

export interface AgentFile {
  path: string;
  /** File text; null when the file does not exist. */
  text: string | null;
  /** `reads`: the agent reads this file. `wrong`: a place people paste into that it never reads. */
  role: 'reads' | 'wrong';
  /** Where the entries belong instead (for `wrong` files). */
  instead?: string;
  /** The file's real path (symlinks resolved): Codex keys trust by it. */
  realPath?: string;
}

export interface AgentProbes {
  /** The path exists and is a regular file that can be executed (exec bit) — or read, with `read`. */
  runnable(path: string, mode: 'exec' | 'read'): 'ok' | 'missing' | 'not_executable' | 'not_file';
  /** The absolute path of a bare command name on this PATH, or null. */
  which(name: string): string | null;
}

export interface AgentDoctorInput {
  dialect: AgentDialect;
  maps: DialectMaps;
  files: AgentFile[];
  /** Codex: ~/.codex/config.toml, where hook trust is recorded. */
  codexConfig?: { path: string; text: string | null };
  /** The longest hook timeout (s) the profile has per event: one `run` waits for the slowest. */
  profileTimeouts: Partial<Record<EventName, number>>;
  home: string;
  probes: AgentProbes;
}

/** ok: true ✓, false ✗ (a problem: exit 1), null ℹ (information, or a risk we cannot settle). */
export interface AgentCheck {
  ok: boolean | null;
  message: string;
}

export interface AgentEntry {
  file: string;
  /** Where in the file, e.g. `hooks.PreToolUse[0].hooks[0]`. */
  at: string;
  event: string;
  command: string;
  checks: AgentCheck[];
}

export interface AgentDoctorReport {
  agent: AgentDialect;
  files: { path: string; role: AgentFile['role']; state: 'missing' | 'read' | 'unparseable'; entries: number }[];
  general: AgentCheck[];
  entries: AgentEntry[];
  problems: number;
}

/** The tool-gate event (where guards block) and the tool events a matcher applies to, per agent. */
const GATE: Record<AgentDialect, string> = { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', cursor: 'preToolUse' };
const TOOL_EVENTS: Record<AgentDialect, readonly string[]> = {
  claude: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
  codex: ['PreToolUse', 'PostToolUse'],
  gemini: ['BeforeTool', 'AfterTool'],
  cursor: ['preToolUse', 'postToolUse', 'postToolUseFailure'],
};
/** Cursor's per-family gates also guard tool calls (beforeShellExecution …). */
const CURSOR_GATES = ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];
/** Each agent's default handler timeout in seconds when none is set (null: not documented). */
function defaultTimeout(dialect: AgentDialect, event: string): number | null {
  if (dialect === 'claude') return event === 'UserPromptSubmit' ? 30 : 600;
  if (dialect === 'codex') return 600;
  if (dialect === 'gemini') return 60;
  return null;
}

const FIX_COMMAND = (agent: AgentDialect): string => `'hermes-hooks print-config ${agent}' prints the absolute command`;

/** A command that calls hermes-hooks (by name, by its bin.js, or as `run X --dialect Y`). */
export function isHermesHooksCommand(command: string): boolean {
  return /\bhermes-hooks\b/.test(command) || /dist\/cli\/bin\.js\b/.test(command) || /\brun\s+\S+\s+.*--dialect[\s=]/.test(command);
}

interface RawEntry {
  at: string;
  event: string;
  matcher: unknown;
  handler: Record<string, unknown>;
  group: number;
  index: number;
}

/** Every command handler in one agent config object, with where it sits. */
function entriesOf(dialect: AgentDialect, json: Record<string, unknown>): RawEntry[] {
  const hooks = json['hooks'];
  if (!isPlainObject(hooks)) return [];
  const out: RawEntry[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue; // e.g. Gemini's `hooks.enabled`
    list.forEach((group, g) => {
      if (!isPlainObject(group)) return;
      if (dialect === 'cursor' || typeof group['command'] === 'string') {
        out.push({ at: `hooks.${event}[${g}]`, event, matcher: group['matcher'], handler: group, group: g, index: 0 });
        return;
      }
      const handlers = group['hooks'];
      if (!Array.isArray(handlers)) return;
      handlers.forEach((h, i) => {
        if (isPlainObject(h) && typeof h['command'] === 'string') {
          out.push({ at: `hooks.${event}[${g}].hooks[${i}]`, event, matcher: group['matcher'], handler: h, group: g, index: i });
        }
      });
    });
  }
  return out;
}

function parseAgentJson(text: string, dialect: AgentDialect): Record<string, unknown> | string {
  try {
    const v = JSON.parse(dialect === 'gemini' ? blankJsonComments(text) : text) as unknown;
    return isPlainObject(v) ? v : 'not a JSON object';
  } catch (e) {
    return errorText(e);
  }
}

export function checkAgentConfig(input: AgentDoctorInput): AgentDoctorReport {
  const { dialect } = input;
  const report: AgentDoctorReport = { agent: dialect, files: [], general: [], entries: [], problems: 0 };
  const gateWired = new Set<string>();

  for (const file of input.files) {
    if (file.text === null) {
      report.files.push({ path: file.path, role: file.role, state: 'missing', entries: 0 });
      continue;
    }
    const json = parseAgentJson(file.text, dialect);
    if (typeof json === 'string') {
      const mentions = isHermesHooksCommand(file.text);
      report.files.push({ path: file.path, role: file.role, state: 'unparseable', entries: 0 });
      if (file.role === 'reads') {
        report.general.push({ ok: false, message: `${file.path} is not valid JSON (${json}): ${agentName(dialect)} cannot read it${mentions ? ', so its hermes-hooks entries never run' : ''}. Fix the syntax.` });
      }
      continue;
    }
    const ours = entriesOf(dialect, json).filter((e) => isHermesHooksCommand(e.handler['command'] as string));
    report.files.push({ path: file.path, role: file.role, state: 'read', entries: ours.length });
    if (file.role === 'wrong') {
      if (ours.length) {
        report.general.push({ ok: false, message: `${file.path} has ${ours.length} hermes-hooks entr${ours.length === 1 ? 'y' : 'ies'}, but ${agentName(dialect)} never reads that file: move them to ${file.instead}.` });
      }
      continue;
    }
    if (dialect === 'cursor' && ours.length && json['version'] !== 1) {
      report.general.push({ ok: false, message: `${file.path} has no "version": 1 — Cursor expects {"version": 1, "hooks": {…}}.` });
    }
    for (const raw of ours) {
      const entry = checkEntry(input, file, raw);
      report.entries.push(entry);
      const gate = dialect === 'cursor' ? CURSOR_GATES.includes(raw.event) : raw.event === GATE[dialect];
      // An entry on the gate counts; whatever keeps it from working is its own ✗ below.
      if (gate) gateWired.add(raw.event);
    }
  }

  const read = input.files.filter((f) => f.role === 'reads');
  const anyOurs = report.entries.length > 0;
  if (!anyOurs) {
    report.general.push({
      ok: false,
      message: `no hermes-hooks entry in ${read.map((f) => f.path).join(' or ')}: ${agentName(dialect)} runs none of the profile's hooks. Wire it with 'hermes-hooks print-config ${dialect}'.`,
    });
  } else if (gateWired.size === 0) {
    report.general.push({
      ok: false,
      message: `no hermes-hooks entry on ${GATE[dialect]}: the profile's pre_tool_call guards never see a tool call. Wire it with 'hermes-hooks print-config ${dialect}'.`,
    });
  }
  if (dialect === 'cursor' && gateWired.has('preToolUse') && [...gateWired].some((e) => e !== 'preToolUse')) {
    report.general.push({ ok: null, message: `preToolUse and ${[...gateWired].filter((e) => e !== 'preToolUse').join(', ')} are both wired: Cursor fires both for one call, so the profile's hooks run twice.` });
  }
  const toml = input.codexConfig?.text;
  if (dialect === 'codex' && toml && /^\s*\[\[?hooks\.(?!state\b)/m.test(toml) && isHermesHooksCommand(toml)) {
    report.general.push({ ok: null, message: `${input.codexConfig!.path} also wires hermes-hooks inline under [hooks]: not checked here (TOML); /hooks in codex lists and trusts those entries.` });
  }
  if (dialect === 'claude' && anyOurs) {
    report.general.push({ ok: null, message: 'cannot verify workspace trust: interactive Claude Code runs settings-file hooks only after the folder\'s trust dialog is accepted (claude -p trusts it); /hooks in Claude Code lists what it loaded.' });
  }
  if (dialect === 'gemini' && anyOurs) {
    report.general.push({ ok: null, message: 'project hooks (.gemini/settings.json) run only in trusted folders; /hooks panel in Gemini CLI lists what it loaded.' });
  }

  report.problems = report.general.filter((c) => c.ok === false).length + report.entries.reduce((n, e) => n + e.checks.filter((c) => c.ok === false).length, 0);
  return report;
}

function checkEntry(input: AgentDoctorInput, file: AgentFile, raw: RawEntry): AgentEntry {
  const { dialect, maps } = input;
  const command = raw.handler['command'] as string;
  const checks: AgentCheck[] = [];

  // The event and the `run <event> --dialect <agent>` it calls.
  const ourEvent = maps[dialect].events.get(raw.event) ?? null;
  if (ourEvent === null) checks.push({ ok: false, message: `${agentName(dialect)} event '${raw.event}' has no Hermes counterpart: 'run' answers it with an error (remove the entry)` });
  const run = /\brun\s+(\S+)/.exec(command);
  const dialectArg = /--dialect(?:\s+|=)(\S+)/.exec(command)?.[1];
  if (!run) checks.push({ ok: false, message: `the command does not call 'run <event> --dialect ${dialect}' — ${FIX_COMMAND(dialect)}` });
  else if (run[1] !== raw.event) checks.push({ ok: false, message: `wired on ${raw.event} but the command runs '${run[1]}': stdin and command line disagree, so every call errors or blocks — use 'run ${raw.event}'` });
  if (dialectArg === undefined) checks.push({ ok: false, message: `no --dialect ${dialect}: 'run' would read ${agentName(dialect)}'s stdin as the Hermes wire — add '--dialect ${dialect}'` });
  else if (dialectArg !== dialect) checks.push({ ok: false, message: `--dialect ${dialectArg} in ${agentName(dialect)}'s config: the answers are in ${isKnownDialect(dialectArg) ? agentName(dialectArg as AgentDialect) : dialectArg}'s format, which ${agentName(dialect)} misreads — use '--dialect ${dialect}'` });
  if (/(^|\s)--fail-open(\s|$)/.test(command)) checks.push({ ok: null, message: '--fail-open: when hermes-hooks cannot decide (broken config …) the call goes ahead unguarded' });

  checks.push(programCheck(input, file, command));

  // Matchers on the tool events: anything narrower than "every tool" lets calls past the guards.
  if (TOOL_EVENTS[dialect].includes(raw.event)) {
    const missed = missedTools(input, raw.matcher);
    if (missed === null) checks.push({ ok: true, message: `matcher ${raw.matcher === undefined ? '(none)' : JSON.stringify(raw.matcher)} sends every tool to hermes-hooks` });
    else checks.push({ ok: false, message: `matcher ${JSON.stringify(raw.matcher)} skips ${missed.join(', ')}: those calls never reach the profile's guards — use "*" (the profile's own matchers pick the tools)` });
  }

  // Timeout: the agent must wait for the slowest profile hook (+1 s to kill it, +1 s to start).
  if (ourEvent !== null) {
    const unit = dialect === 'gemini' ? 1000 : 1;
    const given = typeof raw.handler['timeout'] === 'number' ? (raw.handler['timeout'] as number) / unit : null;
    const seconds = given ?? defaultTimeout(dialect, raw.event);
    const slowest = input.profileTimeouts[ourEvent];
    const need = slowest === undefined ? null : slowest + 2;
    if (seconds === null) {
      checks.push({ ok: null, message: `no timeout set and ${agentName(dialect)}'s default is not documented: set "timeout": 310` });
    } else if (need !== null && seconds < need) {
      const hint = dialect === 'gemini' && given !== null && raw.handler['timeout'] as number < 1000 ? ' (Gemini counts milliseconds)' : '';
      checks.push({
        ok: false,
        message: `${agentName(dialect)} stops the hook after ${fmt(seconds)} s${given === null ? ' (its default)' : ''}${hint}, but the profile's ${ourEvent} hooks may take up to ${slowest} s: a slow guard is cut off and the call goes ahead — set "timeout": ${dialect === 'gemini' ? 310000 : 310}`,
      });
    } else {
      checks.push({ ok: true, message: `timeout ${fmt(seconds)} s${given === null ? ' (default)' : ''} outlasts the profile's ${ourEvent} hooks${slowest === undefined ? ' (none configured)' : ` (up to ${slowest} s)`}` });
    }
  }

  if (dialect === 'cursor' && raw.event === 'preToolUse' && raw.handler['failClosed'] !== true) {
    checks.push({ ok: null, message: 'no "failClosed": true — if the command cannot start or times out, Cursor lets the call through' });
  }
  if (dialect === 'codex') checks.push(codexTrust(input, file, raw));

  return { file: file.path, at: raw.at, event: raw.event, command, checks };
}

/** The program the agent's shell will start, and whether it will be there. */
function programCheck(input: AgentDoctorInput, file: AgentFile, command: string): AgentCheck {
  const { dialect, probes } = input;
  const split = splitCommand(command, { homedir: input.home });
  if (!split.ok) return { ok: false, message: `${split.error} — ${FIX_COMMAND(dialect)}` };
  const argv = split.argv;
  const program = argv[0] ?? '';
  if (program === 'npx' || program.endsWith('/npx') || (program === 'npm' && argv[1] === 'exec')) {
    return {
      ok: false,
      message: `runs through npx: ~1.2 s per call, and outside a project with hermes-hooks installed npx exits 1, which ${agentName(dialect)} reads as "go ahead" — every guard fails open. ${cap(FIX_COMMAND(dialect))}.`,
    };
  }
  const where = dialect === 'cursor' ? 'the hooks.json folder' : "the agent's working directory";
  const fileCheck = (path: string, mode: 'exec' | 'read', what: string): AgentCheck | null => {
    if (!isAbsolute(path)) {
      return { ok: false, message: `${what} '${path}' is a relative path, resolved against ${where}, which changes from project to project — use an absolute path (${FIX_COMMAND(dialect)})` };
    }
    const state = probes.runnable(path, mode);
    if (state === 'missing') return { ok: false, message: `${what} ${path} does not exist: the agent's shell fails (exit 127) and ${agentName(dialect)} goes ahead — ${FIX_COMMAND(dialect)}` };
    if (state === 'not_file') return { ok: false, message: `${what} ${path} is not a file — ${FIX_COMMAND(dialect)}` };
    if (state === 'not_executable') return { ok: false, message: `${what} ${path} is not executable (chmod +x it, or run it with node)` };
    return null;
  };

  let resolved = program;
  if (!program.includes('/')) {
    const found = probes.which(program);
    if (found === null) {
      return { ok: false, message: `'${program}' is not on PATH here: the agent's shell fails (exit 127) and ${agentName(dialect)} goes ahead — ${FIX_COMMAND(dialect)}` };
    }
    resolved = found;
  } else {
    const bad = fileCheck(program, 'exec', 'program');
    if (bad) return bad;
  }
  // `node /abs/dist/cli/bin.js …`: the script must be there too.
  if (/(^|\/)(node|nodejs)$/.test(program)) {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    if (script === undefined) return { ok: false, message: `'${program}' is given no script — ${FIX_COMMAND(dialect)}` };
    const bad = fileCheck(script, 'read', 'script');
    if (bad) return bad;
    return { ok: true, message: `runs ${resolved} ${script} (both exist)` };
  }
  if (!program.includes('/')) {
    return { ok: null, message: `'${program}' is ${resolved} on this PATH; ${agentName(dialect)}'s PATH may differ (apps started from a desktop often lack ~/.nvm or ~/.local/bin) — an absolute path is safer (${FIX_COMMAND(dialect)})` };
  }
  return { ok: true, message: `runs ${program} (exists)` };
}

/** The agent's tool names (and an MCP tool) a matcher would not send to us; null = it sends them all. */
function missedTools(input: AgentDoctorInput, matcher: unknown): string[] | null {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') return null;
  if (typeof matcher !== 'string') return ['every tool (the matcher is not a string)'];
  // Codex matches its canonical names and their aliases (Edit|Write fire for apply_patch, §b2); the
  // others match the tool names their maps list. Plus one MCP tool in the agent's spelling.
  const groups: string[][] =
    input.dialect === 'codex'
      ? [['Bash'], ['apply_patch', 'Edit', 'Write'], ['mcp__server__tool']]
      : [...new Set([...input.maps[input.dialect].tools.keys(), input.dialect === 'cursor' ? 'mcp_server_tool' : 'mcp__server__tool'])].map((t) => [t]);
  const tools = groups.map((g) => g[0]!);
  let matches: (tool: string) => boolean;
  if (input.dialect === 'claude' && /^[A-Za-z0-9_ ,|-]+$/.test(matcher)) {
    // Claude: only names and separators → an exact name or list.
    const names = new Set(matcher.split(/[|,]/).map((s) => s.trim()));
    matches = (t) => names.has(t);
  } else {
    let re: RegExp;
    try {
      re = new RegExp(matcher);
    } catch {
      // Gemini falls back to an exact match; Codex skips the group with a warning.
      return input.dialect === 'gemini' ? tools.filter((t) => t !== matcher) : tools;
    }
    matches = (t) => re.test(t);
  }
  const missed = groups.filter((g) => !g.some(matches)).map((g) => g[0]!);
  return missed.length ? missed : null;
}

/**
 * Codex records trust in config.toml as `[hooks.state."<source>:<event>:<group>:<handler>"]` with a
 * `trusted_hash` (reference §b2; the key format is known from Codex's source and third parties). We
 * cannot recompute Codex's hash, so a recorded trust is reported as such, not as proof.
 */
function codexTrust(input: AgentDoctorInput, file: AgentFile, raw: RawEntry): AgentCheck {
  const snake = raw.event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const suffix = `:${snake}:${raw.group}:${raw.index}`;
  const how = "trust it in the interactive codex with /hooks, or run codex with --dangerously-bypass-hook-trust";
  const config = input.codexConfig;
  if (!config || config.text === null) {
    return { ok: false, message: `not trusted: ${config?.path ?? '~/.codex/config.toml'} does not exist, so no trust is recorded and Codex skips this hook without a word — ${how}` };
  }
  // Codex keys trust by the hooks file's absolute real path (hooks/src/lib.rs hook_key).
  const states = codexHookStates(config.text);
  const paths = [file.path, file.realPath].filter((p): p is string => p !== undefined);
  const state = states.find((s) => paths.some((p) => s.key === `${p}${suffix}`));
  if (!state) {
    return { ok: false, message: `not trusted: no [hooks.state] record for ${file.path}${suffix} in ${config.path}, so Codex skips this hook without a word — ${how}` };
  }
  if (state.enabled === false) return { ok: false, message: `disabled in ${config.path} (enabled = false): Codex does not run it — enable it in /hooks` };
  if (!state.trustedHash) return { ok: false, message: `not trusted: ${config.path} has a record for it but no trusted_hash — ${how}` };
  return { ok: null, message: `trust recorded in ${config.path}; cannot verify it still matches this entry (any edit makes it "modified" and Codex skips it) — if unsure, open /hooks` };
}

interface CodexHookState {
  key: string;
  trustedHash: string | null;
  enabled: boolean | null;
}

/**
 * The hook trust records of a config.toml — a line scan, enough for the two keys we read, in the
 * two shapes Codex and installers write: `[hooks.state."KEY"]` tables with `trusted_hash = "…"` /
 * `enabled = false` lines, and `"KEY" = { trusted_hash = "…", enabled = false }` under `[hooks.state]`.
 */
export function codexHookStates(toml: string): CodexHookState[] {
  const out: CodexHookState[] = [];
  const KEY = String.raw`(?:"((?:[^"\\]|\\.)*)"|'([^']*)')`;
  const keyOf = (m: RegExpExecArray, i: number): string => (m[i] !== undefined ? m[i]!.replace(/\\(.)/g, '$1') : m[i + 1]!);
  const read = (text: string, state: CodexHookState): void => {
    const hash = /(?:^|[\s,{])trusted_hash\s*=\s*["']([^"']*)["']/.exec(text);
    if (hash) state.trustedHash = hash[1]!;
    const enabled = /(?:^|[\s,{])enabled\s*=\s*(true|false)\b/.exec(text);
    if (enabled) state.enabled = enabled[1] === 'true';
  };
  let current: CodexHookState | null = null;
  let inStateTable = false;
  for (const line of toml.split('\n')) {
    const header = new RegExp(String.raw`^\s*\[\s*hooks\.state\.${KEY}\s*\]\s*(#.*)?$`).exec(line);
    if (header) {
      current = { key: keyOf(header, 1), trustedHash: null, enabled: null };
      out.push(current);
      inStateTable = false;
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = null;
      inStateTable = /^\s*\[\s*hooks\.state\s*\]/.test(line);
      continue;
    }
    if (current) {
      read(line, current);
    } else if (inStateTable) {
      const inline = new RegExp(String.raw`^\s*${KEY}\s*=\s*\{(.*)\}`).exec(line);
      if (inline) {
        const state: CodexHookState = { key: keyOf(inline, 1), trustedHash: null, enabled: null };
        read(inline[3]!, state);
        out.push(state);
      }
    }
  }
  return out;
}

/** The files each agent reads, and places people put hooks that it never reads. */
export function agentFiles(dialect: AgentDialect, home: string, project: string): Omit<AgentFile, 'text'>[] {
  const h = (p: string): string => `${home}/${p}`;
  const pj = (p: string): string => `${project}/${p}`;
  switch (dialect) {
    case 'claude':
      return [
        { path: h('.claude/settings.json'), role: 'reads' },
        { path: pj('.claude/settings.json'), role: 'reads' },
        { path: pj('.claude/settings.local.json'), role: 'reads' },
        { path: h('.claude/hooks.json'), role: 'wrong', instead: '~/.claude/settings.json (under "hooks")' },
        { path: pj('.claude/hooks.json'), role: 'wrong', instead: '.claude/settings.json (under "hooks")' },
      ];
    case 'codex':
      return [
        { path: h('.codex/hooks.json'), role: 'reads' },
        { path: pj('.codex/hooks.json'), role: 'reads' },
        { path: h('.codex/settings.json'), role: 'wrong', instead: '~/.codex/hooks.json' },
        { path: pj('.codex/settings.json'), role: 'wrong', instead: '.codex/hooks.json' },
      ];
    case 'gemini':
      return [
        { path: h('.gemini/settings.json'), role: 'reads' },
        { path: pj('.gemini/settings.json'), role: 'reads' },
        { path: h('.gemini/hooks.json'), role: 'wrong', instead: '~/.gemini/settings.json (under "hooks")' },
        { path: pj('.gemini/hooks.json'), role: 'wrong', instead: '.gemini/settings.json (under "hooks")' },
      ];
    case 'cursor':
      return [
        { path: h('.cursor/hooks.json'), role: 'reads' },
        { path: pj('.cursor/hooks.json'), role: 'reads' },
        { path: h('.cursor/settings.json'), role: 'wrong', instead: '~/.cursor/hooks.json' },
        { path: pj('.cursor/settings.json'), role: 'wrong', instead: '.cursor/hooks.json' },
      ];
  }
}

function agentName(dialect: AgentDialect): string {
  return AGENT_LABELS[dialect];
}

const isKnownDialect = (d: string): boolean => (AGENT_DIALECTS as readonly string[]).includes(d);
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, ''));
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

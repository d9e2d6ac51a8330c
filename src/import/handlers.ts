// One handler of another agent's config → one hook entry of ours: its command, timeout, matcher
// and fail-closed setting converted, and everything that cannot be carried over reported at its
// place in the source file. The agent's rules (units, shell, matcher style) come from its record.

import { EVENTS, type EventName } from '../events.js';
import type { Diagnostic, DiagnosticLevel } from '../types.js';
import { diagnosticAt, type ConfigPath, type ConfigSource } from '../config/source.js';
import { convertClaudeMatcher, convertRegexMatcher, isValidRegex, matchesEverything } from '../dialects/matchers.js';
import type { AgentDialect } from '../dialects/agents/index.js';
import { commandKeyOf, handlerSeconds, timeoutKeyOf } from '../dialects/agents/module.js';
import type { DialectMaps } from '../dialects/names.js';
import { shellQuote } from '../shell-words.js';
import { isPlainObject } from '../json.js';
import { needsShell, wrapInShell } from './_shell.js';
import { AGENT_VARS, PROJECT_DIR_VARS, type Format } from './formats.js';

export interface ImportedHook {
  event: EventName;
  /** The command as our config will hold it (wrapped in `sh -c` when it needs a shell). */
  command: string;
  /** Our full-match matcher (it may use the agent's tool names), or null for every tool. */
  matcher: string | null;
  /** Seconds, 1..300; null = not set in the source (our default of 60 s applies). */
  timeout: number | null;
  fail_closed: boolean;
  dialect: AgentDialect;
  /** Where the handler sits in the source file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  source: string;
}

export interface Ctx {
  source: ConfigSource;
  /** The file format and the agent it belongs to. */
  from: Format;
  maps: DialectMaps;
  projectDir: string | null;
  diagnostics: Diagnostic[];
  hooks: ImportedHook[];
  missingTimeouts: number;
  /** Where the events sit in the file: under `hooks` (the default), or at the top level ([]: Droid's hooks.json). */
  root?: ConfigPath;
  /** Reading a Hermes config.yaml: a `- command:` entry under an agent's event name is one hook (its own matcher). */
  flatEntries: boolean;
}

export const MAX_TIMEOUT = 300;

export function diag(ctx: Ctx, level: DiagnosticLevel, path: ConfigPath, message: string, key = false): void {
  ctx.diagnostics.push(diagnosticAt(ctx.source, level, path, message, { key }));
}

/** A handler's timeout in our seconds (rounded up, clamped to 1..300), or null to keep our default. */
function convertTimeout(ctx: Ctx, raw: unknown, path: ConfigPath): number | null {
  if (raw === undefined) {
    ctx.missingTimeouts++;
    return null;
  }
  const unit = ctx.from.format.timeoutUnit;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) {
    diag(
      ctx,
      'warning',
      path,
      `timeout ${JSON.stringify(raw)} is not a positive number of ${unit === 'ms' ? 'milliseconds' : 'seconds'}; using the default of 60 s`,
    );
    return null;
  }
  // Qwen Code 0.24.4 counts seconds, but still reads 1000 and up as milliseconds (its record's timeoutMsFrom).
  const msFrom = ctx.from.agent.timeoutMsFrom;
  let seconds = Math.ceil(handlerSeconds({ timeoutUnit: unit, ...(msFrom !== undefined ? { timeoutMsFrom: msFrom } : {}) }, raw));
  if (unit === 's' && msFrom !== undefined && raw >= msFrom) {
    diag(ctx, 'info', path, `timeout ${raw} is read as milliseconds by ${ctx.from.format.writer} (${msFrom} and up are ms) and becomes ${seconds} s`);
  }
  if (unit === 'ms' && raw < 1000) {
    diag(
      ctx,
      'warning',
      path,
      `timeout ${raw} is in milliseconds here and becomes ${seconds} s; if it was meant as seconds ` +
        `(Claude's unit, which \`gemini hooks migrate\` and Qwen 1.x examples copy unconverted), set timeout: ` +
        `${Math.min(Math.ceil(raw), MAX_TIMEOUT)} in the imported entry`,
    );
  }
  if (seconds > MAX_TIMEOUT) {
    diag(
      ctx,
      'warning',
      path,
      `timeout ${raw} ${msFrom !== undefined && raw >= msFrom ? 'ms' : unit} exceeds the maximum of ${MAX_TIMEOUT} s; clamped to ${MAX_TIMEOUT}`,
    );
    seconds = MAX_TIMEOUT;
  }
  return seconds;
}

/** Their command (+ exec-form args) → our command line, with what had to change reported. */
function convertCommand(ctx: Ctx, handler: Record<string, unknown>, at: ConfigPath): string | null {
  const commandKey = commandKeyOf(ctx.from.agent);
  const raw = handler[commandKey];
  if (typeof raw !== 'string' || raw.trim() === '') {
    diag(ctx, 'warning', at, `hook has no ${commandKey === 'command' ? 'command' : `"${commandKey}" command`}; not imported`);
    return null;
  }
  let command = raw.trim();
  const args = handler['args'];
  let execForm = false;
  if (args !== undefined) {
    if (Array.isArray(args) && args.every((a) => typeof a === 'string')) {
      // Exec form (no shell): our splitter reads single-quoted words back exactly.
      command = [command, ...(args as string[])].map(shellQuote).join(' ');
      execForm = true;
      if ((args as string[]).some((a) => a.includes('${'))) {
        diag(ctx, 'warning', [...at, 'args'], `args placeholders (\${…}) are replaced by the agent, not by hermes-hooks; they are passed literally`);
      }
    } else {
      diag(ctx, 'warning', [...at, 'args'], `args must be a list of strings; ignored`);
    }
  }
  if (!execForm) {
    if (ctx.projectDir !== null && command.search(PROJECT_DIR_VARS) !== -1) {
      command = command.replace(PROJECT_DIR_VARS, ctx.projectDir).split(`"${ctx.projectDir}"`).join(shellQuote(ctx.projectDir));
      diag(ctx, 'info', [...at, 'command'], `the project-dir variable is replaced by ${ctx.projectDir} (the folder that holds this config)`);
    }
    const agentVars = [...new Set([...command.matchAll(AGENT_VARS)].map((m) => m[1]!))];
    if (agentVars.length > 0) {
      diag(
        ctx,
        'warning',
        [...at, 'command'],
        `uses ${agentVars.map((v) => `$${v}`).join(', ')}, which hermes-hooks does not set (it sets HERMES_HOME and HERMES_HOOK_EVENT)`,
      );
    }
    if (ctx.from.agent.import.scriptsFromConfigDir) command = resolveRelative(ctx, command, at);
    if (needsShell(command)) {
      const shell = handler['shell'] === 'bash' ? 'bash' : ctx.from.agent.import.shell;
      command = wrapInShell(command, shell);
      diag(ctx, 'info', [...at, 'command'], `runs through ${shell} -c: it uses shell syntax, and hermes-hooks runs commands without a shell`);
    }
  }
  return command;
}

/** The agent resolves a relative script path from the folder of hooks.json (Cursor); we run from Hermes' cwd. */
function resolveRelative(ctx: Ctx, command: string, at: ConfigPath): string {
  const fileDir = ctx.source.file.replace(/[\\/][^\\/]*$/, '');
  if (fileDir === ctx.source.file) return command;
  const words = command.split(/\s+/);
  const relative = (w: string): boolean => /^(\.{1,2}\/|[A-Za-z0-9_][^\s/'"]*\/)/.test(w);
  let out = command;
  if (relative(words[0]!)) {
    const resolved = `${fileDir}/${words[0]!.replace(/^\.\//, '')}`;
    diag(ctx, 'info', [...at, 'command'], `relative path ${words[0]} resolved from the folder of hooks.json: ${resolved}`);
    out = resolved + command.slice(words[0]!.length);
  }
  const inArgs = words.slice(1).filter(relative);
  if (inArgs.length > 0) {
    diag(
      ctx,
      'warning',
      [...at, 'command'],
      `relative path ${inArgs.join(', ')} in the arguments resolves from the working directory of Hermes, not from the folder of hooks.json`,
    );
  }
  return out;
}

/** Handler fields that cannot be carried over: how loud to be, and what to say. */
export const DROPPED_FIELDS: Readonly<Record<string, [DiagnosticLevel, string]>> = {
  async: ['warning', 'async cannot be carried over: hermes-hooks waits for the hook (within its timeout)'],
  asyncRewake: ['warning', 'asyncRewake cannot be carried over: hermes-hooks runs hooks synchronously'],
  env: ['warning', "env cannot be carried over: hermes-hooks gives hooks the host's environment; set the variables there or in a wrapper script"],
  loop_limit: ['warning', 'loop_limit cannot be carried over: Hermes caps pre_verify nudges with agent.max_verify_nudges (default 3)'],
  statusMessage: ['info', 'statusMessage is not shown by hermes-hooks; dropped'],
  once: ['info', 'once cannot be carried over; dropped'],
  command_windows: ['info', 'command_windows is not used by hermes-hooks; dropped'],
  powershell: ['info', 'powershell is the Windows command; hermes-hooks runs the bash one'],
  cwd: ['warning', "cwd cannot be carried over: hermes-hooks runs the hook in the host's working directory; cd in a wrapper script"],
};
/** Fields we read, plus labels (Gemini/Qwen `name`, `description`) that carry no behaviour. */
const READ_FIELDS = new Set([
  'type',
  'command',
  'args',
  'timeout',
  'timeout_sec',
  'bash',
  'timeoutSec',
  'shell',
  'onFailure',
  'on_failure',
  'failClosed',
  'matcher',
  'enabled',
  'if',
  'name',
  'description',
]);

/** Report every handler field we cannot carry; returns false when the handler must be skipped. */
function reportHandlerFields(ctx: Ctx, handler: Record<string, unknown>, at: ConfigPath): boolean {
  if (handler['if'] !== undefined) {
    diag(
      ctx,
      'warning',
      [...at, 'if'],
      `the 'if' rule ${JSON.stringify(handler['if'])} cannot be carried over: the hook now runs on every call its matcher selects`,
    );
  }
  for (const key of Object.keys(handler)) {
    const dropped = DROPPED_FIELDS[key];
    // `async: false` is what we do anyway.
    if (dropped) {
      if (!(key === 'async' && handler[key] === false)) diag(ctx, dropped[0], [...at, key], dropped[1]);
    } else if (!READ_FIELDS.has(key)) {
      diag(ctx, 'info', [...at, key], `unknown field '${key}' ignored`, true);
    }
  }
  if (handler['shell'] !== undefined && handler['shell'] !== 'bash') {
    diag(ctx, 'warning', [...at, 'shell'], `shell ${JSON.stringify(handler['shell'])} hooks cannot be run by hermes-hooks; not imported`);
    return false;
  }
  if (handler['enabled'] === false) {
    diag(ctx, 'info', [...at, 'enabled'], `disabled in the source; not imported`);
    return false;
  }
  return true;
}

function failClosedOf(ctx: Ctx, handler: Record<string, unknown>, at: ConfigPath, event: EventName): boolean {
  let wanted = false;
  let where: ConfigPath | null = null;
  if (handler['onFailure'] !== undefined) {
    where = [...at, 'onFailure'];
    if (handler['onFailure'] === 'block') wanted = true;
    else if (handler['onFailure'] !== 'continue')
      diag(ctx, 'warning', where, `onFailure must be "continue" or "block"; got ${JSON.stringify(handler['onFailure'])}; failing open`);
  }
  // Goose's spelling: `on_failure: "allow" | "block"` (it skips the whole file on any other value).
  if (handler['on_failure'] !== undefined) {
    where = [...at, 'on_failure'];
    if (handler['on_failure'] === 'block') wanted = true;
    else if (handler['on_failure'] !== 'allow')
      diag(ctx, 'warning', where, `on_failure must be "allow" or "block"; got ${JSON.stringify(handler['on_failure'])}; failing open`);
  }
  if (handler['failClosed'] !== undefined) {
    where = [...at, 'failClosed'];
    if (handler['failClosed'] === true) wanted = true;
    else if (handler['failClosed'] !== false)
      diag(ctx, 'warning', where, `failClosed must be a boolean; got ${JSON.stringify(handler['failClosed'])}; failing open`);
  }
  if (wanted && event !== 'pre_tool_call') {
    diag(ctx, 'warning', where!, `fail-closed only applies to pre_tool_call in hermes-hooks; this ${event} hook fails open`);
    return false;
  }
  return wanted;
}

function addHook(ctx: Ctx, hook: ImportedHook, at: ConfigPath): void {
  const dup = ctx.hooks.find((h) => h.event === hook.event && h.command === hook.command && h.matcher === hook.matcher);
  if (dup) {
    diag(ctx, 'info', at, `same event, matcher and command as ${dup.source}; imported once`);
    return;
  }
  ctx.hooks.push(hook);
}

export function importHandler(ctx: Ctx, handler: unknown, at: ConfigPath, event: EventName, matcher: string | null): void {
  if (!isPlainObject(handler)) {
    diag(ctx, 'warning', at, `hook must be an object with a command; not imported`);
    return;
  }
  const type = handler['type'] ?? 'command';
  if (type !== 'command') {
    const what = type === 'http' && typeof handler['url'] === 'string' ? ` (${handler['url']})` : '';
    diag(ctx, 'warning', [...at, 'type'], `${String(type)} hooks${what} cannot be carried over: hermes-hooks runs command hooks only; not imported`);
    return;
  }
  if (!reportHandlerFields(ctx, handler, at)) return;
  const command = convertCommand(ctx, handler, at);
  if (command === null) return;
  const own = timeoutKeyOf(ctx.from.agent);
  const timeoutKey = handler[own] !== undefined ? own : handler['timeout'] !== undefined ? 'timeout' : 'timeout_sec';
  const timeout = convertTimeout(ctx, handler[timeoutKey], [...at, timeoutKey]);
  const fail_closed = failClosedOf(ctx, handler, at, event);
  addHook(ctx, { event, command, matcher, timeout, fail_closed, dialect: ctx.from.agent.name, source: formatAt(at) }, at);
}

function formatAt(at: ConfigPath): string {
  return at.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}

/** The commands under an event we cannot map, so the diagnostic can name them. */
export function commandsUnder(value: unknown, flat: boolean, key = 'command'): string[] {
  if (!Array.isArray(value)) return [];
  const handlers = flat ? value : value.flatMap((g) => (isPlainObject(g) && Array.isArray(g['hooks']) ? g['hooks'] : []));
  return handlers.map((h) => (isPlainObject(h) && typeof h[key] === 'string' ? h[key] : isPlainObject(h) ? `(${String(h['type'] ?? 'hook')})` : '?'));
}

export function convertMatcher(ctx: Ctx, raw: unknown, at: ConfigPath, theirEvent: string, event: EventName): string | null | false {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    diag(ctx, 'warning', at, `matcher must be a string; got ${JSON.stringify(raw)}; matching every call`);
    return null;
  }
  const { agent, format } = ctx.from;
  if (!EVENTS[event].toolScoped) {
    const ignoredByAgent = agent.import.matcherIgnoredOn?.includes(theirEvent) ?? false;
    if (!matchesEverything(raw) && !ignoredByAgent) {
      diag(ctx, 'warning', at, `matcher '${raw}' cannot be carried over: Hermes matchers only select tools, so this hook runs on every ${event} event`);
    }
    return null;
  }
  if ((format.matcherStyle ?? agent.import.matcherStyle) === 'names-or-regex') return convertClaudeMatcher(raw);
  if (!matchesEverything(raw) && !isValidRegex(raw.trim())) {
    if ((format.invalidMatcher ?? agent.import.invalidMatcher) === 'skip') {
      diag(ctx, 'warning', at, `matcher '${raw}' is not a valid regex (${agent.label} skips this group); not imported`);
      return false;
    }
    diag(ctx, 'warning', at, `matcher '${raw}' is not a valid regex; matching it as an exact tool name, as the agent does`);
  }
  return convertRegexMatcher(raw);
}

/** One imported hook as a config.yaml entry. */
export function entryOf(h: ImportedHook): Record<string, unknown> {
  const entry: Record<string, unknown> = { command: h.command };
  if (h.matcher !== null) entry['matcher'] = h.matcher;
  if (h.timeout !== null) entry['timeout'] = h.timeout;
  if (h.fail_closed) entry['fail_closed'] = true;
  entry['dialect'] = h.dialect;
  return entry;
}

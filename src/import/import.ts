// `hermes-hooks import <file>`: another agent's hook config → our `hooks:` block with `dialect:` set.
// Reads a Claude Code settings.json (also Qwen Code's, which uses Claude's names with ms timeouts),
// a Codex hooks.json, a Gemini CLI settings.json (JSON with comments) or a Cursor hooks.json.
// Codex's inline `[hooks]` in config.toml is out of scope (move them to hooks.json first).
//
// Nothing is dropped silently: every part that cannot be carried over is a diagnostic pointing at
// its place in the source file. Pure: the CLI reads the file and writes the config (with a backup).

import { isMap, isSeq, parseDocument, Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { parseConfigText, diagnosticAt, type ConfigPath, type ConfigSource } from '../config/source.js';
import { EVENTS, type EventName } from '../events.js';
import type { Diagnostic, DiagnosticLevel, Dialect } from '../types.js';
import { blankJsonComments, lineColumnAt } from '../util/jsonc.js';
import { shellQuote } from '../spawn/argv.js';
import { needsShell, wrapInShell } from './_shell.js';
import { isPlainObject } from '../_json.js';
import { convertClaudeMatcher, convertRegexMatcher, isValidRegex, matchesEverything } from '../dialects/matchers.js';
import { CURSOR_FAMILIES, DEFAULT_DIALECT_MAPS, toOurEvent, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { recogniseAgentHooks } from '../dialects/recognise.js';
import { errorText } from '../errors.js';

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

export interface ImportResult {
  dialect: Dialect;
  hooks: ImportedHook[];
  /** A `hooks:` block, with a comment naming the source file. */
  yaml: string;
  diagnostics: Diagnostic[];
  /**
   * The source was a Hermes config.yaml holding another agent's block under `hooks:` (issue 20):
   * these are the keys converted, which `--write` replaces in that same file. Null for an agent's own file.
   */
  foreignKeys: string[] | null;
}

/** The file formats we read; `qwen` is Claude's shape and dialect with millisecond timeouts. */
type Flavour = 'claude' | 'qwen' | 'codex' | 'gemini' | 'cursor';

const FLAVOUR_DIALECT: Readonly<Record<Flavour, AgentDialect>> = { claude: 'claude', qwen: 'claude', codex: 'codex', gemini: 'gemini', cursor: 'cursor' };
const FLAVOUR_TITLE: Readonly<Record<Flavour, string>> = {
  claude: 'Claude Code settings',
  qwen: 'Qwen Code settings',
  codex: 'Codex hooks.json',
  gemini: 'Gemini CLI settings',
  cursor: 'Cursor hooks.json',
};
const MS_TIMEOUTS: ReadonlySet<Flavour> = new Set(['gemini', 'qwen']);
const GEMINI_ONLY_EVENTS = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress']);
const MAX_TIMEOUT = 300;

/** The agent config folders in a path (`/repo/.claude/settings.json` → `.claude` at index 1). */
const AGENT_DIRS: Readonly<Record<string, Flavour>> = { '.claude': 'claude', '.qwen': 'qwen', '.codex': 'codex', '.gemini': 'gemini', '.cursor': 'cursor' };

function pathHint(fileName: string): { flavour: Flavour; projectDir: string } | null {
  const parts = fileName.split(/[\\/]/);
  for (let i = parts.length - 2; i >= 0; i--) {
    const flavour = AGENT_DIRS[parts[i]!];
    if (flavour !== undefined) return { flavour, projectDir: i === 0 ? '.' : parts.slice(0, i).join('/') || '/' };
  }
  return null;
}

function projectDirOf(fileName: string, home: string | undefined): string | null {
  const dir = pathHint(fileName)?.projectDir ?? null;
  return dir !== null && home !== undefined && dir.replace(/\/+$/, '') === home.replace(/\/+$/, '') ? null : dir;
}

function detectFlavour(fileName: string, data: Record<string, unknown>): Flavour {
  const hooks = isPlainObject(data['hooks']) ? data['hooks'] : {};
  const events = Object.keys(hooks);
  // Cursor's file is versioned and flat: event → [{command}], no matcher groups.
  const flat = events.some((ev) => Array.isArray(hooks[ev]) && (hooks[ev] as unknown[]).some((e) => isPlainObject(e) && 'command' in e));
  if (typeof data['version'] === 'number' && flat) return 'cursor';
  const hint = pathHint(fileName);
  if (hint) return hint.flavour;
  if (events.some((ev) => GEMINI_ONLY_EVENTS.has(ev))) return 'gemini';
  if (/(^|[\\/])hooks\.json$/.test(fileName)) return 'codex';
  return 'claude';
}

function flavourFor(dialect: Dialect, fileName: string): Flavour {
  if (dialect === 'claude' && pathHint(fileName)?.flavour === 'qwen') return 'qwen';
  return dialect as Flavour;
}

// ---------------------------------------------------------------------------------------------

interface Ctx {
  source: ConfigSource;
  flavour: Flavour;
  dialect: AgentDialect;
  maps: DialectMaps;
  projectDir: string | null;
  diagnostics: Diagnostic[];
  hooks: ImportedHook[];
  missingTimeouts: number;
  /** Reading a Hermes config.yaml: a `- command:` entry under an agent's event name is one hook (its own matcher). */
  flatEntries: boolean;
}

function diag(ctx: Ctx, level: DiagnosticLevel, path: ConfigPath, message: string, key = false): void {
  ctx.diagnostics.push(diagnosticAt(ctx.source, level, path, message, { key }));
}

const AGENT_NAME: Readonly<Record<Flavour, string>> = { claude: 'Claude Code', qwen: 'Qwen Code', codex: 'Codex CLI', gemini: 'Gemini CLI', cursor: 'Cursor' };

/** The agent's default timeout when a handler sets none (reference §a2), for the one summary note. */
const AGENT_DEFAULT_TIMEOUT: Readonly<Record<Flavour, string | null>> = {
  claude: '600 s',
  qwen: null, // 60 s, like ours
  codex: '600 s',
  gemini: null, // 60 s, like ours
  cursor: 'not documented',
};

/** A handler's timeout in our seconds (rounded up, clamped to 1..300), or null to keep our default. */
function convertTimeout(ctx: Ctx, raw: unknown, path: ConfigPath): number | null {
  if (raw === undefined) {
    ctx.missingTimeouts++;
    return null;
  }
  const unit = MS_TIMEOUTS.has(ctx.flavour) ? 'ms' : 's';
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) {
    diag(ctx, 'warning', path, `timeout ${JSON.stringify(raw)} is not a positive number of ${unit === 'ms' ? 'milliseconds' : 'seconds'}; using the default of 60 s`);
    return null;
  }
  let seconds = unit === 'ms' ? Math.ceil(raw / 1000) : Math.ceil(raw);
  if (unit === 'ms' && raw < 1000) {
    diag(
      ctx,
      'warning',
      path,
      `timeout ${raw} is in milliseconds here and becomes ${seconds} s; if it was meant as seconds ` +
        `(Claude's unit, which \`gemini hooks migrate\` and Qwen 1.x examples copy unconverted), set timeout: ${Math.min(Math.ceil(raw), MAX_TIMEOUT)} in the imported entry`,
    );
  }
  if (seconds > MAX_TIMEOUT) {
    diag(ctx, 'warning', path, `timeout ${raw} ${unit} exceeds the maximum of ${MAX_TIMEOUT} s; clamped to ${MAX_TIMEOUT}`);
    seconds = MAX_TIMEOUT;
  }
  return seconds;
}

const PROJECT_DIR_VARS = /\$(?:\{(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|QWEN_PROJECT_DIR)\}|(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|QWEN_PROJECT_DIR)(?![A-Za-z0-9_]))/g;
const AGENT_VARS = /\$\{?((?:CLAUDE|GEMINI|QWEN|CODEX|CURSOR)_[A-Za-z0-9_]*|PLUGIN_ROOT|PLUGIN_DATA)/g;

/** Their command (+ exec-form args) → our command line, with what had to change reported. */
function convertCommand(ctx: Ctx, handler: Record<string, unknown>, at: ConfigPath): string | null {
  const raw = handler['command'];
  if (typeof raw !== 'string' || raw.trim() === '') {
    diag(ctx, 'warning', at, `hook has no command; not imported`);
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
      diag(ctx, 'warning', [...at, 'command'], `uses ${agentVars.map((v) => `$${v}`).join(', ')}, which hermes-hooks does not set (it sets HERMES_HOME and HERMES_HOOK_EVENT)`);
    }
    if (ctx.flavour === 'cursor') command = resolveCursorRelative(ctx, command, at);
    if (needsShell(command)) {
      const shell = handler['shell'] === 'bash' || ctx.flavour === 'gemini' ? 'bash' : 'sh';
      command = wrapInShell(command, shell);
      diag(ctx, 'info', [...at, 'command'], `runs through ${shell} -c: it uses shell syntax, and hermes-hooks runs commands without a shell`);
    }
  }
  return command;
}

/** Cursor resolves a relative script path from the folder of hooks.json; we run from Hermes' cwd. */
function resolveCursorRelative(ctx: Ctx, command: string, at: ConfigPath): string {
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
    diag(ctx, 'warning', [...at, 'command'], `relative path ${inArgs.join(', ')} in the arguments resolves from the working directory of Hermes, not from the folder of hooks.json`);
  }
  return out;
}

/** Handler fields that cannot be carried over: how loud to be, and what to say. */
const DROPPED_FIELDS: Readonly<Record<string, [DiagnosticLevel, string]>> = {
  async: ['warning', 'async cannot be carried over: hermes-hooks waits for the hook (within its timeout)'],
  asyncRewake: ['warning', 'asyncRewake cannot be carried over: hermes-hooks runs hooks synchronously'],
  env: ['warning', "env cannot be carried over: hermes-hooks gives hooks the host's environment; set the variables there or in a wrapper script"],
  loop_limit: ['warning', 'loop_limit cannot be carried over: Hermes caps pre_verify nudges with agent.max_verify_nudges (default 3)'],
  statusMessage: ['info', 'statusMessage is not shown by hermes-hooks; dropped'],
  once: ['info', 'once cannot be carried over; dropped'],
  command_windows: ['info', 'command_windows is not used by hermes-hooks; dropped'],
};
/** Fields we read, plus labels (Gemini/Qwen `name`, `description`) that carry no behaviour. */
const READ_FIELDS = new Set(['type', 'command', 'args', 'timeout', 'timeout_sec', 'shell', 'onFailure', 'failClosed', 'matcher', 'enabled', 'if', 'name', 'description']);

/** Report every handler field we cannot carry; returns false when the handler must be skipped. */
function reportHandlerFields(ctx: Ctx, handler: Record<string, unknown>, at: ConfigPath): boolean {
  if (handler['if'] !== undefined) {
    diag(ctx, 'warning', [...at, 'if'], `the 'if' rule ${JSON.stringify(handler['if'])} cannot be carried over: the hook now runs on every call its matcher selects`);
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
    else if (handler['onFailure'] !== 'continue') diag(ctx, 'warning', where, `onFailure must be "continue" or "block"; got ${JSON.stringify(handler['onFailure'])}; failing open`);
  }
  if (handler['failClosed'] !== undefined) {
    where = [...at, 'failClosed'];
    if (handler['failClosed'] === true) wanted = true;
    else if (handler['failClosed'] !== false) diag(ctx, 'warning', where, `failClosed must be a boolean; got ${JSON.stringify(handler['failClosed'])}; failing open`);
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

function importHandler(ctx: Ctx, handler: unknown, at: ConfigPath, event: EventName, matcher: string | null): void {
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
  const timeoutKey = handler['timeout'] !== undefined ? 'timeout' : 'timeout_sec';
  const timeout = convertTimeout(ctx, handler[timeoutKey], [...at, timeoutKey]);
  const fail_closed = failClosedOf(ctx, handler, at, event);
  addHook(ctx, { event, command, matcher, timeout, fail_closed, dialect: ctx.dialect, source: formatAt(at) }, at);
}

function formatAt(at: ConfigPath): string {
  return at.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}

/** The commands under an event we cannot map, so the diagnostic can name them. */
function commandsUnder(value: unknown, flat: boolean): string[] {
  if (!Array.isArray(value)) return [];
  const handlers = flat ? value : value.flatMap((g) => (isPlainObject(g) && Array.isArray(g['hooks']) ? g['hooks'] : []));
  return handlers.map((h) => (isPlainObject(h) && typeof h['command'] === 'string' ? h['command'] : isPlainObject(h) ? `(${String(h['type'] ?? 'hook')})` : '?'));
}

function convertMatcher(ctx: Ctx, raw: unknown, at: ConfigPath, theirEvent: string, event: EventName): string | null | false {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    diag(ctx, 'warning', at, `matcher must be a string; got ${JSON.stringify(raw)}; matching every call`);
    return null;
  }
  if (!EVENTS[event].toolScoped) {
    // Codex ignores the matcher on these two itself.
    const ignoredByAgent = ctx.flavour === 'codex' && (theirEvent === 'UserPromptSubmit' || theirEvent === 'Stop');
    if (!matchesEverything(raw) && !ignoredByAgent) {
      diag(ctx, 'warning', at, `matcher '${raw}' cannot be carried over: Hermes matchers only select tools, so this hook runs on every ${event} event`);
    }
    return null;
  }
  if (ctx.flavour === 'claude' || ctx.flavour === 'cursor') return convertClaudeMatcher(raw);
  if (!matchesEverything(raw) && !isValidRegex(raw.trim())) {
    if (ctx.flavour === 'codex') {
      diag(ctx, 'warning', at, `matcher '${raw}' is not a valid regex (Codex skips this group); not imported`);
      return false;
    }
    diag(ctx, 'warning', at, `matcher '${raw}' is not a valid regex; matching it as an exact tool name, as the agent does`);
  }
  return convertRegexMatcher(raw);
}

function importGroups(ctx: Ctx, hooks: Record<string, unknown>): void {
  for (const [theirEvent, groups] of Object.entries(hooks)) {
    const at: ConfigPath = ['hooks', theirEvent];
    const event = toOurEvent(ctx.maps, ctx.dialect, theirEvent);
    if (event === null) {
      const commands = commandsUnder(groups, false);
      diag(ctx, 'warning', at, `${AGENT_NAME[ctx.flavour]} event '${theirEvent}' has no Hermes counterpart; not imported${commands.length ? `: ${commands.join(', ')}` : ''}`, true);
      continue;
    }
    if (!Array.isArray(groups)) {
      diag(ctx, 'warning', at, `hooks.${theirEvent} must be a list of matcher groups; not imported`);
      continue;
    }
    groups.forEach((group, gi) => {
      const gAt: ConfigPath = [...at, gi];
      if (!isPlainObject(group)) {
        diag(ctx, 'warning', gAt, `matcher group must be an object with a hooks list; not imported`);
        return;
      }
      if (group['sequential'] === true) {
        diag(ctx, 'warning', [...gAt, 'sequential'], `sequential cannot be carried over: hermes-hooks runs an event's hooks concurrently and each sees the original input`);
      }
      if (group['async'] === true) diag(ctx, 'warning', [...gAt, 'async'], DROPPED_FIELDS['async']![1]);
      const matcher = convertMatcher(ctx, group['matcher'], [...gAt, 'matcher'], theirEvent, event);
      if (matcher === false) return;
      if (ctx.flatEntries && group['hooks'] === undefined && typeof group['command'] === 'string') {
        importHandler(ctx, group, gAt, event, matcher);
        return;
      }
      if (!Array.isArray(group['hooks'])) {
        diag(ctx, 'warning', [...gAt, 'hooks'], `matcher group has no hooks list; not imported`);
        return;
      }
      group['hooks'].forEach((handler, hi) => importHandler(ctx, handler, [...gAt, 'hooks', hi], event, matcher));
    });
  }
}

/** Cursor family events select tools by event; we select them with a matcher. */
function cursorFamilyMatcher(theirEvent: string): string | null {
  const family = CURSOR_FAMILIES[theirEvent];
  if (family === undefined) return null;
  return family.tools === 'mcp' ? 'mcp_.*' : family.tools.join('|');
}

function importCursor(ctx: Ctx, data: Record<string, unknown>, hooks: Record<string, unknown>): void {
  if (!ctx.flatEntries && data['version'] !== 1) diag(ctx, 'warning', ['version'], `expected version 1; read as version 1`);
  for (const [theirEvent, entries] of Object.entries(hooks)) {
    const at: ConfigPath = ['hooks', theirEvent];
    const event = toOurEvent(ctx.maps, ctx.dialect, theirEvent);
    if (event === null) {
      const commands = commandsUnder(entries, true);
      diag(ctx, 'warning', at, `Cursor event '${theirEvent}' has no Hermes counterpart; not imported${commands.length ? `: ${commands.join(', ')}` : ''}`, true);
      continue;
    }
    if (!Array.isArray(entries)) {
      diag(ctx, 'warning', at, `hooks.${theirEvent} must be a list of hooks; not imported`);
      continue;
    }
    const familyMatcher = cursorFamilyMatcher(theirEvent);
    entries.forEach((entry, i) => {
      const eAt: ConfigPath = [...at, i];
      let matcher = familyMatcher;
      if (isPlainObject(entry) && entry['matcher'] !== undefined) {
        if (familyMatcher !== null) {
          diag(ctx, 'warning', [...eAt, 'matcher'], `matcher on ${theirEvent} cannot be carried over; the hook runs for every ${familyMatcher} call`);
        } else {
          const converted = convertMatcher(ctx, entry['matcher'], [...eAt, 'matcher'], theirEvent, event);
          matcher = converted === false ? null : converted;
        }
      }
      importHandler(ctx, entry, eAt, event, matcher);
    });
  }
}

// ---------------------------------------------------------------------------------------------

function hooksYaml(fileName: string, title: string, hooks: readonly ImportedHook[]): string {
  const byEvent: Record<string, Record<string, unknown>[]> = {};
  for (const h of hooks) (byEvent[h.event] ??= []).push(entryOf(h));
  const doc = new Document({ hooks: byEvent }, { version: '1.1' });
  doc.commentBefore = ` hooks imported from ${fileName} (${title}) by hermes-hooks import`;
  return doc.toString({ lineWidth: 0 });
}

function entryOf(h: ImportedHook): Record<string, unknown> {
  const entry: Record<string, unknown> = { command: h.command };
  if (h.matcher !== null) entry['matcher'] = h.matcher;
  if (h.timeout !== null) entry['timeout'] = h.timeout;
  if (h.fail_closed) entry['fail_closed'] = true;
  entry['dialect'] = h.dialect;
  return entry;
}

/**
 * Read another agent's hook config. The format is detected from the content and the path
 * (`.claude/`, `.qwen/`, `.codex/`, `.gemini/`, `.cursor/`); `opts.dialect` forces it.
 * `$CLAUDE_PROJECT_DIR` (and Gemini's, Qwen's) becomes the folder holding the agent folder, unless
 * that folder is `opts.home` (a user-level config); `opts.maps` carries the user's `dialects:`.
 */
export function importAgentConfig(
  fileName: string,
  text: string,
  opts: { dialect?: Dialect; maps?: DialectMaps; home?: string; hermesConfig?: boolean } = {},
): ImportResult {
  const diagnostics: Diagnostic[] = [];
  const fail = (dialect: Dialect, message: string, line: number | null = null, column: number | null = null): ImportResult => {
    diagnostics.push({ level: 'error', path: '', line, column, message, file: fileName });
    return { dialect, hooks: [], yaml: '', diagnostics, foreignKeys: null };
  };
  const guess: Dialect = opts.dialect ?? FLAVOUR_DIALECT[pathHint(fileName)?.flavour ?? 'claude'];
  if (opts.dialect === 'hermes') return fail('hermes', `a Hermes config needs no import; pass the agent's dialect (claude, codex, gemini, cursor)`);
  if (/\.toml$/i.test(fileName)) {
    return fail('codex', `Codex [hooks] tables in config.toml are not supported; move them to a hooks.json next to it and import that`);
  }

  // A Hermes config.yaml with another agent's block pasted under `hooks:`: convert that block alone.
  if (opts.hermesConfig || /\.ya?ml$/i.test(fileName)) return importFromHermesConfig(fileName, text, opts, fail);

  const clean = blankJsonComments(text);
  let data: unknown;
  try {
    data = JSON.parse(clean);
  } catch (e) {
    // V8 names the offset only in some versions; JSON is YAML, so the YAML parser can place the error.
    const msg = errorText(e).split('\n')[0]!;
    const pos = /position (\d+)/.exec(msg);
    const lc = pos ? lineColumnAt(text, Number(pos[1])) : parseConfigText(clean.replace(/\t/g, ' '), fileName).syntaxError;
    return fail(guess, `not valid JSON: ${msg.replace(/ in JSON at position \d+.*$/, '')}`, lc?.line ?? null, lc?.column ?? null);
  }
  if (!isPlainObject(data)) return fail(guess, `expected a JSON object with a "hooks" key`);

  const flavour = opts.dialect ? flavourFor(opts.dialect, fileName) : detectFlavour(fileName, data);
  const dialect = FLAVOUR_DIALECT[flavour];
  // Positions come from the YAML parser (JSON is YAML); tabs blanked so indentation parses.
  const source = parseConfigText(clean.replace(/\t/g, ' '), fileName);
  const ctx: Ctx = {
    source,
    flavour,
    dialect,
    maps: opts.maps ?? DEFAULT_DIALECT_MAPS,
    // A config in the home folder (~/.claude/settings.json) belongs to no project: leave the variable.
    projectDir: projectDirOf(fileName, opts.home),
    diagnostics,
    hooks: [],
    missingTimeouts: 0,
    flatEntries: false,
  };
  diag(ctx, 'info', [], `read as ${FLAVOUR_TITLE[flavour]} (dialect ${dialect}${MS_TIMEOUTS.has(flavour) ? ', timeouts in milliseconds' : ''})`);
  if (flavour === 'qwen') {
    diag(ctx, 'info', [], `Qwen Code uses Claude's event names but its own tool names (run_shell_command …): matchers are kept as written; map its tools under dialects.claude.tools in config.yaml if they should match`);
  }
  if (data['disableAllHooks'] === true) diag(ctx, 'warning', ['disableAllHooks'], `disableAllHooks is set: the agent runs none of these hooks; importing them anyway`);

  return convert(ctx, fileName, data, null);
}

/** Convert the parsed file's `hooks` (only `only`'s keys when given) with the context set up. */
function convert(ctx: Ctx, fileName: string, data: Record<string, unknown>, only: readonly string[] | null): ImportResult {
  const { flavour, dialect } = ctx;
  let hooks = data['hooks'];
  if (only !== null && isPlainObject(hooks)) hooks = Object.fromEntries(Object.entries(hooks).filter(([k]) => only.includes(k)));
  if (hooks === undefined || hooks === null) {
    diag(ctx, 'warning', [], `no "hooks" in this file; nothing to import`);
  } else if (!isPlainObject(hooks)) {
    diag(ctx, 'warning', ['hooks'], `"hooks" must be an object of event → hooks; nothing imported`);
  } else if (flavour === 'cursor') {
    importCursor(ctx, data, hooks);
  } else {
    importGroups(ctx, hooks);
  }
  const agentDefault = AGENT_DEFAULT_TIMEOUT[flavour];
  if (ctx.missingTimeouts > 0 && agentDefault !== null) {
    diag(ctx, 'info', ['hooks'], `${ctx.missingTimeouts} hook(s) set no timeout: ${AGENT_NAME[flavour]}'s default is ${agentDefault}, hermes-hooks' is 60 s`);
  }
  return { dialect, hooks: ctx.hooks, yaml: hooksYaml(fileName, FLAVOUR_TITLE[flavour], ctx.hooks), diagnostics: ctx.diagnostics, foreignKeys: only === null ? null : [...only] };
}

/**
 * A Hermes config.yaml whose `hooks:` holds another agent's block (or its event names): the keys
 * that are not Hermes events are converted as that agent's config, the Hermes ones are left alone.
 */
function importFromHermesConfig(
  fileName: string,
  text: string,
  opts: { dialect?: Dialect; maps?: DialectMaps; home?: string },
  fail: (dialect: Dialect, message: string, line?: number | null, column?: number | null) => ImportResult,
): ImportResult {
  const source = parseConfigText(text, fileName);
  if (source.syntaxError) return fail(opts.dialect ?? 'claude', source.syntaxError.message, source.syntaxError.line, source.syntaxError.column);
  const maps = opts.maps ?? DEFAULT_DIALECT_MAPS;
  const root = source.doc?.toJS({ mapAsMap: true, maxAliasCount: 1000 }) as unknown;
  const data = isPlainObject(source.data) ? source.data : null;
  const hooks = root instanceof Map ? root.get('hooks') : undefined;
  if (data === null || !(hooks instanceof Map)) return fail(opts.dialect ?? 'claude', 'no hooks: mapping in this config; nothing to import');
  const foreign = recogniseAgentHooks(hooks, root as Map<unknown, unknown>, maps);
  const agent = opts.dialect !== undefined && opts.dialect !== 'hermes' ? (opts.dialect as AgentDialect) : (foreign[0]?.agent ?? 'claude');
  const flavour = flavourFor(agent, fileName);
  const ctx: Ctx = { source, flavour, dialect: FLAVOUR_DIALECT[flavour], maps, projectDir: null, diagnostics: [], hooks: [], missingTimeouts: 0, flatEntries: true };
  if (foreign.length === 0) {
    diag(ctx, 'info', ['hooks'], `every key under hooks: is a Hermes event: no other agent's hooks to convert`);
    return { dialect: ctx.dialect, hooks: [], yaml: '', diagnostics: ctx.diagnostics, foreignKeys: [] };
  }
  diag(ctx, 'info', ['hooks'], `read ${foreign.map((f) => `hooks.${f.key}`).join(', ')} as ${AGENT_NAME[flavour]}'s (dialect ${ctx.dialect}); the Hermes events beside them are left as they are`);
  return convert(ctx, fileName, data, foreign.map((f) => f.key));
}

// ---------------------------------------------------------------------------------------------

/**
 * Add imported entries to a config.yaml text, keeping its comments and layout, skipping entries
 * already present (same event, command and matcher); `replaceKeys` (another agent's keys under
 * `hooks:` in this very file) are removed once converted. Throws when the config cannot take them
 * (unparsable YAML, or `hooks` / `hooks.<event>` of the wrong type); the CLI reports that.
 */
export function mergeIntoConfig(existingConfigText: string, imported: readonly ImportedHook[], opts: { replaceKeys?: readonly string[] } = {}): string {
  const doc = parseDocument(existingConfigText, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(`config.yaml does not parse: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) throw new Error('config.yaml must be a mapping at the top level');
  let hooks: unknown = doc.get('hooks', true);
  if (hooks === undefined || hooks === null || isScalarNull(hooks)) {
    hooks = doc.createNode({});
    doc.set('hooks', hooks);
  }
  if (!isMap(hooks)) throw new Error('hooks: in config.yaml is not a mapping');
  const hooksMap = hooks as YAMLMap;
  hooksMap.flow = false; // `hooks: {}` (the shipped default) becomes a block mapping

  for (const h of imported) {
    let list: unknown = hooksMap.get(h.event, true);
    if (list === undefined || isScalarNull(list)) {
      list = doc.createNode([]);
      hooksMap.set(h.event, list);
    }
    if (!isSeq(list)) throw new Error(`hooks.${h.event} in config.yaml is not a list`);
    const seq = list as YAMLSeq;
    seq.flow = false;
    const present = (seq.toJSON() as unknown[]).some(
      (e) =>
        isPlainObject(e) &&
        typeof e['command'] === 'string' &&
        e['command'].trim() === h.command &&
        (typeof e['matcher'] === 'string' && e['matcher'].trim() !== '' ? e['matcher'].trim() : null) === h.matcher,
    );
    if (!present) seq.add(doc.createNode(entryOf(h)));
  }
  // Converting a config in place: the agent's keys the entries came from go.
  for (const key of opts.replaceKeys ?? []) hooksMap.delete(key);
  return doc.toString({ lineWidth: 0 });
}

function isScalarNull(node: unknown): boolean {
  return typeof node === 'object' && node !== null && 'value' in node && (node as { value: unknown }).value === null && !isMap(node) && !isSeq(node);
}

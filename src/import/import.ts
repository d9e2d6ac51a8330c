// `hermes-hooks import <file>`: another agent's hook config → our `hooks:` block with `dialect:` set.
// Reads the config files the agents' records name (agents/<agent>.ts `import`): a Claude Code
// settings.json, a Codex hooks.json, a Gemini CLI settings.json (JSON with comments), a Cursor
// hooks.json, a Qwen Code settings.json or a Factory Droid hooks.json (events at its top level).
//
// Nothing is dropped silently: every part that cannot be carried over is a diagnostic pointing at
// its place in the source file. Pure: the CLI reads the file and writes the config (with a backup).
// The engine also reads a Hermes config's pasted agent block through here, so this folder sits
// below the engine (agent-wiring/ is above it).

import { Document } from 'yaml';
import { parseConfigText } from '../config/source.js';
import { DEFAULT_HOOK_TIMEOUT } from '../config/hooks.js';
import type { Diagnostic, Dialect } from '../types.js';
import { blankJsonComments, lineColumnAt } from '../util/jsonc.js';
import { isPlainObject } from '../json.js';
import { AGENT_DIALECTS, AGENTS, type AgentDialect, type AgentModule } from '../dialects/agents/index.js';
import { DEFAULT_DIALECT_MAPS, type DialectMaps } from '../dialects/names.js';
import { recogniseAgentHooks } from '../dialects/recognise.js';
import { errorText } from '../errors.js';
import { diag, entryOf, type Ctx, type ImportedHook } from './handlers.js';
import { importFlat, importGroups } from './events.js';
import { DEFAULT_FORMAT, detectFormat, formatFor, pathHint, projectDirOf } from './formats.js';

export type { ImportedHook } from './handlers.js';
export { mergeIntoConfig } from './merge.js';

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

function hooksYaml(fileName: string, title: string, hooks: readonly ImportedHook[]): string {
  const byEvent: Record<string, Record<string, unknown>[]> = {};
  for (const h of hooks) (byEvent[h.event] ??= []).push(entryOf(h));
  const doc = new Document({ hooks: byEvent }, { version: '1.1' });
  doc.commentBefore = ` hooks imported from ${fileName} (${title}) by hermes-hooks import`;
  return doc.toString({ lineWidth: 0 });
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
  const guess: Dialect = opts.dialect ?? (pathHint(fileName)?.format ?? DEFAULT_FORMAT).agent.name;
  if (opts.dialect === 'hermes') return fail('hermes', `a Hermes config needs no import; pass the agent's dialect (${AGENT_DIALECTS.join(', ')})`);
  const unsupported = AGENTS.find((a: AgentModule<AgentDialect>) => a.import.unsupported?.file.test(fileName));
  if (unsupported) return fail(unsupported.name, unsupported.import.unsupported!.message);

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

  const from = opts.dialect ? formatFor(opts.dialect, fileName) : detectFormat(fileName, data);
  const { format } = from;
  const dialect = from.agent.name;
  // Positions come from the YAML parser (JSON is YAML); tabs blanked so indentation parses.
  const source = parseConfigText(clean.replace(/\t/g, ' '), fileName);
  const ctx: Ctx = {
    source,
    from,
    maps: opts.maps ?? DEFAULT_DIALECT_MAPS,
    // A config in the home folder (~/.claude/settings.json) belongs to no project: leave the variable.
    projectDir: projectDirOf(fileName, opts.home),
    diagnostics,
    hooks: [],
    missingTimeouts: 0,
    flatEntries: false,
  };
  const units =
    format.timeoutUnit === 'ms'
      ? ', timeouts in milliseconds'
      : from.agent.timeoutMsFrom !== undefined
        ? `, timeouts in seconds (${from.agent.timeoutMsFrom} and up in milliseconds)`
        : '';
  diag(ctx, 'info', [], `read as ${format.title} (dialect ${dialect}${units})`);
  if (format.note !== undefined) diag(ctx, 'info', [], format.note);
  if (data['disableAllHooks'] === true)
    diag(ctx, 'warning', ['disableAllHooks'], `disableAllHooks is set: the agent runs none of these hooks; importing them anyway`);

  return convert(ctx, fileName, data, null);
}

/** Convert the parsed file's `hooks` (only `only`'s keys when given) with the context set up. */
function convert(ctx: Ctx, fileName: string, data: Record<string, unknown>, only: readonly string[] | null): ImportResult {
  const { agent, format } = ctx.from;
  let hooks = data['hooks'];
  // Droid's hooks.json holds the events at its top level (its record's topLevelEvents); it ignores a `hooks` wrapper there.
  if (only === null && agent.topLevelEvents?.test(fileName)) {
    if (isPlainObject(hooks)) {
      diag(
        ctx,
        'warning',
        ['hooks'],
        `${format.writer} reads the events at the top level of this file and ignores a "hooks" wrapper: as written none of these hooks run ` +
          `there; importing them anyway`,
        true,
      );
    } else {
      hooks = data;
      ctx.root = [];
    }
  }
  if (only !== null && isPlainObject(hooks)) hooks = Object.fromEntries(Object.entries(hooks).filter(([k]) => only.includes(k)));
  if (hooks === undefined || hooks === null) {
    diag(ctx, 'warning', [], `no "hooks" in this file; nothing to import`);
  } else if (!isPlainObject(hooks)) {
    diag(ctx, 'warning', ['hooks'], `"hooks" must be an object of event → hooks; nothing imported`);
  } else if (agent.configShape === 'flat') {
    importFlat(ctx, data, hooks);
  } else {
    importGroups(ctx, hooks);
  }
  // The agent's default timeout when a handler sets none (reference §a2), when it is not ours.
  const agentDefault = format.defaultTimeout === null ? 'not documented' : format.defaultTimeout === DEFAULT_HOOK_TIMEOUT ? null : `${format.defaultTimeout} s`;
  if (ctx.missingTimeouts > 0 && agentDefault !== null) {
    diag(
      ctx,
      'info',
      ['hooks'],
      `${ctx.missingTimeouts} hook(s) set no timeout: ${format.writer}'s default is ${agentDefault}, hermes-hooks' is ${DEFAULT_HOOK_TIMEOUT} s`,
    );
  }
  return {
    dialect: agent.name,
    hooks: ctx.hooks,
    yaml: hooksYaml(fileName, format.title, ctx.hooks),
    diagnostics: ctx.diagnostics,
    foreignKeys: only === null ? null : [...only],
  };
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
  if (source.syntaxError)
    return fail(opts.dialect ?? DEFAULT_FORMAT.agent.name, source.syntaxError.message, source.syntaxError.line, source.syntaxError.column);
  const maps = opts.maps ?? DEFAULT_DIALECT_MAPS;
  const root = source.doc?.toJS({ mapAsMap: true, maxAliasCount: 1000 }) as unknown;
  const data = isPlainObject(source.data) ? source.data : null;
  const hooks = root instanceof Map ? root.get('hooks') : undefined;
  if (data === null || !(hooks instanceof Map)) return fail(opts.dialect ?? DEFAULT_FORMAT.agent.name, 'no hooks: mapping in this config; nothing to import');
  const foreign = recogniseAgentHooks(hooks, root as Map<unknown, unknown>, maps);
  const agent = opts.dialect !== undefined && opts.dialect !== 'hermes' ? (opts.dialect as AgentDialect) : (foreign[0]?.agent ?? DEFAULT_FORMAT.agent.name);
  const from = formatFor(agent, fileName);
  const ctx: Ctx = { source, from, maps, projectDir: null, diagnostics: [], hooks: [], missingTimeouts: 0, flatEntries: true };
  if (foreign.length === 0) {
    diag(ctx, 'info', ['hooks'], `every key under hooks: is a Hermes event: no other agent's hooks to convert`);
    return { dialect: from.agent.name, hooks: [], yaml: '', diagnostics: ctx.diagnostics, foreignKeys: [] };
  }
  diag(
    ctx,
    'info',
    ['hooks'],
    `read ${foreign.map((f) => `hooks.${f.key}`).join(', ')} as ${from.format.writer}'s (dialect ${from.agent.name}); the Hermes events beside them ` +
      `are left as they are`,
  );
  return convert(
    ctx,
    fileName,
    data,
    foreign.map((f) => f.key),
  );
}

// Which agent's file this is: the formats `import` reads come from the agents' records (a format
// is one agent's config file; Claude Code's record also lists Qwen Code's). Told apart by content
// (a versioned flat file, event names only one agent uses), by the agent folder in the path
// (`.claude/`, `.qwen/` …), then by the file name; the first agent's first format otherwise.

import { AGENTS, agentModule, type AgentDialect, type AgentModule } from '../dialects/agents/index.js';
import { commandKeyOf, type ImportFormat } from '../dialects/agents/module.js';
import { isPlainObject } from '../json.js';

/** One format and the agent it belongs to. */
export interface Format {
  agent: AgentModule<AgentDialect>;
  format: ImportFormat;
}

const FORMATS: readonly Format[] = AGENTS.flatMap((agent: AgentModule<AgentDialect>) => agent.import.formats.map((format) => ({ agent, format })));

/** What a file is read as when nothing tells: the first agent's first format. */
export const DEFAULT_FORMAT: Format = FORMATS[0]!;

/** The format whose id is `id` (an agent's own format has the agent's name). */
export function formatById(id: string): Format | undefined {
  return FORMATS.find((f) => f.format.id === id);
}

/** The agent config folder in a path (`/repo/.claude/settings.json` → `.claude` at index 1). */
export function pathHint(fileName: string): { format: Format; projectDir: string } | null {
  const parts = fileName.split(/[\\/]/);
  for (let i = parts.length - 2; i >= 0; i--) {
    const format = FORMATS.find((f) => f.format.dir === parts[i]);
    if (format !== undefined) return { format, projectDir: i === 0 ? '.' : parts.slice(0, i).join('/') || '/' };
  }
  return null;
}

/** The project folder a project-dir variable stands for; null for a config in the home folder. */
export function projectDirOf(fileName: string, home: string | undefined): string | null {
  const dir = pathHint(fileName)?.projectDir ?? null;
  return dir !== null && home !== undefined && dir.replace(/\/+$/, '') === home.replace(/\/+$/, '') ? null : dir;
}

/** The format of a parsed file, from its content and its path. */
export function detectFormat(fileName: string, data: Record<string, unknown>): Format {
  const hooks = isPlainObject(data['hooks']) ? data['hooks'] : {};
  const events = Object.keys(hooks);
  // A versioned file of flat entries: event → [{command}] (Cursor's), [{bash}] (Copilot's), no matcher groups.
  const flatWith = (key: string): boolean =>
    events.some((ev) => Array.isArray(hooks[ev]) && (hooks[ev] as unknown[]).some((e) => isPlainObject(e) && key in e));
  const versioned = FORMATS.filter((f) => f.agent.versionedConfig && f.agent.configShape === 'flat' && flatWith(commandKeyOf(f.agent)));
  const hint = pathHint(fileName);
  if (typeof data['version'] === 'number' && versioned.length > 0) return versioned.find((f) => f.format === hint?.format.format) ?? versioned[0]!;
  if (hint) return hint.format;
  const byEvents = FORMATS.find((f) => f.agent.import.ownEvents?.some((ev) => events.includes(ev)));
  if (byEvents) return byEvents;
  return FORMATS.find((f) => f.agent.import.fileName?.test(fileName)) ?? DEFAULT_FORMAT;
}

/** The format an agent's file is read in: the path's format when it is that agent's, else the agent's own. */
export function formatFor(dialect: AgentDialect, fileName: string): Format {
  const hinted = pathHint(fileName)?.format;
  if (hinted !== undefined && hinted.agent.name === dialect) return hinted;
  return { agent: agentModule(dialect), format: agentModule(dialect).import.formats[0]! };
}

/** `$CLAUDE_PROJECT_DIR`, `${GEMINI_PROJECT_DIR}` …: every format's project-dir variable. */
export const PROJECT_DIR_VARS = ((): RegExp => {
  const names = FORMATS.flatMap((f) => (f.format.projectDirVar ? [f.format.projectDirVar] : [])).join('|');
  return new RegExp(String.raw`\$(?:\{(${names})\}|(${names})(?![A-Za-z0-9_]))`, 'g');
})();

/** The other variables the agents (and their plugins) set, which we do not. */
export const AGENT_VARS = new RegExp(String.raw`\$\{?((?:${FORMATS.map((f) => f.format.envPrefix).join('|')})_[A-Za-z0-9_]*|PLUGIN_ROOT|PLUGIN_DATA)`, 'g');

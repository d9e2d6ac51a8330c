// The top-level `dialects:` key of config.yaml: the user's additions to (and removals from) the
// agents' name maps. Lives in config/ because it reports positioned diagnostics like every other
// block; the maps themselves and how overrides merge into them are dialects/names.ts (pure, below config).
//
// `dialects: {claude: {events: {Theirs: our_event}, tools: {Theirs: ours}, args: {<their tool>|'*': {theirs: ours}}, platform: telegram}}`.
// `platform`: the Hermes platform that agent's sessions count as for the guardrails (agent-wiring/platform.ts).
// A null value removes a default entry. Every problem is a warning and the offending entry is skipped.

import { EVENTS, isEventName, type EventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { isPlainObject } from '../json.js';
import { pyTypeName } from '../util/python.js';
import {
  AGENT_DIALECTS,
  DEFAULT_DIALECT_MAPS,
  isAgentDialect,
  mergeDialectOverrides,
  type AgentDialect,
  type DialectMaps,
  type DialectOverrides,
} from '../dialects/names.js';
import { diagnosticAt, type ConfigPath, type ConfigSource } from './source.js';

type Section = 'events' | 'tools' | 'args';
const SECTIONS: readonly Section[] = ['events', 'tools', 'args'];
const AGENT_KEYS: readonly string[] = [...SECTIONS, 'platform'];

/** `dialects.<agent>.platform` of each agent that sets one. */
export type AgentPlatforms = Partial<Record<AgentDialect, string>>;

export interface DialectsConfig {
  maps: DialectMaps;
  diagnostics: Diagnostic[];
  platforms?: AgentPlatforms;
}

type Warn = (path: ConfigPath, message: string, key?: boolean) => void;
type Overrides = { events?: Map<string, EventName | null>; tools?: Map<string, string | null>; args?: Map<string, Map<string, string | null> | null> };

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isPlainObject(value) || value instanceof Map) return 'a mapping';
  // Other YAML 1.1 objects: a timestamp (Date), !!set, !!binary.
  if (typeof value === 'object') return `a ${pyTypeName(value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Read and validate the `dialects:` key of a config (see the top of this file). */
export function parseDialectsConfig(source: ConfigSource): DialectsConfig {
  const diagnostics: Diagnostic[] = [];
  const warn: Warn = (path, message, key = false) => {
    diagnostics.push(diagnosticAt(source, 'warning', path, message, { key }));
  };
  const data = source.data;
  const block = isPlainObject(data) ? data['dialects'] : undefined;
  if (block === undefined || block === null) return { maps: DEFAULT_DIALECT_MAPS, diagnostics };
  if (!isPlainObject(block)) {
    warn(['dialects'], `must be a mapping of agent name to name maps; got ${describe(block)}`);
    return { maps: DEFAULT_DIALECT_MAPS, diagnostics };
  }

  const overrides: Partial<Record<AgentDialect, DialectOverrides>> = {};
  const platforms: AgentPlatforms = {};
  for (const [dialect, body] of Object.entries(block)) {
    const at: ConfigPath = ['dialects', dialect];
    if (!isAgentDialect(dialect)) {
      warn(
        at,
        dialect === 'hermes'
          ? `hermes is the native wire and has no name maps; ignoring`
          : `unknown dialect '${dialect}' under dialects: (valid: ${AGENT_DIALECTS.join(', ')}); ignoring`,
        true,
      );
      continue;
    }
    if (body === null) continue;
    if (!isPlainObject(body)) {
      warn(at, `must be a mapping with events, tools, args and/or platform; got ${describe(body)}`);
      continue;
    }
    const platform = parsePlatform(body, at, warn);
    if (platform !== undefined) platforms[dialect] = platform;
    overrides[dialect] = parseAgentBlock(body, at, dialect, warn);
  }
  return { maps: mergeDialectOverrides(DEFAULT_DIALECT_MAPS, overrides), diagnostics, platforms };
}

/** `platform:` of one agent: a non-empty string (lower-cased, as the guardrails compare it), or null for none. */
function parsePlatform(body: Record<string, unknown>, at: ConfigPath, warn: Warn): string | undefined {
  const value = body['platform'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim().toLowerCase();
  warn([...at, 'platform'], `must be a platform name (a non-empty string, e.g. cli or telegram); got ${describe(value)}; ignoring`);
  return undefined;
}

/** One agent's `events` / `tools` / `args` sections. */
function parseAgentBlock(body: Record<string, unknown>, at: ConfigPath, dialect: string, warn: Warn): Overrides {
  const o: Overrides = {};
  for (const [section, value] of Object.entries(body)) {
    const sAt: ConfigPath = [...at, section];
    if (!AGENT_KEYS.includes(section)) {
      warn(sAt, `unknown key '${section}' under dialects.${dialect} (valid: ${AGENT_KEYS.join(', ')}); ignoring`, true);
      continue;
    }
    if (value === null || section === 'platform') continue;
    if (!isPlainObject(value)) {
      warn(sAt, `must be a mapping; got ${describe(value)}`);
      continue;
    }
    if (section === 'events') o.events = parseEvents(value, sAt, warn);
    else if (section === 'tools') o.tools = parseTools(value, sAt, warn);
    else o.args = parseArgs(value, sAt, warn);
  }
  return o;
}

function parseEvents(value: Record<string, unknown>, sAt: ConfigPath, warn: Warn): Map<string, EventName | null> {
  const events = new Map<string, EventName | null>();
  for (const [theirs, ours] of Object.entries(value)) {
    if (ours === null) events.set(theirs, null);
    else if (!isEventName(ours)) warn([...sAt, theirs], `'${String(ours)}' is not a Hermes event; ignoring`);
    else if (!EVENTS[ours].shell) warn([...sAt, theirs], `'${ours}' is Python-plugin-only; shell hooks cannot serve it; ignoring`);
    else events.set(theirs, ours);
  }
  return events;
}

function parseTools(value: Record<string, unknown>, sAt: ConfigPath, warn: Warn): Map<string, string | null> {
  const tools = new Map<string, string | null>();
  for (const [theirs, ours] of Object.entries(value)) {
    if (ours === null || (typeof ours === 'string' && ours.trim() !== '')) tools.set(theirs, ours === null ? null : ours.trim());
    else warn([...sAt, theirs], `must be a tool name (a non-empty string) or null; got ${describe(ours)}`);
  }
  return tools;
}

function parseArgs(value: Record<string, unknown>, sAt: ConfigPath, warn: Warn): Map<string, Map<string, string | null> | null> {
  const args = new Map<string, Map<string, string | null> | null>();
  for (const [tool, keys] of Object.entries(value)) {
    if (keys === null) {
      args.set(tool, null);
      continue;
    }
    if (!isPlainObject(keys)) {
      warn([...sAt, tool], `must be a mapping of their argument key to ours; got ${describe(keys)}`);
      continue;
    }
    const keyMap = new Map<string, string | null>();
    for (const [theirKey, ourKey] of Object.entries(keys)) {
      if (ourKey === null || (typeof ourKey === 'string' && ourKey !== '')) keyMap.set(theirKey, ourKey);
      else warn([...sAt, tool, theirKey], `must be an argument key (a non-empty string) or null; got ${describe(ourKey)}`);
    }
    args.set(tool, keyMap);
  }
  return args;
}

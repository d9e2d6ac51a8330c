// `hermes-hooks doctor --agent X`, the judging half (pure: file texts and probes in, findings out).
// It looks at an agent's own hook config files for hermes-hooks entries that agent will not run, or
// that fail open: the wrong file, a command that is missing / npx / relative, a tool gate that is not
// wired or whose matcher lets tools past, a timeout shorter than the profile's hooks, the wrong event
// or dialect, and for Codex a hook that is not trusted (Codex skips those without a word). Each
// entry's checks are doctor-entry.ts; the agent's facts (files, gate, defaults) its record's.
//
// Facts per agent come from reference/peer-hook-protocols.md §a1–§b4. What cannot be known from the
// files (Claude's workspace trust; whether Codex's trusted_hash still matches an edited entry) is
// said as exactly that, with the step that settles it.

import { join } from 'node:path';
import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { blankJsonComments } from '../util/jsonc.js';
import { agentModule, AGENT_LABELS } from '../dialects/agents/index.js';
import { commandKeyOf, eventsIn, type AgentCheck, type AgentFileSpec } from '../dialects/agents/module.js';
import type { AgentDialect, DialectMaps } from '../dialects/names.js';
import { clientSettingsChecks, type ClientSettingsFile } from './client-settings.js';
import { checkEntry, clientWiring, type RawEntry } from './doctor-entry.js';
import { dropWarnings, type ProfileHook } from './drops.js';
import { httpPortChecks, type ListenersProbe } from './http-port.js';
import { wiredEvents } from './print-config.js';
import { isNeeded, type ProfileEvents } from './profile-events.js';

/** ok: true ✓, false ✗ (a problem: exit 1), null ℹ (information, or a risk we cannot settle). */
export type { AgentCheck } from '../dialects/agents/module.js';
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
  /** Who listens on a loopback TCP port (for http wirings); absent or null: cannot tell. */
  listeners?: ListenersProbe;
  /** Our uid: a port held by anyone else but root is another user's. */
  uid?: number;
  /** The bundled client's settings file, lstat'ed and read (client-settings.ts judges it); absent: not checked. */
  clientSettings?: (path: string) => ClientSettingsFile;
}

export interface AgentDoctorInput {
  dialect: AgentDialect;
  maps: DialectMaps;
  files: AgentFile[];
  /** The agent's trust file (Codex: ~/.codex/config.toml), when its record has one. */
  trustConfig?: { path: string; text: string | null };
  /** The longest hook timeout (s) the profile has per event: one `run` waits for the slowest. */
  profileTimeouts: Partial<Record<EventName, number>>;
  home: string;
  probes: AgentProbes;
  /** The events the profile needs (profile-events.ts), and the print-config command that re-wires it. */
  needs?: { events: ProfileEvents; rewire: string };
  /** The profile's hooks: a ⚠ for each answer of theirs the agent would drop (its record's support.drops). */
  profileHooks?: readonly ProfileHook[];
  /** The profile home a client entry without --home reads its settings from ($HERMES_HOME, else ~/.hermes). */
  clientHome?: string;
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

/** The events that gate a tool call: the agent's gate, and its tool-family gates (Cursor's beforeShellExecution …). */
function gatesOf(dialect: AgentDialect): string[] {
  const agent = agentModule(dialect);
  return [
    agent.doctor.gate,
    ...Object.entries(agent.families ?? {})
      .filter(([, f]) => f.phase === 'pre')
      .map(([name]) => name),
  ];
}

/** A command that calls hermes-hooks (by name, by its bin.js, or as `run X --dialect Y`). */
export function isHermesHooksCommand(command: string): boolean {
  return /\bhermes-hooks\b/.test(command) || /dist\/cli\/bin\.js\b/.test(command) || /\brun\s+\S+\s+.*--dialect[\s=]/.test(command);
}

/** An http handler to serve's /v1/agent route (print-config --http, Claude Code). */
function isServeHttp(h: Record<string, unknown>): boolean {
  return h['type'] === 'http' && typeof h['url'] === 'string' && h['url'].includes('/v1/agent/');
}

/** Every command handler (and serve http handler) in one agent config object, with where it sits. */
function entriesOf(dialect: AgentDialect, hooks: unknown, prefix: string): RawEntry[] {
  if (!isPlainObject(hooks)) return [];
  const out: RawEntry[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue; // e.g. Gemini's `hooks.enabled`
    list.forEach((group, g) => {
      if (!isPlainObject(group)) return;
      if (agentModule(dialect).configShape === 'flat' || typeof group['command'] === 'string') {
        out.push({ at: `${prefix}${event}[${g}]`, event, matcher: group['matcher'], handler: group, group: g, index: 0 });
        return;
      }
      const handlers = group['hooks'];
      if (!Array.isArray(handlers)) return;
      handlers.forEach((h, i) => {
        if (isPlainObject(h) && (typeof h['command'] === 'string' || isServeHttp(h))) {
          out.push({ at: `${prefix}${event}[${g}].hooks[${i}]`, event, matcher: group['matcher'], handler: h, group: g, index: i });
        }
      });
    });
  }
  return out;
}

/**
 * hermes-hooks http entries on events the agent runs no http hook on (Claude's SessionStart, Setup):
 * the agent skips them, so that event never reaches serve.
 */
function skippedHttpEntries(dialect: AgentDialect, json: Record<string, unknown>, file: string): AgentCheck[] {
  const hooks = eventsIn(agentModule(dialect), file, json);
  if (!isPlainObject(hooks)) return [];
  const out: AgentCheck[] = [];
  for (const event of agentModule(dialect).printConfig.noHttpOn ?? []) {
    const list = hooks[event];
    if (!Array.isArray(list)) continue;
    const handlers = list.flatMap((g) => (isPlainObject(g) && Array.isArray(g['hooks']) ? g['hooks'] : []));
    const ours = handlers.some((h) => isPlainObject(h) && h['type'] === 'http' && typeof h['url'] === 'string' && h['url'].includes('/v1/agent/'));
    if (ours) {
      out.push({
        ok: false,
        message:
          `${file}: ${agentName(dialect)} skips HTTP hooks on ${event}: this event never reaches hermes-hooks — use the command hook ` +
          `'hermes-hooks print-config ${dialect}' prints`,
      });
    }
  }
  return out;
}

function parseAgentJson(text: string, dialect: AgentDialect): Record<string, unknown> | string {
  try {
    const v = JSON.parse(agentModule(dialect).configComments ? blankJsonComments(text) : text) as unknown;
    return isPlainObject(v) ? v : 'not a JSON object';
  } catch (e) {
    return errorText(e);
  }
}

export function checkAgentConfig(input: AgentDoctorInput): AgentDoctorReport {
  const { dialect } = input;
  const agent = agentModule(dialect);
  const gates = gatesOf(dialect);
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
        report.general.push({
          ok: false,
          message:
            `${file.path} is not valid JSON (${json}): ${agentName(dialect)} cannot read ` +
            `it${mentions ? ', so its hermes-hooks entries never run' : ''}. Fix the syntax.`,
        });
      }
      continue;
    }
    const isOurs = (e: RawEntry): boolean => isServeHttp(e.handler) || isHermesHooksCommand(String(e.handler[commandKeyOf(agent)] ?? ''));
    const topLevel = agent.topLevelEvents?.test(file.path) === true;
    const ours = entriesOf(dialect, eventsIn(agent, file.path, json), topLevel ? '' : 'hooks.').filter(isOurs);
    // Droid's hooks.json: entries under a `hooks` wrapper are ignored by the agent, so none of them runs.
    const wrapped = topLevel ? entriesOf(dialect, json['hooks'], 'hooks.').filter(isOurs) : [];
    if (wrapped.length > 0 && file.role === 'reads') {
      report.general.push({
        ok: false,
        message:
          `${file.path} puts ${wrapped.length} hermes-hooks entr${wrapped.length === 1 ? 'y' : 'ies'} under a "hooks" key, which ${agent.label} ` +
          `ignores in this file (it reads the events at the top level): none of them runs — move the events out of "hooks", as ` +
          `'hermes-hooks print-config ${dialect}' prints them.`,
      });
    }
    report.files.push({ path: file.path, role: file.role, state: 'read', entries: ours.length });
    if (file.role === 'reads') report.general.push(...skippedHttpEntries(dialect, json, file.path));
    if (file.role === 'wrong') {
      if (ours.length) {
        report.general.push({
          ok: false,
          message:
            `${file.path} has ${ours.length} hermes-hooks entr${ours.length === 1 ? 'y' : 'ies'}, but ${agentName(dialect)} never reads that ` +
            `file: move them to ${file.instead}.`,
        });
      }
      continue;
    }
    if (agent.versionedConfig && ours.length && json['version'] !== 1) {
      report.general.push({ ok: false, message: `${file.path} has no "version": 1 — ${agent.label} expects {"version": 1, "hooks": {…}}.` });
    }
    for (const raw of ours) {
      const entry = checkEntry(input, file, raw);
      report.entries.push(entry);
      // An entry on the gate counts; whatever keeps it from working is its own ✗ below.
      if (gates.includes(raw.event)) gateWired.add(raw.event);
    }
  }

  const read = input.files.filter((f) => f.role === 'reads');
  const anyOurs = report.entries.length > 0;
  if (!anyOurs) {
    report.general.push({
      ok: false,
      message:
        `no hermes-hooks entry in ${read.map((f) => f.path).join(' or ')}: ${agentName(dialect)} runs none of the profile's hooks. Wire it ` +
        `with 'hermes-hooks print-config ${dialect}'.`,
    });
  } else if (gateWired.size === 0) {
    report.general.push({
      ok: false,
      message:
        `no hermes-hooks entry on ${agent.doctor.gate}: the profile's pre_tool_call guards never see a tool call. Wire it with 'hermes-hooks ` +
        `print-config ${dialect}'.`,
    });
  }
  if (anyOurs && input.needs !== undefined) report.general.push(...unwiredChecks(input, input.needs, report.entries, gates));
  const gate = agent.doctor.gate;
  const alsoWired = [...gateWired].filter((e) => e !== gate);
  if (gateWired.has(gate) && alsoWired.length > 0) {
    report.general.push({
      ok: null,
      message: `${gate} and ${alsoWired.join(', ')} are both wired: ${agent.label} fires both for one call, so the profile's hooks run twice.`,
    });
  }
  // The client's settings file (node and CLI a serve start runs): only for client-wired entries.
  const clients = report.entries.flatMap((e) => clientWiring(e.command, input.home) ?? []);
  const readSettings = input.probes.clientSettings;
  if (clients.length > 0 && readSettings !== undefined && input.clientHome !== undefined) {
    const probes = { read: readSettings, runnable: input.probes.runnable, which: input.probes.which, uid: input.probes.uid ?? 0 };
    report.general.push(...clientSettingsChecks(dialect, clients, input.clientHome, probes));
  }
  // An http wiring is only as safe as whoever holds its port.
  const urls = report.entries.filter((e) => /^https?:\/\//.test(e.command)).map((e) => e.command);
  report.general.push(...httpPortChecks(urls, input.probes.listeners, input.probes.uid ?? 0));
  const trustNote = input.trustConfig && agent.doctor.trust?.note(input.trustConfig, isHermesHooksCommand);
  if (trustNote) report.general.push(trustNote);
  if (anyOurs) for (const message of agent.doctor.notes ?? []) report.general.push({ ok: null, message });
  for (const message of dropWarnings(dialect, input.profileHooks ?? [])) report.general.push({ ok: null, warning: true, message });

  report.problems = report.general.filter((c) => c.ok === false).length + report.entries.reduce((n, e) => n + e.checks.filter((c) => c.ok === false).length, 0);
  return report;
}

/**
 * The events the profile needs that no entry is on: print-config wires only those, so a hook added
 * later on another event never runs until the agent is re-wired. The gate is the ✗ above.
 */
function unwiredChecks(input: AgentDoctorInput, needs: { events: ProfileEvents; rewire: string }, entries: AgentEntry[], gates: string[]): AgentCheck[] {
  const { dialect, maps } = input;
  const wired = new Set(entries.map((e) => e.event));
  const missing = wiredEvents(dialect, maps, (ours) => isNeeded(needs.events, ours)).filter((e) => !wired.has(e) && !gates.includes(e));
  return missing.map((theirEvent) => {
    const ours = maps[dialect].events.get(theirEvent)!;
    const why = needs.events.needs.get(ours) ?? needs.events.everyEvent;
    return {
      ok: null,
      message: `${theirEvent} is not wired (${ours}: ${why}): ${agentName(dialect)} never sends it to hermes-hooks — re-wire: ${needs.rewire}`,
    };
  });
}

/** The files each agent reads, and places people put hooks that it never reads. */
export function agentFiles(dialect: AgentDialect, home: string, project: string): Omit<AgentFile, 'text'>[] {
  return agentModule(dialect).doctor.files.map((f: AgentFileSpec) => ({
    path: `${f.under === 'home' ? home : project}/${f.path}`,
    role: f.role,
    ...(f.instead !== undefined ? { instead: f.instead } : {}),
  }));
}

function agentName(dialect: AgentDialect): string {
  return AGENT_LABELS[dialect];
}

/** The file under `home` where the agent records hook trust (Codex's config.toml), if it has one. */
export function agentTrustFile(dialect: AgentDialect, home: string): string | undefined {
  const file = agentModule(dialect).doctor.trust?.file;
  return file === undefined ? undefined : join(home, file);
}

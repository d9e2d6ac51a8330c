// The checks that catch a configured guard that would not guard as written (issue 16): misspelled
// keys, hooks: in the wrong place, commands that cannot start or that need a shell, matchers that
// name no tool the host calls. Hermes ignores all of these at run time, and so does the engine; these
// findings only make sure the user hears about it. Pure: strings and maps in, findings out.
//
// Levels, one rule: `error` when the guard is lost (it is never registered or can never start);
// `warning` when it runs but not as written (another matcher, timeout or fail_closed, literal shell
// syntax in its arguments); `info` when nothing is provably wrong. validate exits 1 on both of the
// first two.

import { splitCommand } from '../shell-words.js';
import { EVENTS, isEventName, type EventName } from '../events.js';
import type { Diagnostic, DiagnosticLevel, Dialect } from '../types.js';
import { AGENT_DIALECTS, AGENT_LABELS, isAgentDialect, theirToolNames, toTheirTool, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { didYouMean, getCloseMatches } from '../util/did-you-mean.js';
import { compileMatcher } from './matcher.js';
import { shellConstructs } from './_shell-constructs.js';

export interface Finding {
  level: DiagnosticLevel;
  message: string;
}

/** Every key a hook entry reads (hooks.ts); anything else is ignored, as in Hermes. */
export const HOOK_ENTRY_KEYS: readonly string[] = ['command', 'matcher', 'timeout', 'fail_closed', 'failClosed', 'dialect'];

/** The top-level keys hermes-hooks reads. Every other top-level key belongs to Hermes or the user. */
const OWNED_TOP_LEVEL_KEYS: readonly string[] = [
  'hooks',
  'hooks_auto_accept',
  'hooks_fail_closed',
  'tool_loop_guardrails',
  'plugins',
  'dialects',
  'hooks_journal',
];

// Sections of a real Hermes config.yaml: never reported, even when one happens to look like ours.
const HERMES_SECTIONS = new Set([
  'model',
  'providers',
  'custom_providers',
  'fallback_model',
  'fallback_providers',
  'toolsets',
  'platform_toolsets',
  'tools',
  'agent',
  'terminal',
  'browser',
  'checkpoints',
  'compression',
  'auxiliary',
  'display',
  'tts',
  'stt',
  'voice',
  'memory',
  'security',
  'delegation',
  'skills',
  'honcho',
  'approvals',
  'smart_model_routing',
  'mcp_servers',
  'code_execution',
  'web',
  'privacy',
  'timezone',
  'discord',
  'whatsapp',
  'slack',
  'telegram',
  'cron',
  'human_delay',
  'context',
  'streaming',
  'session_reset',
  'group_sessions_per_user',
  'command_allowlist',
  'quick_commands',
  'personalities',
  'prompt_caching',
  'logging',
  'network',
  'gateway',
  'platforms',
  'profiles',
  'updates',
  'guardrails',
]);

/** What is lost when a top-level key we read is misspelled. */
const TOP_LEVEL_CONSEQUENCE: Readonly<Record<string, string>> = {
  hooks: 'none of the hooks under it are registered',
  hooks_auto_accept: 'hooks are not auto-accepted, so an unapproved hook does not run unattended',
  hooks_fail_closed: 'strict mode is off: a pre_tool_call guard that cannot run lets the call through',
  tool_loop_guardrails: 'the tool-loop guardrails run with their defaults',
  plugins: 'no plugin is loaded from it',
  dialects: 'the built-in name maps are used instead',
  hooks_journal: 'no journal of the decisions is written',
};

// The top level is shared with dozens of Hermes sections: only a close miss (or a case/underscore
// variant) of one of our keys is taken for a typo, never a merely similar word like `tools`.
const TOP_LEVEL_CUTOFF = 0.75;

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[-_\s]/g, '');

/** `hook:`, `Hooks:`, `hooks_auto_acept:` … → the key of ours it misses; null for anything else. */
function topLevelNearMiss(key: string): string | null {
  if (OWNED_TOP_LEVEL_KEYS.includes(key) || HERMES_SECTIONS.has(key)) return null;
  const same = OWNED_TOP_LEVEL_KEYS.find((k) => normalizeKey(k) === normalizeKey(key));
  return same ?? getCloseMatches(key, OWNED_TOP_LEVEL_KEYS, 1, TOP_LEVEL_CUTOFF)[0] ?? null;
}

/** A top-level key that looks like a mistake: a near miss of ours, or a hook event outside hooks:. */
export function topLevelKeyFinding(key: string): Finding | null {
  if (isEventName(key)) {
    // Certain: no Hermes section is named like an event, and its hooks are lost.
    return { level: 'error', message: `a hook event at the top level is not read — indent it under hooks: (as written, none of its hooks are registered)` };
  }
  const miss = topLevelNearMiss(key);
  if (miss === null) return null;
  // A warning, not an error: it is a guess (the key could be someone else's), but a likely one.
  return { level: 'warning', message: `unknown top-level key — did you mean '${miss}'? As written, ${TOP_LEVEL_CONSEQUENCE[miss]}` };
}

/** The canonical key a misspelled entry key stands for, or null. */
function entryKeyNearMiss(key: string): string | null {
  const canonical = (k: string): string => (k === 'failClosed' ? 'fail_closed' : k);
  const same = HOOK_ENTRY_KEYS.find((k) => normalizeKey(k) === normalizeKey(key));
  if (same) return canonical(same);
  const close = didYouMean(key, HOOK_ENTRY_KEYS);
  return close === null ? null : canonical(close);
}

/** An entry key that hooks.ts does not read. `has(k)` tells whether the entry also sets `k`. */
export function unknownEntryKeyFinding(key: string, event: EventName, has: (k: string) => boolean): Finding {
  const miss = entryKeyNearMiss(key);
  if (miss === null) {
    return { level: 'info', message: `unknown key '${key}' is ignored (a hook entry reads: command, matcher, timeout, fail_closed, dialect)` };
  }
  const alsoSet = miss === 'fail_closed' ? has('fail_closed') || has('failClosed') : has(miss);
  if (alsoSet) return { level: 'warning', message: `unknown key '${key}' — did you mean '${miss}'? It is ignored ('${miss}' is set on this entry too)` };
  return { level: 'warning', message: `unknown key '${key}' — did you mean '${miss}'? As written it is ignored, so ${missingKeyConsequence(miss, event)}` };
}

function missingKeyConsequence(key: string, event: EventName): string {
  const ev = EVENTS[event];
  switch (key) {
    case 'matcher':
      return ev.toolScoped ? 'this hook will run for every tool' : `this hook will run on every ${event} event`;
    case 'timeout':
      return 'this hook gets the default timeout of 60s';
    case 'fail_closed':
      return ev.canBlock
        ? 'this hook is not fail_closed: a failure will allow the call'
        : `this hook is not fail_closed (which only applies to pre_tool_call anyway)`;
    case 'dialect':
      return "this hook's output is read as Hermes JSON, so another agent's block is not understood";
    default:
      return 'this entry has no command and is skipped';
  }
}

// ---- commands: what spawn will do with them (no shell) -------------------------------------

/** A hook command that cannot start, or whose shell syntax would be passed on literally. */
export function commandFinding(command: string, opts: { failClosed: boolean; canBlock: boolean }): Finding | null {
  // `~` is kept as written (homedir '~'): expansion changes no token boundary, and this stays pure.
  const split = splitCommand(command, { homedir: '~' });
  if (!split.ok) {
    const outcome =
      opts.failClosed && opts.canBlock ? 'as fail_closed it blocks every call it matches' : 'each failure is only a warning and the call goes ahead';
    return { level: 'error', message: `${split.error} — this hook can never start (${outcome}); fix the quoting` };
  }
  const constructs = shellConstructs(command, split.argv);
  if (constructs.length === 0) return null;
  const program = split.argv[0] as string;
  const named = joinList(constructs.map((c) => `the ${c.kind} '${c.text}'`));
  const bashFix = `bash -c ${shellQuote(command)}`;
  // Consent follows the commands of `bash -c` code to pin the scripts they run, but not through a
  // command substitution or a variable naming the program: that rewrite could never be approved
  // (consent/_shell-code.ts), so only the script file is suggested.
  const opaque = constructs.find((c) => c.kind === 'command substitution' || (c.kind === 'variable' && c.token === 0));
  const rewrite =
    opaque === undefined
      ? `write: ${bashFix} — or move it into a script`
      : `move it into a script file and make that script the command ` +
        `(as bash -c code it could not be approved: the ${opaque.kind} '${opaque.text}' hides what it runs from the approval's pin)`;
  const assignment = constructs.find((c) => c.kind === 'assignment');
  if (assignment) {
    // `FOO=1 /x.sh` → spawn looks for a program named `FOO=1`.
    const rest = constructs.filter((c) => c !== assignment);
    const fix = rest.length === 0 ? `write: env ${command} (or ${bashFix})` : rewrite;
    return {
      level: 'error',
      message: `runs without a shell, so the assignment '${assignment.text}' is taken as the program name and this hook never starts — ${fix}`,
    };
  }
  if (constructs.some((c) => c.token === 0)) {
    return {
      level: 'error',
      message:
        `runs without a shell, so ${named} ${constructs.length > 1 ? 'are' : 'is'} not interpreted: ` +
        `the program '${program}' does not exist and this hook never starts — ${rewrite}`,
    };
  }
  return {
    level: 'warning',
    message: `runs without a shell, so ${named} ${constructs.length > 1 ? 'are' : 'is'} passed to ${program} as literal text — ${rewrite}`,
  };
}

/** A string as one single-quoted POSIX shell word (what splitCommand reads back unchanged). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// ---- matchers: do they name a tool the host calls? ------------------------------------------

/** Our tool names as far as they are known: every tool any dialect map names (terminal, read_file …). */
function knownHermesTools(maps: DialectMaps): string[] {
  const names = new Set<string>();
  for (const d of AGENT_DIALECTS) for (const ours of maps[d].tools.values()) names.add(ours);
  return [...names];
}

/**
 * A matcher that matches none of the tool names its hook is tested against. Only what is provably
 * a near miss (`Terminal`, `bash`, `terminl`) is a warning — the hook would never run for the tool
 * meant. Hermes' tool set is open (plugins, MCP servers, built-ins no map names), so a name we do
 * not know is an info, and an MCP-looking matcher is not judged at all.
 */
export function matcherFindings(matcher: string, dialect: Dialect, maps: DialectMaps): Finding[] {
  if (/mcp/i.test(matcher)) return [];
  const m = compileMatcher(matcher);
  // A pattern that does not compile is already reported (and matched literally) by hooks.ts.
  if (m.literal) return [];
  const ours = knownHermesTools(maps);
  const agent = isAgentDialect(dialect) ? dialect : null;
  // Exactly what the engine tests (run-hooks.ts / dialectMatchesTool): our name, then the agent's names.
  const namesFor = (tool: string): string[] => (agent ? [tool, ...theirToolNames(maps, agent, tool)] : [tool]);
  const candidates = [...new Set(ours.flatMap(namesFor))];
  const matches = (test: (name: string) => boolean): boolean => candidates.some((n) => test(n));
  const whose = agent ? `${AGENT_LABELS[agent]} or Hermes tool name` : 'Hermes tool name';

  const alternatives = literalAlternatives(m.source ?? matcher);
  if (alternatives !== null) {
    const findings: Finding[] = [];
    const unknown: string[] = [];
    for (const alt of alternatives) {
      if (candidates.includes(alt)) continue;
      const hint = suggestTool(alt, candidates, agent, maps);
      if (hint === null) {
        unknown.push(alt);
        continue;
      }
      const subject = alternatives.length > 1 ? `'${alt}' in matcher '${matcher}'` : `matcher '${matcher}'`;
      findings.push({
        level: 'warning',
        message:
          `${subject} matches no ${whose} (a matcher is case-sensitive and must match the whole name) — did you mean '${hint.name}'?` +
          `${hint.why ? ` (${hint.why})` : ''} As written, this hook never runs for it`,
      });
    }
    if (findings.length === 0 && unknown.length === alternatives.length) findings.push(unknownToolsInfo(matcher, candidates, whose));
    return findings;
  }
  if (matches((n) => m.test(n))) return [];
  // A regex: did case sensitivity make it miss? `(?i)` is allowed first, before any flags of its own.
  const folded = compileMatcher(`(?i)${m.source ?? matcher}`);
  const caseOnly = folded.literal ? [] : candidates.filter((n) => folded.test(n));
  if (caseOnly.length > 0) {
    return [
      {
        level: 'warning',
        message:
          `matcher '${matcher}' matches no ${whose} (a matcher is case-sensitive) — did you mean ` +
          `${caseOnly.length === 1 ? `'${caseOnly[0]}'` : `one of ${caseOnly.map((n) => `'${n}'`).join(', ')}`}? As written, this hook never runs for ` +
          `${caseOnly.length === 1 ? 'it' : 'them'}`,
      },
    ];
  }
  return [unknownToolsInfo(matcher, candidates, whose)];
}

function unknownToolsInfo(matcher: string, candidates: string[], whose: string): Finding {
  return {
    level: 'info',
    message:
      `matcher '${matcher}' matches no known ${whose} (${[...candidates].sort().join(', ')}); fine for a plugin or MCP tool, otherwise this ` +
      `hook never runs`,
  };
}

/** `terminal`, `Bash|Edit`, `(read_file|write_file)`, `^patch$` → the names; a real regex → null. */
function literalAlternatives(source: string | null): string[] | null {
  if (source === null) return null;
  let s = source.trim();
  if (s.startsWith('^')) s = s.slice(1);
  if (s.endsWith('$')) s = s.slice(0, -1);
  if (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1);
  if (s.startsWith('?:')) s = s.slice(2);
  return /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/.test(s) ? s.split('|') : null;
}

/** The tool a mistyped name most likely means: another case, another agent's name for it, a typo. */
function suggestTool(name: string, candidates: string[], agent: AgentDialect | null, maps: DialectMaps): { name: string; why: string | null } | null {
  const lower = name.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase) return { name: sameCase, why: null };
  // Another agent's name (Claude's `Bash`, `bash`, Cursor's `Shell` …) for one of our tools: the
  // same spelling first, then any case. A dialect hook is pointed at its own agent's name for it.
  const aliases = AGENT_DIALECTS.flatMap((d) => [...maps[d].tools].map(([theirs, ours]) => ({ d, theirs, ours })));
  const alias = aliases.find((a) => a.theirs === name) ?? aliases.find((a) => a.theirs.toLowerCase() === lower);
  if (alias) {
    const target = agent ? toTheirTool(maps, agent, alias.ours) : alias.ours;
    return { name: target, why: `${alias.theirs} is ${AGENT_LABELS[alias.d]}'s name for it${agent ? '' : `; Hermes calls it ${alias.ours}`}` };
  }
  const close = didYouMean(name, candidates);
  return close === null ? null : { name: close, why: null };
}

// ---- which diagnostics concern one event (what `run <event>` repeats on stderr) ---------------

/**
 * True when a config diagnostic is about the hooks of `event`: its entries, its key, a misspelling
 * of it, or the hooks: block as a whole (a broken block loses this event's hooks too).
 */
export function concernsEvent(d: Pick<Diagnostic, 'path'>, event: EventName): boolean {
  const path = d.path;
  if (path === `hooks.${event}` || path.startsWith(`hooks.${event}[`) || path.startsWith(`hooks.${event}.`)) return true;
  if (path === 'hooks' || path === '') return true;
  if (path === event) return true; // the event written at the top level
  const m = /^hooks\.([^.[]+)$/.exec(path);
  if (m) return didYouMean(m[1] as string, Object.keys(EVENTS)) === event;
  return !path.includes('.') && !path.includes('[') && topLevelNearMiss(path) === 'hooks';
}

/** For an entry with no command that is another agent's matcher group (`{matcher, hooks: [{type, command}]}`): how to write it. */
export function groupHint(raw: Map<unknown, unknown>): string {
  const inner = raw.get('hooks');
  if (!Array.isArray(inner)) return '';
  const commands = inner.map((h) => (h instanceof Map ? h.get('command') : undefined)).filter((c): c is string => typeof c === 'string');
  const example = commands.length > 0 ? `- command: ${JSON.stringify(commands[0])}` : '- command: …';
  return (
    " — it is another agent's matcher group (Claude Code's {matcher, hooks: [{type: command, command}]}), which Hermes does not read, " +
    `so none of its hooks run; write each hook as its own entry: ${example} ` +
    "(with matcher: in Hermes tool names, and dialect: claude if it prints Claude's JSON)"
  );
}

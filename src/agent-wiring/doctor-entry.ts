// `doctor --agent`: the checks of one hermes-hooks entry in an agent's config — the event and the
// `run <event> --dialect <agent>` it calls, the program the agent's shell will start, the matcher
// on tool events, the timeout against the profile's slowest hook, and the agent's own conditions
// (Cursor's failClosed, Codex's trust), all from the agent's record.

import { basename, isAbsolute } from 'node:path';
import { splitCommand } from '../shell-words.js';
import { agentModule, AGENT_LABELS, isAgentDialect, type AgentDialect } from '../dialects/agents/index.js';
import { commandKeyOf, handlerSeconds, timeoutKeyOf, type AgentCheck } from '../dialects/agents/module.js';
import type { AgentDoctorInput, AgentEntry, AgentFile } from './agent-doctor.js';
import { AGENT_HOOK_TIMEOUT_S, CLIENT_TIMEOUT_S, SERVE_REQUEST_TIMEOUT_S } from '../deadlines.js';

export interface RawEntry {
  at: string;
  event: string;
  matcher: unknown;
  handler: Record<string, unknown>;
  group: number;
  index: number;
}

const FIX_COMMAND = (agent: AgentDialect): string => `'hermes-hooks print-config ${agent}' prints the absolute command`;

export function checkEntry(input: AgentDoctorInput, file: AgentFile, raw: RawEntry): AgentEntry {
  const { dialect, maps } = input;
  const agent = agentModule(dialect);
  const url = raw.handler['type'] === 'http' && typeof raw.handler['url'] === 'string' ? raw.handler['url'] : null;
  const commandKey = commandKeyOf(agent);
  const command = typeof raw.handler[commandKey] === 'string' ? (raw.handler[commandKey] as string) : '';
  const checks: AgentCheck[] = [];

  // The event and the `run <event> --dialect <agent>` it calls.
  const ourEvent = maps[dialect].events.get(raw.event) ?? null;
  if (ourEvent === null)
    checks.push({
      ok: false,
      message: `${agentName(dialect)} event '${raw.event}' has no Hermes counterpart: 'run' answers it with an error (remove the entry)`,
    });
  // print-config (its default wiring) wires the bundled client (`… hermes-hooks-client <agent> <event> [socket]`), not `run`.
  const client = url === null ? clientWiring(command, input.home) : null;
  if (url !== null) checks.push(...httpChecks(input, url, raw));
  else if (client !== null) {
    checks.push(...clientChecks(input, client, raw.event), ...clientGateChecks(client, raw.event, ourEvent === 'pre_tool_call', dialect));
  } else checks.push(...runChecks(input, file, command, raw.event));

  // Matchers on the tool events: anything narrower than "every tool" lets calls past the guards.
  if (agent.doctor.toolEvents.includes(raw.event)) {
    const missed = missedTools(input, raw.matcher);
    if (missed === null)
      checks.push({ ok: true, message: `matcher ${raw.matcher === undefined ? '(none)' : JSON.stringify(raw.matcher)} sends every tool to hermes-hooks` });
    else
      checks.push({
        ok: false,
        message:
          `matcher ${JSON.stringify(raw.matcher)} skips ${missed.join(', ')}: those calls never reach the profile's guards — use ` +
          `${JSON.stringify(agent.printConfig.matchAll ?? '*')} (the ` +
          `profile's own matchers pick the tools)`,
      });
  }

  // Timeout: the agent must wait for the slowest profile hook (+1 s to kill it, +1 s to start).
  if (ourEvent !== null) {
    const unit = agent.timeoutUnit === 'ms' ? 1000 : 1;
    const timeoutKey = timeoutKeyOf(agent);
    const given = typeof raw.handler[timeoutKey] === 'number' ? handlerSeconds(agent, raw.handler[timeoutKey] as number) : null;
    const seconds = given ?? agent.doctor.defaultTimeoutOn?.[raw.event] ?? agent.doctor.defaultTimeout;
    const slowest = input.profileTimeouts[ourEvent];
    const need = slowest === undefined ? null : slowest + 2;
    if (seconds === null) {
      checks.push({
        ok: null,
        message:
          `no timeout set and ${agentName(dialect)}'s default is not documented: set "${timeoutKey}": ` +
          `${AGENT_HOOK_TIMEOUT_S * (agent.timeoutUnit === 'ms' ? 1000 : 1)}`,
      });
    } else if (need !== null && seconds < need) {
      const hint =
        unit === 1000 && given !== null && (raw.handler[timeoutKey] as number) < 1000
          ? ` (${agent.doctor.msTimeoutHint ?? `${agent.label} counts milliseconds`})`
          : '';
      checks.push({
        ok: false,
        message:
          `${agentName(dialect)} stops the hook after ${fmt(seconds)} s${given === null ? ' (its default)' : ''}${hint}, but the profile's ` +
          `${ourEvent} hooks may take up to ${slowest} s: a slow guard is cut off and the call goes ahead — ` +
          `set "${timeoutKey}": ${AGENT_HOOK_TIMEOUT_S * unit}`,
      });
    } else if (url !== null && seconds <= SERVE_REQUEST_TIMEOUT_S) {
      checks.push({
        ok: false,
        message:
          `${agentName(dialect)} stops the request after ${fmt(seconds)} s, before serve's own ${SERVE_REQUEST_TIMEOUT_S} s deadline for the ` +
          `call: a slow serve lets the call go ahead — set "${timeoutKey}": ${AGENT_HOOK_TIMEOUT_S * unit}`,
      });
    } else if (client !== null && seconds <= CLIENT_TIMEOUT_S) {
      // Through the client, the agent must outwait the client's own deadline: a frozen serve is
      // answered with a block only when the client gives up first.
      checks.push({
        ok: false,
        message:
          `${agentName(dialect)} stops the hook after ${fmt(seconds)} s, before the client's own ${CLIENT_TIMEOUT_S} s deadline for serve: a ` +
          `frozen serve lets the call go ahead — set "${timeoutKey}": ${AGENT_HOOK_TIMEOUT_S * unit}`,
      });
    } else {
      checks.push({
        ok: true,
        message:
          `timeout ${fmt(seconds)} s${given === null ? ' (default)' : ''} outlasts the profile's ${ourEvent} ` +
          `hooks${slowest === undefined ? ' (none configured)' : ` (up to ${slowest} s)`}`,
      });
    }
  }

  const field = agent.failClosedField;
  if (field !== undefined && raw.event === agent.doctor.gate && raw.handler[field] !== true) {
    checks.push({ ok: null, message: `no "${field}": true — if the command cannot start or times out, ${agent.label} lets the call through` });
  }
  // Claude's onFailure on a command gate (an http gate without it is ✗ above): without it a timeout
  // the person lowered, or a client that cannot start, lets the call through.
  const wanted = Object.entries(agent.printConfig.gateFailClosed ?? {});
  if (url === null && raw.event === agent.doctor.gate && wanted.some(([k, v]) => raw.handler[k] !== v)) {
    const fields = wanted.map(([k, v]) => `"${k}": ${JSON.stringify(v)}`).join(', ');
    checks.push({ ok: null, message: `no ${fields} — if the command cannot start or times out, ${agent.label} lets the call through (add it, or re-wire)` });
  }
  const trust = agent.doctor.trust;
  if (trust)
    checks.push(trust.check(input.trustConfig, { filePath: file.path, realPath: file.realPath, event: raw.event, group: raw.group, index: raw.index }));

  return { file: file.path, at: raw.at, event: raw.event, command: url ?? command, checks };
}

/** The checks of a `run <event> --dialect <agent>` command: the event and dialect it names, the program. */
function runChecks(input: AgentDoctorInput, file: AgentFile, command: string, event: string): AgentCheck[] {
  const { dialect } = input;
  const out: AgentCheck[] = [];
  const run = /\brun\s+(\S+)/.exec(command);
  const dialectArg = /--dialect(?:\s+|=)(\S+)/.exec(command)?.[1];
  if (!run) out.push({ ok: false, message: `the command does not call 'run <event> --dialect ${dialect}' — ${FIX_COMMAND(dialect)}` });
  else if (run[1] !== event)
    out.push({
      ok: false,
      message: `wired on ${event} but the command runs '${run[1]}': stdin and command line disagree, so every call errors or blocks — use 'run ${event}'`,
    });
  if (dialectArg === undefined)
    out.push({ ok: false, message: `no --dialect ${dialect}: 'run' would read ${agentName(dialect)}'s stdin as the Hermes wire — add '--dialect ${dialect}'` });
  else if (dialectArg !== dialect)
    out.push({
      ok: false,
      message:
        `--dialect ${dialectArg} in ${agentName(dialect)}'s config: the answers are in ` +
        `${isAgentDialect(dialectArg) ? agentName(dialectArg) : dialectArg}'s format, which ${agentName(dialect)} misreads — use '--dialect ${dialect}'`,
    });
  if (/(^|\s)--fail-open(\s|$)/.test(command))
    out.push({ ok: null, message: '--fail-open: when hermes-hooks cannot decide (broken config …) the call goes ahead unguarded' });

  out.push(programCheck(input, file, command));
  return out;
}

/** An http entry to serve's /v1/agent route: it names this agent and event, and fails closed on the gate. */
function httpChecks(input: AgentDoctorInput, url: string, raw: RawEntry): AgentCheck[] {
  const { dialect } = input;
  const out: AgentCheck[] = [];
  const route = /\/v1\/agent\/([^/?#]+)\/([^/?#]+)/.exec(url);
  if (route?.[1] !== dialect)
    out.push({
      ok: false,
      message: `${url} answers as '${route?.[1] ?? ''}', not as ${agentName(dialect)} — use 'hermes-hooks print-config ${dialect} --http'`,
    });
  if (route?.[2] !== raw.event)
    out.push({ ok: false, message: `wired on ${raw.event} but ${url} is told '${route?.[2] ?? ''}' — use 'hermes-hooks print-config ${dialect} --http'` });
  const gate = agentModule(dialect).doctor.gate === raw.event;
  if (gate && raw.handler['onFailure'] !== 'block') {
    out.push({
      ok: false,
      message:
        `no "onFailure": "block": when serve is down, slow or refuses the token, ${agentName(dialect)} lets the call through — add it (Claude ` +
        `Code 2.1.295+)`,
    });
  } else {
    out.push({ ok: true, message: `calls hermes-hooks serve over http (${url})${gate ? ', failing closed' : ''}` });
  }
  return out;
}

export interface ClientWiring {
  path: string;
  /** The interpreter print-config runs it with (`… /usr/bin/perl <client> …`), when one is named. */
  interpreter: string | undefined;
  agent: string | undefined;
  event: string | undefined;
  socket: string | undefined;
  /** `--gate 1|0` (print-config writes it from the record), undefined when not given. */
  gate: string | undefined;
  /** `--home H`: the profile whose default socket the client finds when no socket is named. */
  home: string | undefined;
  /** `--node N`, `--bin B` (older prints): they win over the client's settings file. */
  node: string | undefined;
  bin: string | undefined;
}

/** The bundled client's path and arguments in a command, or null when it does not call the client. */
export function clientWiring(command: string, home: string): ClientWiring | null {
  const split = splitCommand(command, { homedir: home });
  if (!split.ok) return null;
  const i = split.argv.findIndex((a) => /^hermes-hooks-client(\.bash)?$/.test(basename(a)));
  if (i < 0) return null;
  const [agent, event, third] = split.argv.slice(i + 1);
  const before = split.argv[i - 1];
  const interpreter = before !== undefined && isAbsolute(before) && /^(perl|bash)$/.test(basename(before)) ? before : undefined;
  // Old form: AGENT EVENT SOCKET [options]; short form (print-config now): AGENT EVENT [options], --socket among them.
  const short = third?.startsWith('--') === true;
  const option = (name: string): string | undefined => {
    const at = split.argv.indexOf(name, i + (short ? 3 : 4));
    return at < 0 ? undefined : (split.argv[at + 1] ?? '');
  };
  const socket = short ? option('--socket') : third;
  const [node, bin] = [option('--node'), option('--bin')];
  return { path: split.argv[i]!, interpreter, agent, event, socket, gate: option('--gate'), home: option('--home'), node, bin };
}

/** A client-wired entry: it answers as this agent, on this event, and the client is there to run. */
function clientChecks(input: AgentDoctorInput, c: ClientWiring, event: string): AgentCheck[] {
  const { dialect } = input;
  const out: AgentCheck[] = [];
  if (c.agent !== dialect)
    out.push({
      ok: false,
      message:
        `the client answers as '${c.agent ?? ''}', not as ${agentName(dialect)}: ${agentName(dialect)} misreads every answer — use ` +
        `'hermes-hooks print-config ${dialect}'`,
    });
  if (c.event !== event)
    out.push({
      ok: false,
      message: `wired on ${event} but the client is told '${c.event ?? ''}': stdin and command line disagree — use 'hermes-hooks print-config ${dialect}'`,
    });
  const state = isAbsolute(c.path) ? input.probes.runnable(c.path, 'exec') : 'missing';
  if (state !== 'ok') {
    out.push({
      ok: false,
      message:
        `the client ${c.path} is not an executable file here: a tool gate blocks every call (and other events go ahead) until it is — ` +
        `reinstall hermes-hooks, then rerun 'hermes-hooks print-config ${dialect}'`,
    });
  } else if (c.interpreter !== undefined && input.probes.runnable(c.interpreter, 'exec') !== 'ok') {
    out.push({
      ok: false,
      message:
        `${c.interpreter}, which runs the client, is not there: a tool gate blocks every call (and other events go ahead) until it is — rerun ` +
        `'hermes-hooks print-config ${dialect}'`,
    });
  } else {
    out.push({
      ok: true,
      message:
        `calls hermes-hooks serve through the bundled client${c.socket ? ` on ${c.socket}` : c.home ? ` on the socket of ${c.home}` : ''} ` +
        '(a serve that is not running is started on first use)',
    });
  }
  return out;
}

/**
 * The client's `--gate`, against the record: it alone tells the client whether to block when serve
 * cannot be reached. Without it every event is a gate (fail closed), which on a Stop means another turn.
 */
function clientGateChecks(c: ClientWiring, event: string, isGate: boolean, dialect: AgentDialect): AgentCheck[] {
  const rewire = `rerun 'hermes-hooks print-config ${dialect}'`;
  if (isGate && c.gate === '0') {
    const message = `${event} is the tool gate but the client is told --gate 0: while serve cannot be reached every call goes ahead unguarded — ${rewire}`;
    return [{ ok: false, message }];
  }
  if (c.gate !== undefined && c.gate !== '0' && c.gate !== '1') {
    return [{ ok: false, message: `the client's --gate is '${c.gate}' (1 or 0): it refuses the call and blocks — ${rewire}` }];
  }
  if (!isGate && c.gate !== '0') {
    const told = c.gate === undefined ? 'no --gate, so the client treats it as a tool gate' : 'the client is told --gate 1';
    return [{ ok: null, message: `${event} is not a tool gate but ${told}: while serve cannot be reached it answers with a block (exit 2) — ${rewire}` }];
  }
  return [];
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
      message:
        `runs through npx: ~1.2 s per call, and outside a project with hermes-hooks installed npx exits 1, which ${agentName(dialect)} reads ` +
        `as "go ahead" — every guard fails open. ${cap(FIX_COMMAND(dialect))}.`,
    };
  }
  const where = agentModule(dialect).import.scriptsFromConfigDir ? 'the hooks.json folder' : "the agent's working directory";
  const fileCheck = (path: string, mode: 'exec' | 'read', what: string): AgentCheck | null => {
    if (!isAbsolute(path)) {
      return {
        ok: false,
        message:
          `${what} '${path}' is a relative path, resolved against ${where}, which changes from project to project — use an absolute path ` +
          `(${FIX_COMMAND(dialect)})`,
      };
    }
    const state = probes.runnable(path, mode);
    if (state === 'missing')
      return {
        ok: false,
        message: `${what} ${path} does not exist: the agent's shell fails (exit 127) and ${agentName(dialect)} goes ahead — ${FIX_COMMAND(dialect)}`,
      };
    if (state === 'not_file') return { ok: false, message: `${what} ${path} is not a file — ${FIX_COMMAND(dialect)}` };
    if (state === 'not_executable') return { ok: false, message: `${what} ${path} is not executable (chmod +x it, or run it with node)` };
    return null;
  };

  let resolved = program;
  if (!program.includes('/')) {
    const found = probes.which(program);
    if (found === null) {
      return {
        ok: false,
        message: `'${program}' is not on PATH here: the agent's shell fails (exit 127) and ${agentName(dialect)} goes ahead — ${FIX_COMMAND(dialect)}`,
      };
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
    return {
      ok: null,
      message:
        `'${program}' is ${resolved} on this PATH; ${agentName(dialect)}'s PATH may differ (apps started from a desktop often lack ~/.nvm or ` +
        `~/.local/bin) — an absolute path is safer (${FIX_COMMAND(dialect)})`,
    };
  }
  return { ok: true, message: `runs ${program} (exists)` };
}

/** The agent's tool names (and an MCP tool) a matcher would not send to us; null = it sends them all. */
function missedTools(input: AgentDoctorInput, matcher: unknown): string[] | null {
  const agent = agentModule(input.dialect);
  // `*` means every tool except where the agent reads it as a bad regex (Goose skips that rule).
  if (matcher === undefined || matcher === null || matcher === '' || (matcher === '*' && (agent.printConfig.matchAll ?? '*') === '*')) return null;
  if (typeof matcher !== 'string') return ['every tool (the matcher is not a string)'];
  // Codex matches its canonical names and their aliases (Edit|Write fire for apply_patch, §b2); the
  // others match the tool names their maps list. Plus one MCP tool in the agent's spelling.
  const groups: readonly (readonly string[])[] =
    agent.doctor.matcherTools ??
    [...new Set([...input.maps[input.dialect].tools.keys(), agent.mcpDoubleUnderscore ? 'mcp__server__tool' : 'mcp_server_tool'])].map((t) => [t]);
  const tools = groups.map((g) => g[0]!);
  let matches: (tool: string) => boolean;
  if (agent.doctor.exactNameMatchers && /^[A-Za-z0-9_ ,|-]+$/.test(matcher)) {
    // Claude: only names and separators → an exact name or list.
    const names = new Set(matcher.split(/[|,]/).map((s) => s.trim()));
    matches = (t) => names.has(t);
  } else {
    let re: RegExp;
    try {
      re = new RegExp(matcher);
    } catch {
      // Gemini falls back to an exact match; Codex skips the group with a warning.
      return agent.doctor.invalidMatcher === 'exact' ? tools.filter((t) => t !== matcher) : tools;
    }
    matches = (t) => re.test(t);
  }
  const missed = groups.filter((g) => !g.some(matches)).map((g) => g[0]!);
  return missed.length ? missed : null;
}

function agentName(dialect: AgentDialect): string {
  return AGENT_LABELS[dialect];
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, ''));
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

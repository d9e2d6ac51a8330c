// `hermes-hooks print-config <agent>`: the settings snippet that makes an agent hand every event we
// can serve to hermes-hooks — by default through the bundled client to `hermes-hooks serve` (started
// on first use), with `--run` as `hermes-hooks run <their event> --dialect <agent>` per call, and for
// Claude Code with `--http` as its own http hooks to serve.
//
// Timeouts: every handler gets the last link of the deadline chain (src/deadlines.ts): a `run`
// waits for the slowest hook (at most 300 s, plus the kill grace), serve answers by its per-call
// deadline and the bundled client by its own, each before the agent's timeout — which would
// otherwise cut the hook off and run the tool unguarded (every agent fails open on its timeout).
// Cursor: its family events (beforeShellExecution, beforeReadFile, beforeMCPExecution and the
// after* ones) fire next to preToolUse/postToolUse for the same call, so only the general events
// are wired; wiring both would run the profile's hooks twice per call. Cursor's preToolUse gets
// `failClosed: true` (a documented Cursor field): if the command cannot even start, Cursor blocks
// instead of going ahead; everything hermes-hooks itself cannot decide it answers as a block anyway.
//
// Where the snippet goes and what each agent needs before it runs it (setupNotes) is printed on
// stderr by the CLI, so `print-config claude > snippet.json` stays pure JSON.

import { AGENT_HOOK_TIMEOUT_S } from '../deadlines.js';
import { EVENTS, type EventName } from '../events.js';
import { shellQuote } from '../shell-words.js';
import { agentModule } from '../dialects/agents/index.js';
import { commandKeyOf, timeoutKeyOf } from '../dialects/agents/module.js';
import { DEFAULT_DIALECT_MAPS, toolFamily, type AgentDialect, type DialectMaps } from '../dialects/names.js';

/**
 * Their events that print-config wires, in map order: those whose Hermes event `needed` says (the
 * profile's, profile-events.ts), or all when it is not given.
 */
export function wiredEvents(dialect: AgentDialect, maps: DialectMaps = DEFAULT_DIALECT_MAPS, needed?: (ours: EventName) => boolean): string[] {
  return [...maps[dialect].events]
    .filter(([name, ours]) => toolFamily(dialect, name) === undefined && (needed === undefined || needed(ours)))
    .map(([name]) => name);
}

/** The JSON snippet (pretty-printed, ending in a newline) to paste into the agent's hook config. */
export function printDialectConfig(
  dialect: AgentDialect,
  opts: { command: string; maps?: DialectMaps; runArgs?: readonly string[]; needed?: (ours: EventName) => boolean },
): string {
  const tail = opts.runArgs?.length ? ` ${opts.runArgs.join(' ')}` : '';
  const run = (theirEvent: string): { command: string } => ({ command: `${opts.command} run ${theirEvent} --dialect ${dialect}${tail}` });
  return snippet(dialect, opts.maps ?? DEFAULT_DIALECT_MAPS, opts.needed, run);
}

/**
 * Each wired event's entry in the agent's own shape: Cursor's flat entries (`failClosed` on its
 * tool gate), Gemini's named command handlers (ms), the others' command handlers — or the handler
 * given for an event (Claude's http hooks) — under a `*` matcher on tool-scoped events.
 */
function snippet(
  dialect: AgentDialect,
  maps: DialectMaps,
  needed: ((ours: EventName) => boolean) | undefined,
  wire: (theirEvent: string, ours: EventName) => { command: string; handler?: Record<string, unknown> },
): string {
  const agent = agentModule(dialect);
  // In the agent's unit (Qwen's seconds stay below its 1000-means-ms line).
  const seconds = agent.timeoutUnit === 'ms' ? AGENT_HOOK_TIMEOUT_S * 1000 : AGENT_HOOK_TIMEOUT_S;
  const hooks: Record<string, unknown[]> = {};
  for (const theirEvent of wiredEvents(dialect, maps, needed)) {
    const ours = maps[dialect].events.get(theirEvent)!;
    const { command, handler: given } = wire(theirEvent, ours);
    if (agent.configShape === 'flat') {
      const failClosed = agent.failClosedField !== undefined && theirEvent === agent.doctor.gate ? { [agent.failClosedField]: true } : {};
      // The agent's own handler keys (Copilot: `type: "command"`, `bash`, `timeoutSec`).
      const type = agent.handlerKeys?.type !== undefined ? { type: agent.handlerKeys.type } : {};
      hooks[theirEvent] = [{ ...type, [commandKeyOf(agent)]: command, [timeoutKeyOf(agent)]: seconds, ...failClosed }];
      continue;
    }
    const named = agent.printConfig.handlerName !== undefined ? { name: agent.printConfig.handlerName } : {};
    // The agent's own fail-closed fields on its gate (Claude's onFailure: block): a command that cannot
    // start, or a timeout the person lowered, then blocks the call instead of letting it through.
    const failClosed = theirEvent === agent.doctor.gate ? (agent.printConfig.gateFailClosed ?? {}) : {};
    const handler = given ?? { ...named, type: 'command', command, timeout: seconds, ...failClosed };
    hooks[theirEvent] = [EVENTS[ours].toolScoped ? { matcher: agent.printConfig.matchAll ?? '*', hooks: [handler] } : { hooks: [handler] }];
  }
  // Droid's hooks.json (the file the snippet is for) is keyed by event at the top level: no `hooks` wrapper.
  const file = agent.doctor.files.find((f) => f.role === 'reads')?.path ?? '';
  const root = agent.topLevelEvents?.test(file) ? hooks : agent.versionedConfig ? { version: 1, hooks } : { hooks };
  return `${JSON.stringify(root, null, 2)}\n`;
}

/**
 * Where the snippet goes and every step the agent needs before the hook runs (reference §b1–§b4;
 * what the sources do not establish is said to be unverified rather than guessed).
 */
export function setupNotes(dialect: AgentDialect): string[] {
  return [...agentModule(dialect).printConfig.setupNotes, `Then check it: hermes-hooks doctor --agent ${dialect}`];
}

/**
 * `sh -c GUARD INTERPRETER CLIENT ARGS…`: a missing client ($1) or interpreter ($0) blocks a tool gate
 * (exit 2) with the reason; elsewhere it is a non-blocking error (exit 1), as `run` answers. Short:
 * an agent shows the whole command in its error line, before the client's own message.
 */
const clientGuard = (gate: boolean, dialect: AgentDialect): string =>
  `test -x "$0" && test -x "$1" && exec "$0" "$@"; echo "hermes-hooks: $1 or $0 is missing; reinstall, then print-config ${dialect}" >&2; exit ${gate ? 2 : 1}`;

/** The per-profile settings file of the bundled client (<home>/CLIENT_ENV_FILE_NAME): what the short printed command leaves out. */
export const CLIENT_ENV_FILE_NAME = 'hermes-hooks-client.env';

/**
 * Its text: the node and CLI the client starts serve with, and per agent the env names it forwards
 * (Claude's attended indicator) — the same for every agent, so print-config for one never undoes another's.
 */
export function clientEnvFileText(node: string, bin: string, agentEnv: ReadonlyMap<string, string>): string {
  const lines = [
    '# Written by hermes-hooks print-config: read by the bundled hermes-hooks-client at each call (keep it yours, writable by you alone).',
    `HERMES_HOOKS_NODE=${node}`,
    `HERMES_HOOKS_BIN=${bin}`,
    ...[...agentEnv].map(([agent, names]) => `HERMES_HOOKS_AGENT_ENV_${agent}=${names}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The bundled client and the interpreter it runs on, both by absolute path (perl's, or bash's for the .bash one). */
export interface ClientCommand {
  interpreter: string;
  path: string;
}

/**
 * `print-config <agent>` (the serve wiring): the same events wired to `hermes-hooks serve`. Every
 * agent runs `client AGENT EVENT SOCKET --gate 1|0`, the bundled client, which starts serve on first use
 * and exits 2 (block) on a tool gate (`--gate 1`, from the record) when it cannot get serve's answer. With `http` (Claude Code only,
 * `--http`): `type: "http"` hooks to the loopback URL with the bearer token taken from
 * $HERMES_HOOKS_TOKEN and, on the tool gate, `onFailure: "block"` (a server that is down blocks the
 * call rather than fails open) — except on the events it runs no http hook on (SessionStart, Setup)
 * and those that must bring back a serve that idled out (UserPromptSubmit): those stay on the client.
 */
export function printServeConfig(
  dialect: AgentDialect,
  opts: {
    maps?: DialectMaps;
    url: string;
    client: ClientCommand;
    socket: string;
    clientOptions?: readonly string[];
    http?: boolean;
    needed?: (ours: EventName) => boolean;
  },
): string {
  // What the client needs beyond AGENT EVENT SOCKET (the profile home, the server to start on first
  // use) as its options, not an `env VAR=…` in front: that is one process more on every call.
  // sh by absolute path: an agent started with a bare PATH would otherwise get "command not found"
  // (exit 127), which Codex and Gemini read as a non-blocking error — the call would go through unguarded.
  const tail = opts.clientOptions ?? [];
  const base = opts.url.replace(/\/+$/, '');
  return snippet(dialect, opts.maps ?? DEFAULT_DIALECT_MAPS, opts.needed, (theirEvent, ours) => {
    // Through `sh -c` whatever the agent's shell: a client or interpreter that is gone (package
    // removed or moved) blocks with a reason instead of failing open as "command not found" would.
    // The interpreter by absolute path: the shebang's `env perl` would need perl on the agent's PATH.
    // Only a tool gate fails closed: exit 2 (or Claude's onFailure: block) on Stop or AfterAgent
    // would force the agent into another turn, again and again while the server is down.
    const gate = ours === 'pre_tool_call';
    // --gate: the client keeps no list of agents' gates; it learns from here (the record's) whether to block.
    // The short form (no SOCKET word): `--socket` only when it is not the home's default.
    const socket = opts.socket !== '' ? ['--socket', opts.socket] : [];
    const client = [opts.client.interpreter, opts.client.path, dialect, theirEvent, '--gate', gate ? '1' : '0', ...tail, ...socket];
    const command = ['/bin/sh', '-c', clientGuard(gate, dialect), ...client].map(shellQuote).join(' ');
    const facts = agentModule(dialect).printConfig;
    // An event the agent runs no http hook on (Claude's SessionStart) goes through the client too.
    if (opts.http !== true || !facts.httpHooks || facts.noHttpOn?.includes(theirEvent) || facts.startsServeOn?.includes(theirEvent)) return { command };
    return {
      command,
      handler: {
        type: 'http',
        url: `${base}/v1/agent/${dialect}/${theirEvent}`,
        headers: { Authorization: 'Bearer $HERMES_HOOKS_TOKEN' },
        allowedEnvVars: ['HERMES_HOOKS_TOKEN'],
        timeout: AGENT_HOOK_TIMEOUT_S,
        ...(gate ? { onFailure: 'block' } : {}),
      },
    };
  });
}

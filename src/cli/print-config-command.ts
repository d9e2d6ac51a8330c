// `hermes-hooks print-config <agent>`: wire another agent to call us. Three wirings:
//   (default)  every event through the bundled client to `hermes-hooks serve`, which the client
//              starts on first use and which exits when idle: the fast path, nothing to set up;
//   --run      a `hermes-hooks run` per call: no server at all, ~150–300 ms more per call;
//   --http     Claude Code only: its own http hooks to serve's loopback listener (token in its env);
//   --mod DIR  Claude Code 2.1.287+: a plugin (a mod) written to DIR that calls serve from inside Claude Code.

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentModule, AGENT_DIALECTS, isAgentDialect, type AgentDialect } from '../dialects/agents/index.js';
import type { DialectMaps } from '../dialects/names.js';
import {
  CLIENT_ENV_FILE_NAME,
  clientEnvFileText,
  printDialectConfig,
  printServeConfig,
  setupNotes,
  wiredEvents,
  type ClientCommand,
} from '../agent-wiring/print-config.js';
import { isNeeded, profileEvents, type ProfileEvents } from '../agent-wiring/profile-events.js';
import { printMod } from './print-config-mod.js';
import type { EventName } from '../events.js';
import { whichOnPath } from '../spawn/launch-problems.js';
import { TOKEN_FILE_NAME } from '../serve/auth.js';
import { SOCKET_FILE_NAME } from '../serve/socket-file.js';
import { chooseSocket, skippedText, SOCKET_PATH_MAX_BYTES } from '../serve/socket-path.js';
import { AUTOSTART_IDLE_EXIT_S } from '../serve/idle-exit.js';
import { shellQuote } from '../shell-words.js';
import { errorText } from '../errors.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';

/**
 * This installation's CLI entry, resolved from this module (dist/cli/… → dist/cli/bin.js; from src/
 * in tests, the built dist/ beside it). Node has already resolved this module through symlinks, so
 * a global install's path is the real package folder and stays valid until it is uninstalled or moved.
 */
export const CLI_BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

const HTTP_AGENTS = AGENT_DIALECTS.filter((a) => agentModule(a).printConfig.httpHooks);
const MOD_AGENTS = AGENT_DIALECTS.filter((a) => agentModule(a).printConfig.mod !== undefined);

const PRINT_HELP =
  `Usage: hermes-hooks print-config <${AGENT_DIALECTS.join('|')}> [--socket PATH | --run [--command CMD] | --http [--url URL]] ` +
  `[discovery options]

Print the settings snippet that hands every event of that agent to hermes-hooks, for the profile
chosen by the discovery options (--home, --profile, --config, or $HERMES_HOME).
The JSON goes to stdout; where it goes and what the agent needs before it runs the hook go to stderr.

By default each call goes through the bundled client (one small process) to 'hermes-hooks serve' on
the profile's socket. Nothing to start: the client starts serve on first use (HERMES_HOOKS_AUTOSTART=0
to not), two agents racing start one, and serve exits after ${AUTOSTART_IDLE_EXIT_S / 60} idle minutes. When serve cannot
answer (not installed, frozen, shutting down, an impostor on the socket), a tool gate blocks.
  --socket PATH   the socket the client talks to (default <home>/hermes-hooks.sock, or serve's
                  short path for a home too long for one)
  --run           start 'hermes-hooks run --dialect AGENT' per call instead: no server, ~150–300 ms
                  more per call. The command is this installation's CLI by absolute path (the node
                  binary running now and its dist/cli/bin.js), so the agent needs neither PATH nor npx
                  (npx costs ~1.2 s per call, and outside a project with hermes-hooks installed it
                  exits 1, which every agent reads as "go ahead").
  --command CMD   with --run (implies it): the program to call instead (e.g. 'hermes-hooks' when it
                  is on the agent's PATH)
  --http          ${HTTP_AGENTS.map((a) => agentModule(a).label).join(', ')} only: its own http hooks to serve's loopback listener at --url
                  (default http://127.0.0.1:8765; --url implies --http), with the token from
                  $HERMES_HOOKS_TOKEN in the agent's environment; the events it runs no http hook on,
                  and the prompt (which starts serve when none answers), stay on the client. serve
                  --http never idle-exits: keep it running (stderr prints a systemd user unit), since
                  whoever holds the port while it is free answers for serve and gets the token
  --mod DIR       ${MOD_AGENTS.map((a) => `${agentModule(a).label} ${agentModule(a).printConfig.mod!.since}+`).join(', ')} only: write a plugin (a mod) into DIR
                  that sends each tool call and lifecycle event to serve over its socket from inside the
                  agent (no process per call); when serve is not running it starts it through the client.
                  Prints how to enable it. DIR must be empty, missing, or a mod print-config wrote.
  --serve         the default wiring (accepted for scripts written for earlier releases)

Examples:
  hermes-hooks print-config claude > /tmp/hooks.json     then merge into ~/.claude/settings.json
  hermes-hooks print-config codex --home ~/.hermes/profiles/work
  hermes-hooks print-config gemini --run
`;

type Wiring = 'client' | 'run' | 'http' | 'mod';

const STRICT_TIP = 'Tip: hooks_fail_closed: true at the top of config.yaml makes a pre_tool_call guard that cannot run block the call, not allow it';

export async function printConfigCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('print-config', args, {
    command: { type: 'string' },
    run: { type: 'boolean' },
    serve: { type: 'boolean' },
    http: { type: 'boolean' },
    url: { type: 'string' },
    socket: { type: 'string' },
    mod: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(PRINT_HELP);
    return 0;
  }
  const agent = positionals[0];
  if (!agent || !isAgentDialect(agent)) throw new CliError(`print-config: give one of ${AGENT_DIALECTS.join(', ')}\n${PRINT_HELP}`);
  const wiring = chooseWiring(agent, values);
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.dialects.maps;
  const needs = profileEvents(profile.config);
  const target = { home: profile.home, configFile: profile.configFile, maps, needs, needed: (ours: EventName) => isNeeded(needs, ours) };
  if (wiring === 'run') return printRun(agent, values, target, io);
  if (wiring === 'http') {
    // The client command on the prompt starts serve again when none answers (an http hook cannot):
    // wired whether or not the profile has a hook there, so a session outlives serve.
    for (const their of agentModule(agent).printConfig.startsServeOn ?? []) {
      const ours = maps[agent].events.get(their);
      if (ours !== undefined && !needs.needs.has(ours)) needs.needs.set(ours, `${their} through the client starts serve when none answers (--http)`);
    }
  }
  if (wiring === 'mod') {
    const mod = { client: bundledClient(io), cliBin: CLI_BIN, rewire: rewireCommand(agent, values), tip: STRICT_TIP };
    return printMod(agent, values, { ...target, ...mod }, io);
  }
  return printServe(agent, values, { ...target, http: wiring === 'http' }, io);
}

/** Which wiring the flags ask for; flags that cannot go together are a mistake said, not one ignored. */
function chooseWiring(agent: AgentDialect, values: Record<string, unknown>): Wiring {
  const run = values.run === true || values.command !== undefined;
  const http = values.http === true || values.url !== undefined;
  const flag = values.http === true ? '--http' : '--url';
  if (http && !agentModule(agent).printConfig.httpHooks) {
    throw new CliError(
      `print-config: ${flag} is for agents with http hooks (${HTTP_AGENTS.join(', ')}); ${agentModule(agent).label} runs commands — drop ${flag}`,
    );
  }
  if (run && http) throw new CliError(`print-config: ${values.run === true ? '--run' : '--command'} and ${flag} are two different wirings; give one`);
  if (run && values.serve === true)
    throw new CliError(`print-config: ${values.run === true ? '--run' : '--command'} and --serve are two different wirings; give one`);
  if (run && values.socket !== undefined) throw new CliError('print-config: --socket is for the serve wiring (the default); --run starts no server');
  if (values.mod !== undefined) {
    if (agentModule(agent).printConfig.mod === undefined) {
      throw new CliError(`print-config: --mod is for agents that run mods (${MOD_AGENTS.join(', ')}); ${agentModule(agent).label} has none — drop --mod`);
    }
    if (run || http) throw new CliError(`print-config: --mod and ${run ? '--run' : flag} are two different wirings; give one`);
    if (values.mod === '') throw new CliError('print-config: --mod needs the directory to write the mod into');
    return 'mod';
  }
  return run ? 'run' : http ? 'http' : 'client';
}

interface Target {
  home: string;
  configFile: string;
  maps: DialectMaps;
  needs: ProfileEvents;
  needed: (ours: EventName) => boolean;
}

/**
 * Which events the snippet wires and why (an event with no hook costs nothing, so only the profile's
 * are), and the command that re-wires once a hook is added on another.
 */
function wiredNotes(agent: AgentDialect, target: Target, rewire: string): string[] {
  const wired = wiredEvents(agent, target.maps, target.needed);
  if (target.needs.everyEvent !== null) return [`Wired: every event (${target.needs.everyEvent}).`];
  const why = [...new Set(wired.map((e) => target.maps[agent].events.get(e)!))].map((ours) => `  ${ours}: ${target.needs.needs.get(ours)}`);
  return [
    `Wired: only the events this profile needs (an event with no hook costs nothing): ${wired.join(', ')} —`,
    ...why,
    `  Added a hook on another event? Re-wire: ${rewire} (hermes-hooks doctor --agent ${agent} says when one is missing).`,
  ];
}

/** `hermes-hooks print-config …` as this run was given it (the profile and wiring flags), for the re-wire hint. */
function rewireCommand(agent: AgentDialect, values: Record<string, unknown>): string {
  const words = ['hermes-hooks', 'print-config', agent];
  for (const key of ['home', 'profile', 'config', 'socket', 'command', 'url']) {
    if (typeof values[key] === 'string') words.push(`--${key}`, shellQuote(values[key] as string));
  }
  for (const key of ['run', 'http']) if (values[key] === true) words.push(`--${key}`);
  return words.join(' ');
}

/** print-config --run: `hermes-hooks run` per call. */
function printRun(agent: AgentDialect, values: Record<string, unknown>, target: Target, io: CliIO): number {
  const explicit = typeof values.command === 'string';
  const program = explicit ? (values.command as string) : thisCli();
  if (program.trim() === '') throw new CliError('print-config: --command is empty');
  const runArgs = profileArgs(values, target.home, io);
  io.stdout.write(printDialectConfig(agent, { command: program, maps: target.maps, runArgs, needed: target.needed }).replace(/\n?$/, '\n'));

  // stderr only: `print-config claude > snippet.json` stays valid JSON.
  const notes = [`hermes-hooks print-config ${agent}: the hooks read ${target.configFile}`];
  if (!explicit && /[/\\]_npx[/\\]/.test(program)) {
    notes.push(
      "WARNING: this hermes-hooks runs from npm's npx cache, which npm may clear at any time; the agent",
      '  would then find no command and let every call through. Install it (in a clone: npm ci && npm link,',
      '  or npm pack && npm install -g ./hermes-hooks-<version>.tgz) and run print-config from there, or',
      '  pass --command.',
    );
  }
  notes.push(...wiredNotes(agent, target, rewireCommand(agent, values)), ...setupNotes(agent));
  notes.push(STRICT_TIP);
  for (const line of notes) writeLine(io.stderr, line);
  return 0;
}

/** The serve wirings (client, or Claude's http): the snippet on stdout, what it talks to and needs on stderr. */
function printServe(agent: AgentDialect, values: Record<string, unknown>, target: Target & { http: boolean }, io: CliIO): number {
  const client = bundledClient(io);
  const url = typeof values.url === 'string' ? values.url : 'http://127.0.0.1:8765';
  const home = target.home;
  const absHome = resolve(io.cwd, home);
  // serve's own default for this home (a short path when <home>/hermes-hooks.sock is too long), or --socket.
  const choice = typeof values.socket === 'string' ? null : chooseSocket(absHome, io.env);
  if (choice !== null && choice.socket === null) {
    throw new CliError(
      `print-config: no private directory for the socket of ${absHome}: ${skippedText(choice.skipped)}; ` +
        'remove the ones another user made, or pass --socket a path in a directory of yours',
    );
  }
  const socket = choice?.socket ?? resolve(io.cwd, values.socket as string);
  // A short default is not written into the command: the client computes it at each call as serve
  // does, so a directory another user takes later (say /tmp/hermes-hooks-<uid> after a reboot) is
  // skipped by both instead of blocking every call.
  const computed = choice !== null && socket !== join(absHome, SOCKET_FILE_NAME);
  if (Buffer.byteLength(socket) > SOCKET_PATH_MAX_BYTES) {
    throw new CliError(`print-config: the socket path ${socket} is over ${SOCKET_PATH_MAX_BYTES} bytes, too long for a Unix socket; pass a shorter --socket`);
  }
  // The client starts the server on first use: for this home, with this installation's CLI.
  // Node by absolute path too: the agent's PATH may have none (a desktop app without ~/.nvm).
  // Those and what the agent tells its hooks in their env that the answer depends on (Claude's
  // attended indicator, which the client forwards) go into the home's client settings file, not the
  // command: the agent shows the whole command in its error lines, before our message.
  const clientOptions = ['--home', absHome];
  writeClientEnvFile(absHome);
  // The serve the client starts reads the config print-config was pointed at, and for http hooks
  // listens where they call it. (Serve arguments are words to the client: no spaces in the path.)
  const configFile = typeof values.config === 'string' ? resolve(io.cwd, values.config) : undefined;
  if (configFile !== undefined && /\s/.test(configFile)) {
    throw new CliError(`print-config: the serve the client starts cannot be given --config ${configFile} (a path with spaces); move the file, or wire --run`);
  }
  const serveArgs = [...(configFile !== undefined ? ['--config', configFile] : []), ...(target.http ? ['--http', new URL(url).host] : [])];
  if (serveArgs.length > 0) clientOptions.push('--serve-args', serveArgs.join(' '));
  const snippet = printServeConfig(agent, {
    maps: target.maps,
    url,
    client,
    socket: computed || socket === join(absHome, SOCKET_FILE_NAME) ? '' : socket,
    clientOptions,
    http: target.http,
    needed: target.needed,
  });
  io.stdout.write(snippet.replace(/\n?$/, '\n'));
  // The server the snippet talks to reads the config print-config was pointed at, in that home.
  const config = configFile !== undefined ? ` --config ${shellQuote(configFile)}` : '';
  const ownSocket = (socket !== join(absHome, SOCKET_FILE_NAME) && !computed) || target.http ? ` --socket ${shellQuote(socket)}` : '';
  const start = `hermes-hooks serve --home ${shellQuote(home)}${config}${ownSocket}${target.http ? ` --http ${new URL(url).host}` : ''}`;
  const notes = [`hermes-hooks print-config ${agent}: the hooks read ${target.configFile}`];
  if (choice !== null && choice.skipped.length > 0) {
    const skipped = skippedText(choice.skipped);
    notes.push(`WARNING: socket directory skipped: ${skipped} (another user may have made it to block your calls); serve and the client use ${socket}`);
  }
  if (target.http) {
    const unitArgs = `serve --home ${shellQuote(absHome)}${config} --socket ${shellQuote(socket)} --http ${new URL(url).host}`;
    notes.push(...httpServeNotes(start, unitArgs, new URL(url)), ...wiredNotes(agent, target, rewireCommand(agent, values)));
    const facts = agentModule(agent).printConfig;
    notes.push(...(facts.httpNotes?.(shellQuote(join(home, TOKEN_FILE_NAME)), setupNotes(agent)) ?? setupNotes(agent)));
  } else {
    notes.push(
      `Each call goes through the bundled client to hermes-hooks serve on ${socket}${computed ? ' (found again at each call, as serve finds it)' : ''};`,
      `  the client starts it on first use and it exits after ${AUTOSTART_IDLE_EXIT_S / 60} idle minutes.`,
      `  To run it yourself (a service, its own log): ${start}`,
      `  'print-config ${agent} --run' wires a 'hermes-hooks run' per call instead (no server, slower).`,
      ...wiredNotes(agent, target, rewireCommand(agent, values)),
      ...setupNotes(agent),
    );
  }
  notes.push(STRICT_TIP);
  for (const line of notes) writeLine(io.stderr, line);
  return 0;
}

/**
 * How the http wiring's server is kept up. Its port must never be free while Claude Code calls it:
 * another local user could bind it and answer every call (an "allow") and read the token. serve
 * --http never idle-exits; it is started at login by a systemd user unit (printed here, ready to
 * use), and the client also starts one on a prompt when none answers.
 */
function httpServeNotes(start: string, unitArgs: string, url: URL): string[] {
  return [
    `Its http hooks need serve running at ${url.host} all the time: whoever listens on that port answers Claude Code's`,
    '  tool calls and receives the token, and any local user can bind it while it is free. serve --http never',
    '  idle-exits; start it at login, e.g. as a systemd user unit (~/.config/systemd/user/hermes-hooks-http.service,',
    '  then: systemctl --user daemon-reload && systemctl --user enable --now hermes-hooks-http.service):',
    '    [Unit]',
    '    Description=hermes-hooks serve for Claude Code http hooks',
    '    [Service]',
    `    ExecStart=${process.execPath} ${CLI_BIN} ${unitArgs}`,
    '    Restart=always',
    '    RestartSec=1',
    '    [Install]',
    '    WantedBy=default.target',
    `  (The client also starts one at the first prompt when none answers.) Check who holds the port: hermes-hooks doctor --agent claude.`,
    '  On a machine shared with other users prefer the default wiring (no --http): the client talks to serve only',
    '  over a socket it has checked is yours.',
    `To run it now: ${start}`,
  ];
}

/**
 * The client the agent will run and its interpreter, found here (the agent runs on this machine):
 * the perl client (~2 ms a call), else the bash + curl one (~16 ms). Searched on PATH, then where the
 * system keeps them, since the agent's PATH may be barer than this shell's. Neither: an error, not a
 * wiring that blocks every call.
 */
export function bundledClient(io: CliIO): ClientCommand {
  // Absolute directories only: the printed command runs from the agent's directory, not this one.
  const path = [...(io.env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d)), '/usr/bin', '/bin'].join(delimiter);
  const found = (name: string): string | null => whichOnPath(name, path);
  const client = fileURLToPath(new URL('../../scripts-examples/hosts/hermes-hooks-client', import.meta.url));
  const perl = found('perl');
  if (perl !== null) return { interpreter: perl, path: client };
  const bash = found('bash');
  if (bash !== null && found('curl') !== null) return { interpreter: bash, path: `${client}.bash` };
  throw new CliError(
    'print-config: the serve wiring needs perl (or bash and curl) to run its client, and neither is on PATH or in /usr/bin, /bin: install perl, or wire --run',
  );
}

/**
 * <home>/hermes-hooks-client.env: the node and CLI the client starts serve with, the agents' env to forward.
 * Mode 644: nothing secret, only its owner writes it, and one a root-run print-config wrote stays readable by the home's user.
 */
function writeClientEnvFile(home: string): void {
  const agentEnv = new Map<string, string>();
  for (const dialect of AGENT_DIALECTS) {
    const indicator = agentModule(dialect).attendedEnv;
    if (indicator !== undefined) agentEnv.set(dialect, indicator.variable);
  }
  const file = join(home, CLIENT_ENV_FILE_NAME);
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(file, clientEnvFileText(process.execPath, CLI_BIN, agentEnv), { mode: 0o644 });
    chmodSync(file, 0o644);
  } catch (e) {
    throw new CliError(`print-config: cannot write ${file}, the client's settings (the node and CLI it starts serve with): ${errorText(e)}`);
  }
}

/** This installation's CLI as a shell command: the absolute node binary and bin.js. */
function thisCli(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)}`;
}

/**
 * The profile print-config was pointed at, for the hook command: the located profile home when
 * anything but the default chose it (--profile, --home, or $HERMES_HOME, which is this shell's and
 * may be missing from the agent's environment), and `--config FILE` as given. Both: the home holds
 * the allowlist, so a command with --config alone would check approvals in ~/.hermes. Absolute paths.
 */
function profileArgs(values: Record<string, unknown>, home: string, io: CliIO): string[] {
  const args: string[] = [];
  if (typeof values.profile === 'string' || typeof values.home === 'string' || io.env.HERMES_HOME) args.push('--home', shellQuote(resolve(io.cwd, home)));
  if (typeof values.config === 'string') args.push('--config', shellQuote(resolve(io.cwd, values.config)));
  return args;
}

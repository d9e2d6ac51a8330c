// print-config --mod DIR (Claude Code's mods): the mod's files for this profile, written into DIR
// (print-config) or compared with DIR (doctor --agent --mod). The files themselves are
// src/agent-wiring/mod-plugin.ts's; here are the paths, the socket and the directory checks.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOurModule, modPluginFiles } from '../agent-wiring/mod-plugin.js';
import type { ClientCommand } from '../agent-wiring/print-config.js';
import { agentModule, type AgentDialect } from '../dialects/agents/index.js';
import type { DialectMaps } from '../dialects/names.js';
import type { EventName } from '../events.js';
import { wiredEvents } from '../agent-wiring/print-config.js';
import { AUTOSTART_IDLE_EXIT_S } from '../serve/idle-exit.js';
import { SOCKET_FILE_NAME } from '../serve/socket-file.js';
import { chooseSocket, skippedText, SOCKET_PATH_MAX_BYTES } from '../serve/socket-path.js';
import { shellQuote } from '../shell-words.js';
import { CliError, writeLine, type CliIO } from './_io.js';

/** The agent's mod template, kept in the repo beside the client (the record names it). */
const HOSTS_DIR = fileURLToPath(new URL('../../scripts-examples/hosts/', import.meta.url));
const modTemplate = (file: string): string => join(HOSTS_DIR, file);

/** The profile and this installation: what the mod is written for. */
export interface ModTarget {
  home: string;
  maps: DialectMaps;
  needed: (ours: EventName) => boolean;
  /** The bundled client the mod runs when serve is not running, and the CLI that client starts serve with. */
  client: ClientCommand;
  cliBin: string;
}

/**
 * print-config --mod DIR: the mod's files written into DIR (stdout names it; how to enable it on
 * stderr). It talks to serve's socket for this home as serve finds it now (the path is in the file),
 * and runs the bundled client, which starts serve, only when nothing answers there.
 */
export function printMod(
  agent: AgentDialect,
  values: Record<string, unknown>,
  target: ModTarget & { configFile: string; rewire: string; tip: string },
  io: CliIO,
): number {
  const facts = agentModule(agent).printConfig.mod!;
  const dir = resolve(io.cwd, values.mod as string);
  refuseForeignDir(dir);
  const { files, events, socket } = modFiles(agent, values, target, io);
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  io.stdout.write(`${dir}\n`);
  const notes = [
    `hermes-hooks print-config ${agent} --mod: wrote a Claude Code plugin (a mod) into ${dir}; the hooks read ${target.configFile}`,
    `It sends ${events.join(', ') || 'no event (the profile has no hook a mod can serve)'} to hermes-hooks serve on ${socket} from inside Claude Code;`,
    '  when nothing answers there it runs the bundled client once, which starts serve (idle exit after ' +
      `${AUTOSTART_IDLE_EXIT_S / 60} minutes). serve frozen, or an answer it cannot read: the tool call is denied.`,
    ...facts.enable(shellQuote(dir)),
    `Added a hook on another event? Write it again: ${target.rewire} --mod ${shellQuote(dir)}`,
    target.tip,
  ];
  for (const line of notes) writeLine(io.stderr, line);
  return 0;
}

/**
 * The mod's files for this profile as print-config writes them (doctor --agent --mod compares a DIR
 * with them): the socket serve uses for this home now (its path is in the file), the profile's
 * events a mod sees, and the bundled client that starts serve when nothing answers.
 */
export function modFiles(
  agent: AgentDialect,
  values: Record<string, unknown>,
  target: ModTarget,
  io: CliIO,
): { files: Map<string, string>; events: string[]; socket: string } {
  const facts = agentModule(agent).printConfig.mod!;
  const absHome = resolve(io.cwd, target.home);
  const choice = typeof values.socket === 'string' ? null : chooseSocket(absHome, io.env);
  if (choice !== null && choice.socket === null) {
    throw new CliError(
      `print-config: no private directory for the socket of ${absHome}: ${skippedText(choice.skipped)}; pass --socket a path in a directory of yours`,
    );
  }
  const socket = choice?.socket ?? resolve(io.cwd, values.socket as string);
  if (Buffer.byteLength(socket) > SOCKET_PATH_MAX_BYTES) {
    throw new CliError(`print-config: the socket path ${socket} is over ${SOCKET_PATH_MAX_BYTES} bytes, too long for a Unix socket; pass a shorter --socket`);
  }
  const computed = choice !== null && socket !== join(absHome, SOCKET_FILE_NAME);
  // The mod connects to this path as written, with none of the client's ownership checks (a mod has
  // no stat): a short path under /tmp is one another user could create after a reboot and answer on.
  if (computed && dirname(socket).startsWith('/tmp/')) {
    throw new CliError(
      `print-config: the mod would talk to ${socket}, a directory under /tmp that another user could make after a reboot; ` +
        'pass --socket a path in a directory of yours (and start serve with the same --socket)',
    );
  }
  const client = target.client;
  const tail = [computed ? '' : socket, '--home', absHome, '--node', process.execPath, '--bin', target.cliBin];
  if (typeof values.config === 'string') tail.push('--serve-args', `--config ${resolve(io.cwd, values.config)}`);
  const events = wiredEvents(agent, target.maps, target.needed).filter((e) => facts.events.includes(e));
  const template = readFileSync(modTemplate(facts.template), 'utf8');
  const version = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
  const record = agentModule(agent);
  const clientRun = { head: [client.interpreter, client.path, agent], tail };
  const attendedEnv = record.attendedEnv?.variable ?? null;
  const settings = { agent, attendedEnv, socket, profile: absHome, events, gate: record.doctor.gate, client: clientRun };
  return { files: modPluginFiles(template, settings, version, facts.manifest), events, socket };
}

/** DIR is missing, empty, or a mod print-config wrote; anything else is someone's and is not overwritten. */
function refuseForeignDir(dir: string): void {
  if (!existsSync(dir)) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    throw new CliError(`print-config: --mod ${dir} is not a directory; give a new or empty one`);
  }
  if (entries.length === 0) return;
  const module = join(dir, 'hooks/register.js');
  const ours = existsSync(module) && isOurModule(readFileSync(module, 'utf8'));
  if (!ours) throw new CliError(`print-config: --mod ${dir} holds something else (${entries.slice(0, 5).join(', ')}); give a new or empty directory`);
}

// `hermes-hooks import <file> [--write]` and `hermes-hooks print-config <agent>`: bring another
// agent's hook config over as a hooks: block, and wire another agent to call us.

import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { importAgentConfig, mergeIntoConfig, type ImportResult } from '../import/import.js';
import { agentModule, AGENT_DIALECTS, isAgentDialect, type AgentDialect } from '../dialects/agents/index.js';
import type { DialectMaps } from '../dialects/names.js';
import { printDialectConfig, printServeConfig, setupNotes } from '../agent-wiring/print-config.js';
import { TOKEN_FILE_NAME } from '../serve/auth.js';
import { SOCKET_FILE_NAME } from '../serve/socket-file.js';
import { defaultSocketPath, SOCKET_PATH_MAX_BYTES } from '../serve/socket-path.js';
import { shellQuote } from '../spawn/argv.js';
import type { Dialect } from '../types.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter } from './_color.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { formatDiagnostic } from './_report.js';
import { errorText } from '../errors.js';

const IMPORT_HELP = `Usage: hermes-hooks import <file> [--dialect AGENT] [--write] [--json] [discovery options]

Convert a Claude Code settings.json (or .claude/settings.json), a Codex hooks.json, a Gemini CLI
settings.json or a Cursor hooks.json into a hooks: block with dialect: set on each entry. Matchers
and timeout units are converted; everything that cannot be carried over is listed, never dropped
silently. Given a Hermes config.yaml that holds such a block under hooks: (pasted from another
agent), it converts that block alone and leaves the Hermes events beside it as they are.
  --dialect AGENT   force the source format (${AGENT_DIALECTS.join(', ')})
  --write           merge into the profile's config.yaml (a backup is written first); for a
                    config.yaml, replace the agent's block in that same file

Examples:
  hermes-hooks import ~/.claude/settings.json
  hermes-hooks import .codex/hooks.json --write
  hermes-hooks import hooks.json --dialect cursor --json
  hermes-hooks import ~/.hermes/config.yaml --dialect claude --write
`;

const PRINT_HELP = `Usage: hermes-hooks print-config <${AGENT_DIALECTS.join('|')}> [--command CMD] [discovery options]

Print the settings snippet that wires every event of that agent to 'hermes-hooks run --dialect AGENT'.
The JSON goes to stdout; where it goes and what the agent needs before it runs the hook go to stderr.

The hook command is this installation's CLI by absolute path: the node binary running now and its
dist/cli/bin.js, so the agent needs neither PATH nor npx (npx costs ~1.2 s per call, and outside a
project with hermes-hooks installed it exits 1, which every agent reads as "go ahead"). The profile
options given here (--home, --profile, --config, or $HERMES_HOME) are written into the command.
  --command CMD   the program to call instead (e.g. 'hermes-hooks' when it is on the agent's PATH)
  --serve         talk to a running 'hermes-hooks serve' instead of starting 'run' per call: Claude Code
                  gets http hooks to --url (default http://127.0.0.1:8765, for serve --http 127.0.0.1:8765);
                  the others run the bundled bash + curl client against serve's socket, which it
                  starts on first use (HERMES_HOOKS_AUTOSTART=0 to not) and which exits when idle
  --socket PATH   with --serve: the socket the client talks to (default <home>/hermes-hooks.sock,
                  or serve's short path for a home too long for one)

Examples:
  hermes-hooks print-config claude > /tmp/hooks.json     then merge into ~/.claude/settings.json
  hermes-hooks print-config codex --home ~/.hermes/profiles/work
`;

export async function importCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('import', args, {
    dialect: { type: 'string' },
    write: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(IMPORT_HELP);
    return 0;
  }
  const file = positionals[0];
  if (!file) throw new CliError(`import: missing <file>\n${IMPORT_HELP}`);
  const dialect = values.dialect as string | undefined;
  if (dialect !== undefined && !isAgentDialect(dialect)) throw new CliError(`import: unknown dialect '${dialect}' (one of: ${AGENT_DIALECTS.join(', ')})`);
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CliError(`import: cannot read ${path}: ${errorText(e)}`);
  }
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.dialects.maps;
  const result = importAgentConfig(path, text, { maps, home: io.env.HOME ?? homedir(), ...(dialect ? { dialect: dialect as Dialect } : {}) });
  const errors = result.diagnostics.filter((d) => d.level === 'error');

  // A Hermes config holding another agent's block is converted in that same file; an agent's own
  // file is merged into the profile's config.
  const inPlace = result.foreignKeys !== null;
  const target = inPlace ? path : profile.configFile;
  const written = values.write ? await writeImport(result, { inPlace, target, text, profile }) : { wrote: null, added: 0 };
  report(result, written, { inPlace, target, write: values.write === true, json: values.json === true, configFile: profile.configFile }, io);
  return errors.length ? 1 : 0;
}

type Profile = Awaited<ReturnType<typeof openProfile>>;
interface Written {
  wrote: string | null;
  added: number;
}

/** `import --write`: merge (or, for a Hermes config, convert in place) with a backup first. */
async function writeImport(result: ImportResult, where: { inPlace: boolean; target: string; text: string; profile: Profile }): Promise<Written> {
  const { inPlace, target, text, profile } = where;
  let wrote: string | null = null;
  let added = 0;
  if (result.hooks.length > 0 || (inPlace && (result.foreignKeys ?? []).length > 0)) {
    const existing = inPlace ? text : profile.config.exists ? profile.config.source.text : '';
    let merged: string;
    try {
      merged = mergeIntoConfig(existing, result.hooks, inPlace ? { replaceKeys: result.foreignKeys ?? [] } : {});
    } catch (e) {
      throw new CliError(`import: cannot merge into ${target}: ${errorText(e)}`);
    }
    // Entries already present are skipped; when nothing is new the file is left as it is.
    added = inPlace ? result.hooks.length : hookEntryCount(merged) - hookEntryCount(existing);
    if (inPlace ? merged !== existing : added > 0) {
      if (inPlace || profile.config.exists) {
        const backup = `${target}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await copyFile(target, backup);
        wrote = backup;
      }
      // Only the implicit default ~/.hermes may be missing here (a given home was checked to exist).
      if (!inPlace && !profile.location.homeExists) await mkdir(profile.home, { recursive: true, mode: 0o700 });
      await writeFile(target, merged, { mode: 0o600 });
    }
  }
  return { wrote, added };
}

/** What import did: the JSON report, or the YAML on stdout and what it means on stderr. */
function report(result: ImportResult, written: Written, opts: { inPlace: boolean; target: string; write: boolean; json: boolean; configFile: string }, io: CliIO): void {
  if (opts.json) {
    writeLine(io.stdout, JSON.stringify({ ...result, config: opts.write ? opts.target : null, added: opts.write ? written.added : null, backup: written.wrote }));
  } else {
    io.stdout.write(result.yaml.endsWith('\n') ? result.yaml : `${result.yaml}\n`);
    const paint = painter(io, 'stderr');
    for (const d of result.diagnostics) writeLine(io.stderr, formatDiagnostic(d, paint));
    if (opts.write && opts.inPlace) {
      // A key none of whose entries could be carried over goes too (the config would never stop
      // failing otherwise): said, and kept in the backup.
      const converted = new Set(result.hooks.map((h) => /^hooks\.([^.[]+)/.exec(h.source)?.[1]));
      const dropped = result.foreignKeys!.filter((k) => !converted.has(k));
      writeLine(
        io.stderr,
        written.wrote
          ? `Converted ${[...converted].map((k) => `hooks.${k}`).join(', ') || 'nothing'} in ${opts.target} into ${result.hooks.length} Hermes hook entr${result.hooks.length === 1 ? 'y' : 'ies'} (backup: ${written.wrote})` +
              `${dropped.length ? `; removed ${dropped.map((k) => `hooks.${k}`).join(', ')}, which could not be carried over (see above; the backup keeps it)` : ''}. Approve them with 'hermes-hooks approve --all'.`
          : `Nothing to convert in ${opts.target}; it is unchanged.`,
      );
    } else if (opts.write) {
      writeLine(
        io.stderr,
        written.added > 0
          ? `Merged ${written.added} hook(s) into ${opts.configFile}${written.wrote ? ` (backup: ${written.wrote})` : ''}${written.added < result.hooks.length ? `; ${result.hooks.length - written.added} already there` : ''}. Approve them with 'hermes-hooks approve --all'.`
          : result.hooks.length
            ? `Nothing to merge: all ${result.hooks.length} hook(s) are already in ${opts.configFile}; it is unchanged.`
            : 'Nothing to merge.',
      );
    } else if (opts.inPlace && result.hooks.length) {
      writeLine(io.stderr, `To replace ${result.foreignKeys!.map((k) => `hooks.${k}`).join(', ')} with these entries in ${opts.target}, run this again with --write (a backup is kept).`);
    }
  }
}

/** How many entries the hooks: lists of a config text hold (0 when it does not parse). */
function hookEntryCount(text: string): number {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0) return 0;
  const hooks = (doc.toJSON() as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return 0;
  return Object.values(hooks).reduce<number>((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
}

export async function printConfigCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('print-config', args, {
    command: { type: 'string' },
    serve: { type: 'boolean' },
    url: { type: 'string' },
    socket: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(PRINT_HELP);
    return 0;
  }
  const agent = positionals[0];
  if (!agent || !isAgentDialect(agent)) throw new CliError(`print-config: give one of ${AGENT_DIALECTS.join(', ')}\n${PRINT_HELP}`);
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.dialects.maps;
  if (values.serve) return printServe(agent, values, profile.home, maps, io);
  if (values.url !== undefined) throw new CliError('print-config: --url only applies with --serve');
  if (values.socket !== undefined) throw new CliError('print-config: --socket only applies with --serve');
  const explicit = typeof values.command === 'string';
  const program = explicit ? (values.command as string) : thisCli();
  if (program.trim() === '') throw new CliError('print-config: --command is empty');
  const runArgs = profileArgs(values, profile.home, io);
  io.stdout.write(printDialectConfig(agent, { command: program, maps, runArgs }).replace(/\n?$/, '\n'));

  // stderr only: `print-config claude > snippet.json` stays valid JSON.
  const notes = [`hermes-hooks print-config ${agent}: the hooks read ${profile.configFile}`];
  if (!explicit && /[/\\]_npx[/\\]/.test(program)) {
    notes.push(
      'WARNING: this hermes-hooks runs from npm\'s npx cache, which npm may clear at any time; the agent',
      '  would then find no command and let every call through. Install it (in a clone: npm ci && npm link,',
      '  or npm pack && npm install -g ./hermes-hooks-<version>.tgz) and run print-config from there, or',
      '  pass --command.',
    );
  }
  notes.push(...setupNotes(agent));
  for (const line of notes) writeLine(io.stderr, line);
  return 0;
}

/** print-config --serve: the snippet on stdout, how to start the server and pass the token on stderr. */
function printServe(agent: AgentDialect, values: Record<string, unknown>, home: string, maps: DialectMaps, io: CliIO): number {
  const client = fileURLToPath(new URL('../../scripts-examples/hosts/hermes-hooks-client', import.meta.url));
  const url = typeof values.url === 'string' ? values.url : 'http://127.0.0.1:8765';
  const absHome = resolve(io.cwd, home);
  // serve's own default for this home (a short path when <home>/hermes-hooks.sock is too long), or --socket.
  const socket = typeof values.socket === 'string' ? resolve(io.cwd, values.socket) : defaultSocketPath(absHome, io.env);
  if (Buffer.byteLength(socket) > SOCKET_PATH_MAX_BYTES) {
    throw new CliError(`print-config: the socket path ${socket} is over ${SOCKET_PATH_MAX_BYTES} bytes, too long for a Unix socket; pass a shorter --socket`);
  }
  // The client starts the server on first use: for this home, with this installation's CLI.
  const facts = agentModule(agent).printConfig;
  const clientEnv: Record<string, string> = { HERMES_HOME: absHome, HERMES_HOOKS_BIN: fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url)) };
  // The serve the client starts for an agent with http hooks listens where those hooks call it.
  if (facts.httpHooks) clientEnv.HERMES_HOOKS_SERVE_ARGS = `--http ${new URL(url).host}`;
  io.stdout.write(printServeConfig(agent, { maps, url, client, socket, clientEnv }).replace(/\n?$/, '\n'));
  const ownSocket = socket !== join(absHome, SOCKET_FILE_NAME) ? ` --socket ${shellQuote(socket)}` : '';
  // The server the snippet talks to reads the config print-config was pointed at, in that home.
  const config = typeof values.config === 'string' ? ` --config ${shellQuote(resolve(io.cwd, values.config))}` : '';
  // An agent with http hooks (Claude Code) calls serve's HTTP listener; the others its socket.
  // With --http, serve listens on the socket only when asked: the client-wired events (Claude's SessionStart) need it.
  const viaClient = facts.httpHooks && (facts.noHttpOn?.length || facts.startsServeOn?.length) ? ` --socket ${shellQuote(socket)}` : '';
  const start = `hermes-hooks serve --home ${shellQuote(home)}${config}${facts.httpHooks ? `${viaClient} --http ${new URL(url).host}` : ownSocket}`;
  const notes = [`hermes-hooks print-config ${agent} --serve: these hooks need a running server; start it with: ${start}`];
  notes.push(...(facts.serveNotes?.(shellQuote(join(home, TOKEN_FILE_NAME)), setupNotes(agent)) ?? setupNotes(agent)));
  for (const line of notes) writeLine(io.stderr, line);
  return 0;
}

/**
 * This installation's CLI as a shell command: the absolute node binary and bin.js. Resolved from
 * this module (dist/cli/… → dist/cli/bin.js; from src/ in tests, the built dist/ beside it), which
 * Node has already resolved through symlinks, so a global install's path is the real package
 * folder and stays valid until it is uninstalled or moved.
 */
function thisCli(): string {
  const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
  return `${shellQuote(process.execPath)} ${shellQuote(bin)}`;
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

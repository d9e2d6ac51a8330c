// `hermes-hooks serve`: one long-lived engine for a host in any language or another agent —
// JSON-RPC on stdio, HTTP on a Unix socket (default) or on loopback TCP. Same location and consent
// options as `run`, never prompts; the engine keeps every session's state between calls.

import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { configLoadError, loadConfig, type LoadedConfig } from '../config/load.js';
import { locatedMessage } from '../config/source.js';
import { inert } from '../display.js';
import { createHookEngineAt, type HookEngine } from '../engine/create-engine.js';
import { stderrLogger } from '../engine/logger.js';
import { SERVE_FLUSH_DEADLINE_MS, startTelemetry } from '../telemetry/index.js';
import { DEFAULT_CONCURRENCY, joinObservers, type HookEngineOptions } from '../engine/options.js';
import { checkLocation, type CheckedLocation } from '../config/check-location.js';
import { locateConfig } from '../config/locate.js';
import { createProfileRouter, type ProfileRouter } from '../serve/profiles.js';
import { routedProfileEnv } from '../serve/profile-secrets.js';
import type { Logger, SessionFinalized } from '../types.js';
import { isLoopbackHost, loadToken, TOKEN_FILE_NAME } from '../serve/auth.js';
import {
  connectionBudget,
  DEFAULT_MAX_CONNECTIONS,
  defaultMaxConnections,
  FD_PER_HOOK,
  FD_RESERVE,
  MIN_MAX_CONNECTIONS,
  openFileLimit,
  OVERFLOW,
} from '../serve/connection-budget.js';
import { deadlineChainText, SERVE_REQUEST_TIMEOUT_S } from '../deadlines.js';
import { startServer, type RunningServer } from '../serve/lifecycle.js';
import { socketAnswers } from '../serve/socket-file.js';
import { chooseSocket, ensureSocketDir, shortSocketDirs, skippedText, SOCKET_FILE_NAME, SOCKET_PATH_MAX_BYTES } from '../serve/socket-path.js';
import { foreignListener, portListeners, whoIs } from '../serve/port-owner.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { CliError, type CliIO } from './_io.js';
import { locateProfile, missingConfigNote } from './_profile.js';
import { openCliJournal } from './_journal.js';
import type { JournalWriter } from '../journal/append.js';
import { errorText } from '../errors.js';

export const serveHelp = (): string => `Usage: hermes-hooks serve [--stdio] [--socket PATH] [--http HOST:PORT] [options] [discovery options]

One engine that lives as long as its host and keeps per-session state (tool-loop guardrails,
plugin suppression, human-input pairing, on_session_finalize once per session).

Transports (default: --socket <profile home>/${SOCKET_FILE_NAME}; when that is over ${SOCKET_PATH_MAX_BYTES} bytes, too
long for a Unix socket, <dir>/<16 hex of sha256(home's real path)>.sock in the first of
$XDG_RUNTIME_DIR/hermes-hooks, /tmp/hermes-hooks-<uid>, $HOME/.cache/hermes-hooks, /tmp/hermes-hooks-<uid>-1…4
that is missing (made 0700) or yours and private — one another user made is skipped, said on stderr
(here: ${shortSocketDirs().join(', ')}); the bundled hermes-hooks-client finds it alike):
  --stdio             JSON-RPC 2.0, one object per line on stdin/stdout; stdin closing shuts down.
                      Methods: emit {event, kwargs, options?}, finalize_session {kwargs},
                      emit_gateway {event, context}, gateway_collect {event, context, timeout_ms?},
                      gateway_command {context, timeout_ms?}, health, reload, shutdown
  --socket PATH       HTTP/1.1 on a Unix socket created mode 0600
  --http HOST:PORT    HTTP on TCP, loopback only; every request needs Authorization: Bearer <token>
                      (<profile home>/${TOKEN_FILE_NAME}, created 0600 on first use). Never idle-exits:
                      a port left free could be bound by another local user, who would then answer
                      for serve and receive the token — keep it running (print-config claude --http).
                      Without --socket (and --stdio) it listens on the default socket as well, for
                      the bundled client, unless a running serve holds that socket already
Routes: GET /v1/health, POST /v1/emit/<event>, POST /v1/finalize, POST /v1/agent/<agent>/<AgentEvent>,
        POST /v1/gateway, POST /v1/gateway/collect, POST /v1/gateway/command, POST /v1/reload,
        GET /v1/notices

Options:
  --accept-hooks          approve unapproved or modified hooks (like HERMES_ACCEPT_HOOKS=1)
  --journal FILE          append every event and its decision to FILE (JSON lines; see replay, audit)
  --token-env VAR         take the bearer token from $VAR instead of the token file
  --allow-remote          allow --http on a non-loopback address (the token is still required)
  --idle-timeout SEC      finalize a session idle this long (default 1800; 0 = only at shutdown)
  --idle-exit SEC         exit (0, socket removed) after SEC with no request in flight and no open
                          session; the bundled client starts serve this way on first use (default off;
                          ignored with --http)
  --request-timeout SEC   per-request deadline (default ${SERVE_REQUEST_TIMEOUT_S}): its hooks are then cancelled and a tool
                          gate is answered with a block saying why, so a slow or overloaded serve
                          never lets a call through. The deadlines, each inside the next:
                          ${deadlineChainText()}
  --drain-timeout SEC     on SIGTERM/SIGINT/SIGHUP, wait this long for requests in flight (default 10)
  --max-body BYTES        request size limit (default 8388608)
  --max-connections N     HTTP connections held at once, socket and --http together; default
                          ${DEFAULT_MAX_CONNECTIONS}, lowered to fit the open-file limit (limit − ${FD_RESERVE} − ${FD_PER_HOOK} × concurrency
                          − ${OVERFLOW}): ${hereLine()}.
                          At most half may wait for their headers and a quarter send a body; past
                          that the oldest of them gives way, so held connections cannot lock a
                          caller out. A request that finds no room is answered at once (a tool gate
                          with a block) and serve says so on stderr
  --headers-timeout SEC   a connection must send its request headers within this (default 10)
  --concurrency N         hooks running at once, shared by every client (default ${DEFAULT_CONCURRENCY})
  --surface cli|gateway   gateway also loads <home>/hooks/* and enables emit_gateway, gateway_collect
                          and gateway_command
  --profiles              also serve every profile of the Hermes root (<root>/profiles/NAME, as
                          --profile NAME finds it): a request names one by the X-Hermes-Profile
                          header (HTTP) or a "profile" param (JSON-RPC); none = this profile. Each
                          is loaded on its first request and reloaded on change; its hooks get its
                          HERMES_HOME and none of the other profiles' secrets (docs/serve.md)
  --verbose               log reloads and shutdown steps on stderr

Examples:
  hermes-hooks serve --home ~/.hermes                       socket at ~/.hermes/${SOCKET_FILE_NAME}
  curl --unix-socket ~/.hermes/${SOCKET_FILE_NAME} -d '{"tool_name":"terminal","args":{"command":"ls"}}' http://x/v1/emit/pre_tool_call
  hermes-hooks serve --http 127.0.0.1:8765                  for Claude Code's http hooks
`;

export async function serveCommand({ values }: ParsedArgs, io: CliIO): Promise<number> {
  // A long-lived server: V8 sizes its heap for memory, not for a short burst of speed. Read by
  // the GC's heap-growing heuristics at each collection, so setting it now still applies.
  setFlagsFromString('--optimize-for-size');
  const opts = serveOptions(values);
  const logger = stderrLogger({ stream: io.stderr, verbose: values.verbose === true });
  if (opts.http && opts.idleExitS > 0) {
    // Gone, it would leave the port free for any local user to bind and answer in its place.
    const given = values['idle-exit'] as string;
    logger.warn(`--idle-exit ${given} is ignored with --http: a serve that listens on a TCP port never idle-exits (another user could bind the port it left)`);
    opts.idleExitS = 0;
  }
  let server: RunningServer | null = null;
  const onSessionFinalized = (event: SessionFinalized): void => server?.sessionFinalized(event);
  const location = await locateProfile(discoveryOf(values), io);
  // Off (nothing loaded) unless the OTEL_* variables turn it on; every profile's engine reports to it.
  const telemetry = await startTelemetry(io.env, logger, 'serve');
  const observe = telemetry ? { observe: telemetry.observe } : {};
  const journal = (at: CheckedLocation, config: LoadedConfig): Promise<JournalWriter | null> => openCliJournal(values, config, at, io, logger);
  const engine = await openEngine(location, { ...engineOptions(values, io, opts, logger, onSessionFinalized), ...observe }, journal);
  const profiles = values.profiles === true ? profileRouter(location, values, io, opts, logger, onSessionFinalized, journal, observe) : null;
  // As `run` prints its event's problems: errors and warnings (a `failclosed:` typo is a warning).
  // An error (another agent's block under hooks:, an entry that cannot run) is labelled one.
  // Before listening: whoever waits for "serving …" has been told what is wrong with the config.
  for (const d of engine.diagnostics) {
    if (d.level === 'error') io.stderr.write(`hermes-hooks: error: ${inert(locatedMessage(d, engine.configFile), { keepNewlines: true })}\n`);
    else if (d.level !== 'info') logger.warn(locatedMessage(d, engine.configFile));
  }
  server = await startTransports(engine, values, io, opts, logger, profiles);
  if (telemetry === null) return server.done;
  // After the drain and the engines' close (their last finalize spans included): the last batch goes out.
  return server.done.then(async (code) => {
    await telemetry.shutdown(SERVE_FLUSH_DEADLINE_MS);
    return code;
  });
}

type ServeValues = ParsedArgs['values'];

interface ServeOptions {
  surface: 'cli' | 'gateway';
  idleS: number;
  idleExitS: number;
  requestS: number;
  drainS: number;
  maxBody: number;
  concurrency: number;
  headersS: number;
  maxConnections: number;
  http: { host: string; port: number } | null;
}

/** The options, each checked before anything starts. */
function serveOptions(values: ServeValues): ServeOptions {
  const surface = values.surface ?? 'cli';
  if (surface !== 'cli' && surface !== 'gateway') throw new CliError(`serve: --surface must be cli or gateway, not '${String(surface)}'`);
  const idleS = seconds(values['idle-timeout'], '--idle-timeout', 1800, true);
  const idleExitS = seconds(values['idle-exit'], '--idle-exit', 0, true);
  const requestS = seconds(values['request-timeout'], '--request-timeout', SERVE_REQUEST_TIMEOUT_S, false);
  const drainS = seconds(values['drain-timeout'], '--drain-timeout', 10, true);
  const maxBody = integer(values['max-body'], '--max-body', 8 * 1024 * 1024, 1024);
  const concurrency = integer(values.concurrency, '--concurrency', DEFAULT_CONCURRENCY, 1);
  const headersS = seconds(values['headers-timeout'], '--headers-timeout', 10, false);
  const maxConnections = connectionCap(values['max-connections'], concurrency);
  const http = typeof values.http === 'string' ? parseHostPort(values.http) : null;
  if (http && !isLoopbackHost(http.host) && !values['allow-remote']) {
    throw new CliError(
      `serve: refusing to listen on ${http.host}: it is not a loopback address; pass --allow-remote if other machines must reach this server (every ` +
        `request still needs the token)`,
    );
  }
  if (values['token-env'] !== undefined && !http)
    throw new CliError('serve: --token-env only applies with --http (the Unix socket is guarded by its file mode)');
  return { surface, idleS, idleExitS, requestS, drainS, maxBody, concurrency, headersS, maxConnections, http };
}

/** The engine options every profile's engine shares; env is serve's own (a routed profile's is scoped). */
function engineOptions(
  values: ServeValues,
  io: CliIO,
  opts: ServeOptions,
  logger: Logger,
  onSessionFinalized: (event: SessionFinalized) => void,
): HookEngineOptions {
  const { surface, idleS, concurrency } = opts;
  return {
    // A copy, read once: a server's environment is fixed at its start, and copying process.env
    // (one C++ lookup per variable) for every hook run cost ~0.1 ms per emit.
    env: { ...io.env },
    cwd: io.cwd,
    acceptHooks: values['accept-hooks'] === true,
    interactive: false, // a server is not a terminal conversation: it never prompts
    exitCleanup: false, // the server kills hook groups itself, after the drain
    concurrency,
    surface,
    logger,
    sessionIdleMs: idleS === 0 ? null : idleS * 1000,
    onSessionFinalized,
  };
}

/**
 * serve --profiles: every profile under <root>/profiles (where --profile NAME looks) on its first
 * request, its hooks given its HERMES_HOME and none of the other profiles' secrets (profile-secrets.ts).
 */
function profileRouter(
  location: CheckedLocation,
  values: ServeValues,
  io: CliIO,
  opts: ServeOptions,
  logger: Logger,
  onSessionFinalized: (event: SessionFinalized) => void,
  journal: JournalOf,
  observe: Pick<HookEngineOptions, 'observe'>,
): ProfileRouter {
  const homeOf = (name: string): string => (name === location.profile ? location.home : join(location.root, 'profiles', name));
  return createProfileRouter({
    root: location.root,
    defaultName: location.profile,
    surface: opts.surface,
    log: logger,
    open: async (name, others) => {
      const at = await checkLocation(locateConfig({ profile: name, env: io.env }));
      const env = routedProfileEnv({ base: io.env, home: at.home, otherHomes: others.map(homeOf) });
      return openEngine(at, { ...engineOptions(values, io, opts, logger, onSessionFinalized), ...observe, env }, journal);
    },
  });
}

/** One profile's engine over its checked location and config. */
type JournalOf = (at: CheckedLocation, config: LoadedConfig) => Promise<JournalWriter | null>;

async function openEngine(location: CheckedLocation, options: HookEngineOptions, journalOf: JournalOf): Promise<HookEngine> {
  // The config as the user typed it, checked before the engine is built: a broken config is one
  // error, not an engine warning and then an error.
  const startConfig = await loadConfig(location.configFile);
  const unusable = configLoadError(startConfig);
  if (unusable) throw new CliError(`serve: ${unusable}`);
  // Serving with nothing to check is allowed (a config may be written later: it is watched).
  const missing = missingConfigNote({ location, config: startConfig });
  if (missing) options.logger?.warn(`${missing} Every call is allowed until one is written (the server picks it up).`);
  try {
    // Every emit of this profile is recorded (--journal FILE, else its hooks_journal:), the profile named per line.
    const journal = await journalOf(location, startConfig);
    const observe = journal ? joinObservers(journal.observe, options.observe) : options.observe;
    return await createHookEngineAt(location, startConfig, { ...options, ...(observe ? { observe } : {}) });
  } catch (e) {
    throw new CliError(`serve: ${errorText(e)}`);
  }
}

/** The socket, --http and --stdio as asked, over the engine; the engine is closed when they cannot start. */
async function startTransports(
  engine: HookEngine,
  values: ServeValues,
  io: CliIO,
  opts: ServeOptions,
  logger: Logger,
  profiles: ProfileRouter | null,
): Promise<RunningServer> {
  const { http, surface, maxBody, maxConnections, headersS, requestS, drainS, idleExitS } = opts;
  // --http alone listens on the profile's socket too, so the bundled client (the events Claude runs
  // no http hook on) finds this serve instead of starting one that dies on the port — unless a live
  // serve already holds that socket: then it goes on answering the client, and this one the port.
  const wantSocket = typeof values.socket === 'string' || !values.stdio;
  const asked = typeof values.socket === 'string' ? resolveIn(io.cwd, values.socket) : null;
  if (asked && Buffer.byteLength(asked) > SOCKET_PATH_MAX_BYTES) {
    await engine.close({ finalize: false });
    throw new CliError(`serve: socket path ${asked} is too long for a Unix socket (over ${SOCKET_PATH_MAX_BYTES} bytes); pass --socket a shorter path`);
  }
  let token: string | null = null;
  try {
    if (wantSocket || http) mkdirSync(engine.home, { recursive: true, mode: 0o700 });
    // A home too long for <home>/hermes-hooks.sock gets a short path named after it (socket-path.ts).
    let socket = wantSocket ? (asked ?? defaultSocket(engine.home, io.env, logger)) : null;
    if (socket !== null && asked === null && http && (await socketAnswers(socket))) {
      logger.warn(`${socket} is held by a serve already running (the bundled client talks to it); this one listens on ${http.host}:${http.port} only`);
      socket = null;
    }
    if (socket && asked === null && socket !== join(engine.home, SOCKET_FILE_NAME)) ensureSocketDir(dirname(socket));
    if (http) {
      token = loadToken({
        file: join(engine.home, TOKEN_FILE_NAME),
        ...(typeof values['token-env'] === 'string' ? { tokenEnv: values['token-env'] } : {}),
        env: io.env,
      });
    }
    return await startServer(engine, {
      stdio: values.stdio ? { input: io.stdin, output: io.stdout } : null,
      socket,
      http: http && token ? { ...http, allowRemote: values['allow-remote'] === true, token } : null,
      surface,
      maxBodyBytes: maxBody,
      maxConnections,
      headersTimeoutMs: headersS * 1000,
      requestTimeoutMs: requestS * 1000,
      drainTimeoutMs: drainS * 1000,
      idleExitMs: idleExitS === 0 ? null : idleExitS * 1000,
      announce: (line) => io.stderr.write(`hermes-hooks: ${line}\n`),
      logger,
      signals: true,
      profiles,
    });
  } catch (e) {
    await engine.close({ finalize: false });
    if (http && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`serve: ${portTakenText(http.host, http.port)}`);
    throw new CliError(`serve: ${errorText(e)}`);
  }
}

/** serve's default socket (socket-path.ts), saying which directories another user took first. */
function defaultSocket(home: string, env: NodeJS.ProcessEnv, logger: Logger): string {
  const choice = chooseSocket(home, env);
  if (choice.socket === null) {
    const skipped = skippedText(choice.skipped);
    throw new Error(`no private directory for the socket of ${home}: ${skipped}; remove the ones another user made, or pass --socket a path of yours`);
  }
  if (choice.skipped.length > 0) {
    const skipped = skippedText(choice.skipped);
    logger.warn(`socket directory skipped: ${skipped} (another user may have made it to block or answer your calls); listening on ${choice.socket}`);
  }
  return choice.socket;
}

/** --http's port is in use: by whom, and what to do. */
function portTakenText(host: string, port: number): string {
  const listeners = portListeners(port);
  const me = process.getuid?.() ?? 0;
  const other = listeners && foreignListener(listeners, me);
  if (other) {
    return (
      `${host}:${port} is held by ${whoIs(other.uid, other.user)}, not you: whatever listens there answers the http hooks that call it ` +
      `(and receives their token) in serve's place. Find it (ss -ltnp 'sport = :${port}'), have it stopped, or wire the agent through ` +
      "the bundled client instead ('hermes-hooks print-config claude' without --http)"
    );
  }
  const mine = listeners?.find((l) => l.uid === me);
  const held = mine ? ` by you (${whoIs(mine.uid, mine.user)}): another serve of yours may be running there` : '';
  return `${host}:${port} is already in use${held}; stop what listens there, or pass --http another port (and print-config claude --url to match)`;
}

/** The default cap here, for --help. */
function hereLine(): string {
  const limit = openFileLimit();
  const cap = defaultMaxConnections(limit, DEFAULT_CONCURRENCY);
  return limit === null ? `here the limit is unknown, so ${cap} (as for 1024)` : `here ${cap} (limit ${limit}, --concurrency ${DEFAULT_CONCURRENCY})`;
}

/** --max-connections, or the default; never more than the open-file limit can hold. */
function connectionCap(v: unknown, concurrency: number): number {
  const limit = openFileLimit();
  if (v === undefined) return defaultMaxConnections(limit, concurrency);
  const n = integer(v, '--max-connections', 0, MIN_MAX_CONNECTIONS);
  const budget = connectionBudget(limit, concurrency);
  if (budget !== null && n > budget) {
    throw new CliError(
      `serve: --max-connections ${n} is more than the open-file limit allows (${limit} open files; ${limit! - budget} are kept for the process, ` +
        `${concurrency} hooks and the overflow): at most ${Math.max(budget, 0)}; raise the limit (ulimit -n) or lower --max-connections`,
    );
  }
  return n;
}

function resolveIn(cwd: string, p: string): string {
  return isAbsolute(p) ? p : resolve(cwd, p);
}

function seconds(v: unknown, flag: string, dflt: number, zeroOk: boolean): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n < 0 || (n === 0 && !zeroOk)) {
    throw new CliError(`serve: ${flag} takes a number of seconds${zeroOk ? ' (0 = off)' : ' above 0'}, not '${String(v)}'`);
  }
  return n;
}

function integer(v: unknown, flag: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < min) throw new CliError(`serve: ${flag} takes a whole number ≥ ${min}, not '${String(v)}'`);
  return n;
}

/** `HOST:PORT`, `[v6]:PORT` or a bare `PORT` (127.0.0.1). */
function parseHostPort(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text) ?? (/^\d+$/.test(text) ? [text, undefined, '127.0.0.1', text] : null);
  const host = m ? (m[1] ?? m[2] ?? '') : '';
  const port = m ? Number(m[3]) : NaN;
  if (!m || host === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`serve: --http takes HOST:PORT (e.g. 127.0.0.1:8765, [::1]:8765, or 127.0.0.1:0 for any free port), not '${text}'`);
  }
  return { host, port };
}

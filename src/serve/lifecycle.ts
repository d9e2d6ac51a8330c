// One server's life: start the transports (transport.ts, each a file) over one engine, reload when
// the watched files change, and shut down in order — stop taking requests, drain those in flight
// (bounded), finalize every open session, flush webhooks (engine.close), kill whatever hook group
// is left, close the transports (the socket removed).

import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { HookEngine } from '../engine/create-engine.js';
import type { Logger } from '../types.js';
import type { FinalizeNotice, SessionFinalized } from '../types.js';
import { createServeApi, RequestError, type ServeApi } from './api.js';
import { createConnectionGuard, type ConnectionGuard } from './connections.js';
import { createNoticeQueue } from './notices.js';
import { createRequestTracker, type RequestTracker } from './requests.js';
import type { Listening, Transport, TransportContext } from './transport.js';
import { createHttpTransport } from './transport-http.js';
import { createSocketTransport } from './transport-socket.js';
import { createStdioTransport } from './transport-stdio.js';
import type { FileWatch } from './watch.js';
import { watchEngine } from './engine-watch.js';
import { watchIdleExit, type IdleExitWatch } from './idle-exit.js';
import { errorText } from '../errors.js';
import type { ProfileRouter } from './profiles.js';

export interface ServeConfig {
  stdio: { input: Readable; output: Writable } | null;
  socket: string | null;
  http: { host: string; port: number; allowRemote: boolean; token: string } | null;
  surface: 'cli' | 'gateway';
  maxBodyBytes: number;
  /** HTTP connections held at once, the socket and --http together (see connections.ts). */
  maxConnections: number;
  /** Deadline for a connection's request headers (also between keep-alive requests). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  drainTimeoutMs: number;
  /** Exit after this long with no request in flight and no open session (null: never). */
  idleExitMs?: number | null;
  /** Say where we listen (stderr). */
  announce: (line: string) => void;
  logger: Logger;
  /** Install SIGTERM/SIGINT/SIGHUP handlers (the CLI does; in-process tests do not). */
  signals: boolean;
  /** serve --profiles: the other profiles of the root, each served on its first request (profiles.ts). */
  profiles?: ProfileRouter | null;
}

export interface RunningServer {
  /** Where HTTP listens once started (port resolved), for tests and the announcement. */
  readonly httpAddress: { host: string; port: number } | null;
  /** Resolves with the exit code once the server has shut down. */
  readonly done: Promise<number>;
  shutdown(reason: string): Promise<number>;
  /** For the engine's onSessionFinalized: queue and push notices of sessions finalized on our own. */
  sessionFinalized(event: SessionFinalized): void;
}

/** What one server holds while it runs: shutdown, the signal handlers and the transports share it. */
interface ServerState {
  engine: HookEngine;
  /** serve --profiles: the routed profiles; null = this server serves its one profile. */
  profiles: ProfileRouter | null;
  cfg: ServeConfig;
  log: Logger;
  tracker: RequestTracker;
  connections: ConnectionGuard;
  watcher: FileWatch;
  /** The transports listening so far, in the order they started. */
  started: { transport: Transport; listening: Listening }[];
  shuttingDown: Promise<number> | null;
  resolveDone: (code: number) => void;
  /** Undo what this server hooked into the process (once stopped, or when it failed to start). */
  detach: () => void;
  idleExit: IdleExitWatch | null;
}

/**
 * The engine is created by the caller (with `sessionFinalized` wired as its onSessionFinalized),
 * and closed by it when the server fails to start; once started, shutdown closes it.
 */
export async function startServer(engine: HookEngine, cfg: ServeConfig): Promise<RunningServer> {
  const log = cfg.logger;
  const tracker = createRequestTracker({ deadlineMs: cfg.requestTimeoutMs });
  const notices = createNoticeQueue(1000, (m) => log.warn(m));
  const api = createServeApi(engine, { surface: cfg.surface });
  const connections = createConnectionGuard({
    maxConnections: cfg.maxConnections,
    headersTimeoutMs: cfg.headersTimeoutMs,
    log: (line) => log.warn(line),
  });
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  // Config, allowlist and scripts: reload on change.
  const watcher = watchEngine(engine, log);
  const later = { started: [], shuttingDown: null, detach: () => {}, idleExit: null };
  const st: ServerState = { engine, profiles: cfg.profiles ?? null, cfg, log, tracker, connections, watcher, resolveDone, ...later };
  const ctx: TransportContext = {
    api,
    tracker,
    notices,
    health: () => health(st, api),
    forProfile: (name) => forProfile(st, name),
    shutdown: (reason) => void shutdown(st, reason),
    maxBodyBytes: cfg.maxBodyBytes,
    requestTimeoutMs: cfg.requestTimeoutMs,
    headersTimeoutMs: cfg.headersTimeoutMs,
    connections,
  };
  st.detach = hookIntoProcess(st);

  try {
    for (const transport of transportsOf(cfg)) {
      const listening = await transport.start(ctx);
      st.started.push({ transport, listening });
      cfg.announce(listening.announce);
    }
  } catch (e) {
    for (const { transport } of st.started) {
      transport.stop();
      await transport.close();
    }
    connections.close();
    watcher.close();
    st.detach();
    throw e;
  }

  if (cfg.idleExitMs) st.idleExit = startIdleExit(st, cfg.idleExitMs);

  return {
    get httpAddress() {
      return st.started.find((t) => t.listening.tcp)?.listening.tcp ?? null;
    },
    done,
    shutdown: (reason) => shutdown(st, reason),
    sessionFinalized(event) {
      if (event.notices.length === 0) return;
      notices.push(event.notices);
      notify(st, 'session_finalized', event);
    },
  };
}

/**
 * The transports serve was asked for, in the order they start (and are announced). A new
 * transport: its file implementing transport.ts, and its line here.
 */
function transportsOf(cfg: ServeConfig): Transport[] {
  const list: Transport[] = [];
  if (cfg.socket) list.push(createSocketTransport(cfg.socket));
  if (cfg.http) list.push(createHttpTransport(cfg.http));
  if (cfg.stdio) list.push(createStdioTransport(cfg.stdio));
  return list;
}

/** A server → host notification, on every transport that can push one. */
function notify(st: ServerState, method: string, params: unknown): void {
  for (const { transport } of st.started) transport.notify?.(method, params);
}

/** --idle-exit: say so on stderr, then shut down as for a signal (socket removed, exit 0). */
function startIdleExit(st: ServerState, idleMs: number): IdleExitWatch {
  return watchIdleExit({
    idleMs,
    busy: () => st.tracker.inFlight > 0 || engines(st).some((e) => e.stats().open_sessions > 0),
    lastActive: () => st.tracker.lastActive,
    exit: (reason) => {
      st.cfg.announce(`${reason}: shutting down`);
      void shutdown(st, reason);
    },
  });
}

/** Every engine this server holds: its own and each routed profile's loaded so far. */
function engines(st: ServerState): HookEngine[] {
  return [st.engine, ...(st.profiles?.engines() ?? [])];
}

/** The API and health of the profile a request names; null = the server's own profile. */
async function forProfile(st: ServerState, name: unknown): Promise<{ api: ServeApi; health: () => Record<string, unknown> } | null> {
  if (st.profiles === null) {
    // One profile: a request for another must not be answered by this one's hooks.
    if (name === undefined || name === null || name === '' || name === st.engine.profile) return null;
    throw new RequestError(
      `this server serves only profile '${st.engine.profile}', not ${JSON.stringify(name)}; start serve with --profiles to route requests by profile`,
    );
  }
  const routed = await st.profiles.route(name);
  return routed === null ? null : { api: routed.api, health: () => health(st, routed.api) };
}

function health(st: ServerState, api: ServeApi): Record<string, unknown> {
  return api.health({
    ...(st.profiles ? { profiles: { default: st.engine.profile, loaded: st.profiles.loaded(), known: st.profiles.known() } } : {}),
    transports: st.started.map((t) => t.listening.label),
    in_flight: st.tracker.inFlight,
    served: st.tracker.served,
    live_hooks: st.engine.liveHooks.count(),
    ...(st.started.some((t) => t.transport.holdsConnections) ? { connections: st.connections.stats() } : {}),
    memory: memory(),
  });
}

/**
 * Nothing must outlive us: at exit, every hook group left is killed. SIGTERM, SIGINT and SIGHUP (the
 * terminal or the session that started us went away) shut down in order; by default SIGHUP would
 * kill us at once and leave the hooks running and the socket file behind. Returns the undo.
 */
function hookIntoProcess(st: ServerState): () => void {
  const onExit = (): void => {
    st.engine.liveHooks.killAll('SIGKILL');
  };
  process.on('exit', onExit);
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled += 1;
    if (signalled > 1) {
      // A second signal: the user does not want to wait for the drain.
      onExit();
      for (const { transport } of st.started) transport.abandon?.();
      process.exit(128 + osConstants.signals[signal]);
    }
    void shutdown(st, signal);
  };
  const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  if (st.cfg.signals) for (const s of SIGNALS) process.on(s, onSignal);
  return () => {
    process.off('exit', onExit);
    for (const s of SIGNALS) process.off(s, onSignal);
  };
}

/** Stop taking requests, drain those in flight (bounded), close the engine, kill what is left, clean up. */
function shutdown(st: ServerState, reason: string): Promise<number> {
  if (st.shuttingDown) return st.shuttingDown;
  const { cfg, log } = st;
  st.shuttingDown = (async () => {
    log.info?.(`shutting down (${reason})`);
    st.idleExit?.stop();
    st.watcher.close();
    for (const { transport } of st.started) transport.stop();
    const { aborted } = await st.tracker.drain(cfg.drainTimeoutMs);
    if (aborted > 0) log.warn(`${aborted} request(s) still running after ${cfg.drainTimeoutMs / 1000}s were cancelled`);
    const closed = await st.engine.close().catch((e: unknown) => {
      log.warn(`closing the engine failed: ${errorText(e)}`);
      return { notices: [] as FinalizeNotice[] };
    });
    const routed = (await st.profiles?.close()) ?? [];
    reportShutdownNotices(st, [...closed.notices, ...routed]);
    st.engine.liveHooks.killAll('SIGKILL');
    // Each close's synchronous part (connections cut, socket removed) runs now; the last answers are awaited after.
    const closing = st.started.map(({ transport }) => transport.close());
    st.connections.close();
    await Promise.all(closing);
    st.detach();
    st.resolveDone(0);
    return 0;
  })();
  return st.shuttingDown;
}

/** The notices of sessions finalized at shutdown: one notification per session, and stderr. */
function reportShutdownNotices(st: ServerState, list: FinalizeNotice[]): void {
  const bySession = new Map<string | null, FinalizeNotice[]>();
  for (const n of list) {
    if (!bySession.has(n.session_id)) bySession.set(n.session_id, []);
    bySession.get(n.session_id)!.push(n);
  }
  for (const [session_id, ns] of bySession) {
    notify(st, 'session_finalized', { session_id, session_key: ns[0]?.session_key ?? null, reason: 'shutdown', notices: ns });
    for (const n of ns) st.log.warn(`notice for session ${session_id ?? '-'}: ${n.message}`);
  }
}

/** Process memory in MB, for health (and the RSS benchmark). */
function memory(): Record<string, number> {
  const m = process.memoryUsage();
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), heap_total_mb: mb(m.heapTotal), external_mb: mb(m.external) };
}

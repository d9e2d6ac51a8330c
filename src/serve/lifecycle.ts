// One server's life: start the transports over one engine, reload when the watched files change,
// and shut down in order — stop taking requests, drain those in flight (bounded), finalize every
// open session, flush webhooks (engine.close), kill whatever hook group is left, remove the socket.

import type { Server } from 'node:http';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { HookEngine } from '../engine/create-engine.js';
import type { Logger } from '../types.js';
import type { FinalizeNotice, SessionFinalized } from '../types.js';
import { createServeApi, RequestError, type ServeApi } from './api.js';
import { allowedHosts, type AuthPolicy } from './auth.js';
import { createConnectionGuard, type ConnectionGuard } from './connections.js';
import { createHttpServer, type HttpContext } from './http.js';
import { serveJsonRpc, type RpcChannel } from './jsonrpc.js';
import { callRpcMethod } from './methods.js';
import { createNoticeQueue } from './notices.js';
import { createRequestTracker, type RequestTracker } from './requests.js';
import { listenOnSocket, removeSocket } from './socket-file.js';
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
  servers: Server[];
  socketIno: number | null;
  rpc: RpcChannel | null;
  httpAddress: { host: string; port: number } | null;
  transports: string[];
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
  // Filled in as the transports start.
  const started = { servers: [], socketIno: null, rpc: null, httpAddress: null, transports: [], shuttingDown: null, detach: () => {}, idleExit: null };
  const st: ServerState = { engine, profiles: cfg.profiles ?? null, cfg, log, tracker, connections, watcher, resolveDone, ...started };
  const ctx: HttpContext = {
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
    await listen(st, ctx);
  } catch (e) {
    for (const s of st.servers) s.close();
    if (cfg.socket && st.socketIno !== null) removeSocket(cfg.socket, st.socketIno);
    connections.close();
    watcher.close();
    st.detach();
    throw e;
  }
  if (cfg.stdio) {
    const { input, output } = cfg.stdio;
    st.transports.push('stdio');
    st.rpc = serveJsonRpc(input, output, {
      maxLineBytes: cfg.maxBodyBytes,
      onEnd: () => void shutdown(st, 'stdin closed'),
      handle: (method, params) => callRpcMethod(method, params, ctx),
    });
    cfg.announce('serving JSON-RPC 2.0 on stdin/stdout, one object per line');
  }

  if (cfg.idleExitMs) st.idleExit = startIdleExit(st, cfg.idleExitMs);

  return {
    get httpAddress() {
      return st.httpAddress;
    },
    done,
    shutdown: (reason) => shutdown(st, reason),
    sessionFinalized(event) {
      if (event.notices.length === 0) return;
      notices.push(event.notices);
      st.rpc?.notify('session_finalized', event);
    },
  };
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
    throw new RequestError(`this server serves only profile '${st.engine.profile}', not ${JSON.stringify(name)}; start serve with --profiles to route requests by profile`);
  }
  const routed = await st.profiles.route(name);
  return routed === null ? null : { api: routed.api, health: () => health(st, routed.api) };
}

function health(st: ServerState, api: ServeApi): Record<string, unknown> {
  return api.health({
    ...(st.profiles ? { profiles: { default: st.engine.profile, loaded: st.profiles.loaded(), known: st.profiles.known() } } : {}),
    transports: st.transports,
    in_flight: st.tracker.inFlight,
    served: st.tracker.served,
    live_hooks: st.engine.liveHooks.count(),
    ...(st.cfg.socket || st.cfg.http ? { connections: st.connections.stats() } : {}),
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
      if (st.cfg.socket && st.socketIno !== null) removeSocket(st.cfg.socket, st.socketIno);
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
    st.rpc?.stop();
    for (const s of st.servers) {
      s.close();
      s.closeIdleConnections();
    }
    const { aborted } = await st.tracker.drain(cfg.drainTimeoutMs);
    if (aborted > 0) log.warn(`${aborted} request(s) still running after ${cfg.drainTimeoutMs / 1000}s were cancelled`);
    const closed = await st.engine.close().catch((e: unknown) => {
      log.warn(`closing the engine failed: ${errorText(e)}`);
      return { notices: [] as FinalizeNotice[] };
    });
    const routed = (await st.profiles?.close()) ?? [];
    reportShutdownNotices(st, [...closed.notices, ...routed]);
    st.engine.liveHooks.killAll('SIGKILL');
    for (const s of st.servers) s.closeAllConnections();
    if (cfg.socket && st.socketIno !== null) removeSocket(cfg.socket, st.socketIno);
    st.connections.close();
    await st.rpc?.flush();
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
    st.rpc?.notify('session_finalized', { session_id, session_key: ns[0]?.session_key ?? null, reason: 'shutdown', notices: ns });
    for (const n of ns) st.log.warn(`notice for session ${session_id ?? '-'}: ${n.message}`);
  }
}

/** The Unix socket and --http, as configured; each announced once it listens. */
async function listen(st: ServerState, ctx: HttpContext): Promise<void> {
  const { cfg } = st;
  if (cfg.socket) {
    const server = createHttpServer(ctx, { token: null, hosts: null });
    st.socketIno = (await listenOnSocket(server, cfg.socket)).ino;
    st.servers.push(server);
    st.transports.push(`unix:${cfg.socket}`);
    cfg.announce(`serving HTTP on unix socket ${cfg.socket} (mode 0600)`);
  }
  if (cfg.http) {
    const { host, allowRemote } = cfg.http;
    const policy: AuthPolicy = { token: cfg.http.token, hosts: null };
    const server = createHttpServer(ctx, policy);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(cfg.http!.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : cfg.http.port;
    st.httpAddress = { host, port };
    // DNS rebinding: only Host values naming our own address (unless remote access was asked for).
    policy.hosts = allowRemote ? null : allowedHosts(host, port);
    st.servers.push(server);
    const shown = host.includes(':') ? `[${host}]` : host;
    st.transports.push(`http://${shown}:${port}`);
    cfg.announce(`serving HTTP on http://${shown}:${port} (Authorization: Bearer <token> required)`);
  }
}

/** Process memory in MB, for health (and the RSS benchmark). */
function memory(): Record<string, number> {
  const m = process.memoryUsage();
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), heap_total_mb: mb(m.heapTotal), external_mb: mb(m.external) };
}

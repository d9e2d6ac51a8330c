// One server's life: start the transports over one engine, reload when the watched files change,
// and shut down in order — stop taking requests, drain those in flight (bounded), finalize every
// open session, flush webhooks (engine.close), kill whatever hook group is left, remove the socket.

import type { Server } from 'node:http';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ALLOWLIST_FILENAME } from '../consent/allowlist.js';
import type { HookEngine } from '../engine/create-engine.js';
import type { Logger } from '../types.js';
import { EVENT_NAMES } from '../events.js';
import type { FinalizeNotice, SessionFinalized } from '../types.js';
import { createServeApi } from './api.js';
import { allowedHosts, type AuthPolicy } from './auth.js';
import { createConnectionGuard } from './connections.js';
import { createHttpServer, type HttpContext } from './http.js';
import { MethodNotFound, serveJsonRpc, type RpcChannel } from './jsonrpc.js';
import { createNoticeQueue } from './notices.js';
import { createRequestTracker } from './requests.js';
import { listenOnSocket, removeSocket } from './socket-file.js';
import { watchFiles } from './watch.js';
import { errorText } from '../errors.js';

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
  /** Say where we listen (stderr). */
  announce: (line: string) => void;
  logger: Logger;
  /** Install SIGTERM/SIGINT/SIGHUP handlers (the CLI does; in-process tests do not). */
  signals: boolean;
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

const METHODS = ['emit', 'finalize_session', 'emit_gateway', 'health', 'reload', 'shutdown'];

/**
 * The engine is created by the caller (with `sessionFinalized` wired as its onSessionFinalized),
 * and closed by it when the server fails to start; once started, shutdown closes it.
 */
export async function startServer(engine: HookEngine, cfg: ServeConfig): Promise<RunningServer> {
  const log = cfg.logger;
  const tracker = createRequestTracker({ deadlineMs: cfg.requestTimeoutMs });
  const notices = createNoticeQueue(1000, (m) => log.warn(m));
  const api = createServeApi(engine, { surface: cfg.surface });
  const servers: Server[] = [];
  let socketIno: number | null = null;
  let rpc: RpcChannel | null = null;
  let httpAddress: { host: string; port: number } | null = null;
  const transports: string[] = [];

  const connections = createConnectionGuard({
    maxConnections: cfg.maxConnections,
    headersTimeoutMs: cfg.headersTimeoutMs,
    log: (line) => log.warn(line),
  });
  const health = (): Record<string, unknown> =>
    api.health({
      transports,
      in_flight: tracker.inFlight,
      served: tracker.served,
      live_hooks: engine.liveHooks.count(),
      ...(cfg.socket || cfg.http ? { connections: connections.stats() } : {}),
      memory: memory(),
    });
  const ctx: HttpContext = {
    api,
    tracker,
    notices,
    maxBodyBytes: cfg.maxBodyBytes,
    requestTimeoutMs: cfg.requestTimeoutMs,
    headersTimeoutMs: cfg.headersTimeoutMs,
    connections,
    health,
  };

  // Nothing must outlive us: at exit, kill every hook group left.
  const onExit = (): void => {
    engine.liveHooks.killAll('SIGKILL');
  };
  process.on('exit', onExit);

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  let shuttingDown: Promise<number> | null = null;

  // Config, allowlist and scripts: reload on change.
  const watcher = watchFiles(
    () => {
      void engine.reload().then((r) => {
        if (r.ok) log.info?.(`config reloaded from ${engine.configFile}`);
        watcher.set(watchedFiles(engine));
      });
    },
    { warn: (m) => log.warn(m) },
  );
  watcher.set(watchedFiles(engine));

  const shutdown = (reason: string): Promise<number> => {
    if (shuttingDown) return shuttingDown;
    shuttingDown = (async () => {
      log.info?.(`shutting down (${reason})`);
      watcher.close();
      rpc?.stop();
      for (const s of servers) {
        s.close();
        s.closeIdleConnections();
      }
      const { aborted } = await tracker.drain(cfg.drainTimeoutMs);
      if (aborted > 0) log.warn(`${aborted} request(s) still running after ${cfg.drainTimeoutMs / 1000}s were cancelled`);
      const closed = await engine.close().catch((e: unknown) => {
        log.warn(`closing the engine failed: ${errorText(e)}`);
        return { notices: [] as FinalizeNotice[] };
      });
      reportShutdownNotices(closed.notices);
      engine.liveHooks.killAll('SIGKILL');
      for (const s of servers) s.closeAllConnections();
      if (cfg.socket && socketIno !== null) removeSocket(cfg.socket, socketIno);
      connections.close();
      await rpc?.flush();
      detach();
      resolveDone(0);
      return 0;
    })();
    return shuttingDown;
  };

  const reportShutdownNotices = (list: FinalizeNotice[]): void => {
    const bySession = new Map<string | null, FinalizeNotice[]>();
    for (const n of list) {
      if (!bySession.has(n.session_id)) bySession.set(n.session_id, []);
      bySession.get(n.session_id)!.push(n);
    }
    for (const [session_id, ns] of bySession) {
      rpc?.notify('session_finalized', { session_id, session_key: ns[0]?.session_key ?? null, reason: 'shutdown', notices: ns });
      for (const n of ns) log.warn(`notice for session ${session_id ?? '-'}: ${n.message}`);
    }
  };

  let signalled = 0;
  function onSignal(signal: NodeJS.Signals): void {
    signalled += 1;
    if (signalled > 1) {
      // A second signal: the user does not want to wait for the drain.
      onExit();
      if (cfg.socket && socketIno !== null) removeSocket(cfg.socket, socketIno);
      process.exit(128 + osConstants.signals[signal]);
    }
    void shutdown(signal);
  }
  // SIGHUP (the terminal or the session that started us went away) is a shutdown like SIGTERM:
  // by default it would kill us at once and leave the hooks running and the socket file behind.
  const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  if (cfg.signals) for (const s of SIGNALS) process.on(s, onSignal);
  /** Undo what this server hooked into the process (once stopped, or when it failed to start). */
  function detach(): void {
    process.off('exit', onExit);
    for (const s of SIGNALS) process.off(s, onSignal);
  }

  try {
    if (cfg.socket) {
      const server = createHttpServer(ctx, { token: null, hosts: null });
      socketIno = (await listenOnSocket(server, cfg.socket)).ino;
      servers.push(server);
      transports.push(`unix:${cfg.socket}`);
      cfg.announce(`serving HTTP on unix socket ${cfg.socket} (mode 0600)`);
    }
    if (cfg.http) {
      const policy: AuthPolicy = { token: cfg.http.token, hosts: null };
      const server = createHttpServer(ctx, policy);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(cfg.http!.port, cfg.http!.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : cfg.http.port;
      httpAddress = { host: cfg.http.host, port };
      // DNS rebinding: only Host values naming our own address (unless remote access was asked for).
      policy.hosts = cfg.http.allowRemote ? null : allowedHosts(cfg.http.host, port);
      servers.push(server);
      const shown = cfg.http.host.includes(':') ? `[${cfg.http.host}]` : cfg.http.host;
      transports.push(`http://${shown}:${port}`);
      cfg.announce(`serving HTTP on http://${shown}:${port} (Authorization: Bearer <token> required)`);
    }
  } catch (e) {
    for (const s of servers) s.close();
    if (cfg.socket && socketIno !== null) removeSocket(cfg.socket, socketIno);
    connections.close();
    watcher.close();
    detach();
    throw e;
  }

  if (cfg.stdio) {
    const { input, output } = cfg.stdio;
    transports.push('stdio');
    rpc = serveJsonRpc(input, output, {
      maxLineBytes: cfg.maxBodyBytes,
      onEnd: () => void shutdown('stdin closed'),
      handle: async (method, params) => {
        const p = params as Record<string, unknown>;
        switch (method) {
          case 'emit':
            return tracker.run((signal) => api.emit(p.event, p.kwargs, p.options, signal));
          case 'finalize_session':
            return tracker.run((signal) => api.finalize(p.kwargs, signal));
          case 'emit_gateway':
            return api.emitGateway(p.event, p.context);
          case 'health':
            return health();
          case 'reload':
            return api.reload();
          case 'shutdown':
            // Answer first, then shut down: the host sees the acknowledgement.
            setImmediate(() => void shutdown('shutdown requested'));
            return { shutting_down: true };
          default:
            throw new MethodNotFound(`unknown method '${method}' (methods: ${METHODS.join(', ')})`);
        }
      },
    });
    cfg.announce('serving JSON-RPC 2.0 on stdin/stdout, one object per line');
  }

  return {
    get httpAddress() {
      return httpAddress;
    },
    done,
    shutdown,
    sessionFinalized(event) {
      if (event.notices.length === 0) return;
      notices.push(event.notices);
      rpc?.notify('session_finalized', event);
    },
  };
}

/** Process memory in MB, for health (and the RSS benchmark). */
function memory(): Record<string, number> {
  const m = process.memoryUsage();
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), heap_total_mb: mb(m.heapTotal), external_mb: mb(m.external) };
}

/** config.yaml, the allowlist, and every shell hook's script file. */
function watchedFiles(engine: HookEngine): string[] {
  const files = new Set<string>([engine.configFile, join(engine.home, ALLOWLIST_FILENAME)]);
  for (const event of EVENT_NAMES) {
    for (const entry of engine.hooksFor(event)) {
      const p = entry.kind === 'shell' ? entry.consent?.script_path : null;
      if (p && p.startsWith('/')) files.add(p);
    }
  }
  return [...files];
}

// `serve --idle-exit SEC`: a serve started on first use (by the bundled client) goes away once it
// has had nothing to do for SEC — no request in flight and no open session (sessions end on
// --idle-timeout, finalized) — so it costs nothing between bursts; the next call starts another.
// Never with --http (serve-command.ts drops it): a TCP port left free can be bound by any local
// user, who would then answer Claude Code's http hooks in serve's place and receive their token.

export interface IdleExitWatch {
  stop(): void;
}

export interface IdleExitOptions {
  idleMs: number;
  /** A request in flight or a session open: not idle. */
  busy(): boolean;
  /** When the last request started or ended (Date.now() ms), 0 when none has. */
  lastActive(): number;
  /** Called once, when idle long enough. */
  exit(reason: string): void;
}

export function watchIdleExit(opts: IdleExitOptions): IdleExitWatch {
  let quietSince = Date.now();
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (opts.busy()) {
        quietSince = now;
        return;
      }
      if (now - Math.max(quietSince, opts.lastActive()) < opts.idleMs) return;
      clearInterval(timer);
      opts.exit(`idle for ${opts.idleMs / 1000}s with no request in flight and no open session (--idle-exit)`);
    },
    Math.min(opts.idleMs, 1000),
  );
  return { stop: () => clearInterval(timer) };
}

/** The --idle-exit the bundled client gives a serve it starts (HERMES_HOOKS_IDLE_EXIT overrides it there). */
export const AUTOSTART_IDLE_EXIT_S = 900;

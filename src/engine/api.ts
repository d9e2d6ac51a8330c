// The engine's public shapes: what createHookEngine returns, and what its reload() and stats() say.

import type { GatewayCommandContext, GatewayCommandVerdict } from '../gateway/command-decision.js';
import type { LoadedConfig } from '../config/load.js';
import type { JudgedSubject } from '../consent/trust.js';
import type { Diagnostic, Emission, EventName, FinalizeNotice, HookSpec } from '../types.js';
import type { EmitOptions } from './run-hooks.js';
import type { InProcessCallback, RegistryEntry } from './registry.js';

/** What createHookEngine returns: emit() at each lifecycle point, the gateway entry points, reload(), close(). */
export interface HookEngine {
  readonly home: string;
  readonly configFile: string;
  readonly profile: string;
  /** The config in force: the last one that loaded (reload() keeps it when a new one does not parse). */
  readonly config: LoadedConfig;
  /** Every diagnostic of the config in force (hooks, outbound, guardrails, plugins, dialects). */
  readonly diagnostics: Diagnostic[];
  /** Shell hook specs as configured (before consent). */
  readonly specs: readonly HookSpec[];
  /**
   * The profile home and the config file in force when they fail the trust rule (consent/trust.ts),
   * each with its reason and fix; empty when both are trusted. An untrusted config grants nothing:
   * no blanket acceptance of its hooks, no plugins, no webhooks. Also in `diagnostics`.
   */
  readonly untrusted: readonly JudgedSubject[];
  /** Registered hooks in registration order. */
  hooksFor(event: EventName): readonly RegistryEntry[];
  /** Register an in-process callback; runs before shell hooks. Returns an unregister function. */
  registerHook(event: EventName, callback: InProcessCallback, opts?: { name?: string }): () => void;
  emit(event: EventName, kwargs?: Record<string, unknown>, opts?: EmitOptions): Promise<Emission>;
  /** Gateway event (`agent:start`, `command:model` …): returns at once, handlers run in the background. */
  emitGateway(eventType: string, context?: Record<string, unknown>): void;
  /**
   * Hermes' emit_collect: asks the gateway handlers of `eventType` in order and resolves with their
   * answers that are not None (empty when the engine has no gateway surface). A handler that
   * throws, or does not answer within `timeoutMs` (default 30 s), is skipped with a warning.
   */
  emitGatewayCollect(eventType: string, context?: Record<string, unknown>, opts?: { timeoutMs?: number }): Promise<unknown[]>;
  /**
   * A slash command through its `command:<name>` decision hooks, read as Hermes' gateway does:
   * `context` as Hermes builds it (`command` — the canonical name —, `raw_command` as typed,
   * `args`, `raw_args`, `platform`, `user_id`); the first deny / handled / rewrite decides.
   */
  decideGatewayCommand(context: GatewayCommandContext, opts?: { timeoutMs?: number }): Promise<GatewayCommandVerdict>;
  /**
   * Fire on_session_finalize; the decision's `notifications` are for the user, and its `notices`
   * pair each with the session (`session_id`, `session_key`) it belongs to. Once per session: a
   * session already finalized (by the host, the idle timer or eviction) and not seen since is not
   * finalized again (the emission then runs no hook), and after any host finalize close() adds no
   * extra one with a null session.
   */
  finalizeSession(kwargs?: Record<string, unknown>, options?: EmitOptions): Promise<Emission>;
  /**
   * Re-read the config and the allowlist and rebuild the shell, plugin, guardrail and webhook
   * registries; the swap is atomic (an emit runs wholly on the old or the new registry) and session
   * state survives it. A config that cannot be read or parsed keeps the last good one: `ok: false`
   * with the reason and its diagnostics. Never prompts for consent.
   */
  reload(): Promise<ReloadResult>;
  /** Open sessions, pending human-input requests, and the config in force. */
  stats(): EngineStats;
  /**
   * Resolve pending human-input waits, fire on_session_finalize for open sessions (once with a null
   * session when no session was ever seen; `finalize: false` skips it), flush webhooks, kill live hooks.
   * `notices` carry each notification with the session it belongs to; `notifications` is the same
   * text alone, kept for hosts written against it.
   */
  close(opts?: { finalize?: boolean }): Promise<{ notifications: string[]; notices: FinalizeNotice[] }>;
  /**
   * Hook process groups still running in this process (any engine's, spawn/live-hooks.ts): how
   * many, and killing them all — what a server reports in its health and does last at shutdown.
   */
  readonly liveHooks: { count(): number; killAll(signal?: NodeJS.Signals): number };
}

/** What HookEngine.reload() says: whether the new config is in force, and why not. */
export interface ReloadResult {
  /** False when the new config could not be read or parsed; the last good one stays in force. */
  ok: boolean;
  /** Why it was refused (file:line:column: message), or null. */
  error: string | null;
  /** The diagnostics of the file as read now (the refused one when ok is false). */
  diagnostics: Diagnostic[];
}

/** HookEngine.stats(): sessions, pending human-input waits, and the config in force. */
export interface EngineStats {
  open_sessions: number;
  pending_human_input: number;
  /** Reloads applied since start (the first load is 0). */
  generation: number;
  /** Why the last reload was refused, or null when the file on disk is the one in force. */
  reload_error: string | null;
  /** The refused file's diagnostics (empty when the last reload went through). */
  reload_diagnostics: Diagnostic[];
  /** HERMES_SAFE_MODE was set: no user hook runs. */
  safe_mode: boolean;
  /** The config file in force exists (false: no hooks are configured at all). */
  config_exists: boolean;
  /** Why the profile home or the config in force is not trusted (one line each); empty when they are. */
  untrusted: string[];
}

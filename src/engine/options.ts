// The engine's options: what a host may pass, every default named once, and the one place they
// are resolved (resolveEngineOptions, at the top of createHookEngineAt). `serve` shares the defaults.

import { isTruthyEnv } from '../config/hooks.js';
import type { PromptInfo } from '../consent/policy.js';
import { promptOnTty } from '../consent/prompt.js';
import type { EventName } from '../events.js';
import type { BootRun } from '../gateway/boot-md.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../spawn/run-hook.js';
import type { Emission, Logger, SessionFinalized } from '../types.js';
import type { RegistryEntry } from './registry.js';
import type { ReceivedInput } from './run-hooks.js';
import { stderrLogger } from './logger.js';

export { DEFAULT_MAX_OUTPUT_BYTES };
/** Hooks of one event running at once (a config with 200 hooks must not fork 200 processes at once). */
export const DEFAULT_CONCURRENCY = 16;
/** Open sessions remembered for finalize before the least recently seen is evicted. */
export const DEFAULT_MAX_OPEN_SESSIONS = 10_000;

/** Options of createHookEngine: where the profile is, consent, limits, the logger, the gateway surface. */
export interface HookEngineOptions {
  /**
   * Config discovery, as the CLI. The profile home (allowlist, plugins, gateway hooks, HERMES_HOME
   * for hooks) is profile › home › $HERMES_HOME › ~/.hermes; `config` only names the file to read.
   * A given location that does not exist rejects with a ConfigLocationError; only an absent
   * implicit default (~/.hermes) means "no hooks".
   */
  config?: string;
  profile?: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Working directory given to hooks and put in the payload's `cwd` (default process.cwd()). */
  cwd?: string;
  /** Approve unapproved / modified hooks (like --accept-hooks). HERMES_ACCEPT_HOOKS and hooks_auto_accept also do. */
  acceptHooks?: boolean;
  /** false = run every configured hook regardless of consent (the dry run `hermes-hooks test`). Default true. */
  enforceConsent?: boolean;
  /** Allow the TTY consent prompt. Default: stdin and stderr are TTYs. */
  interactive?: boolean;
  prompt?: (info: PromptInfo) => Promise<boolean>;
  /** Hooks of one event running at once (default DEFAULT_CONCURRENCY, 16). */
  concurrency?: number;
  /** Per-stream output cap of a hook in bytes (default DEFAULT_MAX_OUTPUT_BYTES, 1 MiB). */
  maxOutputBytes?: number;
  logger?: Logger;
  /** 'gateway' also loads `<home>/hooks/*` gateway hooks and BOOT.md. Default 'cli'. */
  surface?: 'cli' | 'gateway';
  /**
   * BOOT.md instructions on gateway:startup, with the prompt to run them with. Resolve to the boot
   * session's final reply: `[SILENT]` sends nothing, anything else goes to onBootReply.
   */
  onBoot?: (instructions: string, run: BootRun) => unknown;
  /** The boot session's reply when it is not a silence token: the host sends it. */
  onBootReply?: (reply: string) => unknown;
  /** Load `plugins.enabled` plugins (default true). */
  plugins?: boolean;
  /** Kill live hook process groups when the host exits or gets SIGINT/SIGTERM/SIGHUP (default true). */
  exitCleanup?: boolean;
  /** Deliver `hooks.outbound` webhooks (default true; the dry run turns them off). */
  outbound?: boolean;
  /**
   * Register only the shell hooks of these events (a one-shot `run`): consent is decided — and
   * warned about — for nothing else. Default: every event.
   */
  events?: readonly EventName[];
  /**
   * Finalize a session (on_session_finalize, reason `idle`) once it has seen no emit for this long.
   * Default: never (a host that embeds the engine finalizes its own sessions); `serve` sets it.
   */
  sessionIdleMs?: number | null;
  /** Open sessions remembered for finalize; past it the least recently seen is finalized (`evicted`). Default DEFAULT_MAX_OPEN_SESSIONS (10 000). */
  maxOpenSessions?: number;
  /** Told about every finalize the engine fires on its own (idle, evicted, shutdown) that ran hooks. */
  onSessionFinalized?: (event: SessionFinalized) => void;
  /**
   * Told of every emit once its decision is final (a journal, a tracer): the one place observers
   * subscribe. It cannot change the decision; one that throws is warned about and the call goes on.
   * Keep it quick: it runs before emit returns.
   */
  observe?: EmitObserver;
}

/** What an observer is told of one emit: the outcome, the registry it ran on, what was received, and when. */
export interface EmitRecord {
  emission: Emission;
  /** The registry in the emission's order (`emission.hooks[i].index` indexes it). */
  entries: readonly RegistryEntry[];
  profile: string;
  received: ReceivedInput;
  /** When the emit started (ms since the epoch, sub-ms precision) and how long it took (ms). */
  startedAt: number;
  durationMs: number;
}

export type EmitObserver = (record: EmitRecord) => void;

/** Several observers as one (journal and tracer both on); each is called even when one before it throws. */
export function joinObservers(...observers: (EmitObserver | undefined)[]): EmitObserver | undefined {
  const all = observers.filter((o): o is EmitObserver => o !== undefined);
  if (all.length <= 1) return all[0];
  return (record) => {
    const errors: unknown[] = [];
    for (const o of all) {
      try {
        o(record);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  };
}

/** The options with every default applied: what the rest of the engine reads. */
export interface ResolvedEngineOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  cwd: string;
  /** HERMES_SAFE_MODE is set: no user hook runs. */
  safeMode: boolean;
  enforceConsent: boolean;
  acceptHooks: boolean;
  /** The TTY prompt may be shown at start-up (never on reload). */
  interactive: boolean;
  /** This host could prompt another time: false when it said "never prompt" (its advice then never mentions a prompt). */
  promptable: boolean;
  prompt: (info: PromptInfo) => Promise<boolean>;
  concurrency: number;
  maxOutputBytes: number;
  surface: 'cli' | 'gateway';
  plugins: boolean;
  exitCleanup: boolean;
  outbound: boolean;
  /** The events whose shell hooks are registered; null = every event. */
  events: ReadonlySet<EventName> | null;
  sessionIdleMs: number | null;
  maxOpenSessions: number;
  onBoot: HookEngineOptions['onBoot'];
  onBootReply: HookEngineOptions['onBootReply'];
  onSessionFinalized: HookEngineOptions['onSessionFinalized'];
  observe: EmitObserver | undefined;
}

export function resolveEngineOptions(options: HookEngineOptions = {}): ResolvedEngineOptions {
  const env = options.env ?? process.env;
  return {
    env,
    logger: options.logger ?? stderrLogger(),
    cwd: options.cwd ?? safeCwd(),
    safeMode: isTruthyEnv(env.HERMES_SAFE_MODE),
    enforceConsent: options.enforceConsent ?? true,
    acceptHooks: options.acceptHooks === true,
    interactive: options.interactive ?? Boolean(process.stdin.isTTY && process.stderr.isTTY),
    promptable: options.interactive !== false,
    prompt: options.prompt ?? promptOnTty,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    surface: options.surface ?? 'cli',
    plugins: options.plugins ?? true,
    exitCleanup: options.exitCleanup ?? true,
    outbound: options.outbound ?? true,
    events: options.events ? new Set<EventName>(options.events) : null,
    sessionIdleMs: options.sessionIdleMs ?? null,
    maxOpenSessions: options.maxOpenSessions ?? DEFAULT_MAX_OPEN_SESSIONS,
    onBoot: options.onBoot,
    onBootReply: options.onBootReply,
    onSessionFinalized: options.onSessionFinalized,
    observe: options.observe,
  };
}

/** process.cwd() throws when the directory was removed under us: hooks then get an empty cwd. */
function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return '';
  }
}

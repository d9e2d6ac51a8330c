// createHookEngine: load the profile's config, decide consent, register plugin, shell, built-in and
// gateway hooks, and hand the host emit()/emitGateway()/finalizeSession()/close().
// Plugin, gateway and outbound-webhook code is imported only when the config uses it:
// `hermes-hooks run` starts once per event and should load no more than it runs.

import { setMaxListeners } from 'node:events';
import { isTruthyEnv } from '../config/hooks.js';
import { buildPayload } from '../protocol/build-payload.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { join } from 'node:path';
import { checkLocation } from '../config/check-location.js';
import { foreignAutoAcceptDiagnostic } from '../config/load.js';
import { CONFIG_FILE_NAME, locateConfig } from '../config/locate.js';
import { compileMatcher } from '../config/matcher.js';
import { ConsentStore } from '../consent/store.js';
import { LaunchGate } from '../consent/launch.js';
import { applyConsentPolicy, type PromptInfo } from '../consent/policy.js';
import { promptOnTty } from '../consent/prompt.js';
import { defaultDialectMaps, parseDialectsConfig, type DialectMaps } from '../dialects/names.js';
import { EVENTS, isEventName, SORTED_EVENT_NAMES } from '../events.js';
import { createBootMdHook } from '../gateway/boot-md.js';
import type { GatewayHooks } from '../gateway/gateway-hooks.js';
import { createToolLoopGuardrails, parseGuardrailsConfig, type ToolLoopGuardrails } from '../guardrails/guardrails.js';
import { HumanInputTracker, prepareAuxiliaryKwargs, redactHumanInputKwargs } from '../lifecycle/index.js';
import { parseOutboundConfig } from '../outbound/config.js';
import type { OutboundDispatcher } from '../outbound/dispatcher.js';
import { createCallbackRunner } from '../plugins/callback-runner.js';
import { parsePluginsConfig } from '../plugins/config.js';
import { allowDecision } from '../resolve/resolve.js';
import { installExitCleanup } from '../spawn/live-hooks.js';
import type { Diagnostic, Emission, EventName, HookSpec } from '../types.js';
import { createLimiter } from './_pool.js';
import type { CallbackEntry, InProcessCallback, RegistryEntry, ShellEntry } from './_registry.js';
import { runEmit, type EmitOptions } from './emit.js';
import { stderrLogger, type Logger } from './logger.js';

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
  /** Hooks of one event running at once (default 16). */
  concurrency?: number;
  /** Per-stream output cap of a hook in bytes (default 1 MiB). */
  maxOutputBytes?: number;
  logger?: Logger;
  /** 'gateway' also loads `<home>/hooks/*` gateway hooks and BOOT.md. Default 'cli'. */
  surface?: 'cli' | 'gateway';
  /** BOOT.md instructions on gateway:startup. */
  onBoot?: (instructions: string) => unknown;
  /** Load `plugins.enabled` plugins (default true). */
  plugins?: boolean;
  /** Kill live hook process groups when the host exits or gets SIGINT/SIGTERM (default true). */
  exitCleanup?: boolean;
  /** Deliver `hooks.outbound` webhooks (default true; the dry run turns them off). */
  outbound?: boolean;
  /**
   * Register only the shell hooks of these events (a one-shot `run`): consent is decided — and
   * warned about — for nothing else. Default: every event.
   */
  events?: readonly EventName[];
}

export interface HookEngine {
  readonly home: string;
  readonly configFile: string;
  readonly profile: string;
  readonly config: LoadedConfig;
  /** Every diagnostic of the config (hooks, outbound, guardrails, plugins, dialects). */
  readonly diagnostics: Diagnostic[];
  /** Shell hook specs as configured (before consent). */
  readonly specs: readonly HookSpec[];
  /** Registered hooks in registration order. */
  hooksFor(event: EventName): readonly RegistryEntry[];
  /** Register an in-process callback; runs before shell hooks. Returns an unregister function. */
  registerHook(event: EventName, callback: InProcessCallback, opts?: { name?: string }): () => void;
  emit(event: EventName, kwargs?: Record<string, unknown>, opts?: EmitOptions): Promise<Emission>;
  /** Gateway event (`agent:start`, `command:model` …): returns at once, handlers run in the background. */
  emitGateway(eventType: string, context?: Record<string, unknown>): void;
  /** Fire on_session_finalize; the decision's `notifications` are for the user. */
  finalizeSession(kwargs?: Record<string, unknown>): Promise<Emission>;
  /**
   * Resolve pending human-input waits, fire on_session_finalize for open sessions (once with a null
   * session when none was seen; `finalize: false` skips it), flush webhooks, kill live hooks.
   */
  close(opts?: { finalize?: boolean }): Promise<{ notifications: string[] }>;
}

export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? stderrLogger();
  const cwd = options.cwd ?? safeCwd();
  const location = await checkLocation(
    locateConfig({ config: options.config, profile: options.profile, home: options.home, env, naming: 'library' }),
    { naming: 'library' },
  );
  const config = await loadConfig(location.configFile);
  const source = config.source;
  const safeMode = isTruthyEnv(env.HERMES_SAFE_MODE);
  const diagnostics: Diagnostic[] = [...config.diagnostics];
  // hooks_auto_accept approves only from the profile's own config.yaml, never from a config given
  // elsewhere (a repository's file must not approve its own hooks).
  const foreignAutoAccept = location.ownConfig ? null : foreignAutoAcceptDiagnostic(config, join(location.home, CONFIG_FILE_NAME));
  if (foreignAutoAccept) {
    diagnostics.push(foreignAutoAccept);
    logger.warn(`${config.file}:${foreignAutoAccept.line ?? '?'}:${foreignAutoAccept.column ?? '?'}: hooks_auto_accept ${foreignAutoAccept.message}`);
  }

  const plugins = parsePluginsConfig(source);
  const dialects = config.exists ? parseDialectsConfig(source) : { maps: defaultDialectMaps(), diagnostics: [] };
  const guard = parseGuardrailsConfig(source);
  const outbound = parseOutboundConfig(source, env);
  diagnostics.push(...plugins.diagnostics, ...dialects.diagnostics, ...guard.diagnostics, ...outbound.diagnostics);
  const dialectMaps: DialectMaps = dialects.maps;

  if (options.exitCleanup ?? true) installExitCleanup();

  // Consent: at start-up, like Hermes registration (prompts and --accept-hooks approvals happen
  // here, safe mode drops every shell hook); then again right before every launch (LaunchGate), so
  // an edited script, a revoke or an approve from another process counts at the next emit.
  const enforce = options.enforceConsent ?? true;
  // Only the implicit default home may be created by a first approval; a given one exists already.
  const store = await ConsentStore.open(location.home, { warn: (m) => logger.warn(m), cwd, env, createHome: location.homeFrom === 'default' });
  const shellEntries: ShellEntry[] = [];
  const wanted = options.events ? new Set<EventName>(options.events) : null;
  const specs = wanted ? config.specs.filter((s) => wanted.has(s.event)) : config.specs;
  let gate: LaunchGate | null = null;
  if (enforce) {
    const accept = Boolean(options.acceptHooks) || isTruthyEnv(env.HERMES_ACCEPT_HOOKS) || (config.autoAccept && location.ownConfig);
    const outcomes = await applyConsentPolicy(specs, {
      store,
      accept,
      safeMode,
      interactive: options.interactive ?? Boolean(process.stdin.isTTY && process.stderr.isTTY),
      // A host that said "never prompt" is never told to approve at a prompt.
      promptable: options.interactive !== false,
      prompt: options.prompt ?? promptOnTty,
      warn: (m) => logger.warn(m),
    });
    if (!safeMode) {
      gate = new LaunchGate({ store, accept, warn: (m) => logger.warn(m), promptable: options.interactive !== false });
      for (const o of outcomes) {
        gate.noteStartup(o);
        const matcher = compileMatcher(o.spec.matcher);
        shellEntries.push({ kind: 'shell', event: o.spec.event, spec: o.spec, matcher, consent: o.consent, action: 'run' });
      }
    }
  } else {
    // The dry run: consent reported, not enforced. Safe mode still holds: listed, never run.
    for (const spec of specs) {
      shellEntries.push({
        kind: 'shell',
        event: spec.event,
        spec,
        matcher: compileMatcher(spec.matcher),
        consent: await store.state(spec),
        action: safeMode ? 'safe_mode' : 'run',
      });
    }
  }

  const callbackEntries: CallbackEntry[] = [];
  if ((options.plugins ?? true) && !safeMode && plugins.enabled.length > 0) {
    const { loadPlugins } = await import('../plugins/load.js');
    const loaded = await loadPlugins({ home: location.home, enabled: plugins.enabled, safeMode, logger });
    diagnostics.push(...loaded.diagnostics);
    for (const h of loaded.hooks) {
      callbackEntries.push({ kind: 'plugin', event: h.event, name: h.name, plugin: h.plugin, callback: h.callback });
    }
  }

  // Hermes' pre_tool_call kwargs carry no platform: a gateway host is unattended unless it says otherwise.
  const guardrails: ToolLoopGuardrails | null = createToolLoopGuardrails(guard.config, {
    defaultPlatform: options.surface === 'gateway' ? 'gateway' : null,
  });
  const dispatcher: OutboundDispatcher | null =
    (options.outbound ?? true) && !safeMode && outbound.targets.length > 0
      ? (await import('../outbound/dispatcher.js')).createOutboundDispatcher(outbound.targets, {
          profile: location.profile,
          cwd,
          logger,
        })
      : null;

  let gateway: GatewayHooks | null = null;
  const boot = createBootMdHook({ home: location.home, onBoot: options.onBoot, logger });
  if (options.surface === 'gateway') {
    const { loadGatewayHooks } = await import('../gateway/gateway-hooks.js');
    gateway = await loadGatewayHooks({ home: location.home, logger, env });
  }

  const callbacks = createCallbackRunner({ timeoutMs: plugins.hookCallbackTimeoutMs, logger });
  const hostCallbacks: CallbackEntry[] = [];
  const abort = new AbortController();
  // Every running hook listens on this one signal (up to `concurrency` at once, across emits):
  // without this, a pool wider than 10 makes Node print a MaxListenersExceededWarning to stderr.
  setMaxListeners(0, abort.signal);
  const limiter = createLimiter(options.concurrency ?? 16);
  const tracker = new HumanInputTracker();
  const openSessions = new Set<string>();
  const stdoutWarned = new Set<string>();
  let closed = false;
  let hostSeq = 0;

  const registry = (event: EventName): RegistryEntry[] => {
    const list: RegistryEntry[] = [
      ...hostCallbacks.filter((e) => e.event === event),
      ...callbackEntries.filter((e) => e.event === event),
      ...shellEntries.filter((e) => e.event === event),
    ];
    if (guardrails && (event === 'pre_tool_call' || event === 'post_tool_call')) {
      list.push({ kind: 'builtin', event, name: 'tool_loop_guardrails' });
    }
    return list;
  };

  const extraEnvFor = (event: EventName): Record<string, string> => ({
    HERMES_HOME: location.home,
    HERMES_HOOK_EVENT: event,
  });

  const emit = async (
    event: EventName,
    kwargs: Record<string, unknown> = {},
    opts: EmitOptions = {},
  ): Promise<Emission> => {
    if (!isEventName(event)) {
      throw new TypeError(`unknown hook event '${String(event)}' (valid: ${SORTED_EVENT_NAMES.join(', ')})`);
    }
    if (closed) throw new Error('hook engine is closed');
    let args = kwargs;
    if (event === 'on_human_input_request') {
      // The prompt reaches hooks redacted; the tracker remembers the request so exactly one resolved follows.
      args = tracker.request(kwargs) ?? redactHumanInputKwargs(kwargs);
    } else if (event === 'on_human_input_resolved') {
      const resolved = tracker.resolve(kwargs);
      // A second (or unknown) resolve for a request is dropped: exactly one resolved per request.
      if (!resolved) return emptyEmission(event, redactHumanInputKwargs(kwargs), location.profile, cwd);
      args = resolved;
    } else if (event === 'pre_auxiliary_call') {
      args = prepareAuxiliaryKwargs(kwargs);
    }
    return emitPrepared(event, args, opts);
  };

  const emitPrepared = async (event: EventName, args: Record<string, unknown>, opts: EmitOptions): Promise<Emission> => {
    if (typeof args.session_id === 'string' && args.session_id) {
      if (event === 'on_session_finalize') openSessions.delete(args.session_id);
      else openSessions.add(args.session_id);
    }
    const emission = await runEmit(
      {
        entries: registry(event),
        limiter,
        callbacks,
        guardrails,
        dialectMaps,
        env,
        extraEnv: extraEnvFor(event),
        cwd,
        profile: location.profile,
        maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
        signal: abort.signal,
        logger,
        stdoutWarned,
        gate,
      },
      event,
      args,
      opts,
    );
    if (dispatcher && EVENTS[event]) dispatcher.notify(event, args);
    return emission;
  };

  const engine: HookEngine = {
    home: location.home,
    configFile: location.configFile,
    profile: location.profile,
    config,
    diagnostics,
    specs: config.specs,
    hooksFor: registry,
    registerHook(event, callback, opts = {}) {
      if (!isEventName(event)) throw new TypeError(`unknown hook event '${String(event)}'`);
      const entry: CallbackEntry = {
        kind: 'plugin',
        event,
        name: opts.name ?? (callback.name || `host#${++hostSeq}`),
        plugin: 'host',
        callback,
      };
      hostCallbacks.push(entry);
      return () => {
        const i = hostCallbacks.indexOf(entry);
        if (i >= 0) hostCallbacks.splice(i, 1);
      };
    },
    emit,
    emitGateway(eventType, context = {}) {
      if (closed) return;
      if (eventType === 'gateway:startup') boot.handle(eventType, context);
      gateway?.emitGateway(eventType, context);
    },
    finalizeSession(kwargs = {}) {
      return emit('on_session_finalize', { session_id: null, ...kwargs });
    },
    async close(opts = {}) {
      if (closed) return { notifications: [] };
      const notifications: string[] = [];
      // Teardown hooks first, while the engine still runs hooks.
      // resolveAll already marks them resolved; emit directly so the tracker does not drop them as repeats.
      for (const resolved of tracker.resolveAll('cancelled')) {
        await emitPrepared('on_human_input_resolved', resolved, {}).catch(() => undefined);
      }
      const sessions: (string | null)[] = [...openSessions];
      for (const session_id of opts.finalize === false ? [] : sessions.length ? sessions : [null]) {
        const e = await emit('on_session_finalize', { session_id, reason: 'shutdown' }).catch(() => null);
        notifications.push(...(e?.decision.notifications ?? []));
      }
      closed = true;
      abort.abort();
      await Promise.allSettled([dispatcher?.close(), gateway?.close()]);
      return { notifications };
    },
  };
  return engine;
}

/** What an emit that runs nothing returns (a repeated human-input resolve). */
function emptyEmission(event: EventName, kwargs: Record<string, unknown>, profile: string, cwd: string): Emission {
  const payload = buildPayload(event, kwargs, { cwd, profile }) as unknown as Emission['payload'];
  return { event, payload, hooks: [], decision: allowDecision(event) };
}

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return '';
  }
}

// createHookEngine: load the profile's config, decide consent, register plugin, shell, built-in and
// gateway hooks, and hand the host emit()/emitGateway()/finalizeSession()/close().
// Plugin, gateway and outbound-webhook code is imported only when the config uses it:
// `hermes-hooks run` starts once per event and should load no more than it runs.

import { setMaxListeners } from 'node:events';
import { canonicalJson } from '../_json.js';
import { isTruthyEnv } from '../config/hooks.js';
import { buildPayload } from '../protocol/build-payload.js';
import { join } from 'node:path';
import { checkLocation, type CheckedLocation } from '../config/check-location.js';
import { configLoadError, foreignAutoAcceptDiagnostic, loadConfig, type LoadedConfig } from '../config/load.js';
import { CONFIG_FILE_NAME, locateConfig } from '../config/locate.js';
import { compileMatcher } from '../config/matcher.js';
import { locatedMessage } from '../config/source.js';
import { ConsentStore } from '../consent/store.js';
import { LaunchGate } from '../consent/launch.js';
import { acceptsUnapproved, applyConsentPolicy, type PromptInfo } from '../consent/policy.js';
import { promptOnTty } from '../consent/prompt.js';
import { judgeSubjects, passes, profileSubjects, trustWarnings, type JudgedSubject } from '../consent/trust.js';
import type { DialectMaps } from '../dialects/names.js';
import { EVENTS, isEventName, SORTED_EVENT_NAMES, syntheticKwargKeys } from '../events.js';
import { readPayload } from '../protocol/read-payload.js';
import { foreignInputMessage, importCommandFor, recogniseAgentInput } from '../dialects/recognise.js';
import { AGENT_LABELS, isAgentDialect } from '../dialects/names.js';
import { createBootMdHook, type BootRun } from '../gateway/boot-md.js';
import { TTS_UNSTABLE } from '../directives/transforms.js';
import type { GatewayHooks } from '../gateway/gateway-hooks.js';
import { createToolLoopGuardrails, parseGuardrailsConfig, type ToolLoopGuardrails } from '../guardrails/guardrails.js';
import { HumanInputTracker, prepareAuxiliaryKwargs, redactHumanInputKwargs } from '../lifecycle/index.js';
import { parseOutboundConfig } from '../outbound/config.js';
import type { OutboundDispatcher } from '../outbound/dispatcher.js';
import { createCallbackRunner } from '../plugins/callback-runner.js';
import { parsePluginsConfig } from '../plugins/config.js';
import { allowDecision } from '../resolve/resolve.js';
import { installExitCleanup } from '../spawn/live-hooks.js';
import type { Diagnostic, Emission, EventName, FinalizeNotice, HookSpec, SessionFinalized } from '../types.js';
import { createLimiter } from './_pool.js';
import type { CallbackEntry, InProcessCallback, RegistryEntry, ShellEntry } from './registry.js';
import { runEmit, type EmitOptions } from './emit.js';
import { createSessionBook, type SessionBook } from './_sessions.js';
import { stderrLogger, type Logger } from './logger.js';
import { errorText } from '../errors.js';

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
  /** Open sessions remembered for finalize; past it the least recently seen is finalized (`evicted`). Default 10 000. */
  maxOpenSessions?: number;
  /** Told about every finalize the engine fires on its own (idle, evicted, shutdown) that ran hooks. */
  onSessionFinalized?: (event: SessionFinalized) => void;
}

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
}

export interface ReloadResult {
  /** False when the new config could not be read or parsed; the last good one stays in force. */
  ok: boolean;
  /** Why it was refused (file:line:column: message), or null. */
  error: string | null;
  /** The diagnostics of the file as read now (the refused one when ok is false). */
  diagnostics: Diagnostic[];
}

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

/** Everything the config decides; rebuilt by reload() and swapped in one assignment. */
interface Generation {
  config: LoadedConfig;
  /** Consent re-checked right before every launch (null: dry run or safe mode). */
  gate: LaunchGate | null;
  diagnostics: Diagnostic[];
  untrusted: JudgedSubject[];
  shellEntries: ShellEntry[];
  callbackEntries: CallbackEntry[];
  dialectMaps: DialectMaps;
  guardrails: ToolLoopGuardrails | null;
  guardKey: string;
  dispatcher: OutboundDispatcher | null;
  outboundKey: string;
  pluginsKey: string;
  /** Stops the plugins' workers (threads / python3 processes) this generation started. */
  closePlugins: () => Promise<void>;
  callbackTimeoutMs: number | null;
}

export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  const location = await checkLocation(
    locateConfig({ config: options.config, profile: options.profile, home: options.home, env: options.env ?? process.env, naming: 'library' }),
    { naming: 'library' },
  );
  const logger = options.logger ?? stderrLogger();
  const engine = await createHookEngineAt(location, await loadConfig(location.configFile), { ...options, logger });
  // The faces print the config's diagnostics themselves; a library host hears trust failures here.
  for (const u of engine.untrusted) if (u.message !== '') logger.warn(u.message);
  return engine;
}

/**
 * The engine on a location already checked and its config already read: the CLI checks both first
 * (to word its errors for the command line) and must not read and lint the file a second time on
 * every `run`. `options`' config/profile/home are not looked at again.
 */
export async function createHookEngineAt(location: CheckedLocation, initial: LoadedConfig, options: HookEngineOptions = {}): Promise<HookEngine> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? stderrLogger();
  const cwd = options.cwd ?? safeCwd();
  const safeMode = isTruthyEnv(env.HERMES_SAFE_MODE);
  const enforce = options.enforceConsent ?? true;

  if (options.exitCleanup ?? true) installExitCleanup();

  /** Load config.yaml and decide consent; reuse from `prev` whatever did not change (plugins, guardrail counts, webhooks). */
  const build = async (config: LoadedConfig, prev: Generation | null, interactive: boolean): Promise<Generation> => {
    const source = config.source;
    const diagnostics: Diagnostic[] = [...config.diagnostics];
    const plugins = parsePluginsConfig(source);
    const dialects = config.dialects;
    const guard = parseGuardrailsConfig(source);
    const outbound = parseOutboundConfig(source, env);
    diagnostics.push(...plugins.diagnostics, ...dialects.diagnostics, ...guard.diagnostics, ...outbound.diagnostics);
    // The trust rule: a config (or a home) another user can write grants nothing (see trustOf).
    const trust = trustOf(location, config, {
      acceptHooks: options.acceptHooks === true,
      envAccept: isTruthyEnv(env.HERMES_ACCEPT_HOOKS),
      plugins: plugins.enabled,
      webhooks: outbound.targets.length,
    });
    diagnostics.push(...trust.diagnostics);
    const enabledPlugins = trust.configTrusted ? plugins.enabled : [];
    // hooks_auto_accept approves only from the profile's own config.yaml, never from a config given
    // elsewhere (a repository's file must not approve its own hooks).
    const foreignAutoAccept = location.ownConfig ? null : foreignAutoAcceptDiagnostic(config, join(location.home, CONFIG_FILE_NAME));
    if (foreignAutoAccept) {
      diagnostics.push(foreignAutoAccept);
      logger.warn(`${config.file}:${foreignAutoAccept.line ?? '?'}:${foreignAutoAccept.column ?? '?'}: hooks_auto_accept ${foreignAutoAccept.message}`);
    }

    // Consent: at load, like Hermes registration (prompts and --accept-hooks approvals happen here,
    // never on reload; safe mode drops every shell hook); then again right before every launch
    // (LaunchGate), so an edited script, a revoke or an approve from another process counts at the
    // next emit.
    // Only the implicit default home may be created by a first approval; a given one exists already.
    const store = await ConsentStore.open(location.home, { warn: (m) => logger.warn(m), cwd, env, createHome: location.homeFrom === 'default' });
    const shellEntries: ShellEntry[] = [];
    const wanted = options.events ? new Set<EventName>(options.events) : null;
    const specs = wanted ? config.specs.filter((s) => wanted.has(s.event)) : config.specs;
    let gate: LaunchGate | null = null;
    if (enforce) {
      const accept = acceptsUnapproved({ acceptHooks: options.acceptHooks, env, autoAccept: config.autoAccept, ownConfig: location.ownConfig, configTrusted: trust.configTrusted });
      const outcomes = await applyConsentPolicy(specs, {
        store,
        accept,
        safeMode,
        interactive,
        // A host that said "never prompt" is never told to approve at a prompt.
        promptable: options.interactive !== false,
        prompt: options.prompt ?? promptOnTty,
        warn: (m) => logger.warn(m),
        blanketAccept: trust.configTrusted,
      });
      if (!safeMode) {
        gate = new LaunchGate({ store, accept, warn: (m) => logger.warn(m), promptable: options.interactive !== false, blanketAccept: trust.configTrusted, previous: prev?.gate });
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

    // Another agent's block under hooks: (issue 20): its entries never run, and a guard among them
    // blocks the calls it would have checked until it is converted. Nothing runs in safe mode.
    if (config.foreign.length > 0 && !safeMode) {
      for (const entry of await unconvertedEntries(config, dialects.maps)) if (!wanted || wanted.has(entry.event)) shellEntries.push(entry);
    }

    const pluginsKey = canonicalJson(enabledPlugins);
    let callbackEntries: CallbackEntry[] = [];
    let closePlugins = async (): Promise<void> => {};
    if (prev && prev.pluginsKey === pluginsKey) {
      callbackEntries = prev.callbackEntries;
      closePlugins = prev.closePlugins;
    } else if ((options.plugins ?? true) && !safeMode && enabledPlugins.length > 0) {
      const { loadPlugins } = await import('../plugins/load.js');
      const loaded = await loadPlugins({ home: location.home, enabled: enabledPlugins, safeMode, logger, env });
      closePlugins = loaded.close;
      diagnostics.push(...loaded.diagnostics);
      for (const h of loaded.hooks) {
        callbackEntries.push({ kind: 'plugin', event: h.event, name: h.name, plugin: h.plugin, callback: h.callback });
      }
    }

    // Guardrail counts are session state: kept unless the thresholds themselves changed.
    const guardKey = canonicalJson(guard.config);
    const guardrails =
      prev && prev.guardKey === guardKey
        ? prev.guardrails
        : // Hermes' pre_tool_call kwargs carry no platform: a gateway host is unattended unless it says otherwise.
          createToolLoopGuardrails(guard.config, { defaultPlatform: options.surface === 'gateway' ? 'gateway' : null });
    if (prev && prev.guardKey !== guardKey) logger.warn('tool-loop guardrail settings changed: their per-session counts start over');

    const wantsOutbound = (options.outbound ?? true) && !safeMode && trust.configTrusted && outbound.targets.length > 0;
    const outboundKey = wantsOutbound ? canonicalJson(outbound.targets) : '';
    const dispatcher: OutboundDispatcher | null =
      prev && prev.outboundKey === outboundKey
        ? prev.dispatcher
        : wantsOutbound
          ? (await import('../outbound/dispatcher.js')).createOutboundDispatcher(outbound.targets, {
              profile: location.profile,
              cwd,
              logger,
            })
          : null;

    return {
      config,
      gate,
      diagnostics,
      untrusted: trust.untrusted,
      shellEntries,
      callbackEntries,
      dialectMaps: dialects.maps,
      guardrails,
      guardKey,
      dispatcher,
      outboundKey,
      pluginsKey,
      closePlugins,
      callbackTimeoutMs: plugins.hookCallbackTimeoutMs,
    };
  };

  // A guard never fails open without saying so: a config that exists but cannot be read or parsed
  // registers no shell hooks, and the host hears it (it is also engine.diagnostics' error).
  const broken = configLoadError(initial);
  if (broken) logger.warn(`cannot use config: ${broken} — no shell hooks are registered from it`);
  let gen = await build(initial, null, options.interactive ?? Boolean(process.stdin.isTTY && process.stderr.isTTY));
  let generation = 0;
  let reloadError: string | null = null;
  let reloadDiagnostics: Diagnostic[] = [];

  let gateway: GatewayHooks | null = null;
  const boot = createBootMdHook({ home: location.home, onBoot: options.onBoot, onBootReply: options.onBootReply, logger });
  if (options.surface === 'gateway') {
    const { loadGatewayHooks } = await import('../gateway/gateway-hooks.js');
    gateway = await loadGatewayHooks({ home: location.home, logger, env });
  }

  // Plugin suppression windows live in the runner: it is replaced only when its timeout changes.
  let callbacks = createCallbackRunner({ timeoutMs: gen.callbackTimeoutMs, logger });
  const hostCallbacks: CallbackEntry[] = [];
  const abort = new AbortController();
  // Every running hook listens on this one signal (up to `concurrency` at once, across emits):
  // without this, a pool wider than 10 makes Node print a MaxListenersExceededWarning to stderr.
  setMaxListeners(0, abort.signal);
  const limiter = createLimiter(options.concurrency ?? 16);
  const tracker = new HumanInputTracker();
  const stdoutWarned = new Set<string>();
  let closed = false;
  let hostSeq = 0;

  const registryOf = (g: Generation, event: EventName): RegistryEntry[] => {
    const list: RegistryEntry[] = [
      ...hostCallbacks.filter((e) => e.event === event),
      ...g.callbackEntries.filter((e) => e.event === event),
      ...g.shellEntries.filter((e) => e.event === event),
    ];
    if (g.guardrails && (event === 'pre_tool_call' || event === 'post_tool_call')) {
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
    payload: Record<string, unknown> = {},
    opts: EmitOptions = {},
  ): Promise<Emission> => {
    if (!isEventName(event)) {
      throw new TypeError(`unknown hook event '${String(event)}' (valid: ${SORTED_EVENT_NAMES.join(', ')})`);
    }
    if (closed) throw new Error('hook engine is closed');
    // One payload, one meaning on every face: the wire form a hook reads or the host's kwargs.
    const reading = readPayload(event, payload, { knownKwargs: syntheticKwargKeys(event) });
    const kwargs = reading.kwargs;
    const options: EmitOptions = {
      ...(reading.cwd !== undefined ? { payloadCwd: reading.cwd } : {}),
      ...(reading.profile !== undefined ? { payloadProfile: reading.profile } : {}),
      ...opts,
    };
    // Another agent's stdin sent as ours: its names are not ours, so guards would not see the call.
    const foreign = reading.form === 'wire' ? recogniseAgentInput(payload, gen.dialectMaps) : null;
    const foreignMessage = foreign ? foreignInputMessage(foreign, event, gen.dialectMaps) : null;
    // One message that says it all, instead of one per key of theirs that is not ours.
    if (foreignMessage !== null) reading.diagnostics.splice(0, Infinity, { level: 'error', path: 'hook_event_name', line: null, column: null, message: foreignMessage });
    let args = kwargs;
    let emission: Emission;
    if (event === 'on_human_input_request') {
      // The prompt reaches hooks redacted; the tracker remembers the request so exactly one resolved follows.
      args = tracker.request(kwargs) ?? redactHumanInputKwargs(kwargs);
      emission = await emitPrepared(event, args, options);
    } else if (event === 'on_human_input_resolved') {
      const resolved = tracker.resolve(kwargs);
      // A second (or unknown) resolve for a request is dropped: exactly one resolved per request.
      emission = resolved ? await emitPrepared(event, resolved, options) : emptyEmission(event, redactHumanInputKwargs(kwargs), location.profile, cwd);
    } else if (event === 'pre_auxiliary_call') {
      emission = await emitPrepared(event, prepareAuxiliaryKwargs(kwargs), options);
    } else if (event === 'on_session_finalize' && !sessions.claimFinalize(args)) {
      // Once per session: this one was finalized already and has not been seen since.
      emission = emptyEmission(event, kwargs, location.profile, cwd);
    } else {
      emission = await emitPrepared(event, args, options);
    }
    // A tool gate with a guard configured never lets such a call through unchecked.
    if (foreignMessage !== null && EVENTS[event].canBlock && emission.decision.action !== 'block' && emission.hooks.some((h) => h.kind !== 'builtin')) {
      Object.assign(emission.decision, { action: 'block', message: `hermes-hooks cannot check this call: ${foreignMessage}`, args: null, decided_by: null, modified_by: [], conflicts: [] });
    }
    emission.diagnostics = [...reading.diagnostics, ...emission.diagnostics];
    return emission;
  };

  const emitPrepared = async (event: EventName, args: Record<string, unknown>, opts: EmitOptions): Promise<Emission> => {
    const g = gen; // one registry for the whole emit, whatever a reload swaps in meanwhile
    const done = event === 'on_session_finalize' ? null : sessions.touch(args);
    const once = (kwargs: Record<string, unknown>): Promise<Emission> =>
      runEmit(
        {
          entries: registryOf(g, event),
          limiter,
          callbacks,
          guardrails: g.guardrails,
          dialectMaps: g.dialectMaps,
          env,
          extraEnv: extraEnvFor(event),
          cwd,
          profile: location.profile,
          maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
          signal: abort.signal,
          logger,
          stdoutWarned,
          gate: g.gate,
        },
        event,
        kwargs,
        opts,
      );
    try {
      const emission = await once(args);
      if (event === 'pre_tts_synthesis') await recheckTtsScript(emission, args, once);
      if (event === 'on_session_finalize') {
        emission.decision.notices = noticesOf(emission, sessionIdOf(args), sessionKeyOf(args));
      }
      if (g.dispatcher && EVENTS[event]) g.dispatcher.notify(event, args);
      if (event === 'on_session_finalize' && typeof args.session_id === 'string') g.guardrails?.resetSession(args.session_id);
      return emission;
    } finally {
      done?.();
    }
  };

  /** Finalize one session the host did not finalize itself (idle, evicted, shutdown). */
  const finalizeFor = async (session_id: string, session_key: string | null, reason: SessionFinalized['reason']): Promise<FinalizeNotice[]> => {
    const kwargs: Record<string, unknown> = { session_id, reason };
    if (session_key !== null) kwargs.session_key = session_key;
    const e = await emit('on_session_finalize', kwargs).catch((err: unknown) => {
      logger.warn(`on_session_finalize for session ${session_id} failed: ${errorText(err)}`);
      return null;
    });
    const notices = e?.decision.notices ?? []; // emit attached them, with this session
    // Shutdown notices go back through close(); the host hears of the others only from here.
    if (reason !== 'shutdown' && e && e.hooks.length > 0) {
      try {
        options.onSessionFinalized?.({ session_id, session_key, reason, notices });
      } catch (err) {
        logger.warn(`onSessionFinalized threw: ${errorText(err)}`);
      }
    }
    return notices;
  };

  const sessions: SessionBook = createSessionBook({
    idleMs: options.sessionIdleMs ?? null,
    maxOpen: options.maxOpenSessions ?? 10_000,
    onExpire: (id, key, reason) => void finalizeFor(id, key, reason),
  });

  let reloading: Promise<ReloadResult> = Promise.resolve({ ok: true, error: null, diagnostics: [] });
  const reload = (): Promise<ReloadResult> => {
    // One reload at a time, in call order: a burst of file events ends with the file as it is now.
    reloading = reloading.then(async (): Promise<ReloadResult> => {
      if (closed) return { ok: false, error: 'hook engine is closed', diagnostics: [] };
      const config = await loadConfig(location.configFile);
      const broken = configLoadError(config);
      if (broken) {
        reloadError = broken;
        reloadDiagnostics = config.diagnostics;
        logger.warn(`config reload refused, the last good config stays in force: ${broken}`);
        return { ok: false, error: broken, diagnostics: config.diagnostics };
      }
      let next: Generation;
      try {
        next = await build(config, gen, false);
      } catch (e) {
        reloadError = `reload failed: ${errorText(e)}`;
        reloadDiagnostics = config.diagnostics;
        logger.warn(`config reload failed, the last good config stays in force: ${errorText(e)}`);
        return { ok: false, error: reloadError, diagnostics: config.diagnostics };
      }
      const old = gen;
      gen = next; // the swap: emits that start from now on see the new registries
      generation += 1;
      reloadError = null;
      reloadDiagnostics = [];
      if (next.callbackTimeoutMs !== old.callbackTimeoutMs) callbacks = createCallbackRunner({ timeoutMs: next.callbackTimeoutMs, logger });
      if (old.dispatcher && old.dispatcher !== next.dispatcher) void old.dispatcher.close().catch(() => undefined);
      if (old.closePlugins !== next.closePlugins) void old.closePlugins().catch(() => undefined);
      // What a reload loses is said as loudly as a broken file: an entry that no longer runs as
      // written, or the whole file gone (every call allowed from now on).
      if (!config.exists && old.config.exists) {
        logger.warn(`config reloaded: ${location.configFile} is gone, so no hooks are configured; every call is allowed until it is written again`);
      }
      for (const d of next.diagnostics) if (d.level !== 'info') logger.warn(`config reloaded with a problem: ${locatedMessage(d, location.configFile)}`);
      return { ok: true, error: null, diagnostics: next.diagnostics };
    });
    return reloading;
  };

  const engine: HookEngine = {
    home: location.home,
    configFile: location.configFile,
    profile: location.profile,
    get config() {
      return gen.config;
    },
    get diagnostics() {
      return gen.diagnostics;
    },
    get specs() {
      return gen.config.specs;
    },
    get untrusted() {
      return gen.untrusted;
    },
    hooksFor: (event) => registryOf(gen, event),
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
    finalizeSession(kwargs = {}, opts = {}) {
      return emit('on_session_finalize', { session_id: null, ...kwargs }, opts);
    },
    reload,
    stats: () => ({
      open_sessions: sessions.size(),
      pending_human_input: tracker.pending().length,
      generation,
      reload_error: reloadError,
      reload_diagnostics: reloadDiagnostics,
      safe_mode: safeMode,
      config_exists: gen.config.exists,
      untrusted: gen.untrusted.map((u) => u.message).filter((m) => m !== ''),
    }),
    async close(opts = {}) {
      if (closed) return { notifications: [], notices: [] };
      await reloading.catch(() => undefined);
      const notices: FinalizeNotice[] = [];
      sessions.stop();
      // Teardown hooks first, while the engine still runs hooks.
      // resolveAll already marks them resolved; emit directly so the tracker does not drop them as repeats.
      for (const resolved of tracker.resolveAll('withdrawn')) {
        await emitPrepared('on_human_input_resolved', resolved, {}).catch(() => undefined);
      }
      const open = sessions.drain();
      if (opts.finalize !== false) {
        // No session ever seen: once with none, so on_session_finalize hooks still run at exit.
        if (open.length === 0 && !sessions.seenAny()) {
          const e = await emit('on_session_finalize', { session_id: null, reason: 'shutdown' }).catch(() => null);
          notices.push(...(e?.decision.notices ?? []));
        }
        for (const s of open) notices.push(...(await finalizeFor(s.session_id, s.session_key, 'shutdown')));
      }
      closed = true;
      abort.abort();
      await Promise.allSettled([gen.dispatcher?.close(), gateway?.close(), gen.closePlugins()]);
      return { notifications: notices.map((n) => n.message), notices };
    },
  };
  return engine;
}

/**
 * The profile home and the config file under the trust rule (consent/trust.ts), with what failing
 * it costs here: an untrusted config grants nothing — its hooks run only when already approved,
 * blanket acceptance (hooks_auto_accept, --accept-hooks, HERMES_ACCEPT_HOOKS) does not apply to
 * them, its plugins.enabled and hooks.outbound are not used — and an untrusted home's allowlist,
 * plugins/, hooks/ and BOOT.md are refused by their own readers under the same rule.
 */
function trustOf(
  location: CheckedLocation,
  config: LoadedConfig,
  asked: { acceptHooks: boolean; envAccept: boolean; plugins: readonly string[]; webhooks: number },
): { configTrusted: boolean; untrusted: JudgedSubject[]; diagnostics: Diagnostic[] } {
  const ignored = [
    ...(config.autoAccept && location.ownConfig ? ['hooks_auto_accept: true'] : []),
    ...(asked.acceptHooks ? ['--accept-hooks'] : []),
    ...(asked.envAccept ? ['HERMES_ACCEPT_HOOKS=1'] : []),
    ...(asked.plugins.length > 0 ? [`plugins.enabled (${asked.plugins.join(', ')})`] : []),
    ...(asked.webhooks > 0 ? [`hooks.outbound (${asked.webhooks} webhook target(s))`] : []),
  ];
  const configConsequence =
    'Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks)' +
    (ignored.length > 0 ? `; ignored: ${ignored.join(', ')}.` : '.');
  const untrusted = judgeSubjects(profileSubjects(location.home, location.configFile, { configConsequence }));
  const configTrusted = passes(untrusted, location.configFile);
  return { configTrusted, untrusted, diagnostics: trustWarnings(untrusted) };
}

function noticesOf(e: Emission | null, session_id: string | null, session_key: string | null): FinalizeNotice[] {
  return (e?.decision.notifications ?? []).map((message) => ({ session_id, session_key, message }));
}

const sessionIdOf = (kwargs: Record<string, unknown>): string | null =>
  typeof kwargs.session_id === 'string' && kwargs.session_id !== '' ? kwargs.session_id : null;
const sessionKeyOf = (kwargs: Record<string, unknown>): string | null =>
  typeof kwargs.session_key === 'string' && kwargs.session_key !== '' ? kwargs.session_key : null;

/**
 * Hermes' TTS boundary re-checks a changed script against every hook once more, so no hook's
 * guard is skipped by another hook's rewrite: a block there blocks, and a second pass that changes
 * the script again blocks as unstable. Mutates the first pass's decision; its hook list stays.
 */
async function recheckTtsScript(
  first: Emission,
  args: Record<string, unknown>,
  once: (kwargs: Record<string, unknown>) => Promise<Emission>,
): Promise<void> {
  const d = first.decision;
  if (d.action !== 'rewrite' || typeof d.result !== 'string' || d.result === args.text) return;
  const approved = d.result;
  const second = (await once({ ...args, text: approved })).decision;
  if (second.action === 'block') {
    Object.assign(d, { action: 'block', message: second.message, result: null, decided_by: second.decided_by, modified_by: [] });
  } else if (second.action === 'rewrite' && second.result !== approved) {
    Object.assign(d, { action: 'block', message: TTS_UNSTABLE, result: null, decided_by: second.decided_by, modified_by: [] });
  }
}

/** What an emit that runs nothing returns (a repeated human-input resolve). */
function emptyEmission(event: EventName, kwargs: Record<string, unknown>, profile: string, cwd: string): Emission {
  const payload = buildPayload(event, kwargs, { cwd, profile }) as unknown as Emission['payload'];
  return { event, payload, hooks: [], decision: allowDecision(event), diagnostics: [] };
}

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return '';
  }
}

/**
 * The entries of another agent's block under `hooks:`, as they would be once converted (the same
 * conversion `hermes-hooks import` writes), registered not to run: each says how to convert it,
 * and on a tool gate blocks the calls its matcher selects. Loaded only when such a block exists.
 */
async function unconvertedEntries(config: LoadedConfig, maps: DialectMaps): Promise<ShellEntry[]> {
  const { importAgentConfig } = await import('../dialects/import.js');
  const imported = importAgentConfig(config.file, config.source.text, { maps, hermesConfig: true });
  if (!isAgentDialect(imported.dialect)) return [];
  const agent = imported.dialect;
  const fix = importCommandFor(config.file, agent);
  return imported.hooks.map((h, index): ShellEntry => {
    const spec: HookSpec = { event: h.event, command: h.command, matcher: h.matcher, timeout: h.timeout ?? 60, fail_closed: h.fail_closed, dialect: h.dialect, index, path: h.source, line: null, column: null };
    const note =
      `${h.source} in ${config.file} is written in ${AGENT_LABELS[agent]}'s format, which Hermes does not read, so it did not run` +
      `${EVENTS[h.event].canBlock ? ' and this call it would have checked is blocked' : ''} — convert it with: ${fix}`;
    return { kind: 'shell', event: h.event, spec, matcher: compileMatcher(h.matcher), consent: null, action: 'not_converted', note };
  });
}

// createHookEngine: load the profile's config, decide consent, register plugin, shell, built-in and
// gateway hooks, and hand the host emit()/emitGateway()/finalizeSession()/close().
// The rooms: options.ts resolves the options once; build.ts turns a config into a generation
// (consent, plugins, guardrails, webhooks); emit-event.ts and event-prep.ts run an emit;
// reload.ts swaps generations; close.ts tears down. This file wires them into the engine object.

import { setMaxListeners } from 'node:events';
import { checkLocation, type CheckedLocation } from '../config/check-location.js';
import { configLoadError, loadConfig, type LoadedConfig } from '../config/load.js';
import { locateConfig } from '../config/locate.js';
import { createBootMdHook } from '../gateway/boot-md.js';
import { resolveCommandDecision, type GatewayCommandContext, type GatewayCommandVerdict } from '../gateway/command-decision.js';
import type { GatewayHooks } from '../gateway/gateway-hooks.js';
import { HumanInputTracker } from '../lifecycle/index.js';
import { createCallbackRunner } from '../plugins/callback-runner.js';
import { installExitCleanup, killLiveHooks, liveHookCount } from '../spawn/live-hooks.js';
import type { EngineStats, HookEngine } from './api.js';
import { buildGeneration, type Generation } from './build.js';
import { closeEngine } from './close.js';
import { emitEvent, finalizeOnOwn, registerHostHook, registryOf } from './emit-event.js';
import { resolveEngineOptions, type HookEngineOptions, type ResolvedEngineOptions } from './options.js';
import { createLimiter } from './_pool.js';
import { createSessionBook } from './_sessions.js';
import type { EngineState } from './_state.js';
import { reloadEngine } from './reload.js';

export type { HookEngineOptions } from './options.js';
export type { EngineStats, HookEngine, ReloadResult } from './api.js';

/** Find the profile, load its config and plugins, and return a ready engine (a location given that does not exist: ConfigLocationError). */
export async function createHookEngine(options: HookEngineOptions = {}): Promise<HookEngine> {
  const { env, logger } = resolveEngineOptions(options);
  const location = await checkLocation(locateConfig({ config: options.config, profile: options.profile, home: options.home, env, naming: 'library' }), {
    naming: 'library',
  });
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
  const opts = resolveEngineOptions(options);
  if (opts.exitCleanup) installExitCleanup();
  // A guard never fails open without saying so: a config that exists but cannot be read or parsed
  // registers no shell hooks, and the host hears it (it is also engine.diagnostics' error).
  const broken = configLoadError(initial);
  if (broken) opts.logger.warn(`cannot use config: ${broken} — no shell hooks are registered from it`);
  const gen = await buildGeneration({ location, opts }, initial, null, opts.interactive);
  const boot = createBootMdHook({ home: location.home, onBoot: opts.onBoot, onBootReply: opts.onBootReply, logger: opts.logger });
  let gateway: GatewayHooks | null = null;
  if (opts.surface === 'gateway') {
    const { loadGatewayHooks } = await import('../gateway/gateway-hooks.js');
    gateway = await loadGatewayHooks({ home: location.home, logger: opts.logger, env: opts.env });
  }
  return engineOf(newState(location, opts, gen, boot, gateway));
}

function newState(
  location: CheckedLocation,
  opts: ResolvedEngineOptions,
  gen: Generation,
  boot: EngineState['boot'],
  gateway: GatewayHooks | null,
): EngineState {
  const abort = new AbortController();
  // Every running hook listens on this one signal (up to `concurrency` at once, across emits):
  // without this, a pool wider than 10 makes Node print a MaxListenersExceededWarning to stderr.
  setMaxListeners(0, abort.signal);
  const st: EngineState = {
    location,
    opts,
    gen,
    generation: 0,
    reloadError: null,
    reloadDiagnostics: [],
    reloading: Promise.resolve({ ok: true, error: null, diagnostics: [] }),
    callbacks: createCallbackRunner({ timeoutMs: gen.callbackTimeoutMs, logger: opts.logger }),
    hostCallbacks: [],
    hostSeq: 0,
    abort,
    limiter: createLimiter(opts.concurrency),
    tracker: new HumanInputTracker(),
    stdoutWarned: new Set<string>(),
    sessions: createSessionBook({
      idleMs: opts.sessionIdleMs,
      maxOpen: opts.maxOpenSessions,
      onExpire: (id, key, reason) => void finalizeOnOwn(st, id, key, reason),
    }),
    boot,
    gateway,
    closed: false,
  };
  return st;
}

/** The host's view of one engine state: every member a line or a call into a room. */
function engineOf(st: EngineState): HookEngine {
  return {
    home: st.location.home,
    configFile: st.location.configFile,
    profile: st.location.profile,
    get config() {
      return st.gen.config;
    },
    get diagnostics() {
      return st.gen.diagnostics;
    },
    get specs() {
      return st.gen.config.specs;
    },
    get untrusted() {
      return st.gen.untrusted;
    },
    hooksFor: (event) => registryOf(st, st.gen, event),
    registerHook: (event, callback, opts) => registerHostHook(st, event, callback, opts),
    emit: (event, kwargs, opts) => emitEvent(st, event, kwargs, opts),
    emitGateway(eventType, context = {}) {
      if (st.closed) return;
      if (eventType === 'gateway:startup') st.boot.handle(eventType, context);
      st.gateway?.emitGateway(eventType, context);
    },
    emitGatewayCollect: (eventType, context = {}, opts) => (st.closed || !st.gateway ? Promise.resolve([]) : st.gateway.emitCollect(eventType, context, opts)),
    decideGatewayCommand: (context, opts) => decideCommand(st, context, opts),
    finalizeSession: (kwargs = {}, opts = {}) => emitEvent(st, 'on_session_finalize', { session_id: null, ...kwargs }, opts),
    reload: () => reloadEngine(st),
    stats: () => statsOf(st),
    close: (opts) => closeEngine(st, opts),
    liveHooks: { count: liveHookCount, killAll: killLiveHooks },
  };
}

async function decideCommand(st: EngineState, context: GatewayCommandContext, opts?: { timeoutMs?: number }): Promise<GatewayCommandVerdict> {
  const name = String(context.command ?? '')
    .trim()
    .replace(/^\/+/, '');
  if (name === '') throw new TypeError('decideGatewayCommand: context.command must name the command (e.g. "reset")');
  const typed = typeof context.raw_command === 'string' && context.raw_command !== '' ? context.raw_command : name;
  const args = typeof context.args === 'string' ? context.args : '';
  const ctx = { ...context, command: name, raw_command: typed, args, raw_args: typeof context.raw_args === 'string' ? context.raw_args : args };
  const answers = st.closed || !st.gateway ? [] : await st.gateway.emitCollect(`command:${name}`, ctx, opts);
  const verdict = resolveCommandDecision(answers, typed);
  for (const note of verdict.ignored) st.opts.logger.warn(`[hooks] command:${name}: ${note}`);
  return { ...verdict, answers };
}

function statsOf(st: EngineState): EngineStats {
  return {
    open_sessions: st.sessions.size(),
    pending_human_input: st.tracker.pending().length,
    generation: st.generation,
    reload_error: st.reloadError,
    reload_diagnostics: st.reloadDiagnostics,
    safe_mode: st.opts.safeMode,
    config_exists: st.gen.config.exists,
    untrusted: st.gen.untrusted.map((u) => u.message).filter((m) => m !== ''),
  };
}

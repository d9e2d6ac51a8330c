// Runs one in-process plugin callback with the Hermes safety rails (reference §4.1, seed 002):
// a per-call bound (`plugins.hook_callback_timeout`) enforced with p-timeout plus an AbortSignal,
// fail-closed pre_tool_call (a timeout or throw blocks the call, naming the callback), a 60 s
// suppression window after a timeout (per tool on tool-scoped events), at most three abandoned
// still-running calls per callback, and warn-once logging of repeated identical failures.
// Plugins' callbacks reach this runner as proxies to their worker (a thread per JS plugin, a python3
// process per Python plugin), whose abort on timeout stops a JS thread outright, so even a
// synchronous endless loop is bounded. A proxy's bound starts once its worker is up to take the call
// (armsItsBound): restarting a dead worker is not the callback's time. Callbacks a host registers (engine.registerHook) are the
// host's own code and run in its thread: there an abandoned async call is bounded, a sync loop not.
// The runner also applies Hermes' dispatcher bound to shell hooks (`bound`, reference §4.1).

import pTimeout, { TimeoutError } from 'p-timeout';
import type { Logger } from '../types.js';
import { EVENTS, type EventName } from '../events.js';
import type { Directive } from '../types.js';
import { deepCopy } from '../util/deep-copy.js';
import { createFailureLog, type FailureLog } from './_failure-log.js';
import { normalisePluginReturn } from './_normalise.js';
import type { PluginCallOutcome, PluginCallback, PluginHook } from './types.js';
import { withHermesDefaults } from './_kwarg-defaults.js';

export const DEFAULT_SUPPRESS_MS = 60_000;
export const DEFAULT_MAX_ABANDONED = 3;

/**
 * Events whose callbacks Hermes' dispatcher runs under `plugins.hook_callback_timeout` — shell
 * hooks included (reference §4.1): pre_tool_call (fails closed) and the hot-path observers (skipped).
 * on_session_finalize/reset, pre_gateway_dispatch, approval, subagent and kanban hooks are unbounded.
 */
export const DISPATCHER_BOUNDED_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'pre_tool_call',
  'post_tool_call',
  'transform_terminal_output',
  'transform_tool_result',
  'transform_llm_output',
  'pre_llm_call',
  'post_llm_call',
  'pre_api_request',
  'post_api_request',
  'api_request_error',
  'pre_verify',
  'on_session_start',
  'on_session_end',
]);

/** Hermes' block when the dispatcher bound expires on pre_tool_call (verbatim, whatever the hook). */
export const DISPATCHER_TIMEOUT_MESSAGE = 'pre_tool_call plugin callback timed out or is still running';

/** What the dispatcher bound made of one shell hook run. */
export type BoundResult<T> =
  | { kind: 'done'; value: T }
  /** Still running at the bound: abandoned (it runs on to its own timeout; its answer is dropped). */
  | { kind: 'abandoned' }
  /** Not started: it timed out less than `suppressMs` ago, or that run is still going. */
  | { kind: 'suppressed'; why: string };

export interface CallbackRunnerOptions {
  /** Bound per call in ms; null = unbounded (no timeout, so no suppression either). */
  timeoutMs: number | null;
  logger: Logger;
  /** How long a callback that timed out is skipped (per tool on tool-scoped events). Default 60 s. */
  suppressMs?: number;
  /** Abandoned (timed out, still running) calls kept per callback before it is suppressed. Default 3. */
  maxAbandoned?: number;
  /** Clock for the suppression window (ms). Injected by tests. */
  now?: () => number;
}

export interface CallbackRunner {
  readonly timeoutMs: number | null;
  readonly suppressMs: number;
  /** Never rejects: every failure becomes an outcome (and a block on pre_tool_call). */
  invoke(hook: PluginHook, event: EventName, kwargs: Record<string, unknown>): Promise<PluginCallOutcome>;
  /**
   * Hermes' dispatcher bound over a callback that is not a plugin (a shell hook): `start(arm)` runs
   * it and calls `arm()` when it really starts (after any queueing), which starts the bound. `key`
   * names the callback (and tool) for the suppression window. Unbounded when timeoutMs is null.
   */
  bound<T>(key: string, start: (arm: () => void) => Promise<T>): Promise<BoundResult<T>>;
}

class CallbackTimeout extends TimeoutError {}

/** A callback marked by armsItsBound: it calls `arm()` once it really starts (absent when called directly). */
export type SelfArmingCallback = (kwargs: Record<string, unknown>, ctx: { signal: AbortSignal; arm?: () => void }) => unknown;

const selfArming = new WeakSet<PluginCallback>();

/**
 * Marks a plugin's proxy to its worker: the runner's bound starts when the proxy calls `arm()`,
 * once a worker is up to take the call, not when the proxy is called. A worker that died is
 * restarted inside the call, and python3's start-up plus the plugin's import (bounded by the
 * register bound) on a loaded machine is not the callback's time: the restarted worker missed the
 * 1 s bound before answering. The bound keeps the size the user configured.
 */
export function armsItsBound(fn: SelfArmingCallback): PluginCallback {
  selfArming.add(fn);
  return fn;
}

const ignore = (): void => {};

interface CallbackState {
  /** Calls that timed out and have not settled yet. */
  abandoned: number;
  /** Suppression key (event, or event + tool name) → end of the window (clock ms). */
  suppressedUntil: Map<string, number>;
}

/** What one runner keeps between calls. */
interface RunnerState {
  timeoutMs: number | null;
  suppressMs: number;
  maxAbandoned: number;
  now: () => number;
  logger: Logger;
  failures: FailureLog;
  // Keyed by the callback function (hosts may rebuild the PluginHook object on every call),
  // then by hook name, so the same function registered twice keeps separate books.
  states: WeakMap<PluginCallback, Map<string, CallbackState>>;
  /** Shell hooks under the dispatcher bound: key → end of the suppression window. */
  boundSuppressed: Map<string, number>;
  /** Shell hooks under the dispatcher bound: key → abandoned runs still going. */
  boundRunning: Map<string, number>;
}

export function createCallbackRunner(opts: CallbackRunnerOptions): CallbackRunner {
  const r: RunnerState = {
    timeoutMs: opts.timeoutMs,
    suppressMs: opts.suppressMs ?? DEFAULT_SUPPRESS_MS,
    maxAbandoned: opts.maxAbandoned ?? DEFAULT_MAX_ABANDONED,
    now: opts.now ?? Date.now,
    logger: opts.logger,
    failures: createFailureLog(opts.logger),
    states: new WeakMap(),
    boundSuppressed: new Map(),
    boundRunning: new Map(),
  };
  return {
    timeoutMs: r.timeoutMs,
    suppressMs: r.suppressMs,
    invoke: (hook, event, kwargs) => invokeCallback(r, hook, event, kwargs),
    bound: (key, start) => runUnderBound(r, key, start),
  };
}

function stateFor(r: RunnerState, hook: PluginHook): CallbackState {
  let byName = r.states.get(hook.callback);
  if (!byName) r.states.set(hook.callback, (byName = new Map()));
  let st = byName.get(hook.name);
  if (!st) byName.set(hook.name, (st = { abandoned: 0, suppressedUntil: new Map() }));
  return st;
}

/** Why the callback is not called now (it timed out recently, or too many calls are still running); null: call it. */
function suppressedWhy(r: RunnerState, st: CallbackState, key: string): string | null {
  const until = st.suppressedUntil.get(key);
  const t = r.now();
  if (until !== undefined && t < until) return `is suppressed for another ${Math.ceil((until - t) / 1000)}s after timing out`;
  if (until !== undefined) st.suppressedUntil.delete(key);
  if (st.abandoned >= r.maxAbandoned) return `is suppressed: ${st.abandoned} earlier calls timed out and are still running`;
  return null;
}

/** One call of the callback; `armed` settles when its bound starts (at once unless it arms itself). */
function startCall(hook: PluginHook, kwargs: Record<string, unknown>): { pending: Promise<unknown>; armed: Promise<void>; controller: AbortController } {
  const controller = new AbortController();
  let arm!: () => void;
  const armed = new Promise<void>((resolve) => (arm = resolve));
  const arms = selfArming.has(hook.callback);
  // Only a worker's proxy is told how to arm; a host's own callback gets what it always got.
  const ctx = arms ? { signal: controller.signal, arm } : { signal: controller.signal };
  let pending: Promise<unknown>;
  try {
    pending = Promise.resolve(hook.callback(deepCopy(kwargs), ctx));
  } catch (e) {
    pending = Promise.reject(e);
  }
  if (!arms) arm();
  return { pending, armed, controller };
}

async function invokeCallback(r: RunnerState, hook: PluginHook, event: EventName, kwargs: Record<string, unknown>): Promise<PluginCallOutcome> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const { timeoutMs } = r;
  const st = stateFor(r, hook);
  const key = EVENTS[event]?.toolScoped ? `${event}\u0000${String(kwargs.tool_name ?? '')}` : event;

  const why = timeoutMs === null ? null : suppressedWhy(r, st, key);
  if (why !== null) {
    const text = `${event} plugin callback ${hook.name} ${why}`;
    r.logger.debug?.(`${text}; skipped`);
    return { directive: failClosed(event, text), status: 'suppressed', error: text, duration_ms: elapsed() };
  }

  const { pending, armed, controller } = startCall(hook, withHermesDefaults(event, kwargs));
  try {
    if (timeoutMs !== null) await Promise.race([armed, pending.then(ignore, ignore)]);
    const value = timeoutMs === null ? await pending : await pTimeout(pending, { milliseconds: timeoutMs, message: new CallbackTimeout() });
    const directive = normalisePluginReturn(event, value, hook.name);
    return { directive, status: 'ok', error: null, duration_ms: elapsed() };
  } catch (e) {
    if (e instanceof CallbackTimeout && timeoutMs !== null) {
      controller.abort(e);
      const text = abandon(r, st, key, hook, event, kwargs, pending, timeoutMs);
      return { directive: failClosed(event, text), status: 'timeout', error: text, duration_ms: elapsed() };
    }
    const described = describeError(e);
    const text = `${event} plugin callback ${hook.name} raised ${described}`;
    r.failures.report(hook.name, `error\u0000${described}`, `${text}; ${consequence(event)}`, kwargs);
    return { directive: failClosed(event, text), status: 'error', error: text, duration_ms: elapsed() };
  }
}

/** A call that timed out: counted as still running until it settles, its key suppressed; returns the error text. */
function abandon(
  r: RunnerState,
  st: CallbackState,
  key: string,
  hook: PluginHook,
  event: EventName,
  kwargs: Record<string, unknown>,
  pending: Promise<unknown>,
  timeoutMs: number,
): string {
  st.abandoned++;
  const release = (): void => {
    st.abandoned--;
  };
  pending.then(release, (late: unknown) => {
    release();
    r.logger.debug?.(`plugin callback ${hook.name} (${event}) failed after it had timed out: ${describeError(late)}`);
  });
  st.suppressedUntil.set(key, r.now() + r.suppressMs);
  const text = `${event} plugin callback ${hook.name} timed out after ${fmtSeconds(timeoutMs)}s`;
  r.failures.report(hook.name, 'timeout', `${text}; ${consequence(event)}; it is suppressed for ${fmtSeconds(r.suppressMs)}s`, kwargs);
  return text;
}

async function runUnderBound<T>(r: RunnerState, key: string, start: (arm: () => void) => Promise<T>): Promise<BoundResult<T>> {
  const { timeoutMs } = r;
  if (timeoutMs === null) return { kind: 'done', value: await start(() => {}) };
  const until = r.boundSuppressed.get(key);
  const t = r.now();
  if ((r.boundRunning.get(key) ?? 0) > 0) return { kind: 'suppressed', why: 'its earlier run timed out and is still running' };
  if (until !== undefined && t < until) {
    return { kind: 'suppressed', why: `it is suppressed for another ${Math.ceil((until - t) / 1000)}s after timing out` };
  }
  if (until !== undefined) r.boundSuppressed.delete(key);
  let timer: NodeJS.Timeout | undefined;
  let expire!: () => void;
  const expired = new Promise<'expired'>((res) => (expire = () => res('expired')));
  const task = start(() => {
    timer = setTimeout(expire, timeoutMs);
  });
  const first = await Promise.race([task.then((value) => ({ value })), expired]);
  clearTimeout(timer);
  if (first !== 'expired') return { kind: 'done', value: first.value };
  r.boundSuppressed.set(key, r.now() + r.suppressMs);
  r.boundRunning.set(key, (r.boundRunning.get(key) ?? 0) + 1);
  const release = (): void => {
    const n = (r.boundRunning.get(key) ?? 1) - 1;
    if (n <= 0) r.boundRunning.delete(key);
    else r.boundRunning.set(key, n);
  };
  task.then(release, release);
  return { kind: 'abandoned' };
}

/** pre_tool_call fails closed; every other event skips the callback (post_gateway_admission fails open). */
function failClosed(event: EventName, message: string): Directive | null {
  return event === 'pre_tool_call' ? { action: 'block', message } : null;
}

function consequence(event: EventName): string {
  if (event === 'pre_tool_call') return 'the tool call is blocked (fail closed)';
  if (event === 'post_gateway_admission') return 'the message goes on to the agent (fail open)';
  return 'its result is skipped';
}

/** `<Type>: <message ≤200 code points>` like Python's `f"{type(e).__name__}: {e}"`. */
export function describeError(e: unknown): string {
  let type = 'Error';
  let message: string;
  if (e instanceof Error) {
    const ctor = (e as { constructor?: { name?: unknown } }).constructor?.name;
    type = typeof ctor === 'string' && ctor !== '' && ctor !== 'Error' ? ctor : e.name || 'Error';
    message = e.message;
  } else {
    try {
      message = typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e));
    } catch {
      message = String(e);
    }
  }
  return `${type}: ${[...message].slice(0, 200).join('')}`;
}

function fmtSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

// Runs one in-process plugin callback with the Hermes safety rails (reference §4.1, seed 002):
// a per-call bound (`plugins.hook_callback_timeout`) enforced with p-timeout plus an AbortSignal,
// fail-closed pre_tool_call (a timeout or throw blocks the call, naming the callback), a 60 s
// suppression window after a timeout (per tool on tool-scoped events), at most three abandoned
// still-running calls per callback, and warn-once logging of repeated identical failures.
// Plugins' callbacks reach this runner as proxies to their worker (a thread per JS plugin, a python3
// process per Python plugin), whose abort on timeout stops a JS thread outright, so even a
// synchronous endless loop is bounded. Callbacks a host registers (engine.registerHook) are the
// host's own code and run in its thread: there an abandoned async call is bounded, a sync loop not.
// The runner also applies Hermes' dispatcher bound to shell hooks (`bound`, reference §4.1).

import pTimeout, { TimeoutError } from 'p-timeout';
import type { Logger } from '../types.js';
import { EVENTS, type EventName } from '../events.js';
import type { Directive } from '../types.js';
import { deepCopy } from '../util/deep-copy.js';
import { createFailureLog } from './_failure-log.js';
import { normalisePluginReturn } from './_normalise.js';
import type { PluginCallOutcome, PluginCallback, PluginHook } from './types.js';

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

export function createCallbackRunner(opts: CallbackRunnerOptions): CallbackRunner {
  const { timeoutMs, logger } = opts;
  const suppressMs = opts.suppressMs ?? DEFAULT_SUPPRESS_MS;
  const maxAbandoned = opts.maxAbandoned ?? DEFAULT_MAX_ABANDONED;
  const now = opts.now ?? Date.now;
  const failures = createFailureLog(logger);
  // Keyed by the callback function (hosts may rebuild the PluginHook object on every call),
  // then by hook name, so the same function registered twice keeps separate books.
  const states = new WeakMap<PluginCallback, Map<string, CallbackState>>();

  const stateFor = (hook: PluginHook): CallbackState => {
    let byName = states.get(hook.callback);
    if (!byName) states.set(hook.callback, (byName = new Map()));
    let st = byName.get(hook.name);
    if (!st) byName.set(hook.name, (st = { abandoned: 0, suppressedUntil: new Map() }));
    return st;
  };

  async function invoke(hook: PluginHook, event: EventName, kwargs: Record<string, unknown>): Promise<PluginCallOutcome> {
    const started = performance.now();
    const elapsed = (): number => performance.now() - started;
    const st = stateFor(hook);
    const key = EVENTS[event]?.toolScoped ? `${event}\u0000${String(kwargs.tool_name ?? '')}` : event;

    if (timeoutMs !== null) {
      const until = st.suppressedUntil.get(key);
      const t = now();
      let why: string | null = null;
      if (until !== undefined && t < until) {
        why = `is suppressed for another ${Math.ceil((until - t) / 1000)}s after timing out`;
      } else {
        if (until !== undefined) st.suppressedUntil.delete(key);
        if (st.abandoned >= maxAbandoned) {
          why = `is suppressed: ${st.abandoned} earlier calls timed out and are still running`;
        }
      }
      if (why !== null) {
        const text = `${event} plugin callback ${hook.name} ${why}`;
        logger.debug?.(`${text}; skipped`);
        return { directive: failClosed(event, text), status: 'suppressed', error: text, duration_ms: elapsed() };
      }
    }

    const controller = new AbortController();
    let arm!: () => void;
    const armed = new Promise<void>((resolve) => (arm = resolve));
    let pending: Promise<unknown>;
    try {
      const ctx = selfArming.has(hook.callback) ? { signal: controller.signal, arm } : { signal: controller.signal };
      pending = Promise.resolve(hook.callback(deepCopy(kwargs), ctx));
    } catch (e) {
      pending = Promise.reject(e);
    }
    if (!selfArming.has(hook.callback)) arm();

    try {
      if (timeoutMs !== null) await Promise.race([armed, pending.then(ignore, ignore)]);
      const value = timeoutMs === null ? await pending : await pTimeout(pending, { milliseconds: timeoutMs, message: new CallbackTimeout() });
      const directive = normalisePluginReturn(event, value, hook.name);
      return { directive, status: 'ok', error: null, duration_ms: elapsed() };
    } catch (e) {
      if (e instanceof CallbackTimeout && timeoutMs !== null) {
        controller.abort(e);
        st.abandoned++;
        const release = (): void => {
          st.abandoned--;
        };
        pending.then(release, (late: unknown) => {
          release();
          logger.debug?.(`plugin callback ${hook.name} (${event}) failed after it had timed out: ${describeError(late)}`);
        });
        st.suppressedUntil.set(key, now() + suppressMs);
        const text = `${event} plugin callback ${hook.name} timed out after ${fmtSeconds(timeoutMs)}s`;
        failures.report(
          hook.name,
          'timeout',
          `${text}; ${consequence(event)}; it is suppressed for ${fmtSeconds(suppressMs)}s`,
          kwargs,
        );
        return { directive: failClosed(event, text), status: 'timeout', error: text, duration_ms: elapsed() };
      }
      const described = describeError(e);
      const text = `${event} plugin callback ${hook.name} raised ${described}`;
      failures.report(hook.name, `error\u0000${described}`, `${text}; ${consequence(event)}`, kwargs);
      return { directive: failClosed(event, text), status: 'error', error: text, duration_ms: elapsed() };
    }
  }

  // Shell hooks under the dispatcher bound: key → end of the suppression window / abandoned runs still going.
  const boundSuppressed = new Map<string, number>();
  const boundRunning = new Map<string, number>();

  async function bound<T>(key: string, start: (arm: () => void) => Promise<T>): Promise<BoundResult<T>> {
    if (timeoutMs === null) return { kind: 'done', value: await start(() => {}) };
    const until = boundSuppressed.get(key);
    const t = now();
    if ((boundRunning.get(key) ?? 0) > 0) return { kind: 'suppressed', why: 'its earlier run timed out and is still running' };
    if (until !== undefined && t < until) {
      return { kind: 'suppressed', why: `it is suppressed for another ${Math.ceil((until - t) / 1000)}s after timing out` };
    }
    if (until !== undefined) boundSuppressed.delete(key);
    let timer: NodeJS.Timeout | undefined;
    let expire!: () => void;
    const expired = new Promise<'expired'>((r) => (expire = () => r('expired')));
    const task = start(() => {
      timer = setTimeout(expire, timeoutMs);
    });
    const first = await Promise.race([task.then((value) => ({ value })), expired]);
    clearTimeout(timer);
    if (first !== 'expired') return { kind: 'done', value: first.value };
    boundSuppressed.set(key, now() + suppressMs);
    boundRunning.set(key, (boundRunning.get(key) ?? 0) + 1);
    const release = (): void => {
      const n = (boundRunning.get(key) ?? 1) - 1;
      if (n <= 0) boundRunning.delete(key);
      else boundRunning.set(key, n);
    };
    task.then(release, release);
    return { kind: 'abandoned' };
  }

  return { timeoutMs, suppressMs, invoke, bound };
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
      message = typeof e === 'string' ? e : JSON.stringify(e) ?? String(e);
    } catch {
      message = String(e);
    }
  }
  return `${type}: ${[...message].slice(0, 200).join('')}`;
}

function fmtSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

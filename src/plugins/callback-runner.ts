// Runs one in-process plugin callback with the Hermes safety rails (reference §4.1, seed 002):
// a per-call bound (`plugins.hook_callback_timeout`) enforced with p-timeout plus an AbortSignal,
// fail-closed pre_tool_call (a timeout or throw blocks the call, naming the callback), a 60 s
// suppression window after a timeout (per tool on tool-scoped events), at most three abandoned
// still-running calls per callback, and warn-once logging of repeated identical failures.
// A synchronous callback that never returns cannot be bounded in JS: it blocks the event loop.

import { performance } from 'node:perf_hooks';
import pTimeout, { TimeoutError } from 'p-timeout';
import type { Logger } from '../engine/logger.js';
import { EVENTS, type EventName } from '../events.js';
import type { Directive } from '../types.js';
import { deepCopy } from './_deep-copy.js';
import { createFailureLog } from './_failure-log.js';
import { normalisePluginReturn } from './_normalise.js';
import type { PluginCallOutcome, PluginCallback, PluginHook } from './types.js';

export const DEFAULT_SUPPRESS_MS = 60_000;
export const DEFAULT_MAX_ABANDONED = 3;

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
  /** Never rejects: every failure becomes an outcome (and a block on pre_tool_call). */
  invoke(hook: PluginHook, event: EventName, kwargs: Record<string, unknown>): Promise<PluginCallOutcome>;
}

class CallbackTimeout extends TimeoutError {}

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
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(hook.callback(deepCopy(kwargs), { signal: controller.signal }));
    } catch (e) {
      pending = Promise.reject(e);
    }

    try {
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

  return { timeoutMs, invoke };
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

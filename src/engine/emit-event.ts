// The engine's emit: read the payload the host sent (kwargs or a hook's stdin), take the event's
// own steps (event-prep.ts), and run the hooks registered for it on one generation (run-hooks.ts).
// Also what rides on emit: the registry a generation gives an event, host callbacks, and the
// finalize the engine fires on its own for sessions the host did not finalize.

import { recogniseAgentInput, foreignInputMessage } from '../dialects/recognise.js';
import { EVENTS, isEventName, SORTED_EVENT_NAMES, syntheticKwargKeys } from '../events.js';
import { buildPayload } from '../protocol/build-payload.js';
import { readPayload } from '../protocol/read-payload.js';
import { allowDecision } from '../resolve/resolve.js';
import type { Emission, EventName, FinalizeNotice, SessionFinalized } from '../types.js';
import { errorText } from '../errors.js';
import type { Generation } from './build.js';
import { runEmit, type EmitContext, type EmitOptions } from './run-hooks.js';
import { EVENT_STEPS, type Prepared } from './event-prep.js';
import type { CallbackEntry, InProcessCallback, RegistryEntry } from './registry.js';
import type { EngineState } from './_state.js';
import type { EmitRecord } from './options.js';

type Kwargs = Record<string, unknown>;

export async function emitEvent(st: EngineState, event: EventName, payload: Kwargs = {}, opts: EmitOptions = {}): Promise<Emission> {
  if (!isEventName(event)) {
    throw new TypeError(`unknown hook event '${String(event)}' (valid: ${SORTED_EVENT_NAMES.join(', ')})`);
  }
  if (st.closed) throw new Error('hook engine is closed');
  const t0 = performance.now();
  // One payload, one meaning on every face: the wire form a hook reads or the host's kwargs.
  const reading = readPayload(event, payload, { knownKwargs: syntheticKwargKeys(event) });
  const options: EmitOptions = {
    ...(reading.cwd !== undefined ? { payloadCwd: reading.cwd } : {}),
    ...(reading.profile !== undefined ? { payloadProfile: reading.profile } : {}),
    ...opts,
  };
  // Another agent's stdin sent as ours: its names are not ours, so guards would not see the call.
  const foreign = reading.form === 'wire' ? recogniseAgentInput(payload, st.gen.dialectMaps) : null;
  const foreignMessage = foreign ? foreignInputMessage(foreign, event, st.gen.dialectMaps) : null;
  // One message that says it all, instead of one per key of theirs that is not ours.
  if (foreignMessage !== null)
    reading.diagnostics.splice(0, Infinity, { level: 'error', path: 'hook_event_name', line: null, column: null, message: foreignMessage });
  const entries = st.opts.observe ? registryOf(st, st.gen, event) : [];
  const empty = (kwargs: Kwargs): Emission => emptyEmission(event, kwargs, st.location.profile, st.opts.cwd);
  const prepared: Prepared = EVENT_STEPS[event]?.before?.(reading.kwargs, {
    tracker: st.tracker,
    sessions: st.sessions,
    empty,
    unpairedResolve: options.unpairedResolve ?? 'drop',
  }) ?? { run: reading.kwargs };
  const emission = 'skip' in prepared ? prepared.skip : await emitPrepared(st, event, prepared.run, options);
  // A tool gate with a guard configured never lets such a call through unchecked.
  if (foreignMessage !== null && EVENTS[event].canBlock && emission.decision.action !== 'block' && emission.hooks.some((h) => h.kind !== 'builtin')) {
    Object.assign(emission.decision, {
      action: 'block',
      message: `hermes-hooks cannot check this call: ${foreignMessage}`,
      args: null,
      decided_by: null,
      modified_by: [],
      conflicts: [],
    });
  }
  emission.diagnostics = [...reading.diagnostics, ...emission.diagnostics];
  if (st.opts.observe) {
    const received = opts.received ?? { dialect: 'hermes' as const, event, input: payload };
    observe(st, { emission, entries, profile: st.location.profile, received, startedAt: performance.timeOrigin + t0, durationMs: performance.now() - t0 });
  }
  return emission;
}

/** The observer hears the final outcome (after resolution, so it can never change it); what it throws is a warning. */
function observe(st: EngineState, record: EmitRecord): void {
  try {
    st.opts.observe?.(record);
  } catch (err) {
    st.opts.logger.warn(`hook observer failed: ${errorText(err)}`);
  }
}

/** Run the event's hooks on kwargs already prepared, then its after-steps; webhooks hear of it. */
export async function emitPrepared(st: EngineState, event: EventName, args: Kwargs, opts: EmitOptions): Promise<Emission> {
  const g = st.gen; // one registry for the whole emit, whatever a reload swaps in meanwhile
  const done = event === 'on_session_finalize' ? null : st.sessions.touch(args);
  const once = (kwargs: Kwargs): Promise<Emission> => runEmit(emitContext(st, g, event), event, kwargs, opts);
  try {
    const emission = await once(args);
    await EVENT_STEPS[event]?.after?.(emission, args, { once, guardrails: g.guardrails });
    if (g.dispatcher && EVENTS[event]) g.dispatcher.notify(event, args);
    return emission;
  } finally {
    done?.();
  }
}

function emitContext(st: EngineState, g: Generation, event: EventName): EmitContext {
  return {
    entries: registryOf(st, g, event),
    limiter: st.limiter,
    callbacks: st.callbacks,
    guardrails: g.guardrails,
    dialectMaps: g.dialectMaps,
    env: st.opts.env,
    extraEnv: { HERMES_HOME: st.location.home, HERMES_HOOK_EVENT: event },
    cwd: st.opts.cwd,
    profile: st.location.profile,
    maxOutputBytes: st.opts.maxOutputBytes,
    signal: st.abort.signal,
    logger: st.opts.logger,
    stdoutWarned: st.stdoutWarned,
    gate: g.gate,
  };
}

/** Registration order: host callbacks, plugin callbacks, shell hooks, then the built-in guardrail. */
export function registryOf(st: EngineState, g: Generation, event: EventName): RegistryEntry[] {
  const list: RegistryEntry[] = [
    ...st.hostCallbacks.filter((e) => e.event === event),
    ...g.callbackEntries.filter((e) => e.event === event),
    ...g.shellEntries.filter((e) => e.event === event),
  ];
  if (g.guardrails && (event === 'pre_tool_call' || event === 'post_tool_call')) {
    list.push({ kind: 'builtin', event, name: 'tool_loop_guardrails' });
  }
  return list;
}

/** Register a host callback (it runs before every hook of the config); returns its unregister. */
export function registerHostHook(st: EngineState, event: EventName, callback: InProcessCallback, opts: { name?: string } = {}): () => void {
  if (!isEventName(event)) throw new TypeError(`unknown hook event '${String(event)}'`);
  const entry: CallbackEntry = { kind: 'plugin', event, name: opts.name ?? (callback.name || `host#${++st.hostSeq}`), plugin: 'host', callback };
  st.hostCallbacks.push(entry);
  return () => {
    const i = st.hostCallbacks.indexOf(entry);
    if (i >= 0) st.hostCallbacks.splice(i, 1);
  };
}

/** Finalize one session the host did not finalize itself (idle, evicted, shutdown). */
export async function finalizeOnOwn(
  st: EngineState,
  session_id: string,
  session_key: string | null,
  reason: SessionFinalized['reason'],
): Promise<FinalizeNotice[]> {
  const kwargs: Kwargs = { session_id, reason };
  if (session_key !== null) kwargs.session_key = session_key;
  const e = await emitEvent(st, 'on_session_finalize', kwargs).catch((err: unknown) => {
    st.opts.logger.warn(`on_session_finalize for session ${session_id} failed: ${errorText(err)}`);
    return null;
  });
  const notices = e?.decision.notices ?? []; // emit attached them, with this session
  // Shutdown notices go back through close(); the host hears of the others only from here.
  if (reason !== 'shutdown' && e && e.hooks.length > 0) {
    try {
      st.opts.onSessionFinalized?.({ session_id, session_key, reason, notices });
    } catch (err) {
      st.opts.logger.warn(`onSessionFinalized threw: ${errorText(err)}`);
    }
  }
  return notices;
}

/** What an emit that runs nothing returns (a repeated human-input resolve). */
function emptyEmission(event: EventName, kwargs: Kwargs, profile: string, cwd: string): Emission {
  const payload = buildPayload(event, kwargs, { cwd, profile }) as unknown as Emission['payload'];
  return { event, payload, hooks: [], decision: allowDecision(event), diagnostics: [] };
}

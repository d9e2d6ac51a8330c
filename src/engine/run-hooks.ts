// Run the hooks of one emit: build the stdin, run every hook registered for the event
// concurrently (bounded), evaluate each, and resolve in registration order. Never rejects
// because of a hook.

import { dialectMatchesTool } from '../dialects/render.js';
import type { DialectMaps } from '../dialects/names.js';
import { EVENTS } from '../events.js';
import type { LaunchGate } from '../consent/launch.js';
import type { GuardrailVerdict, ToolLoopGuardrails } from '../guardrails/guardrails.js';
import { DISPATCHER_BOUNDED_EVENTS, DISPATCHER_TIMEOUT_MESSAGE, type CallbackRunner } from '../plugins/callback-runner.js';
import { buildPayload } from '../protocol/build-payload.js';
import { serializePayload } from '../protocol/serialize.js';
import { resolve } from '../resolve/resolve.js';
import type { Decision, Directive, Emission, EventName, HookOutcome, JsonObject } from '../types.js';
import type { Limiter } from './_pool.js';
import type { BuiltinEntry, CallbackEntry, RegistryEntry, ShellEntry } from './registry.js';
import { hookOutcome, round } from './_outcome.js';
import { outcomeBase, runShellHook } from './_run-shell.js';
import type { Logger } from './logger.js';
import { isPlainObject } from '../json.js';
import { isFailClosedBlock, KEEP_A_HELPER, leftProcessesText } from '../directives/messages.js';
import { exitCodeAdvice } from '../dialects/advice.js';
import { isJsonObjectText, stdoutProblem } from '../directives/parse-stdout.js';
import { errorText } from '../errors.js';

/** What the dry run says about a hook it lists but does not run under HERMES_SAFE_MODE. */
export const SAFE_MODE_NOT_RUN = 'HERMES_SAFE_MODE is set: not run';

export interface EmitContext {
  entries: readonly RegistryEntry[];
  limiter: Limiter;
  callbacks: CallbackRunner;
  guardrails: ToolLoopGuardrails | null;
  dialectMaps: DialectMaps;
  env: NodeJS.ProcessEnv;
  extraEnv: Record<string, string>;
  cwd: string;
  profile: string;
  maxOutputBytes: number;
  signal: AbortSignal;
  logger: Logger;
  /** Hooks already warned about for unreadable stdout (once per hook for the engine's life). */
  stdoutWarned?: Set<string>;
  /** Consent checked at each shell hook's launch; null = not enforced (the dry run). */
  gate: LaunchGate | null;
}

/** Per-call options of HookEngine.emit() and finalizeSession(). */
export interface EmitOptions {
  /** Tool name the matchers test (default: kwargs.tool_name). */
  forTool?: string | null;
  /** false = run tool-scoped hooks whatever their matcher says. */
  applyMatchers?: boolean;
  /** Payload `cwd` / `profile` to show hooks instead of the engine's (the dry run passes the user's). */
  payloadCwd?: string;
  payloadProfile?: string;
  /**
   * Cancels this emit's hooks (their groups are killed; a fail_closed pre_tool_call hook then
   * blocks). A server aborts it when its client goes away or the request's deadline passes.
   */
  signal?: AbortSignal;
  /**
   * An on_human_input_resolved whose request this engine never saw: 'drop' (the default: exactly
   * one resolved per request the engine saw, said in a diagnostic) or 'run' its hooks on the
   * kwargs given (the dry run, which tests the resolved hooks alone).
   */
  unpairedResolve?: 'drop' | 'run';
  /** What the sender really sent (another agent's stdin), handed to observers as is; default: the payload given to emit. */
  received?: ReceivedInput;
}

/** An event as the sender sent it: our kwargs/wire payload (`hermes`) or another agent's hook stdin. */
export interface ReceivedInput {
  dialect: string;
  /** The event as the sender named it (theirs for another agent). */
  event: string;
  input: unknown;
}

export async function runEmit(ctx: EmitContext, event: EventName, kwargs: Record<string, unknown>, opts: EmitOptions = {}): Promise<Emission> {
  const emitStart = performance.now();
  const payload = buildPayload(event, kwargs, {
    cwd: opts.payloadCwd ?? ctx.cwd,
    profile: opts.payloadProfile ?? ctx.profile,
  }) as unknown as JsonObject;
  const info = EVENTS[event];
  const toolName = opts.forTool !== undefined ? opts.forTool : kwargs.tool_name;
  const applyMatchers = opts.applyMatchers ?? true;

  // Encoded once per emit; every hook gets its own private copy of these bytes (spawn/stdin-file.ts).
  let stdinBytes: Uint8Array | null = null;
  const stdin = (): Uint8Array => (stdinBytes ??= Buffer.from(serializePayload(payload as never), 'utf8'));
  const guardNotes: (GuardrailVerdict | null)[] = [];
  // Not AbortSignal.any: on Node 20 a long-lived source signal (the engine's) keeps every
  // dependent signal alive, which leaks one per emit in a server. Listeners are removed below.
  const { signal, release } = emitSignal(ctx.signal, opts.signal);

  const tasks = ctx.entries.map((entry, index): Promise<HookOutcome> => {
    switch (entry.kind) {
      case 'plugin':
        return runCallback(ctx, entry, index, event, kwargs, emitStart);
      case 'builtin':
        return Promise.resolve(runBuiltin(ctx, entry, index, event, kwargs, guardNotes));
      case 'shell': {
        if (info.toolScoped && applyMatchers && !matches(entry, toolName, ctx.dialectMaps)) {
          return Promise.resolve(outcomeBase(entry, index));
        }
        if (entry.action === 'safe_mode') {
          return Promise.resolve({ ...outcomeBase(entry, index), status: 'safe_mode', error: SAFE_MODE_NOT_RUN });
        }
        if (entry.action === 'not_converted') {
          // Another agent's entry under hooks: never runs; a guard it was blocks what it would have checked.
          const message = entry.note ?? "written in another agent's format: convert it with hermes-hooks import";
          return Promise.resolve({
            ...outcomeBase(entry, index),
            status: 'not_converted',
            error: message,
            directive: info.canBlock ? { action: 'block', message } : null,
          });
        }
        if (entry.action === 'refused') {
          // Strict mode: a guard the config meant for the tool gate but that cannot be registered blocks.
          const message = entry.note ?? 'a pre_tool_call guard in the config cannot be read';
          return Promise.resolve({ ...outcomeBase(entry, index), status: 'refused', error: message, directive: { action: 'block', message } });
        }
        const run = (): Promise<HookOutcome> =>
          runShellHook(entry, index, {
            payload,
            stdin,
            gate: ctx.gate,
            env: ctx.env,
            extraEnv: ctx.extraEnv,
            cwd: ctx.cwd,
            maxOutputBytes: ctx.maxOutputBytes,
            signal,
            dialectMaps: ctx.dialectMaps,
            emitStart,
          });
        if (ctx.callbacks.timeoutMs === null || !DISPATCHER_BOUNDED_EVENTS.has(event)) return ctx.limiter(run);
        return runBounded(ctx, entry, index, event, info.toolScoped ? toolName : null, emitStart, run);
      }
    }
  });

  let hooks: HookOutcome[];
  try {
    hooks = await Promise.all(tasks);
  } finally {
    release();
  }
  for (const h of hooks) {
    noteStdoutProblem(event, h);
    reportProblems(ctx, event, h, signal.aborted ? abortReasonText(signal.reason) : null);
  }

  const originalArgs = isPlainObject(kwargs.args) ? (kwargs.args as JsonObject) : null;
  const decision: Decision = resolve(
    event,
    hooks.map((h) => h.directive),
    originalArgs,
  );
  applyGuardrailNotes(decision, guardNotes);
  return { event, payload, hooks, decision, diagnostics: [] };
}

/**
 * Sets `warning` on a Hermes-wire shell hook that ran to the end but printed something that is not a
 * JSON object (the seed: warn, then continue). Other dialects read plain text by their own rules.
 * Any shell hook whose stdout was cut at the cap is told so.
 */
export function noteStdoutProblem(event: EventName, h: HookOutcome): void {
  if (h.kind === 'shell' && h.stdout_dropped_bytes > 0 && (h.status === 'ok' || h.status === 'nonzero_exit')) {
    // Any dialect: what was kept of a cut stdout is not read, so it is not quoted as "not JSON".
    const how = isFailClosedBlock(h.command, h.directive) ? 'the hook failed closed' : 'it was not read as an answer';
    h.warning = `stdout exceeded the capture limit (${h.stdout_dropped_bytes} bytes dropped), so ${how}`;
    return;
  }
  if (h.kind === 'shell' && h.dialect === 'hermes' && (h.status === 'ok' || h.status === 'nonzero_exit')) {
    const failedClosed = isFailClosedBlock(h.command, h.directive);
    // A directive read from stdout means stdout was one JSON object: nothing to say, and no second
    // parse. (Exit 2 may take its block from stderr, and a fail-closed block is ours: those check.)
    if (h.directive !== null && h.exit_code !== 2 && !failedClosed) return;
    const problem = stdoutProblem(event, h.stdout, failedClosed);
    // An exit-2 block stands whatever word its stdout used: only unreadable stdout is worth a line there.
    if (problem !== null && event === 'pre_tool_call' && h.exit_code === 2 && !failedClosed && isJsonObjectText(h.stdout)) return;
    h.warning = problem;
  }
}

/** The engine's signal, or one that also follows the caller's; `release` unhooks it from both. */
function emitSignal(engine: AbortSignal, caller: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  if (!caller) return { signal: engine, release: () => {} };
  const ac = new AbortController();
  // The reason travels on: a hook cancelled because a server shuts down says so, not "timed out".
  const abort = (): void => ac.abort(caller.aborted ? caller.reason : engine.reason);
  if (engine.aborted || caller.aborted) abort();
  engine.addEventListener('abort', abort, { once: true });
  caller.addEventListener('abort', abort, { once: true });
  return {
    signal: ac.signal,
    release: () => {
      engine.removeEventListener('abort', abort);
      caller.removeEventListener('abort', abort);
    },
  };
}

function matches(entry: ShellEntry, toolName: unknown, maps: DialectMaps): boolean {
  if (entry.matcher.test(toolName)) return true;
  if (entry.spec.dialect === 'hermes' || typeof toolName !== 'string') return false;
  return dialectMatchesTool(entry.spec.dialect, maps, (n) => entry.matcher.test(n), toolName);
}

/** How a shell hook's error under the dispatcher bound begins (the logger recognises those by it). */
const DISPATCHER_BOUND = "Hermes' dispatcher bound";

/**
 * A shell hook under Hermes' dispatcher bound (`plugins.hook_callback_timeout`, reference §4.1):
 * still running at the bound, it is abandoned — pre_tool_call blocks with Hermes' message whatever
 * the hook's own fail_closed, other bounded events skip it — and that hook (per tool on tool
 * events) is suppressed for 60 s. The abandoned process runs on to its own timeout, holding its
 * pool slot; its answer is dropped. The bound starts when the hook starts, not while it queues.
 */
async function runBounded(
  ctx: EmitContext,
  entry: ShellEntry,
  index: number,
  event: EventName,
  toolName: unknown,
  emitStart: number,
  run: () => Promise<HookOutcome>,
): Promise<HookOutcome> {
  const key = `${event}\u0000${entry.spec.command}\u0000${toolName === null || toolName === undefined ? '' : String(toolName)}`;
  let started = performance.now();
  const result = await ctx.callbacks.bound(key, (arm) =>
    ctx.limiter(() => {
      started = performance.now();
      arm();
      return run();
    }),
  );
  if (result.kind === 'done') return result.value;
  const bound = `plugins.hook_callback_timeout ${round((ctx.callbacks.timeoutMs ?? 0) / 1000)}s`;
  const consequence = event === 'pre_tool_call' ? 'the tool call is blocked (fail closed)' : 'its result is skipped';
  const error =
    result.kind === 'abandoned'
      ? `${DISPATCHER_BOUND}: still running after ${bound}; abandoned (it runs on to its own timeout), ${consequence}; suppressed for ` +
        `${round(ctx.callbacks.suppressMs / 1000)}s`
      : `${DISPATCHER_BOUND}: not run, ${result.why}; ${consequence}`;
  const directive: Directive | null = event === 'pre_tool_call' ? { action: 'block', message: DISPATCHER_TIMEOUT_MESSAGE } : null;
  return {
    ...outcomeBase(entry, index),
    status: result.kind === 'abandoned' ? 'timeout' : 'suppressed',
    duration_ms: result.kind === 'abandoned' ? round(performance.now() - started) : 0,
    started_ms: round(started - emitStart),
    error,
    directive,
  };
}

async function runCallback(
  ctx: EmitContext,
  entry: CallbackEntry,
  index: number,
  event: EventName,
  kwargs: Record<string, unknown>,
  emitStart: number,
): Promise<HookOutcome> {
  const started = performance.now();
  const out = await ctx.callbacks.invoke({ plugin: entry.plugin, name: entry.name, event: entry.event, callback: entry.callback }, event, kwargs);
  const timeoutMs = ctx.callbacks.timeoutMs;
  return hookOutcome({
    index,
    kind: 'plugin',
    command: `plugin:${entry.name}`,
    timeout: timeoutMs === null ? null : timeoutMs / 1000,
    fail_closed: event === 'pre_tool_call',
    status: out.status === 'ok' ? 'ok' : out.status,
    duration_ms: round(out.duration_ms),
    started_ms: round(started - emitStart),
    error: out.error,
    directive: out.directive,
  });
}

function runBuiltin(
  ctx: EmitContext,
  entry: BuiltinEntry,
  index: number,
  event: EventName,
  kwargs: Record<string, unknown>,
  notes: (GuardrailVerdict | null)[],
): HookOutcome {
  let directive: Directive | null = null;
  let error: string | null = null;
  try {
    if (ctx.guardrails && event === 'pre_tool_call') {
      const verdict = ctx.guardrails.beforeToolCall(kwargs);
      notes[index] = verdict;
      if (verdict?.action === 'stop') directive = { action: 'block', message: verdict.message };
    } else if (ctx.guardrails && event === 'post_tool_call') {
      ctx.guardrails.afterToolCall(kwargs);
    }
  } catch (e) {
    error = errorText(e);
  }
  return hookOutcome({ index, kind: 'builtin', command: `builtin:${entry.name}`, status: error ? 'error' : 'ok', error, directive });
}

/**
 * A guardrail warning reaches the model as context; a guardrail stop tells the host to end the
 * turn — even when an earlier hook's block gives the message: the loop is real either way, and
 * a host told only "blocked" would let the model retry the same call.
 */
function applyGuardrailNotes(decision: Decision, notes: (GuardrailVerdict | null)[]): void {
  const warnings: string[] = [];
  for (const v of notes) {
    if (!v) continue;
    if (v.action === 'warn') warnings.push(v.message);
    if (v.action === 'stop' && decision.action === 'block') decision.stop_turn = true;
  }
  if (warnings.length && decision.action !== 'block') {
    decision.context = [decision.context, ...warnings].filter(Boolean).join('\n\n');
  }
}

/** Why an emit's signal was aborted, as words (a host aborts with an Error or a string). */
function abortReasonText(reason: unknown): string | null {
  if (reason instanceof Error && !(reason.name === 'AbortError' && reason.message.startsWith('This operation was aborted'))) return reason.message;
  return typeof reason === 'string' && reason !== '' ? reason : null;
}

function reportProblems(ctx: EmitContext, event: EventName, h: HookOutcome, cancelledBecause: string | null): void {
  if (h.kind !== 'shell') return;
  const { logger } = ctx;
  const who = `shell hook (event=${event} command=${h.command})`;
  if (h.warning !== null) {
    // "warn, then continue" — once per hook, not once per call of a long-lived engine.
    const key = `${event}\0${h.command}`;
    if (!ctx.stdoutWarned?.has(key)) {
      ctx.stdoutWarned?.add(key);
      logger.warn(`${who}: ${h.warning}`);
    }
  }
  switch (h.status) {
    case 'launch_failed':
      logger.warn(`${who} failed: ${h.error}`);
      break;
    case 'timeout':
      if (h.error?.startsWith(DISPATCHER_BOUND)) logger.warn(`${who}: ${h.error}`);
      else if (h.error === 'cancelled') {
        const after = Math.round(h.duration_ms / 100) / 10;
        logger.warn(`${who} was cancelled after ${after}s${cancelledBecause ? `: ${cancelledBecause}` : ''}`);
      } else logger.warn(`${who} timed out after ${h.timeout}s`);
      break;
    case 'suppressed':
      logger.debug?.(`${who}: ${h.error}`);
      break;
    case 'output_limit':
      logger.warn(`${who} kept writing far past the output cap and was killed before it exited`);
      break;
    case 'nonzero_exit': {
      if (exitIsAnswer(event, h)) break;
      const err = h.stderr.trim().slice(0, 400);
      const advice = exitCodeAdvice(event, h);
      logger.warn(`${who} exited ${h.exit_code ?? h.signal}${advice ? `: ${advice}` : ''}${err ? `; stderr=${err}` : ''}`);
      break;
    }
    default:
      break;
  }
  const left = leftProcessesText(h);
  if (left !== null) logger.warn(`${who} ${left} (its answer was taken at its exit; ${KEEP_A_HELPER})`);
}

/**
 * A non-zero exit that is the hook's documented answer, not a failure: exit 2 on pre_tool_call is
 * the Hermes block (Hermes does not warn about it either); in the other dialects a non-zero exit
 * their protocol reads as a block or continue (Claude's exit 2, Gemini's exit >= 2 with text).
 */
export function exitIsAnswer(event: EventName, h: Pick<HookOutcome, 'dialect' | 'exit_code' | 'command' | 'directive'>): boolean {
  if (h.dialect === 'hermes') return event === 'pre_tool_call' && h.exit_code === 2 && h.directive?.action === 'block';
  const action = h.directive?.action;
  return (action === 'block' || action === 'continue') && !isFailClosedBlock(h.command, h.directive);
}

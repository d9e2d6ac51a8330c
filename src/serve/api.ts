// What serve can be asked, whatever the transport: the same engine calls a TypeScript host makes,
// with every parameter checked so a bad request gets a clear error and never reaches the engine.
// No resolution, consent or session bookkeeping here: the engine owns all of that.

import { didYouMean } from '../config/hooks.js';
import { locatedMessage } from '../config/source.js';
import { answerAgentCall, undecidedAgentCall, undecidedBlock, type AgentCallOptions } from '../agent-wiring/call.js';
import { AGENT_DIALECTS, AGENT_LABELS, DEFAULT_DIALECT_MAPS, isAgentDialect, type AgentDialect } from '../dialects/names.js';
import { agentEventName } from '../dialects/recognise.js';
import type { GatewayCommandContext, GatewayCommandVerdict } from '../gateway/command-decision.js';
import type { HookEngine, ReloadResult } from '../engine/create-engine.js';
import type { EmitOptions } from '../engine/run-hooks.js';
import { EVENT_NAMES, isEventName, SORTED_EVENT_NAMES } from '../events.js';
import type { DialectAnswer } from '../dialects/translate-call.js';
import type { Emission, EventName, FinalizeNotice } from '../types.js';
import { isPlainObject } from '../json.js';
import { HooksError } from '../errors.js';
import { ToldOnce } from './told-once.js';

/** A request the client must fix (JSON-RPC -32602 / HTTP 400 or 404). */
export class RequestError extends HooksError {
  constructor(
    message: string,
    readonly kind: 'invalid_params' | 'not_found' = 'invalid_params',
  ) {
    super(kind, message);
  }
}

export interface ServeApi {
  emit(event: unknown, kwargs: unknown, options: unknown, signal: AbortSignal): Promise<Emission>;
  finalize(kwargs: unknown, signal: AbortSignal): Promise<{ emission: Emission; notices: FinalizeNotice[] }>;
  emitGateway(event: unknown, context: unknown): { accepted: true };
  gatewayCollect(event: unknown, context: unknown, timeoutMs: unknown): Promise<{ answers: unknown[] }>;
  gatewayCommand(context: unknown, timeoutMs: unknown): Promise<GatewayCommandVerdict>;
  /** `agentEnv`: what the agent set in its hook's env that the answer depends on (its attended indicator), as the client forwards it. */
  agent(agent: string, theirEvent: string, body: unknown, signal: AbortSignal, agentEnv?: Readonly<Record<string, string>>): Promise<DialectAnswer>;
  /** A call that could not be decided: on a tool gate the agent's own block saying why (as `run --dialect`), else an error. */
  agentCannotDecide(agent: string, theirEvent: string, problem: string): DialectAnswer;
  reload(): Promise<ReloadResult>;
  health(extra: Record<string, unknown>): Record<string, unknown>;
}

/** `timeout_ms`: a positive number of ms, or absent for the engine's default. */
function collectOptions(timeoutMs: unknown): { timeoutMs?: number } {
  if (timeoutMs === undefined || timeoutMs === null) return {};
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RequestError('"timeout_ms" must be a positive number of milliseconds');
  return { timeoutMs };
}

export function createServeApi(engine: HookEngine, opts: { surface: 'cli' | 'gateway' }): ServeApi {
  const gatewaySurface = (method: string): void => {
    if (opts.surface !== 'gateway') throw new RequestError(`${method} needs a server started with --surface gateway`);
  };
  const started = Date.now();
  const told = new ToldOnce();
  const tell = (sessionId: string, problems: readonly string[]): string[] => told.fresh(sessionId, engine.stats().generation, problems);
  return {
    async emit(event, kwargs, options, signal) {
      const name = eventName(event);
      const emission = await engine.emit(name, kwargsOf(kwargs, 'kwargs'), { ...emitOptions(options), signal });
      return signal.aborted ? cutShort(emission, signal) : emission;
    },
    async finalize(kwargs, signal) {
      const emission = await engine.finalizeSession(kwargsOf(kwargs, 'kwargs'), { signal });
      // The engine attaches each notice's session (one place decides it for every face).
      return { emission, notices: emission.decision.notices ?? [] };
    },
    emitGateway(event, context) {
      gatewaySurface('emit_gateway');
      if (typeof event !== 'string' || event === '') throw new RequestError('emit_gateway: "event" must be a non-empty string such as "agent:start"');
      engine.emitGateway(event, kwargsOf(context, 'context'));
      return { accepted: true };
    },
    async gatewayCollect(event, context, timeoutMs) {
      gatewaySurface('gateway_collect');
      if (typeof event !== 'string' || event === '') throw new RequestError('gateway_collect: "event" must be a non-empty string such as "command:reset"');
      return { answers: await engine.emitGatewayCollect(event, kwargsOf(context, 'context'), collectOptions(timeoutMs)) };
    },
    async gatewayCommand(context, timeoutMs) {
      gatewaySurface('gateway_command');
      const ctx = kwargsOf(context, 'context');
      if (typeof ctx.command !== 'string' || ctx.command.trim().replace(/^\/+/, '') === '') {
        throw new RequestError('gateway_command: "context.command" must name the command, such as "reset"');
      }
      return engine.decideGatewayCommand(ctx as GatewayCommandContext, collectOptions(timeoutMs));
    },
    agent: (agent, theirEvent, body, signal, agentEnv) => answerAgent(engine, agentOf(agent), theirEvent, body, signal, agentEnv, tell),
    agentCannotDecide: (agent, theirEvent, problem) => cannotDecide(engine, agentOf(agent), [theirEvent], problem),
    reload: () => engine.reload(),
    health(extra) {
      const stats = engine.stats();
      // Anything that leaves configured guards not guarding makes the server "degraded", with why.
      const degraded = [
        ...(stats.reload_error ? [`the config on disk was refused; the last good one stays in force: ${stats.reload_error}`] : []),
        ...(stats.safe_mode ? ['HERMES_SAFE_MODE is set: no user hook runs'] : []),
        ...(!stats.config_exists ? [`no config file at ${engine.configFile}: no hooks are configured`] : []),
        ...stats.untrusted,
        ...engine.diagnostics
          .filter((d) => d.level === 'error')
          .map((d) => `config error, the entry does not run as written: ${locatedMessage(d, engine.configFile)}`),
      ];
      return {
        status: degraded.length > 0 ? 'degraded' : 'ok',
        degraded_because: degraded,
        pid: process.pid,
        uptime_s: Math.round((Date.now() - started) / 1000),
        home: engine.home,
        config_file: engine.configFile,
        profile: engine.profile,
        surface: opts.surface,
        ...stats,
        hooks: engine.specs.length,
        diagnostics: engine.diagnostics,
        ...extra,
      };
    },
  };
}

/** Another agent's hook call, answered as `run --dialect` answers it. */
async function answerAgent(
  engine: HookEngine,
  dialect: AgentDialect,
  theirEvent: string,
  body: unknown,
  signal: AbortSignal,
  agentEnv: Readonly<Record<string, string>> = {},
  tell?: AgentCallOptions['tell'],
): Promise<DialectAnswer> {
  const call = await answerAgentCall(engine, dialect, theirEvent || null, body, { signal, env: agentEnv, ...(tell ? { tell } : {}) });
  const named = isPlainObject(body) && typeof body.hook_event_name === 'string' ? body.hook_event_name : undefined;
  // Hooks cancelled by serve's deadline or a shutdown decided nothing: a tool gate blocks.
  const cutShortAnswer = signal.aborted ? undecidedAgentCall(dialect, engine.config.dialects.maps, [theirEvent, named], cutShortProblem(signal)) : null;
  if (cutShortAnswer !== null) return cutShortAnswer;
  if (!('error' in call)) return call.answer;
  return cannotDecide(engine, dialect, [theirEvent, named], call.error);
}

/** As `run --dialect` (the one rule, agent-wiring/call.ts): on a tool gate that agent's block; elsewhere an error. */
function cannotDecide(engine: HookEngine, dialect: AgentDialect, events: (string | undefined)[], problem: string): DialectAnswer {
  const answer = undecidedAgentCall(dialect, engine.config.dialects.maps, events, problem);
  if (answer === null) throw new RequestError(problem);
  return answer;
}

/** Why serve stopped checking a call before its hooks decided it. */
function cutShortProblem(signal: AbortSignal): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'cancelled');
  return `hermes-hooks serve stopped checking this call before its hooks decided it (${reason})`;
}

/**
 * An emit whose hooks were cancelled (serve's deadline, a shutdown): on a tool gate a block saying
 * why — a slow, overloaded or stopping serve must never let a call through.
 */
function cutShort(emission: Emission, signal: AbortSignal): Emission {
  // A cancelled fail_closed guard blocks already, but its message says "timed out": say why.
  const before = emission.decision.action === 'block' && emission.decision.message ? ` (a hook had blocked it: ${emission.decision.message})` : '';
  const block = undecidedBlock(emission.event, `${cutShortProblem(signal)}, so it blocks it${before}`);
  return block === null ? emission : { ...emission, decision: block };
}

function agentOf(agent: string): AgentDialect {
  if (!isAgentDialect(agent)) throw new RequestError(`unknown agent '${agent}' (one of: ${AGENT_DIALECTS.join(', ')})`, 'not_found');
  return agent;
}

function eventName(event: unknown): EventName {
  if (typeof event !== 'string' || event === '') throw new RequestError('"event" must be a hook event name such as "pre_tool_call"');
  if (!isEventName(event)) {
    const theirs = agentEventName(event, DEFAULT_DIALECT_MAPS);
    if (theirs) {
      throw new RequestError(
        `'${event}' is ${AGENT_LABELS[theirs.agent]}'s event name; Hermes calls it '${theirs.event}' — emit '${theirs.event}' with a Hermes payload, ` +
          `or send ${AGENT_LABELS[theirs.agent]}'s hook input to /v1/agent/${theirs.agent}/${event}`,
        'not_found',
      );
    }
    const hint = didYouMean(event, EVENT_NAMES);
    throw new RequestError(`unknown hook event '${event}'${hint ? ` (did you mean '${hint}'?)` : ''}; valid: ${SORTED_EVENT_NAMES.join(', ')}`, 'not_found');
  }
  return event;
}

function kwargsOf(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new RequestError(`"${what}" must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

function emitOptions(value: unknown): EmitOptions {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new RequestError('"options" must be a JSON object');
  const out: EmitOptions = {};
  for (const [k, v] of Object.entries(value)) {
    switch (k) {
      case 'forTool':
      case 'for_tool':
        if (v !== null && typeof v !== 'string') throw new RequestError(`options.${k} must be a string or null`);
        out.forTool = v as string | null;
        break;
      case 'applyMatchers':
        if (typeof v !== 'boolean') throw new RequestError('options.applyMatchers must be a boolean');
        out.applyMatchers = v;
        break;
      case 'payloadCwd':
      case 'payloadProfile':
        if (typeof v !== 'string') throw new RequestError(`options.${k} must be a string`);
        out[k] = v;
        break;
      default:
        throw new RequestError(`unknown option '${k}' (known: forTool, applyMatchers, payloadCwd, payloadProfile)`);
    }
  }
  return out;
}

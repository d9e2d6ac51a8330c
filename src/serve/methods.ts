// serve's methods, one table that every transport (transport.ts) reads: the JSON-RPC method
// (--stdio), the HTTP route (the socket and --http), how a request becomes the method's params, and
// what runs. The transports only frame requests and answers and map errors (error-answer.ts). Who
// may call is the transport's (the socket's file mode; the bearer token on --http), the same for
// every method; what each parameter may be is checked in api.ts, before anything reaches the
// engine. A new method is one entry here (and its call in api.ts): every transport then serves it.
//
//   GET  /v1/health                      the engine's state and the config's diagnostics
//   POST /v1/emit/<event>                body: kwargs              → the Emission
//   POST /v1/finalize                    body: kwargs              → {emission, notices}
//   POST /v1/agent/<agent>/<AgentEvent>  body: that agent's stdin  → exactly what `run --dialect` prints,
//                                        exit code in X-Hermes-Hooks-Exit, stderr in X-Hermes-Hooks-Stderr
//   POST /v1/gateway                     body: {event, context}    → {accepted} (with --surface gateway)
//   POST /v1/gateway/collect             body: {event, context}    → {answers} (the handlers' answers, in order)
//   POST /v1/gateway/command             body: {context}           → {decision, answers, …} for command:<context.command>
//   POST /v1/reload                      re-read the config now
//   GET  /v1/notices                     finalize notices of sessions the server finalized on its own
//   (JSON-RPC only) shutdown             answered, then the server shuts down
//
// serve --profiles: a request names its profile by the X-Hermes-Profile header (HTTP) or a
// `profile` param (JSON-RPC, every method); none = the profile serve was started for.

import type { ServeApi } from './api.js';
import { ServeError } from './error-answer.js';
import type { NoticeQueue } from './notices.js';
import type { RequestTracker } from './requests.js';

export type Params = Record<string, unknown>;

/** What a method may use: the API over the engine and the server's own state. */
export interface MethodContext {
  api: ServeApi;
  tracker: RequestTracker;
  notices: NoticeQueue;
  health(): Record<string, unknown>;
  shutdown(reason: string): void;
  /**
   * The API and health of the profile a request names (`profile` param on JSON-RPC, the
   * X-Hermes-Profile header on HTTP): null = this context's own profile. Refuses a name it cannot serve.
   */
  forProfile?(name: unknown): Promise<Pick<MethodContext, 'api' | 'health'> | null>;
}

/** `ctx` for the profile `name` names (absent: `ctx` itself). */
export async function profileContext<C extends MethodContext>(ctx: C, name: unknown): Promise<C> {
  if (name === undefined || ctx.forProfile === undefined) return ctx;
  const routed = await ctx.forProfile(name);
  return routed === null ? ctx : { ...ctx, ...routed };
}

export interface HttpRoute {
  verb: 'GET' | 'POST';
  /** The path's segments after /v1/; a `<name>` segment is the param `name`. */
  path: readonly string[];
  /**
   * The body: 'none' (read and dropped), 'params' (the params object itself; an empty body is an
   * error), or the one param it becomes (an empty body is `{}`).
   */
  body: 'none' | 'params' | { param: string };
  /** 200 unless said; 'agent' answers are the agent's stdout, not JSON (http.ts). */
  status?: number;
  reply?: 'json' | 'agent';
}

interface MethodBase {
  /** The JSON-RPC method, or null when only HTTP offers it. */
  rpc: string | null;
  /** Params as the help lists them. */
  params?: string;
  http: HttpRoute | null;
}

/** A tracked method runs as a request: counted, under the request deadline, cancelled by a drain. */
export type ServeMethod = MethodBase &
  ({ tracked: true; run(p: Params, ctx: MethodContext, signal: AbortSignal): unknown } | { tracked: false; run(p: Params, ctx: MethodContext): unknown });

/** In the order the JSON-RPC error lists them. */
export const METHODS: readonly ServeMethod[] = [
  {
    rpc: 'emit',
    params: '{event, kwargs, options?}',
    http: { verb: 'POST', path: ['emit', '<event>'], body: { param: 'kwargs' } },
    tracked: true,
    run: (p, ctx, signal) => ctx.api.emit(p.event, p.kwargs, p.options, signal),
  },
  {
    rpc: 'finalize_session',
    params: '{kwargs}',
    http: { verb: 'POST', path: ['finalize'], body: { param: 'kwargs' } },
    tracked: true,
    run: (p, ctx, signal) => ctx.api.finalize(p.kwargs, signal),
  },
  {
    // Another agent's hook input, answered exactly as `run --dialect` answers it.
    rpc: null,
    http: { verb: 'POST', path: ['agent', '<agent>', '<AgentEvent>'], body: { param: 'input' }, reply: 'agent' },
    tracked: true,
    run: (p, ctx, signal) => ctx.api.agent(p.agent as string, p.AgentEvent as string, p.input, signal, p.agentEnv as Record<string, string> | undefined),
  },
  {
    rpc: 'emit_gateway',
    params: '{event, context}',
    http: { verb: 'POST', path: ['gateway'], body: 'params', status: 202 },
    tracked: false,
    run: (p, ctx) => ctx.api.emitGateway(p.event, p.context),
  },
  {
    // Decision hooks: every answer of the event's handlers (Hermes' emit_collect).
    rpc: 'gateway_collect',
    params: '{event, context, timeout_ms?}',
    http: { verb: 'POST', path: ['gateway', 'collect'], body: 'params' },
    tracked: true,
    run: (p, ctx) => ctx.api.gatewayCollect(p.event, p.context, p.timeout_ms),
  },
  {
    // A slash command through its command:<name> hooks, decided as Hermes' gateway decides it.
    rpc: 'gateway_command',
    params: '{context, timeout_ms?}',
    http: { verb: 'POST', path: ['gateway', 'command'], body: 'params' },
    tracked: true,
    run: (p, ctx) => ctx.api.gatewayCommand(p.context, p.timeout_ms),
  },
  {
    rpc: 'health',
    http: { verb: 'GET', path: ['health'], body: 'none' },
    tracked: false,
    run: (_p, ctx) => ctx.health(),
  },
  {
    rpc: 'reload',
    http: { verb: 'POST', path: ['reload'], body: 'none' },
    tracked: false,
    run: (_p, ctx) => ctx.api.reload(),
  },
  {
    rpc: 'shutdown',
    http: null,
    tracked: false,
    run: (_p, ctx) => {
      // Answer first, then shut down: the host sees the acknowledgement.
      setImmediate(() => ctx.shutdown('shutdown requested'));
      return { shutting_down: true };
    },
  },
  {
    // Finalize notices of sessions the server finalized on its own, for hosts that poll.
    rpc: null,
    http: { verb: 'GET', path: ['notices'], body: 'none' },
    tracked: false,
    run: (_p, ctx) => ({ notices: ctx.notices.take() }),
  },
];

/** Runs a method: as a tracked request when it is one (`client` aborting cancels it). */
export async function callMethod(method: ServeMethod, p: Params, ctx: MethodContext, client?: AbortSignal): Promise<unknown> {
  if (!method.tracked) return method.run(p, ctx);
  return ctx.tracker.run(async (signal) => method.run(p, ctx, signal), client);
}

/** A JSON-RPC call: the method by its name, else a method-not-found error that lists them. */
export async function callRpcMethod(name: string, params: unknown, ctx: MethodContext): Promise<unknown> {
  const method = METHODS.find((m) => m.rpc === name);
  if (method === undefined) {
    throw new ServeError('method_not_found', `unknown method '${name}' (methods: ${rpcMethodNames().join(', ')})`);
  }
  const named = params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Params).profile : undefined;
  return callMethod(method, params as Params, await profileContext(ctx, named));
}

export function rpcMethodNames(): string[] {
  return METHODS.flatMap((m) => (m.rpc !== null ? [m.rpc] : []));
}

/** The method whose route `segments` (after /v1/) name, with the params the path gives. */
export function findRoute(segments: readonly string[]): { method: ServeMethod; route: HttpRoute; pathParams: Params } | null {
  for (const method of METHODS) {
    const route = method.http;
    if (route === null || route.path.length !== segments.length) continue;
    if (!route.path.every((seg, i) => seg.startsWith('<') || seg === segments[i])) continue;
    const pathParams: Params = {};
    route.path.forEach((seg, i) => {
      if (seg.startsWith('<')) pathParams[seg.slice(1, -1)] = segments[i];
    });
    return { method, route, pathParams };
  }
  return null;
}

/** `GET /v1/health, POST /v1/emit/<event>, …`, for a request that names no route. */
export function httpRouteList(): string {
  const routes = METHODS.flatMap((m) => (m.http ? [m.http] : []));
  // Health first: where a client that lost its way starts (the 404 outside /v1/ says so too).
  const first = routes.filter((r) => r.path[0] === 'health');
  return [...first, ...routes.filter((r) => !first.includes(r))].map((r) => `${r.verb} /v1/${r.path.join('/')}`).join(', ');
}

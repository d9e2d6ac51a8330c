// HTTP/1.1 request handling, shared by the Unix socket and loopback TCP transports
// (transport-socket.ts, transport-http.ts): the routes are serve's method table (methods.ts); here
// a request is checked, its params read from path and body, and the answer or the error
// (error-answer.ts) written. A blocked emit is still 200: the decision is the answer.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isEventName, type EventName } from '../events.js';
import { undecidedBlock, unreadableInputProblem } from '../agent-wiring/call.js';
import type { Emission } from '../types.js';
import type { DialectAnswer } from '../dialects/translate-call.js';
import { RequestError } from './api.js';
import { checkRequest, type AuthPolicy } from './auth.js';
import { Shed, type RequestSlot } from './connections.js';
import { errorAnswer, ServeError } from './error-answer.js';
import { HEARTBEAT_HEADER, startHeartbeat, type Heartbeat } from './heartbeat.js';
import { callMethod, findRoute, profileContext, httpRouteList, type HttpRoute, type Params, type ServeMethod } from './methods.js';
import type { TransportContext } from './transport.js';
import { errorText } from '../errors.js';
import { withTraceHeaders } from '../telemetry/trace-scope.js';

/** The request header naming the profile a request is for (serve --profiles). */
export const PROFILE_HEADER = 'x-hermes-profile';
/**
 * The agent's hook env that the answer depends on, forwarded by the bundled client as
 * `NAME=value&…` (URL-encoded): Claude Code's CLAUDE_CODE_SESSION_ATTENDED decides the platform,
 * and so whether a loop is stopped, as it does for `run --dialect` in that env.
 */
export const AGENT_ENV_HEADER = 'x-hermes-hooks-agent-env';

type HttpContext = TransportContext;

/** One request being answered: its body is read only through here. */
interface Exchange {
  res: ServerResponse;
  /** The body as JSON (an empty one is `{}` when `emptyOk`); `Expect: 100-continue` answered first. */
  body(emptyOk: boolean): Promise<unknown>;
  /** A route without a body: the request is whole (its body, if any, is read and dropped). */
  noBody(): void;
}

/** An HTTP server for serve's routes, its connections under `ctx.connections`; the caller listens. */
export function createHttpServer(ctx: HttpContext, policy: AuthPolicy): Server {
  const handler = createHttpHandler(ctx, policy);
  const server = createServer((req, res) => handler(req, res, false));
  // `Expect: 100-continue` is ours to answer: the 100 goes out only once the token is checked.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => handler(req, res, true));
  // Our own per-request deadline decides; Node's must not cut a long emit off first. Node checks
  // its headers deadline only every 30 s: the connection guard keeps the real one.
  server.requestTimeout = ctx.requestTimeoutMs + 5000;
  server.headersTimeout = Math.min(ctx.headersTimeoutMs + 5000, server.requestTimeout);
  server.keepAliveTimeout = 5000;
  ctx.connections.watch(server);
  return server;
}

function createHttpHandler(ctx: HttpContext, policy: AuthPolicy): (req: IncomingMessage, res: ServerResponse, continueFirst: boolean) => void {
  return (req, res, continueFirst) => {
    // One AbortController per request: the client closing the connection cancels its hooks.
    const client = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) client.abort();
    });
    // The caller's W3C trace context (traceparent header) reaches the telemetry observer, when it is on.
    withTraceHeaders(req.headers, () => handle(ctx, policy, req, res, client.signal, continueFirst)).catch((e: unknown) => {
      const { status, message } = errorAnswer(e);
      if (!res.headersSent) {
        // The rest of an oversized, unauthorised or shed body is never read: the connection cannot
        // carry another request.
        if (status === 413 || status === 401 || status === 403 || e instanceof Shed) res.setHeader('connection', 'close');
        if (e instanceof Shed) res.setHeader('retry-after', '1');
      }
      sendJson(res, status, { error: { status, message } });
    });
  };
}

async function handle(
  outer: HttpContext,
  policy: AuthPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  client: AbortSignal,
  continueFirst: boolean,
): Promise<void> {
  // The token (and the browser checks) before a single byte of the body is read.
  const denied = checkRequest(req, policy);
  if (denied) throw new ServeError(denied.status === 401 ? 'unauthorized' : 'forbidden', denied.message);
  const slot = outer.connections.admit(req, res);
  const ex: Exchange = {
    res,
    body(emptyOk) {
      if (continueFirst && !slot.signal.aborted) res.writeContinue();
      return readJson(req, outer.maxBodyBytes, emptyOk, slot);
    },
    noBody() {
      slot.bodyRead();
      if (slot.signal.aborted) throw slot.signal.reason;
      req.resume();
    },
  };
  const path = (req.url ?? '/').split('?')[0]!;
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  if (parts[0] !== 'v1') {
    ex.noBody();
    throw new ServeError('not_found', `no route ${req.method} ${path}; routes live under /v1/ (GET /v1/health lists the server's state)`);
  }
  const verb = req.method ?? 'GET';
  const found = findRoute(parts.slice(1));
  if (found === null) {
    ex.noBody();
    throw new ServeError('not_found', `no route ${verb} ${path} (routes: ${httpRouteList()})`);
  }
  const { method, route, pathParams } = found;
  if (verb !== route.verb) throw new ServeError('method_not_allowed', `${path} takes ${route.verb}, not ${verb}`);
  if (route.reply === 'agent') return answerAgent(outer, req, ex, { method, route, pathParams }, client);
  const ctx = await routedContext(outer, req, ex);
  let params: Params;
  try {
    params = await readParams(ex, route, pathParams);
  } catch (e) {
    // Shed on a tool gate: a block, never an answer the host could take as "go ahead".
    const event = pathParams.event;
    const shed = e instanceof Shed && typeof event === 'string' && isEventName(event) ? shedBlock(event, e.message) : null;
    if (shed === null) throw e;
    res.setHeader('connection', 'close');
    res.setHeader('retry-after', '1');
    return sendJson(res, 200, shed);
  }
  return sendJson(res, route.status ?? 200, await callMethod(method, params, ctx, client));
}

/** The context of the profile the X-Hermes-Profile header names (serve --profiles); refused: the body is dropped. */
async function routedContext(ctx: HttpContext, req: IncomingMessage, ex: Exchange): Promise<HttpContext> {
  const named = req.headers[PROFILE_HEADER];
  if (named === undefined) return ctx;
  try {
    return await profileContext(ctx, named);
  } catch (e) {
    ex.noBody();
    throw e;
  }
}

/** The forwarded agent env (AGENT_ENV_HEADER), names and values as sent; none: empty. */
function agentEnvOf(req: IncomingMessage): Record<string, string> {
  const raw = req.headers[AGENT_ENV_HEADER];
  const env: Record<string, string> = {};
  for (const line of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
    for (const [name, value] of new URLSearchParams(line)) env[name] = value;
  }
  return env;
}

/** The params a request carries: those its path names, and its body as the route says. */
async function readParams(ex: Exchange, route: HttpRoute, pathParams: Params): Promise<Params> {
  if (route.body === 'none') {
    ex.noBody();
    return pathParams;
  }
  if (route.body === 'params') return (await ex.body(false)) as Params;
  return { ...pathParams, [route.body.param]: await ex.body(true) };
}

/**
 * Another agent's hook call: exactly what `run --dialect` prints, exit code in X-Hermes-Hooks-Exit,
 * stderr in X-Hermes-Hooks-Stderr.
 */
async function answerAgent(
  ctx: HttpContext,
  req: IncomingMessage,
  ex: Exchange,
  { method, route, pathParams }: { method: ServeMethod; route: HttpRoute; pathParams: Params },
  client: AbortSignal,
): Promise<void> {
  const agent = pathParams.agent as string;
  const theirEvent = pathParams.AgentEvent as string;
  let answer: DialectAnswer;
  // A profile that cannot be served (unknown, misnamed, its config unusable) is a call not decided.
  let routed = false;
  // Signs of life while the hooks run, when asked (heartbeat.ts): from the body read on, every
  // error is found after the status may have gone out, so each is answered through it.
  let beat: Heartbeat | null = null;
  try {
    const profileCtx = await routedContext(ctx, req, ex);
    routed = true;
    const params = { ...(await readParams(ex, route, pathParams)), agentEnv: agentEnvOf(req) };
    if (req.headers[HEARTBEAT_HEADER] !== undefined) beat = startHeartbeat(ex.res);
    answer = (await callMethod(method, params, profileCtx, client)) as DialectAnswer;
  } catch (e) {
    try {
      answer = cannotDecideAgent(ctx, ex, agent, theirEvent, routed, e);
    } catch (error) {
      if (beat === null) throw error;
      const { status, message } = errorAnswer(error);
      return beat.send(status, `${JSON.stringify({ error: { status, message } })}\n`, { 'content-type': 'application/json' });
    }
  }
  const stdout = answer.stdout === '' || answer.stdout.endsWith('\n') ? answer.stdout : `${answer.stdout}\n`;
  const headers: Record<string, string> = {
    'content-type': stdout.trimStart().startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8',
    'x-hermes-hooks-exit': String(answer.exitCode),
  };
  if (answer.stderr) headers['x-hermes-hooks-stderr'] = encodeURIComponent(answer.stderr);
  return beat === null ? send(ex.res, 200, stdout, headers) : beat.send(200, stdout, headers);
}

/** A call that could not be decided: on a tool gate the agent's own block; elsewhere (or a 404) the error, thrown. */
function cannotDecideAgent(ctx: HttpContext, ex: Exchange, agent: string, theirEvent: string, routed: boolean, e: unknown): DialectAnswer {
  let answer: DialectAnswer;
  // Whatever stops the call being decided (a body that is not JSON or too big, the server
  // shutting down or shedding load, a fault of ours) is answered on a tool gate as that agent's own block, as
  // `run --dialect` answers: agents take a 4xx/5xx from an HTTP hook as "go ahead".
  // An unknown agent or event is still a 404: there is no gate to answer for.
  if (routed && e instanceof RequestError && e.kind === 'not_found') throw e;
  const unreadable = e instanceof ServeError && e.jsonError !== undefined;
  const problem = unreadable ? unreadableInputProblem(agent, (e as ServeError).jsonError!) : errorAnswer(e).message;
  try {
    answer = ctx.api.agentCannotDecide(agent, theirEvent, problem);
  } catch (notAGate) {
    // Not a tool gate: the error itself is the answer (a body that is not JSON says so as the agent's input).
    throw unreadable ? notAGate : e;
  }
  // The rest of an oversized or shed body is never read: the connection cannot carry another request.
  if (((e instanceof ServeError && e.code === 'too_large') || e instanceof Shed) && !ex.res.headersSent) ex.res.setHeader('connection', 'close');
  return answer;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The body as JSON; an empty body is `{}` when `emptyOk`. Over the cap: 413, and the rest is not
 * read. Shed while it arrives (the slot's signal): rejected with the Shed.
 */
function readJson(req: IncomingMessage, max: number, emptyOk: boolean, slot: RequestSlot): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (slot.signal.aborted) {
      reject(slot.signal.reason);
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      slot.bodyRead();
      reject(new ServeError('too_large', `request body of ${declared} bytes is over the ${max}-byte limit (--max-body)`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      slot.signal.removeEventListener('abort', onShed);
      slot.bodyRead();
      return true;
    };
    const onShed = (): void => {
      if (settle()) reject(slot.signal.reason);
    };
    slot.signal.addEventListener('abort', onShed, { once: true });
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > max) {
        if (settle()) reject(new ServeError('too_large', `request body is over the ${max}-byte limit (--max-body)`));
        return;
      }
      chunks.push(c);
    });
    req.once('error', (e) => {
      if (settle()) reject(new ServeError('invalid_request', `cannot read the request body: ${e.message}`));
    });
    req.once('end', () => {
      if (!settle()) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        if (emptyOk) resolve({});
        else reject(new ServeError('invalid_request', 'the request body must be a JSON object'));
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new ServeError('invalid_request', `the request body is not valid JSON: ${errorText(e)}`, errorText(e)));
      }
    });
  });
}

/** The answer to an emit on a tool gate that serve had to shed: a block that says why. */
function shedBlock(event: EventName, reason: string): Emission | null {
  const decision = undecidedBlock(event, `hermes-hooks serve did not check this call, so it blocks it: ${reason}; retry in a moment`);
  return decision === null ? null : { event, payload: {}, hooks: [], decision, diagnostics: [] };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, `${JSON.stringify(value)}\n`, { 'content-type': 'application/json' });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

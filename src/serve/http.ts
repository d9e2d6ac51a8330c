// HTTP/1.1 routes, the same on the Unix socket and on loopback TCP. A blocked emit is still 200:
// the decision is the answer. 4xx is for requests the client must fix, 5xx for our faults.
//
//   GET  /v1/health                      the engine's state and the config's diagnostics
//   POST /v1/emit/<event>                body: kwargs              → the Emission
//   POST /v1/finalize                    body: kwargs              → {emission, notices}
//   POST /v1/agent/<agent>/<AgentEvent>  body: that agent's stdin  → exactly what `run --dialect` prints,
//                                        exit code in X-Hermes-Hooks-Exit, stderr in X-Hermes-Hooks-Stderr
//   POST /v1/gateway                     body: {event, context}    → {accepted} (with --surface gateway)
//   POST /v1/reload                      re-read the config now
//   GET  /v1/notices                     finalize notices of sessions the server finalized on its own

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { EVENTS, isEventName, type EventName } from '../events.js';
import { allowDecision } from '../resolve/resolve.js';
import type { Emission } from '../types.js';
import { RequestError, type ServeApi } from './api.js';
import { checkRequest, type AuthPolicy } from './auth.js';
import { Shed, type ConnectionGuard, type RequestSlot } from './connections.js';
import type { NoticeQueue } from './notices.js';
import { ShuttingDown, type RequestTracker } from './requests.js';
import { HooksError, errorText } from '../errors.js';

export interface HttpContext {
  api: ServeApi;
  tracker: RequestTracker;
  notices: NoticeQueue;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Shared by every HTTP server of the process (one open-file budget). */
  connections: ConnectionGuard;
  health: () => Record<string, unknown>;
}

class HttpError extends HooksError {
  constructor(
    readonly status: number,
    message: string,
    /** JSON.parse's own message, when the body was not JSON. */
    readonly jsonError?: string,
  ) {
    super(`http_${status}`, message);
  }
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
    handle(ctx, policy, req, res, client.signal, continueFirst).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : e instanceof RequestError ? (e.kind === 'not_found' ? 404 : 400) : e instanceof ShuttingDown || e instanceof Shed ? 503 : 500;
      const message = status === 500 ? `internal error: ${errorText(e)}` : errorText(e);
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

async function handle(ctx: HttpContext, policy: AuthPolicy, req: IncomingMessage, res: ServerResponse, client: AbortSignal, continueFirst: boolean): Promise<void> {
  // The token (and the browser checks) before a single byte of the body is read.
  const denied = checkRequest(req, policy);
  if (denied) throw new HttpError(denied.status, denied.message);
  const slot = ctx.connections.admit(req, res);
  const body = (emptyOk: boolean): Promise<unknown> => {
    if (continueFirst && !slot.signal.aborted) res.writeContinue();
    return readJson(req, ctx.maxBodyBytes, emptyOk, slot);
  };
  /** A route without a body: the request is whole (its body, if any, is read and dropped). */
  const noBody = (): void => {
    slot.bodyRead();
    if (slot.signal.aborted) throw slot.signal.reason;
    req.resume();
  };
  const path = (req.url ?? '/').split('?')[0]!;
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  if (parts[0] !== 'v1') {
    noBody();
    throw new HttpError(404, `no route ${req.method} ${path}; routes live under /v1/ (GET /v1/health lists the server's state)`);
  }
  const route = parts[1] ?? '';
  const method = req.method ?? 'GET';

  if (route === 'health' && parts.length === 2) {
    allow(method, 'GET', path);
    noBody();
    return sendJson(res, 200, ctx.health());
  }
  if (route === 'notices' && parts.length === 2) {
    allow(method, 'GET', path);
    noBody();
    return sendJson(res, 200, { notices: ctx.notices.take() });
  }
  if (route === 'emit' && parts.length === 3) {
    allow(method, 'POST', path);
    let kwargs;
    try {
      kwargs = await body(true);
    } catch (e) {
      // Shed on a tool gate: a block, never an answer the host could take as "go ahead".
      const event = parts[2]!;
      if (!(e instanceof Shed) || !isEventName(event) || !EVENTS[event].canBlock) throw e;
      res.setHeader('connection', 'close');
      res.setHeader('retry-after', '1');
      return sendJson(res, 200, shedBlock(event, e.message));
    }
    const emission = await ctx.tracker.run((signal) => ctx.api.emit(parts[2], kwargs, undefined, signal), client);
    return sendJson(res, 200, emission);
  }
  if (route === 'finalize' && parts.length === 2) {
    allow(method, 'POST', path);
    const kwargs = await body(true);
    return sendJson(res, 200, await ctx.tracker.run((signal) => ctx.api.finalize(kwargs, signal), client));
  }
  if (route === 'agent' && parts.length === 4) {
    allow(method, 'POST', path);
    let answer;
    try {
      const input = await body(true);
      answer = await ctx.tracker.run((signal) => ctx.api.agent(parts[2]!, parts[3]!, input, signal), client);
    } catch (e) {
      // Whatever stops the call being decided (a body that is not JSON or too big, the server
      // shutting down or shedding load, a fault of ours) is answered on a tool gate as that agent's own block, as
      // `run --dialect` answers: agents take a 4xx/5xx from an HTTP hook as "go ahead".
      // An unknown agent or event is still a 404: there is no gate to answer for.
      if (e instanceof RequestError && e.kind === 'not_found') throw e;
      const unreadable = e instanceof HttpError && e.jsonError !== undefined;
      const problem = unreadable
        ? `invalid ${parts[2]} hook input on stdin: ${(e as HttpError).jsonError}`
        : e instanceof HttpError || e instanceof ShuttingDown || e instanceof RequestError || e instanceof Shed
          ? errorText(e)
          : `internal error: ${errorText(e)}`;
      try {
        answer = ctx.api.agentCannotDecide(parts[2]!, parts[3]!, problem);
      } catch (notAGate) {
        // Not a tool gate: the error itself is the answer (a body that is not JSON says so as the agent's input).
        throw unreadable ? notAGate : e;
      }
      // The rest of an oversized or shed body is never read: the connection cannot carry another request.
      if ((e instanceof HttpError && e.status === 413) || e instanceof Shed) res.setHeader('connection', 'close');
    }
    const stdout = answer.stdout === '' || answer.stdout.endsWith('\n') ? answer.stdout : `${answer.stdout}\n`;
    const headers: Record<string, string> = {
      'content-type': stdout.trimStart().startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8',
      'x-hermes-hooks-exit': String(answer.exitCode),
    };
    if (answer.stderr) headers['x-hermes-hooks-stderr'] = encodeURIComponent(answer.stderr);
    return send(res, 200, stdout, headers);
  }
  if (route === 'gateway' && parts.length === 2) {
    allow(method, 'POST', path);
    const input = (await body(false)) as Record<string, unknown>;
    return sendJson(res, 202, ctx.api.emitGateway(input.event, input.context));
  }
  if (route === 'reload' && parts.length === 2) {
    allow(method, 'POST', path);
    noBody();
    return sendJson(res, 200, await ctx.api.reload());
  }
  noBody();
  throw new HttpError(404, `no route ${method} ${path} (routes: GET /v1/health, POST /v1/emit/<event>, POST /v1/finalize, POST /v1/agent/<agent>/<AgentEvent>, POST /v1/gateway, POST /v1/reload, GET /v1/notices)`);
}

function allow(method: string, expected: string, path: string): void {
  if (method !== expected) throw new HttpError(405, `${path} takes ${expected}, not ${method}`);
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
      reject(new HttpError(413, `request body of ${declared} bytes is over the ${max}-byte limit (--max-body)`));
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
        if (settle()) reject(new HttpError(413, `request body is over the ${max}-byte limit (--max-body)`));
        return;
      }
      chunks.push(c);
    });
    req.once('error', (e) => {
      if (settle()) reject(new HttpError(400, `cannot read the request body: ${e.message}`));
    });
    req.once('end', () => {
      if (!settle()) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        if (emptyOk) resolve({});
        else reject(new HttpError(400, 'the request body must be a JSON object'));
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new HttpError(400, `the request body is not valid JSON: ${errorText(e)}`, errorText(e)));
      }
    });
  });
}

/** The answer to an emit on a tool gate that serve had to shed: a block that says why. */
function shedBlock(event: EventName, reason: string): Emission {
  const message = `hermes-hooks serve did not check this call, so it blocks it: ${reason}; retry in a moment`;
  return { event, payload: {}, hooks: [], decision: { ...allowDecision(event), action: 'block', message }, diagnostics: [] };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, `${JSON.stringify(value)}\n`, { 'content-type': 'application/json' });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

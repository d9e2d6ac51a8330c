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

import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestError, type ServeApi } from './api.js';
import { checkRequest, type AuthPolicy } from './auth.js';
import type { NoticeQueue } from './notices.js';
import { ShuttingDown, type RequestTracker } from './requests.js';

export interface HttpContext {
  api: ServeApi;
  tracker: RequestTracker;
  notices: NoticeQueue;
  maxBodyBytes: number;
  health: () => Record<string, unknown>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** JSON.parse's own message, when the body was not JSON. */
    readonly jsonError?: string,
  ) {
    super(message);
  }
}

export function createHttpHandler(ctx: HttpContext, policy: AuthPolicy): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // One AbortController per request: the client closing the connection cancels its hooks.
    const client = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) client.abort();
    });
    handle(ctx, policy, req, res, client.signal).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : e instanceof RequestError ? (e.kind === 'not_found' ? 404 : 400) : e instanceof ShuttingDown ? 503 : 500;
      const message = status === 500 ? `internal error: ${(e as Error)?.message ?? String(e)}` : (e as Error).message;
      // The rest of an oversized body is never read: the connection cannot carry another request.
      if (status === 413 && !res.headersSent) res.setHeader('connection', 'close');
      sendJson(res, status, { error: { status, message } });
    });
  };
}

async function handle(ctx: HttpContext, policy: AuthPolicy, req: IncomingMessage, res: ServerResponse, client: AbortSignal): Promise<void> {
  const denied = checkRequest(req, policy);
  if (denied) {
    req.resume();
    throw new HttpError(denied.status, denied.message);
  }
  const path = (req.url ?? '/').split('?')[0]!;
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  if (parts[0] !== 'v1') throw new HttpError(404, `no route ${req.method} ${path}; routes live under /v1/ (GET /v1/health lists the server's state)`);
  const route = parts[1] ?? '';
  const method = req.method ?? 'GET';

  if (route === 'health' && parts.length === 2) {
    allow(method, 'GET', path);
    req.resume();
    return sendJson(res, 200, ctx.health());
  }
  if (route === 'notices' && parts.length === 2) {
    allow(method, 'GET', path);
    req.resume();
    return sendJson(res, 200, { notices: ctx.notices.take() });
  }
  if (route === 'emit' && parts.length === 3) {
    allow(method, 'POST', path);
    const body = await readJson(req, ctx.maxBodyBytes, true);
    const emission = await ctx.tracker.run((signal) => ctx.api.emit(parts[2], body, undefined, signal), client);
    return sendJson(res, 200, emission);
  }
  if (route === 'finalize' && parts.length === 2) {
    allow(method, 'POST', path);
    const body = await readJson(req, ctx.maxBodyBytes, true);
    return sendJson(res, 200, await ctx.tracker.run((signal) => ctx.api.finalize(body, signal), client));
  }
  if (route === 'agent' && parts.length === 4) {
    allow(method, 'POST', path);
    let answer;
    try {
      const body = await readJson(req, ctx.maxBodyBytes, true);
      answer = await ctx.tracker.run((signal) => ctx.api.agent(parts[2]!, parts[3]!, body, signal), client);
    } catch (e) {
      // Whatever stops the call being decided (a body that is not JSON or too big, the server
      // shutting down, a fault of ours) is answered on a tool gate as that agent's own block, as
      // `run --dialect` answers: agents take a 4xx/5xx from an HTTP hook as "go ahead".
      // An unknown agent or event is still a 404: there is no gate to answer for.
      if (e instanceof RequestError && e.kind === 'not_found') throw e;
      const unreadable = e instanceof HttpError && e.jsonError !== undefined;
      const problem = unreadable
        ? `invalid ${parts[2]} hook input on stdin: ${(e as HttpError).jsonError}`
        : e instanceof HttpError || e instanceof ShuttingDown || e instanceof RequestError
          ? (e as Error).message
          : `internal error: ${(e as Error)?.message ?? String(e)}`;
      try {
        answer = ctx.api.agentCannotDecide(parts[2]!, parts[3]!, problem);
      } catch (notAGate) {
        // Not a tool gate: the error itself is the answer (a body that is not JSON says so as the agent's input).
        throw unreadable ? notAGate : e;
      }
      // The rest of an oversized body is never read: the connection cannot carry another request.
      if (e instanceof HttpError && e.status === 413) res.setHeader('connection', 'close');
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
    const body = (await readJson(req, ctx.maxBodyBytes, false)) as Record<string, unknown>;
    return sendJson(res, 202, ctx.api.emitGateway(body.event, body.context));
  }
  if (route === 'reload' && parts.length === 2) {
    allow(method, 'POST', path);
    req.resume();
    return sendJson(res, 200, await ctx.api.reload());
  }
  req.resume();
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

/** The body as JSON; an empty body is `{}` when `emptyOk`. Over the cap: 413, and the rest is not read. */
function readJson(req: IncomingMessage, max: number, emptyOk: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      reject(new HttpError(413, `request body of ${declared} bytes is over the ${max}-byte limit (--max-body)`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        reject(new HttpError(413, `request body is over the ${max}-byte limit (--max-body)`));
        return;
      }
      chunks.push(c);
    });
    req.once('error', (e) => reject(new HttpError(400, `cannot read the request body: ${e.message}`)));
    req.once('end', () => {
      if (over) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        if (emptyOk) resolve({});
        else reject(new HttpError(400, 'the request body must be a JSON object'));
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new HttpError(400, `the request body is not valid JSON: ${(e as Error).message}`, (e as Error).message));
      }
    });
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, `${JSON.stringify(value)}\n`, { 'content-type': 'application/json' });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

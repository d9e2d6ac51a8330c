// JSON-RPC 2.0 over a pair of byte streams, one JSON object per line (`serve --stdio`): requests are
// handled concurrently and answered as they finish (match answers by id). Nothing but protocol
// lines goes to the output; logs go to stderr. A line that is not valid JSON-RPC gets an error
// answer and the next line is read as usual. stdin closing shuts the server down.

import type { Readable, Writable } from 'node:stream';
import { errorAnswer, rpcCode, type ServeErrorCode } from './error-answer.js';
import { createLineFramer } from './line-framing.js';
import { callRpcMethod } from './methods.js';
import type { Transport } from './transport.js';
import { errorText } from '../errors.js';

/** `serve --stdio`: requests by their JSON-RPC method name; the one transport that can push notifications. */
export function createStdioTransport(io: { input: Readable; output: Writable }): Transport {
  let rpc: RpcChannel | null = null;
  return {
    name: 'stdio',
    holdsConnections: false,
    async start(ctx) {
      rpc = serveJsonRpc(io.input, io.output, {
        maxLineBytes: ctx.maxBodyBytes,
        onEnd: () => ctx.shutdown('stdin closed'),
        handle: (method, params) => callRpcMethod(method, params, ctx),
      });
      return { label: 'stdio', announce: 'serving JSON-RPC 2.0 on stdin/stdout, one object per line' };
    },
    stop: () => rpc?.stop(),
    close: async () => rpc?.flush(),
    notify: (method, params) => rpc?.notify(method, params),
  };
}

type Id = string | number | null;

export interface RpcChannel {
  /** A server → host notification (no id): e.g. `session_finalized`. */
  notify(method: string, params: unknown): void;
  /** Stop reading (shutdown); answers still in flight are written when they finish. */
  stop(): void;
  /** Resolves once every answer has been handed to the output stream. */
  flush(): Promise<void>;
}

type Handle = (method: string, params: unknown) => Promise<unknown>;

/** The output side: answers in flight, and whether anyone is still reading. */
interface Output {
  stream: Writable;
  broken: boolean;
  pending: number;
  drained: (() => void) | null;
}

interface Request {
  method: string;
  params: unknown;
  /** A request without an id is a notification: never answered, not even with an error. */
  hasId: boolean;
  id: Id;
}

interface Refusal {
  id: Id;
  code: ServeErrorCode;
  message: string;
}

export function serveJsonRpc(
  input: Readable,
  output: Writable,
  opts: {
    handle: Handle;
    maxLineBytes: number;
    /** stdin reached its end (the host closed it, or died). */
    onEnd: () => void;
  },
): RpcChannel {
  const out: Output = { stream: output, broken: false, pending: 0, drained: null };
  output.on('error', () => {
    out.broken = true; // the host is gone: nobody to answer
  });
  // Line framing with a cap: an over-long line is answered with an error (with its id when it can
  // be read) and skipped to its end.
  let stopped = false;
  const framer = createLineFramer({
    maxLineBytes: opts.maxLineBytes,
    onLine: (line) => handleLine(out, line, opts.handle),
    onTooLong: (id) => fail(out, id, rpcCode('invalid_request'), `request line longer than the ${opts.maxLineBytes}-byte limit (--max-body); skipped`),
  });
  const onData = (chunk: Buffer | string): void => framer.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  const onEnd = (): void => {
    if (stopped) return;
    framer.end();
    stopped = true;
    opts.onEnd();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  input.once('error', onEnd);

  return {
    notify(method, params) {
      write(out, { jsonrpc: '2.0', method, params });
    },
    stop() {
      stopped = true;
      input.off('data', onData);
      input.pause();
    },
    flush: () => flush(out),
  };
}

function write(out: Output, msg: unknown): void {
  if (out.broken) return;
  out.stream.write(`${JSON.stringify(msg)}\n`);
}

function fail(out: Output, id: Id, code: number, message: string): void {
  write(out, { jsonrpc: '2.0', id, error: { code, message } });
}

/** One line: refused at once when it is not a request, else handled and answered when done. */
function handleLine(out: Output, line: string, handle: Handle): void {
  if (line.trim() === '') return;
  const req = readRequest(line);
  if ('code' in req) {
    fail(out, req.id, rpcCode(req.code), req.message);
    return;
  }
  out.pending += 1;
  handle(req.method, req.params)
    .then(
      (result) => {
        if (req.hasId) write(out, { jsonrpc: '2.0', id: req.id, result: result ?? null });
      },
      (e: unknown) => {
        if (!req.hasId) return; // a notification is never answered, not even with an error
        const { rpc, message } = errorAnswer(e);
        fail(out, req.id, rpc, message);
      },
    )
    .finally(() => {
      out.pending -= 1;
      if (out.pending === 0) out.drained?.();
    });
}

/** A line as a JSON-RPC 2.0 request, or why it is not one. */
function readRequest(line: string): Request | Refusal {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    return { id: null, code: 'parse_error', message: `parse error: ${errorText(e)}; send one JSON-RPC 2.0 object per line` };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return {
      id: null,
      code: 'invalid_request',
      message: `invalid request: expected one JSON-RPC 2.0 object per line, got ${Array.isArray(msg) ? 'an array (batches are not supported)' : typeof msg}`,
    };
  }
  const req = msg as Record<string, unknown>;
  const hasId = 'id' in req;
  const id = req.id;
  if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    return { id: null, code: 'invalid_request', message: 'invalid request: "id" must be a string, a number or null' };
  }
  const replyId = (hasId ? id : null) as Id;
  if (req.jsonrpc !== '2.0') return { id: replyId, code: 'invalid_request', message: 'invalid request: "jsonrpc" must be "2.0"' };
  if (typeof req.method !== 'string' || req.method === '')
    return { id: replyId, code: 'invalid_request', message: 'invalid request: "method" must be a non-empty string' };
  if (req.params !== undefined && (typeof req.params !== 'object' || req.params === null))
    return { id: replyId, code: 'invalid_params', message: '"params" must be an object' };
  return { method: req.method, params: req.params ?? {}, hasId, id: replyId };
}

/** Resolves once every answer in flight is written and handed to the stream. */
function flush(out: Output): Promise<void> {
  // The callback of an empty write runs once everything written before it is flushed.
  const ended = (): Promise<void> => (out.broken ? Promise.resolve() : new Promise((r) => out.stream.write('', () => r())));
  if (out.pending === 0) return ended();
  return new Promise<void>((r) => {
    out.drained = r;
  }).then(ended);
}

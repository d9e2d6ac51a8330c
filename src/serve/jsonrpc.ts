// JSON-RPC 2.0 over a pair of byte streams, one JSON object per line (`serve --stdio`): requests are
// handled concurrently and answered as they finish (match answers by id). Nothing but protocol
// lines goes to the output; logs go to stderr. A line that is not valid JSON-RPC gets an error
// answer and the next line is read as usual.

import type { Readable, Writable } from 'node:stream';
import { RequestError } from './api.js';
import { createLineFramer } from './line-framing.js';
import { ShuttingDown } from './requests.js';
import { HooksError, errorText } from '../errors.js';

const RPC_PARSE_ERROR = -32700;
const RPC_INVALID_REQUEST = -32600;
const RPC_METHOD_NOT_FOUND = -32601;
const RPC_INVALID_PARAMS = -32602;
const RPC_INTERNAL_ERROR = -32603;
const RPC_SHUTTING_DOWN = -32000;

export class MethodNotFound extends HooksError {
  constructor(message: string) {
    super('method_not_found', message);
  }
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

export function serveJsonRpc(
  input: Readable,
  output: Writable,
  opts: {
    handle: (method: string, params: unknown) => Promise<unknown>;
    maxLineBytes: number;
    /** stdin reached its end (the host closed it, or died). */
    onEnd: () => void;
  },
): RpcChannel {
  let broken = false;
  let pending = 0;
  let drained: (() => void) | null = null;
  output.on('error', () => {
    broken = true; // the host is gone: nobody to answer
  });
  const write = (msg: unknown): void => {
    if (broken) return;
    output.write(`${JSON.stringify(msg)}\n`);
  };
  const fail = (id: Id, code: number, message: string): void => write({ jsonrpc: '2.0', id, error: { code, message } });

  const handleLine = (line: string): void => {
    if (line.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      fail(null, RPC_PARSE_ERROR, `parse error: ${errorText(e)}; send one JSON-RPC 2.0 object per line`);
      return;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      fail(null, RPC_INVALID_REQUEST, `invalid request: expected one JSON-RPC 2.0 object per line, got ${Array.isArray(msg) ? 'an array (batches are not supported)' : typeof msg}`);
      return;
    }
    const req = msg as Record<string, unknown>;
    const hasId = 'id' in req;
    const id = req.id;
    if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number') {
      fail(null, RPC_INVALID_REQUEST, 'invalid request: "id" must be a string, a number or null');
      return;
    }
    const replyId = (hasId ? id : null) as Id;
    if (req.jsonrpc !== '2.0') {
      fail(replyId, RPC_INVALID_REQUEST, 'invalid request: "jsonrpc" must be "2.0"');
      return;
    }
    if (typeof req.method !== 'string' || req.method === '') {
      fail(replyId, RPC_INVALID_REQUEST, 'invalid request: "method" must be a non-empty string');
      return;
    }
    if (req.params !== undefined && (typeof req.params !== 'object' || req.params === null)) {
      fail(replyId, RPC_INVALID_PARAMS, '"params" must be an object');
      return;
    }
    pending += 1;
    opts
      .handle(req.method, req.params ?? {})
      .then(
        (result) => {
          if (hasId) write({ jsonrpc: '2.0', id: replyId, result: result ?? null });
        },
        (e: unknown) => {
          if (!hasId) return; // a notification is never answered, not even with an error
          if (e instanceof MethodNotFound) fail(replyId, RPC_METHOD_NOT_FOUND, e.message);
          else if (e instanceof RequestError) fail(replyId, RPC_INVALID_PARAMS, e.message);
          else if (e instanceof ShuttingDown) fail(replyId, RPC_SHUTTING_DOWN, e.message);
          else fail(replyId, RPC_INTERNAL_ERROR, `internal error: ${errorText(e)}`);
        },
      )
      .finally(() => {
        pending -= 1;
        if (pending === 0) drained?.();
      });
  };

  // Line framing with a cap: an over-long line is answered with an error (with its id when it can
  // be read) and skipped to its end.
  let stopped = false;
  const framer = createLineFramer({
    maxLineBytes: opts.maxLineBytes,
    onLine: handleLine,
    onTooLong: (id) => fail(id, RPC_INVALID_REQUEST, `request line longer than the ${opts.maxLineBytes}-byte limit (--max-body); skipped`),
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
      write({ jsonrpc: '2.0', method, params });
    },
    stop() {
      stopped = true;
      input.off('data', onData);
      input.pause();
    },
    flush() {
      // The callback of an empty write runs once everything written before it is flushed.
      const ended = (): Promise<void> => (broken ? Promise.resolve() : new Promise((r) => output.write('', () => r())));
      if (pending === 0) return ended();
      return new Promise<void>((r) => {
        drained = r;
      }).then(ended);
    },
  };
}

// How serve answers an error, on either transport: one table from the HooksError `code` to the
// HTTP status and the JSON-RPC error code. 4xx / -326xx are for requests the client must fix, 5xx
// and -32000 for a server that cannot take them now; anything else is our fault (500 / -32603).

import { errorText, HooksError } from '../errors.js';

export type ServeErrorCode =
  | 'parse_error'
  | 'invalid_request'
  | 'method_not_found'
  | 'invalid_params'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'method_not_allowed'
  | 'too_large'
  | 'shutting_down'
  | 'shed';

const ANSWERS: Readonly<Record<ServeErrorCode, { status: number; rpc: number }>> = {
  parse_error: { status: 400, rpc: -32700 },
  invalid_request: { status: 400, rpc: -32600 },
  method_not_found: { status: 404, rpc: -32601 },
  invalid_params: { status: 400, rpc: -32602 },
  // An unknown event or agent: a 404 on HTTP (the path names it), bad params on JSON-RPC.
  not_found: { status: 404, rpc: -32602 },
  unauthorized: { status: 401, rpc: -32600 },
  forbidden: { status: 403, rpc: -32600 },
  method_not_allowed: { status: 405, rpc: -32600 },
  too_large: { status: 413, rpc: -32600 },
  shutting_down: { status: 503, rpc: -32000 },
  shed: { status: 503, rpc: -32000 },
};

const INTERNAL = { status: 500, rpc: -32603 };

/** The code a transport uses for one of its own errors (a line that is not JSON, …). */
export function rpcCode(code: ServeErrorCode): number {
  return ANSWERS[code].rpc;
}

/** The answer to `e`: the status, the JSON-RPC code and the message (ours said to be internal). */
export function errorAnswer(e: unknown): { status: number; rpc: number; message: string } {
  const known = e instanceof HooksError && Object.hasOwn(ANSWERS, e.code) ? ANSWERS[e.code as ServeErrorCode] : undefined;
  if (known === undefined) return { ...INTERNAL, message: `internal error: ${errorText(e)}` };
  return { ...known, message: errorText(e) };
}

/** An error with its code, for a transport's own refusals (a body too large, a wrong verb …). */
export class ServeError extends HooksError {
  constructor(
    code: ServeErrorCode,
    message: string,
    /** JSON.parse's own message, when a body was not JSON. */
    readonly jsonError?: string,
  ) {
    super(code, message);
  }
}

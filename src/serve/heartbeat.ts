// Signs of life for a slow agent call (the bundled client asks with HEARTBEAT_HEADER): a frozen or
// wedged serve sends nothing, a live one whose hooks take their time sends a space every
// HEARTBEAT_MS, so the client can give up on silence (1.5 s; curl's 2 s) instead of on its whole deadline.
// An answer ready before the first beat goes out as without the header (status, length, headers);
// after it the status is 200 — decided then — and the answer's headers travel as trailers.

import type { ServerResponse } from 'node:http';

/** The request header the bundled client sends to be kept informed that serve is alive. */
export const HEARTBEAT_HEADER = 'x-hermes-hooks-heartbeat';
export const HEARTBEAT_MS = 500;
/** Trailers of a beaten answer: the count of leading liveness bytes, and a status other than 200 (an error found late). */
export const BEATS_TRAILER = 'x-hermes-hooks-beats';
export const STATUS_TRAILER = 'x-hermes-hooks-status';
const TRAILERS = ['x-hermes-hooks-exit', 'x-hermes-hooks-stderr', STATUS_TRAILER, BEATS_TRAILER].join(', ');

export interface Heartbeat {
  /** Writes the answer: as is before the first beat, else as the beaten body's end with its headers as trailers. */
  send(status: number, body: string, headers: Record<string, string>): void;
}

/** Beats on `res` until the answer is sent or the connection closes. */
export function startHeartbeat(res: ServerResponse, everyMs = HEARTBEAT_MS): Heartbeat {
  let beats = 0;
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) return clearInterval(timer);
    // Leading whitespace: JSON.parse of the whole body still works; the clients strip it.
    if (beats === 0) res.writeHead(200, { 'content-type': 'application/json', trailer: TRAILERS });
    res.write(' ');
    beats++;
  }, everyMs);
  res.once('close', () => clearInterval(timer));
  return {
    send(status, body, headers) {
      clearInterval(timer);
      if (res.destroyed || res.writableEnded) return;
      if (beats === 0) {
        if (res.headersSent) return;
        res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
        return;
      }
      const trailers: Record<string, string> = { [BEATS_TRAILER]: String(beats) };
      if (headers['x-hermes-hooks-exit'] !== undefined) trailers['x-hermes-hooks-exit'] = headers['x-hermes-hooks-exit'];
      if (headers['x-hermes-hooks-stderr'] !== undefined) trailers['x-hermes-hooks-stderr'] = headers['x-hermes-hooks-stderr'];
      if (status !== 200) trailers[STATUS_TRAILER] = String(status);
      res.addTrailers(trailers);
      res.end(body);
    },
  };
}

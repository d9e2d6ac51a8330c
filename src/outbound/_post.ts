// One HTTP POST attempt. node:http/https rather than fetch: they never follow redirects, give a
// hard whole-attempt deadline we control (connect + headers + body), and let us unref the socket
// so an in-flight delivery does not keep the host process alive on its own.

import type http from 'node:http';
import { errorText } from '../errors.js';

// Loaded on the first delivery, not at start-up: node:https pulls in tls and ~15 other built-in
// modules (~6 ms of every `hermes-hooks run`, most of which configure no webhook).
const httpModule = (protocol: string): typeof http => process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as typeof http;

export type AttemptResult = { kind: 'status'; status: number } | { kind: 'timeout' } | { kind: 'connection_error'; error: string } | { kind: 'aborted' };

export interface PostOptions {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** POST once; resolves (never rejects) when a status arrived, the deadline passed, or it failed. */
export function postOnce(opts: PostOptions): Promise<AttemptResult> {
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let req: http.ClientRequest | null = null;
    let timer: NodeJS.Timeout | null = null;

    const onAbort = (): void => {
      finish({ kind: 'aborted' });
    };
    const finish = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // Whatever is left of the exchange (an unread body, a hung server) is of no further use.
      req?.destroy();
      resolve(result);
    };

    if (opts.signal?.aborted) {
      finish({ kind: 'aborted' });
      return;
    }

    let url: URL;
    try {
      url = new URL(opts.url);
    } catch (e) {
      finish({ kind: 'connection_error', error: `invalid url: ${errorText(e)}` });
      return;
    }
    const mod = httpModule(url.protocol);
    try {
      // agent:false → a fresh, non-keep-alive connection per attempt: nothing lingers afterwards.
      req = mod.request(url, { method: 'POST', headers: { ...opts.headers, 'Content-Length': String(opts.body.length) }, agent: false });
    } catch (e) {
      finish({ kind: 'connection_error', error: errorText(e) });
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => {
      finish(status !== null ? { kind: 'status', status } : { kind: 'timeout' });
    }, opts.timeoutMs);
    timer.unref();

    req.on('socket', (socket) => socket.unref());
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      const got: AttemptResult = { kind: 'status', status };
      res.on('error', () => finish(got));
      res.on('end', () => finish(got));
      res.on('close', () => finish(got));
      res.resume(); // drain and discard the receiver's body
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (status !== null) finish({ kind: 'status', status });
      else finish({ kind: 'connection_error', error: err.code ? `${err.code}: ${err.message}` : err.message });
    });
    req.end(opts.body);
  });
}

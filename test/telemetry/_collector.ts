// A real OTLP/HTTP receiver for the telemetry tests: node:http on 127.0.0.1, recording every
// request (path, content type, body) and answering as a collector does (200, an empty response).
// Also: the spans of the JSON requests flattened, and a preload that lists the modules a child loaded.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

export interface Collector {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      received.push({ path: req.url ?? '', contentType, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
      res.end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A collector that accepts connections and never answers: what a wedged one looks like. */
export async function startBlackhole(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(() => {
    // never answered
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: number; message?: string };
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** Every span of the http/json trace requests received. */
export function jsonSpans(c: Collector): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const r of c.received.filter((x) => x.path === '/v1/traces' && x.contentType.includes('json'))) {
    const doc = JSON.parse(r.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) out.push(...ss.spans);
  }
  return out;
}

/** A span's attributes as a plain object (string, int, bool, double, string arrays). */
export function attrs(span: Pick<OtlpSpan, 'attributes'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of span.attributes) {
    const v = value as {
      stringValue?: string;
      intValue?: string | number;
      boolValue?: boolean;
      doubleValue?: number;
      arrayValue?: { values?: { stringValue?: string }[] };
    };
    out[key] =
      v.stringValue ??
      (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
      v.boolValue ??
      v.doubleValue ??
      v.arrayValue?.values?.map((x) => x.stringValue);
  }
  return out;
}

/** `--require` this (NODE_OPTIONS) with MODULE_LIST_OUT=file: at exit the child writes every CommonJS module it loaded. */
export const MODULE_LISTER = join(import.meta.dirname, '../fixtures/telemetry/list-modules.cjs');

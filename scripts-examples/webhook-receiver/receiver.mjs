#!/usr/bin/env node
// A minimal receiver for hermes-hooks outbound webhooks that verifies X-Hermes-Signature-256.
//
//   HERMES_WEBHOOK_SECRET=s3cret node receiver.mjs [--port 8787] [--host 127.0.0.1]
//
// Prints `listening on http://HOST:PORT` once ready, then one JSON line per accepted delivery on
// stdout; rejections go to stderr. No dependencies beyond Node's standard library.

import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const MAX_BODY = 1024 * 1024;

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const host = option('host', '127.0.0.1');
const port = Number(option('port', '8787'));
const secret = process.env.HERMES_WEBHOOK_SECRET ?? '';
if (!secret) console.error('warning: HERMES_WEBHOOK_SECRET is not set; accepting UNSIGNED deliveries');

/**
 * The check that matters: HMAC-SHA256 of the RAW body bytes (never a re-serialised JSON), compared
 * in constant time. `timingSafeEqual` needs equal lengths; the length of a hex digest is public,
 * so checking it first leaks nothing.
 */
function isValidSignature(secretKey, rawBody, header) {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secretKey).update(rawBody).digest('hex')}`, 'utf8');
  const received = Buffer.from(header, 'utf8');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

const seen = new Set(); // delivery ids already accepted: a retry re-sends the same id

function reply(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return reply(res, 405, { error: 'POST only' });
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      reply(res, 413, { error: 'body too large' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.writableEnded) return;
    const raw = Buffer.concat(chunks);
    const delivery = req.headers['x-hermes-delivery'];
    if (secret && !isValidSignature(secret, raw, req.headers['x-hermes-signature-256'])) {
      console.error(JSON.stringify({ rejected: 'bad signature', delivery_id: delivery ?? null }));
      return reply(res, 401, { error: 'invalid signature' });
    }
    let body;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      console.error(JSON.stringify({ rejected: 'invalid JSON', delivery_id: delivery ?? null }));
      return reply(res, 400, { error: 'invalid JSON' });
    }
    if (body.delivery_id !== delivery) {
      console.error(JSON.stringify({ rejected: 'delivery id mismatch', delivery_id: delivery ?? null }));
      return reply(res, 400, { error: 'X-Hermes-Delivery does not match the body' });
    }
    if (seen.has(delivery)) return reply(res, 200, { ok: true, duplicate: true });
    seen.add(delivery);
    if (seen.size > 10000) seen.delete(seen.values().next().value);
    console.log(
      JSON.stringify({
        verified: Boolean(secret),
        event: req.headers['x-hermes-event'] ?? null,
        delivery_id: delivery,
        hook_event_name: body.hook_event_name,
        tool_name: body.tool_name ?? null,
        session_id: body.session_id ?? null,
      }),
    );
    reply(res, 200, { ok: true });
  });
});

server.listen(port, host, () => {
  const addr = server.address();
  console.log(`listening on http://${host}:${addr.port}`);
});

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));

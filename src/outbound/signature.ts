// HMAC-SHA256 signatures of outbound deliveries: `X-Hermes-Signature-256: sha256=<hex>` over the
// exact raw body bytes. Exported for receivers and tests; verification is constant-time.

import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Hermes-Signature-256';
export const SIGNATURE_PREFIX = 'sha256=';

/** `sha256=<lowercase hex HMAC-SHA256(secret, body)>`; a string body is hashed as UTF-8. */
export function signBody(secret: string, body: string | Buffer): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `header` is the signature of `body` under `secret`. Compares the raw digests with
 * `timingSafeEqual` (no early exit on the first differing byte). A missing or malformed header,
 * or an empty secret, is never valid.
 */
export function verifySignature(secret: string, body: string | Buffer, header: string | string[] | null | undefined): boolean {
  if (typeof secret !== 'string' || secret === '') return false;
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  if (!trimmed.toLowerCase().startsWith(SIGNATURE_PREFIX)) return false;
  const hex = trimmed.slice(SIGNATURE_PREFIX.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

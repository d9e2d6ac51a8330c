// Tool results as canonical JSON (object keys sorted at every depth) and short digests, so two
// calls compare equal exactly when their arguments or results mean the same JSON. Pure.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../json.js';

/** A tool result as comparable text: a JSON string is canonicalised, any other string kept as is. */
export function canonicalResult(result: unknown): string {
  if (typeof result === 'string') {
    try {
      return canonicalJson(JSON.parse(result));
    } catch {
      return `raw:${result}`;
    }
  }
  return canonicalJson(result);
}

/**
 * 128 bits of SHA-256 as 22 base64url characters. Encoded from the first 16 bytes rather than
 * sliced from the full encoding: a slice would keep its 43-character parent alive, and these
 * strings are what the guardrails keep per session (a server holds a thousand sessions).
 */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest().toString('base64url', 0, 16);
}

// Tool results as canonical JSON (object keys sorted at every depth) and short digests, so two
// calls compare equal exactly when their arguments or results mean the same JSON. Pure.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../_json.js';

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

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

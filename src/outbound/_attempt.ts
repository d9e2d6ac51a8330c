// What one POST attempt's result means: how it reads in a log line, whether it is worth a second
// attempt, and which outcome it stands for. Pure.

import type { AttemptResult } from './_post.js';
import type { DeliveryOutcome } from './types.js';

export function describeAttempt(r: AttemptResult): string {
  switch (r.kind) {
    case 'status':
      return `HTTP ${r.status}`;
    case 'timeout':
      return 'timed out';
    case 'connection_error':
      return `connection error (${r.error})`;
    case 'aborted':
      return 'abandoned';
  }
}

/** Whether a failed attempt is worth a second one. */
export function retryable(r: AttemptResult): boolean {
  if (r.kind === 'timeout' || r.kind === 'connection_error') return true;
  if (r.kind !== 'status') return false;
  if (r.status >= 300 && r.status < 500) return false; // 3xx never followed; 4xx is the receiver's final word
  return true; // 5xx and anything else non-2xx
}

export function outcomeOf(r: AttemptResult): DeliveryOutcome {
  if (r.kind === 'status') {
    if (r.status >= 200 && r.status < 300) return 'delivered';
    return r.status >= 300 && r.status < 400 ? 'redirect' : 'http_error';
  }
  return r.kind;
}

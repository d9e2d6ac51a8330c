// Warn-once for plugin callback failures. A callback that fails the same way on every call
// (typically a signature that expects kwargs the event never sends) is reported at warn level
// once — naming the kwargs the event actually provides — and afterwards only at debug level, so a
// broken plugin cannot flood the log.

import type { Logger } from '../types.js';

const MAX_REMEMBERED = 1000;

export interface FailureLog {
  /** `signature` identifies "the same failure" (error type + message, or "timeout"). */
  report(hookName: string, signature: string, message: string, kwargs: Record<string, unknown>): void;
}

export function createFailureLog(logger: Logger): FailureLog {
  const seen = new Set<string>();
  return {
    report(hookName, signature, message, kwargs) {
      const key = `${hookName}\u0000${signature}`;
      if (seen.has(key)) {
        logger.debug?.(`${message} (repeated)`);
        return;
      }
      if (seen.size >= MAX_REMEMBERED) seen.delete(seen.values().next().value as string);
      seen.add(key);
      const keys = Object.keys(kwargs).sort();
      logger.warn(`${message} (this event provides: ${keys.length ? keys.join(', ') : 'no kwargs'}; further identical failures are logged at debug level)`);
    },
  };
}

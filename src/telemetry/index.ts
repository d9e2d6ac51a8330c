// OpenTelemetry for the faces (`run`, `serve`): off unless the standard OTEL_* variables turn it
// on (settings.ts decides, loading nothing). Only then are the OpenTelemetry packages imported
// (otel.ts, by a dynamic import the CLI bundle keeps out: scripts/postbuild.mjs), so a `run`
// without the variables pays nothing for them. What telemetry does can never change a verdict.

import type { EmitObserver } from '../engine/options.js';
import { errorText } from '../errors.js';
import type { Logger } from '../types.js';
import { telemetrySettings } from './settings.js';
import { enableTraceScope } from './trace-scope.js';

export interface Telemetry {
  observe: EmitObserver;
  /** Export what is pending and stop, within `deadlineMs` (then what is left is dropped, said once). */
  shutdown(deadlineMs: number): Promise<void>;
}

/** How long `run` waits for the collector before it exits: a dead collector never holds a verdict's exit longer. */
export const RUN_FLUSH_DEADLINE_MS = 1000;
/** serve's last flush at shutdown. */
export const SERVE_FLUSH_DEADLINE_MS = 5000;

/**
 * `run`: one batch exported at the end, parented to the agent's TRACEPARENT. `serve`: batches
 * exported as they fill, each request parented to its own traceparent header.
 */
export async function startTelemetry(env: NodeJS.ProcessEnv, logger: Logger, mode: 'run' | 'serve'): Promise<Telemetry | null> {
  const { settings, problems } = telemetrySettings(env);
  for (const p of problems) logger.warn(`telemetry: ${p}`);
  if (settings === null) return null;
  try {
    const { startOtel } = await import('./otel.js');
    if (mode === 'serve') enableTraceScope();
    return startOtel(settings, { logger, mode, env });
  } catch (e) {
    logger.warn(`telemetry: OpenTelemetry could not start: ${errorText(e)}; nothing is exported`);
    return null;
  }
}

// The trace context of the request being served (serve's `traceparent` / `tracestate` headers), so
// the OpenTelemetry observer can put an emit's span inside the caller's trace without the engine
// carrying it. Switched on only when telemetry is on: an AsyncLocalStorage costs every promise of
// the process something on Node 20, and a serve without telemetry must not pay it.

import { AsyncLocalStorage } from 'node:async_hooks';
import { traceCarrier } from './settings.js';

type Carrier = Record<string, string>;
let scope: AsyncLocalStorage<Carrier> | null = null;

export function enableTraceScope(): void {
  scope ??= new AsyncLocalStorage<Carrier>();
}

/** Runs `fn` with the trace context these request headers carry (none, or telemetry off: just runs it). */
export function withTraceHeaders<T>(headers: Readonly<Record<string, string | string[] | undefined>>, fn: () => T): T {
  if (scope === null) return fn();
  const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(',') : v);
  const carrier = traceCarrier(one(headers.traceparent), one(headers.tracestate));
  return carrier === null ? fn() : scope.run(carrier, fn);
}

/** The trace context of the request this code runs for, or null. */
export function currentTraceCarrier(): Carrier | null {
  return scope?.getStore() ?? null;
}

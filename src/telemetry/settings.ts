// Pure: whether OpenTelemetry is on, and where it sends, from the standard OTEL_* variables alone
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/ and
// https://opentelemetry.io/docs/specs/otel/protocol/exporter/). Nothing here loads the SDK: the
// CLI asks this first and imports the packages only when it says "on".

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetrySettings {
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded (service.name from OTEL_SERVICE_NAME wins over it). */
  resource: Record<string, string>;
  traces: { url: string; protocol: OtlpProtocol };
  /** null when metrics are off (OTEL_METRICS_EXPORTER=none, or only a traces endpoint is given). */
  metrics: { url: string; protocol: OtlpProtocol } | null;
  /** serve's export cadence: OTEL_BSP_SCHEDULE_DELAY (spans, default 5 s), OTEL_METRIC_EXPORT_INTERVAL (default 60 s). */
  spanDelayMs: number;
  metricIntervalMs: number;
}

/** Off (`settings: null`) with `problems` when a variable asks for something we do not do: said, never guessed. */
export interface TelemetryDecision {
  settings: TelemetrySettings | null;
  problems: string[];
}

export const DEFAULT_SERVICE_NAME = 'hermes-hooks';

type Env = Readonly<Record<string, string | undefined>>;

const get = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/** The spec's exporter list: comma-separated, `none` wins. */
function exporters(env: Env, name: string): string[] | undefined {
  return get(env, name)
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** A signal's URL: its own variable as given, else the base endpoint plus the signal's path. */
function signalUrl(env: Env, signal: 'traces' | 'metrics'): string | undefined {
  const own = get(env, `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`);
  if (own !== undefined) return own;
  const base = get(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

function protocolOf(env: Env, signal: 'traces' | 'metrics', problems: string[]): OtlpProtocol | null {
  const name =
    get(env, `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`) !== undefined
      ? `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`
      : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = get(env, name) ?? 'http/protobuf';
  if (value === 'http/protobuf' || value === 'http/json') return value;
  problems.push(`${name}=${value} is not supported (http/protobuf or http/json): no ${signal} are sent`);
  return null;
}

function validUrl(url: string, signal: string, problems: string[]): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return true;
  } catch {
    // said below
  }
  problems.push(`the OTLP ${signal} endpoint '${url}' is not an http(s) URL: no ${signal} are sent`);
  return false;
}

function millis(env: Env, name: string, fallback: number, problems: string[]): number {
  const text = get(env, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (Number.isInteger(n) && n > 0) return n;
  problems.push(`${name}=${text} is not a positive whole number of milliseconds: ${fallback} is used`);
  return fallback;
}

/** OTEL_RESOURCE_ATTRIBUTES: `key=value,…`, values percent-encoded; a malformed pair is skipped. */
export function resourceAttributes(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a bad escape: that pair only
    }
  }
  return out;
}

export function telemetrySettings(env: Env): TelemetryDecision {
  const problems: string[] = [];
  const off = (): TelemetryDecision => ({ settings: null, problems });
  if (get(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return off();
  const traceExporters = exporters(env, 'OTEL_TRACES_EXPORTER');
  if (traceExporters?.includes('none')) return off();
  if (traceExporters?.some((e) => e !== 'otlp')) {
    problems.push(`OTEL_TRACES_EXPORTER=${traceExporters.join(',')}: only otlp (or none) is supported: no traces are sent`);
    return off();
  }
  const tracesUrl = signalUrl(env, 'traces');
  if (tracesUrl === undefined) return off(); // the default: no endpoint, nothing loaded
  const tracesProtocol = protocolOf(env, 'traces', problems);
  if (tracesProtocol === null || !validUrl(tracesUrl, 'traces', problems)) return off();

  let metrics: TelemetrySettings['metrics'] = null;
  const metricExporters = exporters(env, 'OTEL_METRICS_EXPORTER');
  const metricsUrl = signalUrl(env, 'metrics');
  if (!metricExporters?.includes('none') && metricsUrl !== undefined) {
    const protocol = protocolOf(env, 'metrics', problems);
    if (protocol !== null && validUrl(metricsUrl, 'metrics', problems)) metrics = { url: metricsUrl, protocol };
  }
  const resource = resourceAttributes(get(env, 'OTEL_RESOURCE_ATTRIBUTES'));
  const serviceName = get(env, 'OTEL_SERVICE_NAME') ?? resource['service.name'] ?? DEFAULT_SERVICE_NAME;
  const spanDelayMs = millis(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, problems);
  const metricIntervalMs = millis(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, problems);
  return { settings: { serviceName, resource, traces: { url: tracesUrl, protocol: tracesProtocol }, metrics, spanDelayMs, metricIntervalMs }, problems };
}

/** A W3C trace context carrier (`traceparent`, `tracestate`) as the propagator reads it; null when there is no traceparent. */
export function traceCarrier(traceparent: unknown, tracestate: unknown): Record<string, string> | null {
  if (typeof traceparent !== 'string' || traceparent.trim() === '') return null;
  const carrier: Record<string, string> = { traceparent: traceparent.trim() };
  if (typeof tracestate === 'string' && tracestate.trim() !== '') carrier.tracestate = tracestate.trim();
  return carrier;
}

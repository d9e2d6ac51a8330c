// The one module that imports the OpenTelemetry packages (loaded by index.ts only when the OTEL
// variables turn telemetry on). It hands the SDK what spans.ts planned: a span per emit, a child
// span per hook that ran, the hook-duration histogram and the decisions counter, exported over OTLP
// HTTP (JSON or protobuf). No global provider is registered: a host's own OpenTelemetry is untouched.
// An exporter that fails is said once; nothing here can change a verdict or throw into the engine.

import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { EmitRecord } from '../engine/options.js';
import { errorText } from '../errors.js';
import type { Logger } from '../types.js';
import type { Telemetry } from './index.js';
import type { TelemetrySettings } from './settings.js';
import { traceCarrier } from './settings.js';
import { planEmit, type SpanPlan } from './spans.js';
import { currentTraceCarrier } from './trace-scope.js';

const SCOPE = 'hermes-hooks';
/** Hook durations in seconds: a few ms (a shell script) up to the 300 s timeout cap. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

interface Exporter<T> {
  export(items: T, done: (result: ExportResult) => void): void;
}

/** Every export's failure goes through here: the first is a warning, the rest are dropped quietly. */
function reportFailures<T>(exporter: Exporter<T>, failed: (error: unknown) => void): void {
  const inner = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    inner(items, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) failed(result.error ?? 'export failed');
      done(result);
    });
}

export function startOtel(settings: TelemetrySettings, opts: { logger: Logger; mode: 'run' | 'serve'; env: NodeJS.ProcessEnv }): Telemetry {
  const { logger, mode } = opts;
  let warned = false;
  const warnOnce = (what: string) => (error: unknown) => {
    if (warned) return;
    warned = true;
    logger.warn(`telemetry: ${what}: ${errorText(error)} (the hooks' verdicts are not affected; further export failures are not reported)`);
  };
  // `run` exports once, at its exit, within its deadline; serve within the exporter's own timeout.
  const timeoutMillis = mode === 'run' ? 1000 : 10_000;
  const resource = resourceFromAttributes({ ...settings.resource, 'service.name': settings.serviceName });

  const traceExporter =
    settings.traces.protocol === 'http/json'
      ? new JsonTraceExporter({ url: settings.traces.url, timeoutMillis })
      : new ProtoTraceExporter({ url: settings.traces.url, timeoutMillis });
  reportFailures(traceExporter, warnOnce(`could not export spans to ${settings.traces.url}`));
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: traceExporter,
        scheduledDelayMillis: mode === 'run' ? 60_000 : settings.spanDelayMs,
        exportTimeoutMillis: timeoutMillis,
      }),
    ],
  });
  const tracer = tracerProvider.getTracer(SCOPE);

  let meterProvider: MeterProvider | null = null;
  let record: ((plan: ReturnType<typeof planEmit>) => void) | null = null;
  if (settings.metrics) {
    const { url, protocol } = settings.metrics;
    const metricExporter = protocol === 'http/json' ? new JsonMetricExporter({ url, timeoutMillis }) : new ProtoMetricExporter({ url, timeoutMillis });
    reportFailures(metricExporter, warnOnce(`could not export metrics to ${url}`));
    meterProvider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: metricExporter,
          exportIntervalMillis: mode === 'run' ? 3_600_000 : settings.metricIntervalMs,
          exportTimeoutMillis: timeoutMillis,
        }),
      ],
    });
    const meter = meterProvider.getMeter(SCOPE);
    const durations = meter.createHistogram('hermes_hooks.hook.duration', {
      unit: 's',
      description: 'How long each hook ran',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    const decisions = meter.createCounter('hermes_hooks.decisions', { unit: '{decision}', description: 'Events resolved, by decision and cause' });
    record = (plan) => {
      for (const d of plan.durations) durations.record(d.seconds, d.attributes);
      decisions.add(1, plan.decision);
    };
  }

  const propagator = new W3CTraceContextPropagator();
  // `run`: the agent's trace from its env, the convention (TRACEPARENT / TRACESTATE). serve: the request's headers.
  const envCarrier = mode === 'run' ? traceCarrier(opts.env.TRACEPARENT, opts.env.TRACESTATE) : null;
  const parentOf = (): Context => {
    const carrier = currentTraceCarrier() ?? envCarrier;
    return carrier === null ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
  };
  const emitSpan = (plan: SpanPlan, parent: Context, kind: SpanKind): Context => {
    const span = tracer.startSpan(plan.name, { kind, startTime: plan.start, attributes: plan.attributes }, parent);
    if (plan.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error });
    span.end(plan.end);
    return trace.setSpan(parent, span);
  };

  const observe = (r: EmitRecord): void => {
    const plan = planEmit(r);
    const parent = parentOf();
    // The event span ends before its children are made: the SDK only needs their times, and a
    // child only needs its parent's span context.
    const inEvent = emitSpan(plan.event, parent, SpanKind.INTERNAL);
    for (const h of plan.hooks) emitSpan(h, inEvent, SpanKind.INTERNAL);
    record?.(plan);
  };

  return {
    observe,
    async shutdown(deadlineMs) {
      // shutdown() exports what is pending (a forceFlush first would send the metrics twice).
      const settle = (p: { shutdown(): Promise<void> } | null): Promise<void> => (p === null ? Promise.resolve() : p.shutdown().catch(() => undefined));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), deadlineMs);
        timer.unref();
      });
      const done = await Promise.race([Promise.all([settle(tracerProvider), settle(meterProvider)]).then(() => 'done' as const), late]);
      clearTimeout(timer);
      if (done === 'late') warnOnce(`the collector did not take the telemetry within ${deadlineMs / 1000}s`)('what was pending is dropped');
    },
  };
}

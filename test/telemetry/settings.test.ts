// The pure decision: on only when the standard variables say so, and where to send.

import { describe, expect, it } from 'vitest';
import { resourceAttributes, telemetrySettings, traceCarrier } from '../../src/telemetry/settings.js';

describe('telemetrySettings', () => {
  it('off with no variables, with OTEL_TRACES_EXPORTER=none, with OTEL_SDK_DISABLED=true', () => {
    expect(telemetrySettings({})).toEqual({ settings: null, problems: [] });
    expect(telemetrySettings({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).settings).toBeNull();
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).settings).toBeNull();
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'otlp,none' }).settings).toBeNull();
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }).settings).toBeNull();
  });

  it('the base endpoint: both signals at /v1/…, http/protobuf by default, service hermes-hooks', () => {
    const { settings, problems } = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({
      serviceName: 'hermes-hooks',
      traces: { url: 'http://c:4318/v1/traces', protocol: 'http/protobuf' },
      metrics: { url: 'http://c:4318/v1/metrics', protocol: 'http/protobuf' },
      spanDelayMs: 5000,
      metricIntervalMs: 60000,
    });
  });

  it('a traces endpoint is used as given; metrics only with an endpoint of theirs; per-signal protocol wins', () => {
    const { settings } = telemetrySettings({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/custom/path',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'guards',
    });
    expect(settings).toMatchObject({ serviceName: 'guards', traces: { url: 'https://c/custom/path', protocol: 'http/json' }, metrics: null });
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_METRICS_EXPORTER: 'none' }).settings?.metrics).toBeNull();
  });

  it('what we do not do is said, not guessed: grpc, another exporter, a URL that is not http, a bad interval', () => {
    const grpc = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc.settings).toBeNull();
    expect(grpc.problems).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (http/protobuf or http/json): no traces are sent']);
    const zipkin = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'zipkin' });
    expect(zipkin).toEqual({ settings: null, problems: ['OTEL_TRACES_EXPORTER=zipkin: only otlp (or none) is supported: no traces are sent'] });
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'c:4318' }).problems[0]).toMatch(/not an http\(s\) URL/);
    const slow = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_BSP_SCHEDULE_DELAY: 'soon' });
    expect(slow.settings?.spanDelayMs).toBe(5000);
    expect(slow.problems).toEqual(['OTEL_BSP_SCHEDULE_DELAY=soon is not a positive whole number of milliseconds: 5000 is used']);
  });

  it('OTEL_RESOURCE_ATTRIBUTES: decoded pairs; its service.name counts when OTEL_SERVICE_NAME is absent', () => {
    expect(resourceAttributes('a=1, b=x%20y,bad,=z,c=%zz')).toEqual({ a: '1', b: 'x y' });
    const { settings } = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=sec' });
    expect(settings).toMatchObject({ serviceName: 'from-attrs', resource: { team: 'sec' } });
  });
});

describe('traceCarrier', () => {
  it('a traceparent (and its tracestate) or nothing', () => {
    expect(traceCarrier(' 00-a-b-01 ', 'k=v')).toEqual({ traceparent: '00-a-b-01', tracestate: 'k=v' });
    expect(traceCarrier('00-a-b-01', '')).toEqual({ traceparent: '00-a-b-01' });
    expect(traceCarrier(undefined, 'k=v')).toBeNull();
    expect(traceCarrier('', undefined)).toBeNull();
  });
});

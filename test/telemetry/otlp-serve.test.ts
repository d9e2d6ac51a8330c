// `hermes-hooks serve` (the built CLI, a real server) exporting to a real OTLP receiver: batches
// go out while it serves, each request inside the trace its `traceparent` header names — also
// when the bundled clients forward the agent's TRACEPARENT — and what is pending goes out at shutdown.

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  baseEnv,
  cleanupTemps,
  CLIENTS,
  clientAt,
  hooksYaml,
  http,
  makeHome,
  startServe,
  stopServe,
  tempDir,
  waitFor,
  writeScript,
} from '../serve/_helpers.js';
import { attrs, jsonSpans, startCollector, type Collector } from './_collector.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;

let deny: string;
let collector: Collector;

beforeAll(() => {
  deny = writeScript(join(tempDir('hh-otel-serve-'), 'deny.sh'), '#!/bin/sh\ncat >/dev/null\necho \'{"action":"block","message":"no rm -rf"}\'\n');
});
afterEach(async () => collector?.close());
afterAll(cleanupTemps);

const otelEnv = (url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  baseEnv({ HERMES_ACCEPT_HOOKS: '1', OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', ...extra });

const eventSpans = (name: string) => jsonSpans(collector).filter((s) => s.name === name);

describe('serve exports over OTLP/HTTP', () => {
  it('exports while serving; a request is a child of the trace its traceparent header names', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    const served = await startServe(home, [], { env: otelEnv(collector.url, { OTEL_BSP_SCHEDULE_DELAY: '50' }) });
    try {
      const body = JSON.stringify({ tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's-9' });
      const r = await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', { body, headers: { traceparent: TRACEPARENT } });
      expect(JSON.parse(r.body).decision).toMatchObject({ action: 'block', message: 'no rm -rf' });
      // No shutdown: the batch goes out on its own.
      expect(await waitFor(() => eventSpans('hermes_hooks.event pre_tool_call').length > 0 && eventSpans('hermes_hooks.hook').length > 0, 20_000)).toBe(true);
      const [event] = eventSpans('hermes_hooks.event pre_tool_call');
      expect(event!.traceId).toBe(TRACE_ID);
      expect(event!.parentSpanId).toBe(PARENT_SPAN);
      expect(attrs(event!)).toMatchObject({ 'hermes_hooks.decision': 'block', 'hermes_hooks.cause': 'policy_denial', 'hermes_hooks.decided_by': deny });
      expect(eventSpans('hermes_hooks.hook')[0]!.parentSpanId).toBe(event!.spanId);

      // A request without the header: a trace of its own (serve's own env is no request's parent).
      await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', { body });
      expect(await waitFor(() => eventSpans('hermes_hooks.event pre_tool_call').length === 2, 20_000)).toBe(true);
      const second = eventSpans('hermes_hooks.event pre_tool_call')[1]!;
      expect(second.traceId).not.toBe(TRACE_ID);
      expect(second.parentSpanId ?? '').toBe('');
    } finally {
      await stopServe(served);
    }
  });

  it('what is still batched goes out when serve shuts down', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    // A batch delay no test waits for: only the shutdown flush can send it.
    const served = await startServe(home, [], { env: otelEnv(collector.url, { OTEL_BSP_SCHEDULE_DELAY: '600000' }) });
    const body = JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } });
    await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', { body });
    expect(collector.received).toEqual([]);
    expect(await stopServe(served)).toBe(0);
    expect(eventSpans('hermes_hooks.event pre_tool_call')).toHaveLength(1);
  });
});

describe.each(CLIENTS)('the $name client forwards the agent TRACEPARENT', ({ path }) => {
  it('the span of a Claude Code call sits in the trace of the agent env', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    const served = await startServe(home, [], { env: otelEnv(collector.url, { OTEL_BSP_SCHEDULE_DELAY: '50' }) });
    try {
      const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, session_id: 'c-1' });
      const ran = await clientAt(path)(['claude', 'PreToolUse', served.socket!], stdin, baseEnv({ TRACEPARENT, TRACESTATE: 'acme=1' }));
      expect(ran.stdout).toContain('no rm -rf');
      expect(await waitFor(() => eventSpans('hermes_hooks.event pre_tool_call').length > 0, 20_000)).toBe(true);
      const [event] = eventSpans('hermes_hooks.event pre_tool_call');
      expect(event!.traceId).toBe(TRACE_ID);
      expect(event!.parentSpanId).toBe(PARENT_SPAN);
      expect(event!.traceState).toBe('acme=1');
    } finally {
      await stopServe(served);
    }
  });
});

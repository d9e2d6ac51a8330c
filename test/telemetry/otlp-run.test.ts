// `hermes-hooks run` (the built CLI, a real process) exporting to a real OTLP receiver over HTTP:
// the spans, their attributes and the agent's trace (TRACEPARENT), both OTLP encodings, the
// metrics; nothing sent and nothing loaded when the variables are absent or say none; a dead or
// wedged collector neither changes the verdict nor holds `run` past its flush deadline.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, cleanupTemps, hooksYaml, makeHome, ROOT, tempDir, writeScript } from '../cli/_helpers.js';
import { attrs, jsonSpans, MODULE_LISTER, startBlackhole, startCollector, type Collector } from './_collector.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;
const CALL = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /' }, session_id: 's-1' });

let dir: string;
let approve: string;
let deny: string;
let broken: string;
let collector: Collector;

beforeAll(() => {
  dir = tempDir('hh-otel-');
  approve = writeScript(join(dir, 'approve.sh'), '#!/bin/sh\ncat >/dev/null\necho \'{"action":"approve","message":"fine by me"}\'\n');
  deny = writeScript(join(dir, 'deny.sh'), '#!/bin/sh\ncat >/dev/null\necho \'{"action":"block","message":"no rm -rf"}\'\n');
  broken = writeScript(join(dir, 'broken.sh'), '#!/bin/sh\ncat >/dev/null\necho oops >&2\nexit 1\n');
});
afterEach(async () => collector?.close());
afterAll(cleanupTemps);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the verdict on stdout to the process's exit: the flush's share. */
  afterVerdictMs: number;
  modules: string[];
}

/** The built CLI's `run pre_tool_call` on CALL, with the modules it loaded listed. */
function run(home: string, env: Record<string, string>, argv = ['run', 'pre_tool_call'], stdin = CALL): Promise<Ran> {
  const list = join(tempDir('hh-otel-mods-'), 'modules.txt');
  let verdictAt = 0;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv, '--home', home], {
      cwd: ROOT,
      env: baseEnv({ HERMES_ACCEPT_HOOKS: '1', NODE_OPTIONS: `--require ${MODULE_LISTER}`, MODULE_LIST_OUT: list, ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      verdictAt ||= performance.now();
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const modules = readFileSync(list, 'utf8').split('\n');
      resolve({ code, stdout, stderr, afterVerdictMs: performance.now() - verdictAt, modules });
    });
    child.stdin.end(stdin);
  });
}

const otelLoaded = (r: Ran): string[] => r.modules.filter((m) => m.includes(`${'@opentelemetry'}`));

describe('run exports over OTLP/HTTP', () => {
  it('http/json: a span per event, a child per hook, the agent trace kept, the decision, its cause, who decided and whom it overrode', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [approve, deny] }));
    const r = await run(home, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'my-guards',
      TRACEPARENT,
      TRACESTATE: 'vendor=abc',
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'no rm -rf', decided_by: 1 });
    const spans = jsonSpans(collector);
    const event = spans.find((s) => s.name === 'hermes_hooks.event pre_tool_call')!;
    expect(event).toBeDefined();
    // Inside the agent's trace: its trace id, its span as parent, its tracestate passed on.
    expect(event.traceId).toBe(TRACE_ID);
    expect(event.parentSpanId).toBe(PARENT_SPAN);
    expect(event.traceState).toBe('vendor=abc');
    expect(attrs(event)).toMatchObject({
      'hermes_hooks.event': 'pre_tool_call',
      'gen_ai.tool.name': 'terminal',
      'gen_ai.conversation.id': 's-1',
      'hermes_hooks.decision': 'block',
      'hermes_hooks.cause': 'policy_denial',
      'hermes_hooks.decided_by': deny,
      'hermes_hooks.decided_by.index': 1,
      'hermes_hooks.overridden': [approve],
      'hermes_hooks.hooks.run': 2,
      'hermes_hooks.hooks.failed': 0,
      'hermes_hooks.decision.message': 'no rm -rf',
    });
    const hooks = spans.filter((s) => s.name === 'hermes_hooks.hook');
    expect(hooks).toHaveLength(2);
    for (const h of hooks) {
      expect(h.traceId).toBe(TRACE_ID);
      expect(h.parentSpanId).toBe(event.spanId);
    }
    const byIndex = Object.fromEntries(hooks.map((h) => [attrs(h)['hermes_hooks.hook.index'], attrs(h)]));
    expect(byIndex[0]).toMatchObject({
      'hermes_hooks.hook.command': approve,
      'hermes_hooks.hook.status': 'ok',
      'process.exit.code': 0,
      'hermes_hooks.hook.directive': 'approve',
      'hermes_hooks.hook.decided': false,
      'hermes_hooks.hook.overridden': true,
    });
    expect(byIndex[1]).toMatchObject({ 'hermes_hooks.hook.directive': 'block', 'hermes_hooks.hook.decided': true, 'hermes_hooks.hook.overridden': false });
    expect(Number(byIndex[1]!['hermes_hooks.hook.duration_ms'])).toBeGreaterThan(0);
    // The resource names the service as told.
    const doc = JSON.parse(collector.received.find((x) => x.path === '/v1/traces')!.body.toString('utf8'));
    expect(JSON.stringify(doc.resourceSpans[0].resource)).toContain('"my-guards"');
    // Metrics: the hook-duration histogram and the decisions counter.
    const metrics = collector.received.filter((x) => x.path === '/v1/metrics').map((x) => x.body.toString('utf8'));
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toContain('"hermes_hooks.hook.duration"');
    expect(metrics[0]).toContain('"hermes_hooks.decisions"');
    expect(otelLoaded(r).length).toBeGreaterThan(0); // the lister sees the SDK when it is on
  });

  it('a guard that fails closed: cause hook_failure, the hook span an ERROR with its error.type', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [{ command: broken, fail_closed: true }] }));
    const r = await run(home, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(r.code).toBe(2);
    const spans = jsonSpans(collector);
    const event = spans.find((s) => s.name === 'hermes_hooks.event pre_tool_call')!;
    expect(attrs(event)).toMatchObject({ 'hermes_hooks.cause': 'hook_failure', 'hermes_hooks.decision': 'block', 'hermes_hooks.hooks.failed': 1 });
    expect(event.parentSpanId ?? '').toBe(''); // no TRACEPARENT: a root span
    expect(event.status?.code).toBe(2);
    const hook = spans.find((s) => s.name === 'hermes_hooks.hook')!;
    expect(attrs(hook)).toMatchObject({ 'hermes_hooks.hook.status': 'nonzero_exit', 'process.exit.code': 1, 'error.type': 'nonzero_exit' });
    expect(hook.status).toMatchObject({ code: 2 });
    // Only a traces endpoint given: no metrics are sent anywhere.
    expect(collector.received.map((x) => x.path)).toEqual(['/v1/traces']);
  });

  it('http/protobuf (the default): protobuf bodies carrying the span names and the parent trace id', async () => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    const r = await run(home, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, TRACEPARENT });
    expect(r.code).toBe(2);
    const traces = collector.received.filter((x) => x.path === '/v1/traces');
    expect(traces).toHaveLength(1);
    expect(traces[0]!.contentType).toBe('application/x-protobuf');
    // Protobuf keeps strings as UTF-8 and ids as raw bytes.
    expect(traces[0]!.body.includes('hermes_hooks.event pre_tool_call')).toBe(true);
    expect(traces[0]!.body.includes('hermes_hooks.hook')).toBe(true);
    expect(traces[0]!.body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
    expect(collector.received.find((x) => x.path === '/v1/metrics')?.contentType).toBe('application/x-protobuf');
  });
});

it('run --dialect claude: the same spans, in the trace of the agent env', async () => {
  collector = await startCollector();
  const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
  const stdin = JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf /' },
    session_id: 'c-1',
    tool_use_id: 'toolu_1',
  });
  const r = await run(
    home,
    { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', TRACEPARENT },
    ['run', 'PreToolUse', '--dialect', 'claude'],
    stdin,
  );
  expect(r.stdout).toContain('no rm -rf');
  const event = jsonSpans(collector).find((s) => s.name === 'hermes_hooks.event pre_tool_call')!;
  expect(event.traceId).toBe(TRACE_ID);
  expect(attrs(event)).toMatchObject({ 'hermes_hooks.decision': 'block', 'hermes_hooks.cause': 'policy_denial', 'gen_ai.conversation.id': 'c-1' });
});

describe('off', () => {
  const cases: [string, (url: string) => Record<string, string>][] = [
    ['no OTEL variables', () => ({})],
    ['OTEL_TRACES_EXPORTER=none', (url) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_TRACES_EXPORTER: 'none' })],
    ['OTEL_SDK_DISABLED=true', (url) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_SDK_DISABLED: 'true' })],
  ];
  it.each(cases)('%s: nothing is sent and no OpenTelemetry module is loaded', async (_, env) => {
    collector = await startCollector();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    const r = await run(home, { TRACEPARENT, ...env(collector.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    // The lister works: on, the same build lists the SDK's files (the first test of this file).
    expect(r.modules.some((m) => m.endsWith('list-modules.cjs'))).toBe(true);
    expect(otelLoaded(r)).toEqual([]);
    expect(collector.received).toEqual([]);
  });
});

it('the CLI bundle keeps the SDK out: a require() of the installed packages, made only when telemetry is on', () => {
  const bundle = readFileSync(join(ROOT, 'dist/cli/_main.cjs'), 'utf8');
  expect(bundle).toContain('require("@opentelemetry/sdk-trace")');
  expect(bundle).not.toContain('BatchSpanProcessorBase'); // the SDK's own code
});

describe('a collector that is not there', () => {
  it('nothing listening: the same verdict, one warning', async () => {
    const gone = await startCollector();
    const url = gone.url;
    await gone.close();
    const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
    const r = await run(home, { OTEL_EXPORTER_OTLP_ENDPOINT: url });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'no rm -rf' });
    expect(r.stderr.match(/telemetry:/g)).toHaveLength(1);
    expect(r.stderr).toContain('verdicts are not affected');
  });

  it('one that never answers: `run` still exits soon after its 1 s flush deadline, with the same verdict', async () => {
    const hole = await startBlackhole();
    try {
      const home = makeHome(hooksYaml({ pre_tool_call: [deny] }));
      const r = await run(home, { OTEL_EXPORTER_OTLP_ENDPOINT: hole.url });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'no rm -rf' });
      expect(r.stderr.match(/telemetry:/g)).toHaveLength(1);
      // A generous bound proving the deadline (the exporters' own default timeout is 10 s), counted
      // from the verdict, so a slow start of a loaded machine does not count.
      expect(r.afterVerdictMs).toBeLessThan(4000);
    } finally {
      await hole.close();
    }
  });
});

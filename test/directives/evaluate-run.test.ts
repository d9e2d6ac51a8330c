import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, evaluateRun, type EvaluatedSpec } from '../../src/directives/evaluate-run.js';
import { DEFAULT_BLOCK_MESSAGE } from '../../src/directives/messages.js';
import { EVENT_NAMES, type EventName } from '../../src/events.js';
import { DirectiveSchema } from '../../src/protocol/directive.js';
import type { RunRecord } from '../../src/types.js';

const CMD = '/hooks/guard.sh --strict';

function spec(failClosed: boolean, event: EventName = 'pre_tool_call', timeout = 30): EvaluatedSpec {
  return { event, command: CMD, fail_closed: failClosed, timeout };
}

function run(over: Partial<RunRecord> = {}): RunRecord {
  return { status: 'ok', exit_code: 0, signal: null, stdout: '', stderr: '', error: null, duration_ms: 12.5, ...over };
}

const exited = (code: number, stdout = '', stderr = ''): RunRecord => run({ status: code === 0 ? 'ok' : 'nonzero_exit', exit_code: code, stdout, stderr });

const fcBlock = (reason: string) => ({ action: 'block', message: `hook ${CMD} failed closed: ${reason}` });
const UNPARSEABLE = fcBlock('unparseable stdout (expected a JSON object)');
const TRUNCATED = fcBlock('unreadable output: stdout exceeded the capture limit (1 bytes dropped), so it is not a directive');
const LEFT_ONE = fcBlock('exited 0 with no answer; 1 process it left running was killed — answer before exiting, or `wait` for the child');
const BLOCKED_BY_STDERR = { action: 'block', message: DEFAULT_BLOCK_MESSAGE };

describe('§3.3 truth table for pre_tool_call (fail-open | fail_closed)', () => {
  const rows: [string, RunRecord, unknown, unknown][] = [
    ['command missing', run({ status: 'launch_failed', exit_code: null, error: 'command not found' }), null, fcBlock('command not found')],
    ['not executable', run({ status: 'launch_failed', exit_code: null, error: 'command not executable' }), null, fcBlock('command not executable')],
    [
      'unparsable command',
      run({ status: 'launch_failed', exit_code: null, error: "command '/x 'y' cannot be parsed: No closing quotation" }),
      null,
      fcBlock("command '/x 'y' cannot be parsed: No closing quotation"),
    ],
    ['launch failed without an error text', run({ status: 'launch_failed', exit_code: null }), null, fcBlock('could not be started')],
    ['timeout', run({ status: 'timeout', exit_code: null, signal: 'SIGTERM' }), null, fcBlock('timed out after 30s')],
    ['timeout even with a block on stdout', run({ status: 'timeout', exit_code: null, stdout: '{"action":"block"}' }), null, fcBlock('timed out after 30s')],
    [
      'killed writing without end, far past the cap',
      run({ status: 'output_limit', exit_code: null, signal: 'SIGKILL', stdout: '{"action":"block"' }),
      null,
      fcBlock('kept writing far past the output cap and was killed before it exited'),
    ],
    // Issue 29: the cap bounds memory, never a verdict — the exit counts, a cut stdout is no directive.
    ['exit 2, stdout cut at the cap', run({ ...exited(2, '{"action":"block","message":"x'), stdout_dropped_bytes: 5 }), BLOCKED_BY_STDERR, BLOCKED_BY_STDERR],
    [
      'exit 2, cut stdout held a whole block',
      run({ ...exited(2, '{"action":"block","message":"kept"}'), stdout_dropped_bytes: 1 }),
      BLOCKED_BY_STDERR,
      BLOCKED_BY_STDERR,
    ],
    ['exit 0, cut stdout held a whole block', run({ ...exited(0, '{"action":"block"}'), stdout_dropped_bytes: 1 }), null, TRUNCATED],
    [
      'exit 0, cut stdout, JSON text',
      run({ ...exited(0, '{"action":"approve"'), stdout_dropped_bytes: 2_000_000 }),
      null,
      fcBlock('unreadable output: stdout exceeded the capture limit (2000000 bytes dropped), so it is not a directive'),
    ],
    ['exit 1, cut stdout', run({ ...exited(1, 'x'), stdout_dropped_bytes: 1 }), null, TRUNCATED],
    // Issue 29: the answer was to come from a child killed at the exit.
    ['exit 0, silent, left a process', run({ ...exited(0), left_processes: 1 }), null, LEFT_ONE],
    [
      'exit 0, blank, left 2 processes',
      run({ ...exited(0, ' \n'), left_processes: 2 }),
      null,
      fcBlock('exited 0 with no answer; 2 processes it left running were killed — answer before exiting, or `wait` for the child'),
    ],
    ['exit 0, {} then left a process', run({ ...exited(0, '{}'), left_processes: 1 }), null, null],
    [
      'exit 0, block then left a process',
      run({ ...exited(0, '{"action":"block","message":"no"}'), left_processes: 1 }),
      { action: 'block', message: 'no' },
      {
        action: 'block',
        message: 'no',
      },
    ],
    ['exit 0, approve then left a process', run({ ...exited(0, '{"action":"approve"}'), left_processes: 1 }), { action: 'approve' }, { action: 'approve' }],
    ['exit 0, empty stdout', exited(0), null, null],
    ['exit 0, blank stdout', exited(0, ' \n\n'), null, null],
    ['exit 0, {}', exited(0, '{}'), null, null],
    ['exit 0, unrecognised object', exited(0, '{"decision":"allow"}'), null, null],
    ['exit 0, {"foo":1}', exited(0, '{"foo": 1}\n'), null, null],
    ['exit 0, JSON array', exited(0, '[]'), null, UNPARSEABLE],
    ['exit 0, JSON null', exited(0, 'null'), null, UNPARSEABLE],
    ['exit 0, JSON string', exited(0, '"x"'), null, UNPARSEABLE],
    ['exit 0, JSON number', exited(0, '42'), null, UNPARSEABLE],
    ['exit 0, plain text', exited(0, 'all good'), null, UNPARSEABLE],
    ['exit 0, log line + JSON (§10.2)', exited(0, 'checking\n{"action":"block"}'), null, UNPARSEABLE],
    ['exit 0, a stack trace', exited(0, 'Traceback (most recent call last):\n  File "x"'), null, UNPARSEABLE],
    ['exit 0, block', exited(0, '{"action":"block","message":"no"}'), { action: 'block', message: 'no' }, { action: 'block', message: 'no' }],
    ['exit 0, modify', exited(0, '{"action":"modify","args":{"a":1}}'), { action: 'modify', args: { a: 1 } }, { action: 'modify', args: { a: 1 } }],
    ['exit 0, approve', exited(0, '{"action":"approve","rule_key":"k"}'), { action: 'approve', rule_key: 'k' }, { action: 'approve', rule_key: 'k' }],
    ['exit 1, block is still honoured', exited(1, '{"action":"block","message":"no"}'), { action: 'block', message: 'no' }, { action: 'block', message: 'no' }],
    [
      'exit 3, modify is still honoured',
      exited(3, '{"decision":"modify","tool_input":{"a":1}}'),
      { action: 'modify', args: { a: 1 } },
      { action: 'modify', args: { a: 1 } },
    ],
    [
      'exit 2, stdout block message wins',
      exited(2, '{"action":"block","message":"from stdout"}', 'from stderr'),
      { action: 'block', message: 'from stdout' },
      { action: 'block', message: 'from stdout' },
    ],
    [
      'exit 2, Claude deny reason wins',
      exited(2, '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"cc"}}', 'e'),
      { action: 'block', message: 'cc' },
      { action: 'block', message: 'cc' },
    ],
    [
      'exit 2, stderr (trimmed)',
      exited(2, '', '\n  rm -rf is not allowed  \n'),
      { action: 'block', message: 'rm -rf is not allowed' },
      { action: 'block', message: 'rm -rf is not allowed' },
    ],
    [
      'exit 2, approve on stdout still blocks (§10.4)',
      exited(2, '{"action":"approve"}'),
      { action: 'block', message: DEFAULT_BLOCK_MESSAGE },
      { action: 'block', message: DEFAULT_BLOCK_MESSAGE },
    ],
    [
      'exit 2, modify on stdout still blocks',
      exited(2, '{"action":"modify","args":{"a":1}}', 'bad'),
      { action: 'block', message: 'bad' },
      { action: 'block', message: 'bad' },
    ],
    [
      'exit 2, garbage stdout, default',
      exited(2, 'garbage', '   '),
      { action: 'block', message: DEFAULT_BLOCK_MESSAGE },
      { action: 'block', message: DEFAULT_BLOCK_MESSAGE },
    ],
    ['exit 1, empty stdout (#102405)', exited(1), null, fcBlock('exited with status 1 without a directive')],
    ['exit 3, empty stdout', exited(3, '', 'oops'), null, fcBlock('exited with status 3 without a directive')],
    ['exit 127, empty stdout', exited(127, '', 'not found'), null, fcBlock('exited with status 127 without a directive')],
    [
      'killed by SIGTERM, empty stdout',
      run({ status: 'nonzero_exit', exit_code: null, signal: 'SIGTERM' }),
      null,
      fcBlock('killed by SIGTERM without a directive'),
    ],
    ['exit 1, {} (no directive)', exited(1, '{}'), null, fcBlock('exited with status 1 without a directive')],
    ['exit 1, garbage: unparseable is the reason', exited(1, 'Traceback…'), null, UNPARSEABLE],
  ];

  it.each(rows)('%s', (_name, record, open, closed) => {
    expect(evaluateRun(spec(false), record)).toEqual(open);
    expect(evaluateRun(spec(true), record)).toEqual(closed);
  });

  it('the timeout reason names the configured timeout, not the elapsed time', () => {
    expect(evaluateRun(spec(true, 'pre_tool_call', 5), run({ status: 'timeout', exit_code: null, duration_ms: 5712 }))).toEqual(fcBlock('timed out after 5s'));
  });

  it('exit 2 takes the first 400 characters of stderr, counting code points like Python', () => {
    const stderr = '😀'.repeat(399) + 'ab' + 'c'.repeat(100);
    const d = evaluateRun(spec(false), exited(2, '', stderr));
    expect(d).toEqual({ action: 'block', message: '😀'.repeat(399) + 'a' });
  });
});

describe('other events: exit 2 and fail_closed do not apply', () => {
  const events = EVENT_NAMES.filter((e) => e !== 'pre_tool_call');

  it.each(events)('%s', (event) => {
    const s = { ...spec(true), event };
    expect(evaluateRun(s, exited(2, '', 'stop'))).toBeNull();
    expect(evaluateRun(s, exited(0, 'garbage'))).toBeNull();
    expect(evaluateRun(s, exited(1))).toBeNull();
    expect(evaluateRun(s, run({ status: 'timeout', exit_code: null }))).toBeNull();
    expect(evaluateRun(s, run({ status: 'launch_failed', exit_code: null, error: 'command not found' }))).toBeNull();
  });

  it('stdout is still read after a non-zero exit', () => {
    expect(evaluateRun({ ...spec(false), event: 'pre_llm_call' }, exited(2, '{"context":"c"}'))).toEqual({ action: 'context', context: 'c' });
    expect(evaluateRun({ ...spec(false), event: 'pre_verify' }, exited(1, '{"action":"continue","message":"m"}'))).toEqual({
      action: 'continue',
      message: 'm',
    });
  });
});

describe('describeRun: the warnings Hermes would log', () => {
  it('names what went wrong', () => {
    const s = spec(false);
    expect(describeRun(s, exited(0, '{}'))).toEqual([]);
    expect(describeRun(s, run({ status: 'launch_failed', exit_code: null, error: 'command not found' }))).toEqual([
      `shell hook failed (event=pre_tool_call command=${CMD}): command not found`,
    ]);
    expect(describeRun(s, run({ status: 'timeout', exit_code: null, duration_ms: 30_012.4 }))).toEqual([
      `shell hook timed out after 30.012s (event=pre_tool_call command=${CMD})`,
    ]);
    expect(describeRun(s, run({ status: 'timeout', exit_code: null, duration_ms: 2000 }))[0]).toContain('after 2.0s');
    expect(describeRun(s, run({ status: 'output_limit', exit_code: null }))[0]).toContain('kept writing far past the output cap and was killed');
    expect(describeRun(s, run({ ...exited(2, '{"action":"block"'), stdout_dropped_bytes: 7 }))).toEqual([
      `shell hook exited 2 (event=pre_tool_call command=${CMD}); stderr=`,
      `shell hook stdout exceeded the capture limit (event=pre_tool_call command=${CMD}): 7 bytes dropped; a cut stdout is not a directive`,
    ]);
    expect(describeRun(s, exited(3, 'not json', ' boom \n'))).toEqual([
      `shell hook exited 3 (event=pre_tool_call command=${CMD}); stderr=boom`,
      'shell hook stdout was not valid JSON (event=pre_tool_call): not json',
    ]);
    expect(describeRun(s, run({ status: 'nonzero_exit', exit_code: null, signal: 'SIGKILL' }))[0]).toContain('killed by SIGKILL');
  });
});

describe('real hook processes', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hh-evaluate-'));
    writeFileSync(join(dir, 'payload.json'), '{"hook_event_name": "pre_tool_call", "tool_name": "terminal"}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Runs a real interpreter and turns its result into a RunRecord, as spawn/ would. stdin is a
  // file (as in the engine), so a hook that never reads it cannot cause an EPIPE.
  function real(argv: string[]): RunRecord {
    const [cmd, ...args] = argv as [string, ...string[]];
    const fd = openSync(join(dir, 'payload.json'), 'r');
    let res: ReturnType<typeof spawnSync>;
    try {
      res = spawnSync(cmd, args, { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', timeout: 20_000 });
    } finally {
      closeSync(fd);
    }
    if (res.error) {
      const code = (res.error as NodeJS.ErrnoException).code;
      return run({ status: 'launch_failed', exit_code: null, error: code === 'ENOENT' ? 'command not found' : res.error.message });
    }
    return run({
      status: res.status === 0 ? 'ok' : 'nonzero_exit',
      exit_code: res.status,
      signal: res.signal,
      stdout: String(res.stdout),
      stderr: String(res.stderr),
    });
  }

  it('a Python hook that json.dumps a NaN is understood, as in Hermes', () => {
    const r = real(['python3', '-c', 'import json; print(json.dumps({"action": "modify", "args": {"limit": float("nan")}}))']);
    expect(r.stdout).toContain('NaN');
    expect(evaluateRun(spec(true), r)).toEqual({ action: 'modify', args: { limit: NaN } });
  });

  it('a Python hook that crashes fails open by default and blocks under fail_closed', () => {
    const r = real(['python3', '-c', 'import sys, json; json.load(sys.stdin); raise SystemExit(1)']);
    expect(evaluateRun(spec(false), r)).toBeNull();
    expect(evaluateRun(spec(true), r)).toEqual(fcBlock('exited with status 1 without a directive'));
  });

  it('a bash hook that exits 2 blocks with its stderr', () => {
    const r = real(['bash', '-c', 'cat >/dev/null; echo "  destructive command refused" >&2; exit 2']);
    expect(evaluateRun(spec(false), r)).toEqual({ action: 'block', message: 'destructive command refused' });
  });

  it('a bash hook that logs before its JSON gets nothing, or blocks under fail_closed', () => {
    const r = real(['bash', '-c', `echo checking; echo '{"action":"block"}'`]);
    expect(evaluateRun(spec(false), r)).toBeNull();
    expect(evaluateRun(spec(true), r)).toEqual(UNPARSEABLE);
  });

  it('a hook killed by a signal blocks under fail_closed', () => {
    // SIGKILL: cannot be ignored, whatever signal dispositions the test runner passes down.
    const r = real(['python3', '-c', 'import os, signal; os.kill(os.getpid(), signal.SIGKILL)']);
    expect(r.signal).toBe('SIGKILL');
    expect(evaluateRun(spec(false), r)).toBeNull();
    expect(evaluateRun(spec(true), r)).toEqual(fcBlock('killed by SIGKILL without a directive'));
  });

  it('a missing command fails closed with "command not found"', () => {
    const r = real(['/nonexistent/hermes-hook-xyz']);
    expect(evaluateRun(spec(true), r)).toEqual(fcBlock('command not found'));
    expect(evaluateRun(spec(false), r)).toBeNull();
  });
});

describe('properties', () => {
  const status = fc.constantFrom<RunRecord['status']>('ok', 'nonzero_exit', 'timeout', 'launch_failed', 'output_limit');
  const stdout = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.json(),
    fc.constantFrom('{"action":"block"}', '{"action":"approve"}', '{"decision":"modify","tool_input":{}}', '{}', '[]', 'NaN'),
  );
  const record: fc.Arbitrary<RunRecord> = fc.record({
    status,
    exit_code: fc.option(fc.integer({ min: -255, max: 255 })),
    signal: fc.option(fc.constantFrom('SIGTERM', 'SIGKILL', '')),
    stdout,
    stderr: fc.string({ unit: 'binary' }),
    error: fc.option(fc.string()),
    duration_ms: fc.double(),
    timeout: fc.option(fc.integer(), { nil: undefined }),
  });
  const specs = fc.record({
    event: fc.constantFrom<EventName>(...EVENT_NAMES),
    command: fc.string(),
    fail_closed: fc.boolean(),
    timeout: fc.integer({ min: 1, max: 300 }),
  });

  it('never throws; returns null or a well-formed Directive; describeRun never throws', () => {
    fc.assert(
      fc.property(specs, record, (s, r) => {
        const d = evaluateRun(s, r);
        if (d !== null) expect(DirectiveSchema.safeParse(d).success).toBe(true);
        expect(Array.isArray(describeRun(s, r))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('fail_closed on pre_tool_call never lets a failed run through silently', () => {
    fc.assert(
      fc.property(record, (r) => {
        const failed = r.status !== 'ok' && r.status !== 'nonzero_exit';
        const abnormal = (r.exit_code !== null && r.exit_code !== 0) || !!r.signal || r.status === 'nonzero_exit';
        const d = evaluateRun(spec(true), r);
        if (failed || (r.error ?? '') !== '') expect(d?.action).toBe('block');
        else if (abnormal) expect(d).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
  });
});

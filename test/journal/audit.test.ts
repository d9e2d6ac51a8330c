// journal/audit.ts over hand-written lines: call matching (id, else session + tool + input), guards
// that never fired, hooks that keep failing (a gate's exit 2 is a verdict, not a failure), p50/p99.

import { describe, expect, it } from 'vitest';
import { auditJournal } from '../../src/journal/audit.js';
import type { JournalHook, JournalLine } from '../../src/journal/record.js';
import { redact } from '../../src/journal/record.js';

const hook = (command: string, status: string, duration_ms: number, extra: Partial<JournalHook> = {}): JournalHook => ({
  index: 0,
  kind: 'shell',
  command,
  status,
  consent: 'approved',
  exit_code: status === 'ok' ? 0 : null,
  duration_ms,
  script_sha256: null,
  directive: null,
  ...extra,
});

function line(event: string, o: Partial<JournalLine> = {}): JournalLine {
  return {
    v: 1,
    time: '2026-12-06T00:00:00.000Z',
    profile: 'default',
    dialect: 'hermes',
    event,
    their_event: event,
    call_id: null,
    session_id: 's',
    tool_name: 'terminal',
    input_sha256: 'aa',
    received: {},
    hooks: [],
    decision: { action: 'allow', message: null, decided_by: null, decided_by_hook: null, modified_by: [] },
    ...o,
  };
}

const numbered = (lines: JournalLine[]): { no: number; line: JournalLine }[] => lines.map((l, i) => ({ no: i + 1, line: l }));

describe('auditJournal', () => {
  it('a post with an id is matched by that id; without one by session, tool and input', () => {
    const r = auditJournal(
      numbered([
        line('pre_tool_call', { call_id: 'a' }),
        line('post_tool_call', { call_id: 'a' }),
        line('post_tool_call', { call_id: 'b' }), // same input as a, but its own id never reached the gate
        line('pre_tool_call', { session_id: 't', input_sha256: 'cc' }),
        line('post_tool_call', { session_id: 't', input_sha256: 'cc' }),
        line('post_tool_call', { session_id: 't', input_sha256: 'dd' }),
      ]),
    );
    expect(r.tool_calls).toBe(4);
    expect(r.unguarded_calls.map((c) => c.line)).toEqual([3, 6]);
  });

  it('guards that never fired, hooks that keep failing, and p50/p99', () => {
    const block = { action: 'block', message: 'x' } as const;
    const r = auditJournal(
      numbered([
        line('pre_tool_call', { hooks: [hook('/g/quiet', 'ok', 10), hook('/g/loud', 'nonzero_exit', 30, { exit_code: 2, directive: block })] }),
        line('pre_tool_call', { hooks: [hook('/g/quiet', 'not_matched', 0), hook('/g/loud', 'timeout', 60_000)] }),
        line('pre_llm_call', { hooks: [hook('/h/flaky', 'launch_failed', 1), hook('/h/once', 'ok', 5)] }),
        line('pre_llm_call', { hooks: [hook('/h/flaky', 'launch_failed', 2), hook('/h/once', 'nonzero_exit', 5, { exit_code: 1 })] }),
      ]),
    );
    expect(r.never_fired).toEqual([{ command: '/g/quiet', listed: 2, ran: 1 }]);
    expect(r.failing).toEqual([{ command: '/h/flaky', runs: 2, failures: 2, by_status: { launch_failed: 2 } }]);
    expect(r.slowest[0]).toEqual({ command: '/g/loud', runs: 2, p50_ms: 30, p99_ms: 60_000 });
  });
});

describe('redact', () => {
  it('masks values under secret-named keys and secret shapes in strings; keeps counts and the rest of a command', () => {
    expect(
      redact({
        Authorization: 'Basic abc',
        cookie: { a: 1 },
        input_tokens: 12,
        command: 'export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ && git push',
        list: ['AKIAABCDEFGHIJKLMNOP'],
      }),
    ).toEqual({
      Authorization: '[REDACTED]',
      cookie: '[REDACTED]',
      input_tokens: 12,
      command: 'export GITHUB_TOKEN=[REDACTED] && git push',
      list: ['[REDACTED]'],
    });
  });
});

// The pure plan of an emit's spans: cause, who decided, whom it overrode, which hooks get a span.

import { describe, expect, it } from 'vitest';
import { hookOutcome } from '../../src/engine/_outcome.js';
import type { EmitRecord } from '../../src/engine/options.js';
import { allowDecision } from '../../src/resolve/resolve.js';
import { causeOf, overriddenBy, planEmit } from '../../src/telemetry/spans.js';
import type { Decision, HookOutcome } from '../../src/types.js';

const shell = (index: number, known: Partial<HookOutcome>): HookOutcome =>
  hookOutcome({ index, kind: 'shell', command: `/g/${index}.sh`, status: 'ok', exit_code: 0, duration_ms: 5, started_ms: 1, ...known });

function record(hooks: HookOutcome[], decision: Partial<Decision>): EmitRecord {
  return {
    emission: {
      event: 'pre_tool_call',
      payload: {
        hook_event_name: 'pre_tool_call',
        tool_name: 'terminal',
        tool_input: {},
        session_id: 's',
        cwd: '/',
        profile: 'default',
        extra: { tool_call_id: 'call_7' },
      },
      hooks,
      decision: { ...allowDecision('pre_tool_call'), ...decision },
      diagnostics: [],
    },
    entries: [],
    profile: 'default',
    received: { dialect: 'hermes', event: 'pre_tool_call', input: {} },
    startedAt: 1_700_000_000_000,
    durationMs: 20,
  };
}

describe('planEmit', () => {
  it('a block by a guard answer: policy_denial; the approve and the modify before it were overridden', () => {
    const r = record(
      [
        shell(0, { directive: { action: 'approve' } }),
        shell(1, { directive: { action: 'modify', args: { a: 1 } } }),
        shell(2, { status: 'nonzero_exit', exit_code: 2, directive: { action: 'block', message: 'no' } }),
        shell(3, { status: 'not_matched', exit_code: null }),
      ],
      { action: 'block', message: 'no', decided_by: 2 },
    );
    expect(causeOf(r)).toBe('policy_denial');
    expect(overriddenBy(r)).toEqual([0, 1]);
    const plan = planEmit(r);
    expect(plan.event).toMatchObject({ name: 'hermes_hooks.event pre_tool_call', start: 1_700_000_000_000, end: 1_700_000_000_020, error: null });
    expect(plan.event.attributes).toMatchObject({
      'gen_ai.tool.name': 'terminal',
      'gen_ai.tool.call.id': 'call_7',
      'hermes_hooks.decided_by': '/g/2.sh',
      'hermes_hooks.overridden': ['/g/0.sh', '/g/1.sh'],
      'hermes_hooks.hooks.run': 3,
      'hermes_hooks.hooks.failed': 0,
    });
    // The not-matched hook did not run: no span, no duration point.
    expect(plan.hooks.map((h) => h.attributes['hermes_hooks.hook.index'])).toEqual([0, 1, 2]);
    expect(plan.durations).toHaveLength(3);
    expect(plan.hooks[2]).toMatchObject({ start: 1_700_000_000_001, end: 1_700_000_000_006, error: null });
    expect(plan.decision).toEqual({
      'hermes_hooks.event': 'pre_tool_call',
      'hermes_hooks.decision': 'block',
      'hermes_hooks.cause': 'policy_denial',
      'gen_ai.tool.name': 'terminal',
    });
  });

  it('a block because a guard could not answer (timeout, fail closed): hook_failure, an ERROR span', () => {
    const timedOut = record(
      [shell(0, { status: 'timeout', exit_code: null, error: 'timed out', directive: { action: 'block', message: 'hook /g/0.sh failed closed: timed out' } })],
      {
        action: 'block',
        message: 'hook /g/0.sh failed closed: timed out',
        decided_by: 0,
      },
    );
    expect(causeOf(timedOut)).toBe('hook_failure');
    const plan = planEmit(timedOut);
    expect(plan.event.error).toBe('hook /g/0.sh failed closed: timed out');
    expect(plan.hooks[0]).toMatchObject({ error: 'timed out', attributes: { 'error.type': 'timeout' } });
    const unreadable = record([shell(0, { directive: { action: 'block', message: 'hook /g/0.sh failed closed: unparseable stdout' } })], {
      action: 'block',
      decided_by: 0,
    });
    expect(causeOf(unreadable)).toBe('hook_failure');
    expect(planEmit(unreadable).hooks[0]!.attributes['error.type']).toBe('failed_closed');
    // Nobody decided (hermes-hooks itself could not check the call).
    expect(causeOf(record([], { action: 'block', message: 'cannot check', decided_by: null }))).toBe('hook_failure');
  });

  it('an allow with a guard that failed open: cause none, the hook span still an ERROR', () => {
    const r = record([shell(0, { status: 'nonzero_exit', exit_code: 1 })], {});
    expect(causeOf(r)).toBe('none');
    const plan = planEmit(r);
    expect(plan.event.error).toBeNull();
    expect(plan.event.attributes['hermes_hooks.hooks.failed']).toBe(1);
    expect(plan.hooks[0]).toMatchObject({ error: 'exited 1', attributes: { 'process.exit.code': 1, 'error.type': 'nonzero_exit' } });
  });

  it('the built-in loop guard gets a span only when it said something', () => {
    const quiet = hookOutcome({ index: 1, kind: 'builtin', command: 'builtin:tool_loop_guardrails', status: 'ok' });
    expect(planEmit(record([shell(0, {}), quiet], {})).hooks).toHaveLength(1);
    const stop = { ...quiet, directive: { action: 'block' as const, message: 'loop' } };
    expect(planEmit(record([shell(0, {}), stop], { action: 'block', decided_by: 1 })).hooks).toHaveLength(2);
  });
});

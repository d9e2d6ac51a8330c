// The one HookOutcome builder: every field at its "did not run" value, then what the caller knows.
// Key order is fixed here (reports print outcomes as JSON), whatever order the caller passes.

import type { HookOutcome } from '../types.js';

export type OutcomeFields = Pick<HookOutcome, 'index' | 'kind' | 'command'> & Partial<HookOutcome>;

export function hookOutcome({ index, kind, command, ...known }: OutcomeFields): HookOutcome {
  return {
    index,
    kind,
    command,
    matcher: null,
    timeout: null,
    fail_closed: false,
    dialect: 'hermes',
    consent: null,
    status: 'not_matched',
    exit_code: null,
    signal: null,
    duration_ms: 0,
    started_ms: 0,
    stdout: '',
    stderr: '',
    error: null,
    warning: null,
    directive: null,
    left_processes: 0,
    stdout_dropped_bytes: 0,
    stderr_dropped_bytes: 0,
    ...known,
  };
}

/** Milliseconds to one decimal, as outcomes report them. */
export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

// Test helpers: run a fixture hook script for real (spawnSync) and turn the result into the
// RunRecord the evaluators read; load the exact stdin samples and agent configs.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Decision, EventName, JsonObject, RunRecord } from '../src/types.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/dialects/', import.meta.url));
export const hookPath = (name: string): string => `${FIXTURES}hooks/${name}`;

/** Run a command with `stdin` written to it; build the RunRecord from spawnSync's result. */
export function runHook(command: string, stdin: unknown, opts: { timeoutMs?: number } = {}): RunRecord {
  const started = performance.now();
  const r = spawnSync(command, [], {
    input: typeof stdin === 'string' ? stdin : JSON.stringify(stdin),
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 20_000,
    killSignal: 'SIGKILL',
  });
  const duration_ms = performance.now() - started;
  const error = r.error as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ETIMEDOUT') {
    return {
      status: 'timeout',
      exit_code: null,
      signal: 'SIGKILL',
      stdout: '',
      stderr: '',
      error: null,
      duration_ms,
      timeout: Math.round((opts.timeoutMs ?? 20_000) / 1000),
    };
  }
  if (error) {
    const message = error.code === 'ENOENT' ? 'command not found' : error.code === 'EACCES' ? 'command not executable' : error.message;
    return { status: 'launch_failed', exit_code: null, signal: null, stdout: '', stderr: '', error: message, duration_ms };
  }
  return {
    status: r.status === 0 ? 'ok' : 'nonzero_exit',
    exit_code: r.status,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    error: null,
    duration_ms,
  };
}

/** A RunRecord made by hand, for rules that need no process. */
export function record(exit_code: number | null, stdout = '', stderr = '', signal: string | null = null): RunRecord {
  return { status: exit_code === 0 ? 'ok' : 'nonzero_exit', exit_code, signal, stdout, stderr, error: null, duration_ms: 1 };
}

export function stdinSample(name: string): JsonObject {
  return JSON.parse(readFileSync(`${FIXTURES}stdin/${name}.json`, 'utf8')) as JsonObject;
}

export function configText(name: string): string {
  return readFileSync(`${FIXTURES}configs/${name}`, 'utf8');
}

/** Our wire payload (reference §3.1) for an event. */
export function wire(
  event: EventName,
  fields: { tool_name?: string | null; tool_input?: JsonObject | null; extra?: JsonObject; session_id?: string } = {},
): JsonObject {
  return {
    hook_event_name: event,
    tool_name: fields.tool_name ?? null,
    tool_input: fields.tool_input ?? null,
    session_id: fields.session_id ?? 'sess-1',
    cwd: '/work/proj',
    profile: 'default',
    extra: fields.extra ?? {},
  };
}

export function decision(event: EventName, action: Decision['action'], fields: Partial<Decision> = {}): Decision {
  return { event, action, message: null, args: null, context: null, decided_by: null, modified_by: [], conflicts: [], ...fields };
}

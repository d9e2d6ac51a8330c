// stdoutProblem and isFailClosedBlock: the pure halves of "warn, then continue" and of doctor's
// fail-closed verdict.

import { describe, expect, it } from 'vitest';
import { evaluateRun, failClosedMessage, isFailClosedBlock, stdoutProblem } from '../../src/directives/index.js';

describe('stdoutProblem', () => {
  it('names unreadable stdout and quotes its first 80 characters, JSON-escaped', () => {
    expect(stdoutProblem('post_tool_call', 'plain text\n')).toBe('stdout is not valid JSON, so it was ignored: "plain text"');
    expect(stdoutProblem('pre_tool_call', '[1]', true)).toBe('stdout is JSON but not an object, so the hook failed closed: "[1]"');
    expect(stdoutProblem('post_tool_call', '\u001b]0;title\u0007x')).toBe('stdout is not valid JSON, so it was ignored: "\\u001b]0;title\\u0007x"');
    const long = 'é'.repeat(100);
    expect(stdoutProblem('post_tool_call', long)).toBe(`stdout is not valid JSON, so it was ignored: "${'é'.repeat(80)}"…`);
  });

  it('is null for empty stdout and any JSON object, directive or not', () => {
    for (const text of ['', '  \n', '{}', '{"context":"x"}', '{"unrelated":1}']) expect(stdoutProblem('pre_llm_call', text), text).toBeNull();
  });
});

describe('isFailClosedBlock', () => {
  const spec = { event: 'pre_tool_call' as const, command: '/g.sh', fail_closed: true, timeout: 5 };
  const run = { status: 'ok' as const, exit_code: 0, signal: null, stdout: '', stderr: '', error: null, duration_ms: 1 };

  it("tells the block a failure produced from the hook's own", () => {
    expect(isFailClosedBlock('/g.sh', evaluateRun(spec, { ...run, stdout: 'garbage' }))).toBe(true);
    expect(isFailClosedBlock('/g.sh', evaluateRun(spec, { ...run, status: 'nonzero_exit', exit_code: 3 }))).toBe(true);
    expect(isFailClosedBlock('/g.sh', evaluateRun(spec, { ...run, stdout: '{"action":"block","message":"mine"}' }))).toBe(false);
    expect(isFailClosedBlock('/g.sh', evaluateRun(spec, { ...run, status: 'nonzero_exit', exit_code: 2, stderr: 'no' }))).toBe(false);
    expect(isFailClosedBlock('/g.sh', null)).toBe(false);
    // Another hook's failure message is not this hook's.
    expect(isFailClosedBlock('/g.sh', { action: 'block', message: failClosedMessage('/other.sh', 'timed out after 1s') })).toBe(false);
  });
});

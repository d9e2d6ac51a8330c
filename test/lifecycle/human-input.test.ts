import { describe, expect, it } from 'vitest';
import { HumanInputTracker, redactHumanInputKwargs } from '../../src/lifecycle/human-input.js';

const request = (id: string, extra: Record<string, unknown> = {}) => ({
  kind: 'sudo',
  request_id: id,
  session_id: 's1',
  session_key: 'k1',
  platform: 'cli',
  prompt: '[sudo] password for alice:',
  ...extra,
});

describe('redactHumanInputKwargs', () => {
  it('forces redaction of the prompt and drops anything that may carry the answer', () => {
    const out = redactHumanInputKwargs({
      ...request('r1'),
      prompt: 'Approve: curl -H "Authorization: Bearer abcdefghijkl0123" https://api',
      answer: 'yes',
      response: 'hunter2',
      password: 'hunter2',
      value: 'x',
      input: 'x',
      sudo_password: 'hunter2',
      Answer_Text: 'y',
      choices: ['yes', 'no'],
    });
    expect(out).toEqual({
      kind: 'sudo',
      request_id: 'r1',
      session_id: 's1',
      session_key: 'k1',
      platform: 'cli',
      prompt: 'Approve: curl -H "Authorization: Bearer [REDACTED]" https://api',
      choices: ['yes', 'no'],
    });
  });

  it('a structured prompt has every string inside it redacted', () => {
    expect(redactHumanInputKwargs({ prompt: { question: 'use token=abc12345?', options: ['a'] } }).prompt).toEqual({
      question: 'use token=[REDACTED]',
      options: ['a'],
    });
  });
});

describe('HumanInputTracker', () => {
  it('exactly one resolved per request: the outcome, never the answer', () => {
    const t = new HumanInputTracker();
    const req = t.request({ ...request('r1'), password: 'hunter2' });
    expect(req).toEqual(request('r1'));
    const resolved = t.resolve('r1', 'answered', { answer: 'hunter2', response: 'hunter2', duration_ms: 1200 });
    expect(resolved).toEqual({ ...request('r1'), duration_ms: 1200, outcome: 'answered' });
    expect(JSON.stringify(resolved)).not.toContain('hunter2');
    // A second resolve, or one for an unknown id, yields nothing to emit.
    expect(t.resolve('r1', 'timeout')).toBeNull();
    expect(t.resolve('nope', 'answered')).toBeNull();
    // A duplicate request for an id already seen is not emitted twice.
    expect(t.request(request('r1'))).toBeNull();
  });

  it('pending() lists open requests; resolveAll() closes each exactly once', () => {
    const t = new HumanInputTracker();
    t.request(request('a', { kind: 'clarify', prompt: 'Which branch?' }));
    t.request(request('b', { kind: 'approval', prompt: 'Run rm -rf build/?' }));
    expect(t.request(request('a'))).toBeNull();
    t.resolve('a', 'skipped');
    expect(t.pending().map((p) => [p.request_id, p.kind])).toEqual([['b', 'approval']]);
    const closed = t.resolveAll('withdrawn');
    expect(closed).toEqual([{ ...request('b', { kind: 'approval', prompt: 'Run rm -rf build/?' }), outcome: 'withdrawn' }]);
    expect(t.pending()).toEqual([]);
    expect(t.resolveAll('failed')).toEqual([]);
  });

  it('a request without request_id gets one, used by its resolve', () => {
    const t = new HumanInputTracker();
    const req = t.request({ kind: 'clarify', prompt: 'Name?' });
    expect(req?.request_id).toMatch(/^hir_[0-9a-f-]{36}$/);
    expect(t.resolve(req!.request_id as string, 'timeout')).toMatchObject({ request_id: req!.request_id, outcome: 'timeout' });
  });
});

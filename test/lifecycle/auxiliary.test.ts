import { describe, expect, it } from 'vitest';
import { prepareAuxiliaryKwargs } from '../../src/lifecycle/auxiliary.js';

const base = {
  aux_task: 'compression',
  task_id: 't',
  session_id: 's',
  model: 'm',
  message_count: 2,
  request_char_count: 40,
  request_messages: [{ role: 'user', content: 'my password: hunter2' }],
  system_prompt: 'You compress. api_key=abc123456',
};

describe('prepareAuxiliaryKwargs', () => {
  it('with a redacted request present, the raw messages and system prompt are withheld', () => {
    const request = { messages: [{ role: 'user', content: '[REDACTED]' }] };
    const out = prepareAuxiliaryKwargs({ ...base, request });
    expect(out).toEqual({
      aux_task: 'compression',
      task_id: 't',
      session_id: 's',
      model: 'm',
      message_count: 2,
      request_char_count: 40,
      request,
      raw_withheld: ['request_messages', 'system_prompt'],
    });
  });

  it('without one, the raw fields stay but secrets in them are masked; the input is not changed', () => {
    const input = structuredClone(base);
    const out = prepareAuxiliaryKwargs(input);
    expect(out.request_messages).toEqual([{ role: 'user', content: 'my password: [REDACTED]' }]);
    expect(out.system_prompt).toBe('You compress. api_key=[REDACTED]');
    expect(out).not.toHaveProperty('raw_withheld');
    expect(input).toEqual(base);
  });

  it('other kwargs pass through untouched', () => {
    expect(prepareAuxiliaryKwargs({ aux_task: 'title', request: null })).toEqual({ aux_task: 'title', request: null });
  });
});

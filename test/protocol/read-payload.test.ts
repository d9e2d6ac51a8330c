// readPayload: the wire form a hook reads and the host's kwargs both become the kwargs the engine
// emits with (issue 20 item 2), and every key that does not land where its sender meant is said.

import { describe, expect, it } from 'vitest';
import { buildPayload } from '../../src/protocol/build-payload.js';
import { readPayload } from '../../src/protocol/read-payload.js';

const at = { cwd: '/w', profile: 'default' };

describe('readPayload', () => {
  it('reads the wire form: tool_input is the args, extra the other kwargs, cwd and profile kept apart', () => {
    const r = readPayload('pre_tool_call', {
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'rm -rf /' },
      session_id: 's',
      cwd: '/srv',
      profile: 'p',
      extra: { task_id: 't' },
    });
    expect(r).toEqual({
      form: 'wire',
      kwargs: { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's', task_id: 't' },
      cwd: '/srv',
      profile: 'p',
      diagnostics: [],
    });
    // And back: the stdin hooks then get is the wire payload as given.
    expect(buildPayload('pre_tool_call', r.kwargs, { cwd: r.cwd!, profile: r.profile! })).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'rm -rf /' },
      session_id: 's',
      cwd: '/srv',
      profile: 'p',
      extra: { task_id: 't' },
    });
  });

  it('reads kwargs as they are; the two forms of one call give the same stdin', () => {
    const kwargs = { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's', task_id: 't' };
    const r = readPayload('pre_tool_call', kwargs);
    expect(r).toEqual({ form: 'kwargs', kwargs, diagnostics: [] });
    const wire = readPayload('pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'ls' }, session_id: 's', extra: { task_id: 't' } });
    expect(buildPayload('pre_tool_call', wire.kwargs, at)).toEqual(buildPayload('pre_tool_call', r.kwargs, at));
  });

  it('says every key that lands elsewhere than its sender meant, never dropping one', () => {
    const paths = (body: Record<string, unknown>, event: Parameters<typeof readPayload>[0] = 'pre_tool_call') =>
      readPayload(event, body).diagnostics.map((d) => `${d.level} ${d.path}: ${d.message}`);
    expect(paths({ tool_input: { command: 'ls' }, mystery: 1 })).toEqual([
      "warning mystery: 'mystery' is not a stdin key; passed to hooks under extra.mystery",
    ]);
    expect(paths({ tool_name: 'terminal', command: 'rm -rf /' })).toEqual([
      'warning command: \'command\' is not a pre_tool_call kwarg (it takes tool_name, args, tool_call_id …): hooks get it under extra.command — a tool argument goes inside args: {"command": …}',
    ]);
    expect(paths({ args: { command: 'ls' }, tool_input: { command: 'rm' } })).toEqual([
      "warning tool_input: 'tool_input' is a stdin key, but this payload also has 'args' (a kwarg), so it is read as kwargs: hooks get tool_input under extra.tool_input",
    ]);
    expect(paths({ hook_event_name: 'post_tool_call', tool_input: {} })).toEqual([
      "warning hook_event_name: payload says 'post_tool_call' but the event is 'pre_tool_call'; using 'pre_tool_call'",
    ]);
    expect(paths({ tool_input: [1] })).toEqual(['warning tool_input: tool_input must be a JSON object or null; hooks will see null']);
    // Events without a fixed kwarg list: an unknown kwarg is information, not a warning.
    expect(paths({ user_message: 'hi', frobnicate: 1 }, 'pre_llm_call')).toEqual([
      "info user_message: 'user_message' is not a kwarg Hermes passes on pre_llm_call; hooks get it under extra.user_message",
      "info frobnicate: 'frobnicate' is not a kwarg Hermes passes on pre_llm_call; hooks get it under extra.frobnicate",
    ]);
    expect(readPayload('pre_llm_call', { user_message: 'hi' }, { knownKwargs: ['user_message'] }).diagnostics).toEqual([]);
  });

  it('a "__proto__" key stays an ordinary key on both forms', () => {
    const wire = readPayload('pre_tool_call', JSON.parse('{"tool_input":{},"__proto__":{"x":1}}'));
    expect(Object.keys(wire.kwargs)).toContain('__proto__');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

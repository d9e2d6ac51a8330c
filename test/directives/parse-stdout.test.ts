import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectStdout, isJsonObjectText, parseStdout } from '../../src/directives/parse-stdout.js';
import { DEFAULT_BLOCK_MESSAGE } from '../../src/directives/messages.js';
import { EVENT_NAMES, type EventName } from '../../src/events.js';
import { DirectiveSchema } from '../../src/protocol/directive.js';

const pre = (s: string) => parseStdout('pre_tool_call', s);
const j = (v: unknown) => JSON.stringify(v);

describe('the JSON layer (Python json.loads on the stripped stdout)', () => {
  it.each([
    ['empty', ''],
    ['blank', ' \n\t\r\n '],
    ['a BOM before the object', '\ufeff{"action":"block"}'],
    ['a BOM after the object (Python strip keeps it)', '{"action":"block"}\ufeff'],
    ['two JSON lines', '{"action":"block"}\n{"action":"block"}'],
    ['a log line before the JSON', 'checking…\n{"action":"block"}'],
    ['trailing garbage', '{"action":"block"} ok'],
    ['a truncated object', '{"action":"block"'],
    ['single quotes', "{'action':'block'}"],
    ['a trailing comma', '{"action":"block",}'],
    ['lower-case nan', '{"action":"block","x":nan}'],
    ['+Infinity', '{"action":"block","x":+Infinity}'],
    ['a JSON array', '[{"action":"block"}]'],
    ['JSON null', 'null'],
    ['a JSON string', '"block"'],
    ['a JSON number', '42'],
    ['plain text', 'Blocked: rm -rf is not allowed'],
    ['a raw control character inside a string', '{"action":"block","message":"a\u0001b"}'],
  ])('%s → no directive', (_name, stdout) => {
    expect(pre(stdout)).toBeNull();
  });

  it('strips the whitespace Python strips (incl. NBSP, \\x1c–\\x1f, \\x85) around the object', () => {
    expect(pre('\u00a0\x1c\x85 {"action":"block"} \r\n\u3000')).toEqual({ action: 'block', message: DEFAULT_BLOCK_MESSAGE });
  });

  it('accepts NaN, Infinity and -Infinity outside strings like Python', () => {
    const d = pre('{"action":"modify","args":{"a":NaN,"b":Infinity,"c":-Infinity,"d":"NaN"}}');
    expect(d).toEqual({ action: 'modify', args: { a: NaN, b: Infinity, c: -Infinity, d: 'NaN' } });
  });

  it('keeps the last of duplicate keys', () => {
    expect(pre('{"action":"allow","action":"block"}')).toEqual({ action: 'block', message: DEFAULT_BLOCK_MESSAGE });
    expect(pre('{"action":"block","action":"allow"}')).toBeNull();
    expect(pre('{"action":"block","message":"a","x":NaN,"message":"b"}')).toEqual({ action: 'block', message: 'b' });
  });

  it('keeps a "__proto__" key as ordinary data', () => {
    const d = pre('{"action":"modify","args":{"__proto__":{"polluted":true},"x":1}}');
    expect(d?.action).toBe('modify');
    const args = (d as { args: Record<string, unknown> }).args;
    expect(Object.keys(args)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('isJsonObjectText tells objects from everything else', () => {
    expect(isJsonObjectText('{}')).toBe(true);
    expect(isJsonObjectText('  {"a": [1, NaN]}\n')).toBe(true);
    expect(isJsonObjectText('[]')).toBe(false);
    expect(isJsonObjectText('')).toBe(false);
    expect(isJsonObjectText('{"a":1} x')).toBe(false);
    expect(isJsonObjectText('\ufeff{}')).toBe(false);
  });

  it('inspectStdout says what the stdout was', () => {
    expect(inspectStdout('pre_tool_call', ' ').kind).toBe('empty');
    expect(inspectStdout('pre_tool_call', 'oops').kind).toBe('invalid_json');
    expect(inspectStdout('pre_tool_call', '[1]').kind).toBe('not_object');
    expect(inspectStdout('pre_tool_call', '{}')).toMatchObject({ kind: 'object', directive: null, source: null });
    expect(inspectStdout('pre_tool_call', '{"action":"block"}').source).toBe('hermes');
    expect(inspectStdout('pre_tool_call', j({ hookSpecificOutput: { permissionDecision: 'deny' } })).source).toBe('hook_specific_output');
    expect(inspectStdout('on_session_finalize', j({ message: 'bye' })).source).toBe('event');
  });
});

describe('pre_tool_call, Hermes dialect (§3.4, V4)', () => {
  it.each<[string, unknown, unknown]>([
    ['block, default message', { action: 'block' }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    ['block with message', { action: 'block', message: 'nope' }, { action: 'block', message: 'nope' }],
    ['block with reason only', { action: 'block', reason: 'r' }, { action: 'block', message: 'r' }],
    ['M: empty message falls to reason', { action: 'block', message: '', reason: 'r' }, { action: 'block', message: 'r' }],
    ['M: 42 is truthy but not a string → default', { action: 'block', message: 42, reason: 'r' }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    ['M: 0 is falsy → reason', { action: 'block', message: 0, reason: 'r' }, { action: 'block', message: 'r' }],
    ['M: [] is falsy → reason', { action: 'block', message: [], reason: 'r' }, { action: 'block', message: 'r' }],
    ['M: neither usable → default', { action: 'block', message: null, reason: 7 }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    ['M: blank message kept verbatim (§10.3)', { action: 'block', message: '   ' }, { action: 'block', message: '   ' }],
    ['M: message not trimmed', { action: 'block', message: ' x \n' }, { action: 'block', message: ' x \n' }],
    ['decision block prefers reason', { decision: 'block', reason: 'r', message: 'm' }, { action: 'block', message: 'r' }],
    ['decision block falls back to message', { decision: 'block', message: 'm' }, { action: 'block', message: 'm' }],
    ['decision block, default', { decision: 'block' }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    ['block beats approve (action approve, decision block)', { action: 'approve', decision: 'block' }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    ['block beats modify', { action: 'modify', args: { a: 1 }, decision: 'block' }, { action: 'block', message: DEFAULT_BLOCK_MESSAGE }],
    [
      'action block message wins over decision reason',
      { action: 'block', message: 'canonical', decision: 'block', reason: 'cc' },
      { action: 'block', message: 'canonical' },
    ],
    ['modify with args', { action: 'modify', args: { command: 'ls' } }, { action: 'modify', args: { command: 'ls' } }],
    ['modify with {} (ignored later, still a directive)', { action: 'modify', args: {} }, { action: 'modify', args: {} }],
    ['decision modify with tool_input', { decision: 'modify', tool_input: { a: 1 } }, { action: 'modify', args: { a: 1 } }],
    [
      'action modify beats decision modify',
      { action: 'modify', args: { a: 1 }, decision: 'modify', tool_input: { b: 2 } },
      { action: 'modify', args: { a: 1 } },
    ],
    [
      'action modify with bad args falls to decision modify',
      { action: 'modify', args: [1], decision: 'modify', tool_input: { b: 2 } },
      { action: 'modify', args: { b: 2 } },
    ],
    ['modify beats approve', { action: 'modify', args: { a: 1 }, decision: 'approve' }, { action: 'modify', args: { a: 1 } }],
    ['approve', { action: 'approve' }, { action: 'approve' }],
    ['approve: message and rule_key trimmed', { action: 'approve', message: '  ok? ', rule_key: ' k ' }, { action: 'approve', message: 'ok?', rule_key: 'k' }],
    ['approve: blank / non-string extras dropped', { action: 'approve', message: '   ', rule_key: 5 }, { action: 'approve' }],
  ])('%s', (_name, out, expected) => {
    expect(pre(j(out))).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['capitalised Block (§10.1)', { action: 'Block' }],
    ['decision deny (§10.1)', { decision: 'deny', reason: 'r' }],
    ['decision approve is ignored on purpose', { decision: 'approve', reason: 'r' }],
    ['decision allow', { decision: 'allow' }],
    ['decision ask', { decision: 'ask' }],
    ['action allow', { action: 'allow' }],
    ['modify with array args', { action: 'modify', args: ['x'] }],
    ['modify with string args', { action: 'modify', args: 'x' }],
    ['modify without args', { action: 'modify' }],
    ['action modify with tool_input only', { action: 'modify', tool_input: { a: 1 } }],
    ['decision modify with args only', { decision: 'modify', args: { a: 1 } }],
    ['non-string action', { action: ['block'] }],
    ['context is not a pre_tool_call directive', { context: 'x' }],
    ['top-level permissionDecision', { permissionDecision: 'deny' }],
    ['empty object', {}],
    ['handled is not a pre_tool_call directive', { action: 'handled' }],
  ])('%s → no directive', (_name, out) => {
    expect(pre(j(out))).toBeNull();
  });
});

describe('pre_verify (case-insensitive continue / block)', () => {
  const pv = (v: unknown) => parseStdout('pre_verify', j(v));
  it.each<[string, unknown, unknown]>([
    ['continue, message trimmed', { action: 'continue', message: '  fix the tests \n' }, { action: 'continue', message: 'fix the tests' }],
    ['upper case', { action: 'CONTINUE', message: 'm' }, { action: 'continue', message: 'm' }],
    ['block with spaces = Claude Stop', { action: ' Block ', reason: 'r' }, { action: 'continue', message: 'r' }],
    ['decision block + reason', { decision: 'block', reason: 'r' }, { action: 'continue', message: 'r' }],
    ['empty action falls to decision', { action: '', decision: 'continue', message: 'm' }, { action: 'continue', message: 'm' }],
    ['empty message falls to reason', { action: 'continue', message: '', reason: 'r' }, { action: 'continue', message: 'r' }],
  ])('%s', (_name, out, expected) => {
    expect(pv(out)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['blank action is truthy, so decision is not consulted', { action: '  ', decision: 'continue', message: 'm' }],
    ['blank message', { action: 'continue', message: '   ' }],
    ['non-string message', { action: 'continue', message: 5 }],
    ['truthy non-string message hides reason', { action: 'continue', message: 5, reason: 'r' }],
    ['no message', { action: 'continue' }],
    ['other verb', { action: 'stop', message: 'm' }],
    ['non-string verb', { action: true, message: 'm' }],
    ['context', { context: 'x' }],
    ['Claude additionalContext', { hookSpecificOutput: { additionalContext: 'x' } }],
  ])('%s → no directive', (_name, out) => {
    expect(pv(out)).toBeNull();
  });
});

describe('every other event: {context}', () => {
  it('returns a non-blank context untrimmed', () => {
    expect(parseStdout('pre_llm_call', j({ context: '  note \n' }))).toEqual({ action: 'context', context: '  note \n' });
    expect(parseStdout('post_tool_call', j({ context: 'x' }))).toEqual({ action: 'context', context: 'x' });
    expect(parseStdout('on_session_start', j({ context: 'x' }))).toEqual({ action: 'context', context: 'x' });
  });

  it.each<[string, unknown]>([
    ['blank context', { context: ' \n ' }],
    ['non-string context', { context: 5 }],
    ['block on a non-blocking event', { action: 'block', message: 'm' }],
    ['modify on a non-blocking event', { action: 'modify', args: { a: 1 } }],
  ])('%s → no directive', (_name, out) => {
    expect(parseStdout('pre_llm_call', j(out))).toBeNull();
  });

  it('never takes plain text or a JSON string as context', () => {
    expect(parseStdout('pre_llm_call', 'remember the milk')).toBeNull();
    expect(parseStdout('pre_llm_call', '"remember the milk"')).toBeNull();
  });
});

describe('beyond Hermes: the Claude Code dialect', () => {
  const hso = (o: Record<string, unknown>) => j({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });

  it('deny → block with the reason, or the default', () => {
    expect(pre(hso({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' }))).toEqual({ action: 'block', message: 'no rm -rf' });
    expect(pre(hso({ permissionDecision: 'deny' }))).toEqual({ action: 'block', message: DEFAULT_BLOCK_MESSAGE });
    expect(pre(hso({ permissionDecision: 'deny', permissionDecisionReason: '' }))).toEqual({ action: 'block', message: DEFAULT_BLOCK_MESSAGE });
  });

  it('ask → approve, the reason becomes the prompt message', () => {
    expect(pre(hso({ permissionDecision: 'ask', permissionDecisionReason: '  really? ' }))).toEqual({ action: 'approve', message: 'really?' });
    expect(pre(hso({ permissionDecision: 'ask' }))).toEqual({ action: 'approve' });
  });

  it('allow + updatedInput → modify; allow alone, defer or a bad updatedInput say nothing', () => {
    expect(pre(hso({ permissionDecision: 'allow', updatedInput: { command: 'ls -la' } }))).toEqual({ action: 'modify', args: { command: 'ls -la' } });
    expect(pre(hso({ permissionDecision: 'allow' }))).toBeNull();
    expect(pre(hso({ permissionDecision: 'allow', updatedInput: ['x'] }))).toBeNull();
    expect(pre(hso({ permissionDecision: 'defer' }))).toBeNull();
    expect(pre(hso({ permissionDecision: 'Deny' }))).toBeNull();
    expect(pre(j({ hookSpecificOutput: 'deny' }))).toBeNull();
  });

  it('is read only when no Hermes key decided', () => {
    const both = { action: 'approve', hookSpecificOutput: { permissionDecision: 'deny' } };
    expect(pre(j(both))).toEqual({ action: 'approve' });
    const legacy = { decision: 'allow', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'r' } };
    expect(pre(j(legacy))).toEqual({ action: 'block', message: 'r' });
  });

  it('additionalContext → context on events that take context, not on pre_tool_call', () => {
    const out = j({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' } });
    expect(parseStdout('pre_llm_call', out)).toEqual({ action: 'context', context: 'ctx' });
    expect(parseStdout('post_tool_call', out)).toEqual({ action: 'context', context: 'ctx' });
    expect(pre(out)).toBeNull();
    expect(parseStdout('pre_llm_call', j({ hookSpecificOutput: { additionalContext: '  ' } }))).toBeNull();
    expect(parseStdout('pre_llm_call', j({ context: 'a', hookSpecificOutput: { additionalContext: 'b' } }))).toEqual({ action: 'context', context: 'a' });
  });
});

describe('beyond Hermes: on_session_finalize and post_gateway_admission', () => {
  it('on_session_finalize: {"message"} is a notification (trimmed); it wins over context there', () => {
    const fin = (v: unknown) => parseStdout('on_session_finalize', j(v));
    expect(fin({ message: '  Session saved to notes.md \n' })).toEqual({ action: 'notify', message: 'Session saved to notes.md' });
    expect(fin({ message: '   ' })).toBeNull();
    expect(fin({ message: 3 })).toBeNull();
    expect(fin({ message: 'bye', context: 'c' })).toEqual({ action: 'notify', message: 'bye' });
    expect(fin({ context: 'c' })).toEqual({ action: 'context', context: 'c' });
    expect(parseStdout('on_session_end', j({ message: 'bye' }))).toBeNull();
  });

  it('post_gateway_admission: {"action":"handled","reply"?} consumes the message', () => {
    const adm = (v: unknown) => parseStdout('post_gateway_admission', j(v));
    expect(adm({ action: 'handled', reply: 'On it.' })).toEqual({ action: 'handled', reply: 'On it.' });
    expect(adm({ action: 'handled' })).toEqual({ action: 'handled' });
    expect(adm({ action: 'handled', reply: 5 })).toEqual({ action: 'handled' });
    expect(adm({ action: 'handled', reply: '' })).toEqual({ action: 'handled', reply: '' });
    expect(adm({ action: 'Handled' })).toBeNull();
    expect(parseStdout('pre_gateway_dispatch', j({ action: 'handled' }))).toBeNull();
  });
});

describe('properties', () => {
  const events = fc.constantFrom<EventName>(...EVENT_NAMES);
  const keyish = fc.constantFrom('action', 'decision', 'message', 'reason', 'args', 'tool_input', 'rule_key', 'context', 'reply', 'hookSpecificOutput');
  const valueish = fc.oneof(
    fc.constantFrom('block', 'modify', 'approve', 'continue', 'handled', 'Block', 'deny', 'ask', 'allow', '', '  ', 'CONTINUE'),
    fc.jsonValue(),
    fc.record(
      { permissionDecision: fc.constantFrom('deny', 'ask', 'allow', 'defer'), updatedInput: fc.jsonValue(), additionalContext: fc.string() },
      { requiredKeys: [] },
    ),
  );
  const directiveish = fc.dictionary(keyish, valueish).map((o) => JSON.stringify(o));

  it('never throws, and always returns null or a well-formed Directive', () => {
    fc.assert(
      fc.property(events, fc.oneof(fc.string({ unit: 'binary' }), fc.json(), directiveish), (event, stdout) => {
        const d = parseStdout(event, stdout);
        if (d !== null) expect(DirectiveSchema.safeParse(d).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('only pre_tool_call can block or modify; only pre_verify continues', () => {
    fc.assert(
      fc.property(events, directiveish, (event, stdout) => {
        const d = parseStdout(event, stdout);
        // pre_tts_synthesis reads its own {"action":"block"} (and blocks malformed answers).
        if (d?.action === 'block') expect(['pre_tool_call', 'pre_tts_synthesis']).toContain(event);
        if (d?.action === 'modify' || d?.action === 'approve') expect(event).toBe('pre_tool_call');
        if (d?.action === 'continue') expect(event).toBe('pre_verify');
        if (d?.action === 'notify') expect(event).toBe('on_session_finalize');
        if (d?.action === 'handled') expect(event).toBe('post_gateway_admission');
      }),
      { numRuns: 2000 },
    );
  });
});

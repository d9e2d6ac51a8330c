// Unknown answers are said (issue 24 item 4, issue 20 item 3): a word Hermes does not know, a key
// it does not read, an answer for another event — each gets one line with the Hermes word that
// does it, by the event's own rules; a fail_closed guard whose answer meant more than "go ahead"
// blocks. Legitimate answers are never warned about.

import { describe, expect, it } from 'vitest';
import { answerProblem, evaluateRun, inspectStdout, stdoutProblem } from '../../src/directives/index.js';
import type { EventName } from '../../src/events.js';

const run = (stdout: string) => ({ status: 'ok' as const, exit_code: 0, signal: null, stdout, stderr: '', error: null, duration_ms: 1 });
const guard = (fail_closed: boolean) => ({ event: 'pre_tool_call' as const, command: '/g.sh', fail_closed, timeout: 5 });
const problem = (event: EventName, obj: Record<string, unknown>) => answerProblem(event, obj);

describe('answerProblem on pre_tool_call (exact, case-sensitive words)', () => {
  it.each([
    [{ action: 'deny' }, "answered 'deny', which is not a Hermes action — did you mean 'block'?"],
    [{ action: 'reject' }, "answered 'reject', which is not a Hermes action — did you mean 'block'?"],
    [{ decision: 'deny', reason: 'no' }, "answered 'deny', which is not a Hermes action — did you mean 'block'?"],
    [{ action: 'Block' }, "answered 'Block', which is not a Hermes action (actions are exact and lower-case) — did you mean 'block'?"],
    [{ action: 'BLOCK', message: 'x' }, "answered 'BLOCK', which is not a Hermes action (actions are exact and lower-case) — did you mean 'block'?"],
    [{ action: 'Approve' }, "answered 'Approve', which is not a Hermes action (actions are exact and lower-case) — did you mean 'approve'?"],
    [{ action: 'ask' }, "answered 'ask', which is not a Hermes action — did you mean 'approve'?"],
    [{ action: 'rewrite', args: { command: 'ls' } }, "answered 'rewrite', which is not a Hermes action — did you mean 'modify'?"],
    [{ action: 'blok' }, "answered 'blok', which is not a Hermes action — did you mean 'block'?"],
    [{ action: 'frobnicate' }, "answered 'frobnicate', which is not a Hermes action (pre_tool_call reads: block, modify, approve)"],
    [{ action: 42 }, 'answered action 42, which is not a Hermes action (a string: block, modify, approve)'],
    [{ action: 'modify' }, "answered 'modify' without an 'args' object, so the arguments are not changed"],
    [{ actoin: 'block' }, "printed 'actoin', which is not read (keys are exact and case-sensitive) — did you mean 'action'?"],
    [{ Action: 'block' }, "printed 'Action', which is not read (keys are exact and case-sensitive) — did you mean 'action'?"],
    [{ message: 'no rm -rf' }, 'printed a \'message\' but no action, so nothing was decided — did you mean {"action":"block","message":"…"}?'],
    [
      { continue: false, stopReason: 'stop' },
      'printed continue: false (Claude Code\'s "stop"), which pre_tool_call does not read — to stop this call print {"action":"block","message":"…"}',
    ],
    [{ block: true }, 'printed \'block\': true, which Hermes does not read — did you mean {"action":"block"}?'],
    [
      { hookSpecificOutput: { permissionDecision: 'Deny' } },
      "printed hookSpecificOutput.permissionDecision 'Deny', which is not one Hermes reads (allow, deny, ask, defer) — did you mean 'deny'?",
    ],
  ])('%j: said, with the Hermes word; a fail_closed guard blocks', (obj, message) => {
    expect(problem('pre_tool_call', obj)).toEqual({ message, failsClosed: true, lost: true });
    expect(evaluateRun(guard(true), run(JSON.stringify(obj)))).toEqual({ action: 'block', message: `hook /g.sh failed closed: ${message}` });
    // Not fail_closed: Hermes' behaviour (ignored, the call goes ahead), but said.
    expect(evaluateRun(guard(false), run(JSON.stringify(obj)))).toBeNull();
    expect(stdoutProblem('pre_tool_call', JSON.stringify(obj))).toBe(`${message} (ignored, as Hermes ignores it)`);
  });

  it("another agent's answer at the wrong level names where it goes", () => {
    expect(problem('pre_tool_call', { permissionDecision: 'deny' })?.message).toMatch(
      /^printed permissionDecision 'deny' at the top level, where Hermes does not read it — Claude Code's form puts it inside hookSpecificOutput/,
    );
    expect(problem('pre_tool_call', { permission: 'deny', user_message: 'no' })?.message).toMatch(
      /^printed Cursor's 'permission' answer \('deny'\), which Hermes does not read — mark the hook dialect: cursor/,
    );
    expect(problem('pre_tool_call', { permission: 'deny' })?.failsClosed).toBe(true);
  });

  it('an answer meaning "go ahead" is said but never blocks, even fail_closed: the call goes ahead as meant', () => {
    for (const obj of [{ action: 'allow' }, { decision: 'allow' }, { action: 'ok' }, { permission: 'allow' }, { permissionDecision: 'allow' }]) {
      const p = problem('pre_tool_call', obj);
      expect(p, JSON.stringify(obj)).toMatchObject({ failsClosed: false, lost: false });
      expect(evaluateRun(guard(true), run(JSON.stringify(obj))), JSON.stringify(obj)).toBeNull();
    }
    expect(problem('pre_tool_call', { action: 'allow' })?.message).toBe(
      "answered 'allow', which is not a Hermes action — to allow, print nothing or {} (the call goes ahead, as meant); 'approve' would ask the user first",
    );
  });

  it("decision 'approve' is ignored on purpose (Claude's allow): said, not blocked", () => {
    const p = problem('pre_tool_call', { decision: 'approve' });
    expect(p).toMatchObject({ failsClosed: false, lost: false });
    expect(p?.message).toMatch(
      /^answered decision 'approve', which Hermes ignores on purpose \(in Claude Code it means allow\): the call goes ahead without asking/,
    );
    expect(evaluateRun(guard(true), run('{"decision":"approve"}'))).toBeNull();
  });

  it('legitimate answers and plain objects are never warned about', () => {
    for (const text of [
      '',
      '{}',
      '{"ok":true}',
      '{"status":"checked"}',
      '{"description":"x","session":"s"}',
      '{"suppressOutput":true}',
      '{"systemMessage":"hi"}',
      '{"hookSpecificOutput":{"permissionDecision":"allow"}}',
      '{"hookSpecificOutput":{"permissionDecision":"defer"}}',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}',
      '{"action":"block"}',
      '{"decision":"block","reason":"r"}',
      '{"action":"modify","args":{}}',
      '{"action":"approve"}',
      '{"hookSpecificOutput":{"permissionDecision":"deny"}}',
    ]) {
      expect(inspectStdout('pre_tool_call', text).problem, text).toBeNull();
      expect(stdoutProblem('pre_tool_call', text), text).toBeNull();
    }
  });
});

describe('answerProblem on the other events, by their own rules', () => {
  it("pre_verify is case-insensitive: continue/block need a message; Gemini's deny means continue", () => {
    expect(inspectStdout('pre_verify', '{"action":"Continue","message":"run the tests"}').directive).toEqual({ action: 'continue', message: 'run the tests' });
    expect(problem('pre_verify', { action: 'deny', message: 'x' })?.message).toBe("answered 'deny', which pre_verify does not read — did you mean 'continue'?");
    expect(problem('pre_verify', { action: 'continue' })?.message).toBe("answered 'continue' without a non-blank 'message' (or 'reason'), so the turn ends");
    expect(problem('pre_verify', { message: 'x' })?.message).toMatch(/did you mean \{"action":"continue","message":"…"\}\?$/);
    // Nothing blocks on pre_verify: fail_closed is pre_tool_call's.
    expect(problem('pre_verify', { action: 'deny', message: 'x' })?.failsClosed).toBe(false);
  });

  it("context events: {context} is the answer; another event's word or a near miss of the key is said", () => {
    expect(problem('pre_llm_call', { context: 'x' })).toBeNull();
    expect(inspectStdout('pre_llm_call', '{"context":"x"}').problem).toBeNull();
    expect(problem('pre_llm_call', { additionalContext: 'x' })?.message).toBe(
      'printed \'additionalContext\', which is not read — did you mean \'context\'? (Hermes reads {"context": "…"})',
    );
    expect(problem('post_tool_call', { action: 'block' })).toEqual({
      message: "answered 'block', which post_tool_call does not honour (it honours: nothing — observer only)",
      failsClosed: false,
      lost: true,
    });
    // Another event's own word, most likely one script serving several: said, not counted.
    expect(problem('post_tool_call', { action: 'rewrite', text: 'X' })).toMatchObject({ lost: false });
    expect(problem('post_tool_call', { action: 'allow' })).toBeNull();
    expect(problem('pre_tool_call', { context: 'x' })?.message).toBe(
      "answered 'context', which pre_tool_call does not honour (it honours: block, modify, approve)",
    );
    expect(problem('pre_gateway_dispatch', { action: 'Skip' })?.message).toBe(
      "answered 'Skip', which pre_gateway_dispatch does not read — did you mean 'skip'?",
    );
  });
});

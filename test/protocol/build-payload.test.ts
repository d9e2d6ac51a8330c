import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/events.js';
import { buildPayload } from '../../src/protocol/build-payload.js';
import { EVENT_PAYLOAD_SCHEMAS, WIRE_PAYLOAD_KEYS, WirePayloadSchema } from '../../src/protocol/payload.js';
import { serializePayload } from '../../src/protocol/serialize.js';

const CTX = { cwd: '/work/repo', profile: 'default' };

describe('buildPayload (§3.1)', () => {
  it('puts the seven keys in wire order and the other kwargs in extra, in kwarg order', () => {
    const p = buildPayload(
      'pre_tool_call',
      { task_id: 't1', tool_name: 'terminal', args: { command: 'ls' }, session_id: 's1', tool_call_id: 'c1', turn_id: 'u1' },
      CTX,
    );
    expect(Object.keys(p)).toEqual([...WIRE_PAYLOAD_KEYS]);
    expect(p).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'ls' },
      session_id: 's1',
      cwd: '/work/repo',
      profile: 'default',
      extra: { task_id: 't1', tool_call_id: 'c1', turn_id: 'u1' },
    });
    expect(Object.keys(p.extra)).toEqual(['task_id', 'tool_call_id', 'turn_id']);
  });

  it('tool_input is args only when args is an object', () => {
    const ti = (args: unknown) => buildPayload('pre_tool_call', { tool_name: 'x', args }, CTX).tool_input;
    expect(ti({ a: 1 })).toEqual({ a: 1 });
    expect(ti({})).toEqual({});
    expect(ti(['a'])).toBeNull();
    expect(ti('a')).toBeNull();
    expect(ti(null)).toBeNull();
    expect(ti(undefined)).toBeNull();
    expect(ti(new Map([['a', 1]]))).toBeNull();
  });

  it('session_id falls back to parent_session_id, then ""; parent_session_id never reaches extra', () => {
    const sid = (kw: Record<string, unknown>) => buildPayload('subagent_stop', kw, CTX);
    expect(sid({ session_id: 's', parent_session_id: 'p' })).toMatchObject({ session_id: 's', extra: {} });
    expect(sid({ session_id: '', parent_session_id: 'p' })).toMatchObject({ session_id: 'p', extra: {} });
    expect(sid({ session_id: null, parent_session_id: 'p', child_role: null })).toMatchObject({
      session_id: 'p',
      extra: { child_role: null },
    });
    expect(sid({ parent_session_id: '' })).toMatchObject({ session_id: '', extra: {} });
    expect(sid({})).toMatchObject({ session_id: '', extra: {} });
  });

  it('tool_name is verbatim, null when absent', () => {
    expect(buildPayload('pre_llm_call', { user_message: 'hi' }, CTX).tool_name).toBeNull();
    expect(buildPayload('post_tool_call', { tool_name: 'read_file' }, CTX).tool_name).toBe('read_file');
  });

  it('an arg named tool_input or hook_event_name stays in extra (kwargs are not wire keys)', () => {
    const p = buildPayload('pre_tool_call', { tool_name: 'x', tool_input: { a: 1 }, hook_event_name: 'spoof' }, CTX);
    expect(p.hook_event_name).toBe('pre_tool_call');
    expect(p.tool_input).toBeNull();
    expect(p.extra).toEqual({ tool_input: { a: 1 }, hook_event_name: 'spoof' });
  });

  it('does not mutate kwargs and keeps a __proto__ kwarg as plain data', () => {
    const kwargs = JSON.parse('{"tool_name":"x","__proto__":{"polluted":1},"n":1}') as Record<string, unknown>;
    const copy = structuredClone(kwargs);
    const p = buildPayload('pre_tool_call', kwargs, CTX);
    expect(kwargs).toEqual(copy);
    expect(Object.keys(p.extra)).toEqual(['__proto__', 'n']);
    expect(JSON.parse(serializePayload(p)).extra).toEqual(JSON.parse('{"__proto__":{"polluted":1},"n":1}'));
  });

  it('validates against the payload schemas for every event', () => {
    for (const event of EVENT_NAMES) {
      const p = buildPayload(event, { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's', x: 1 }, CTX);
      expect(WirePayloadSchema.safeParse(p).success).toBe(true);
      expect(EVENT_PAYLOAD_SCHEMAS[event].safeParse(p).success).toBe(true);
      const other = event === 'pre_tool_call' ? 'post_tool_call' : 'pre_tool_call';
      expect(EVENT_PAYLOAD_SCHEMAS[other].safeParse(p).success).toBe(false);
    }
  });

  it('a tool event without a tool name is not a valid tool payload', () => {
    const p = buildPayload('pre_tool_call', {}, CTX);
    expect(WirePayloadSchema.safeParse(p).success).toBe(false);
    expect(WirePayloadSchema.safeParse(buildPayload('pre_llm_call', {}, CTX)).success).toBe(true);
  });
});

describe('the serialized payload, read by real hooks', () => {
  const payload = buildPayload(
    'pre_tool_call',
    { tool_name: 'write_file', args: { path: 'notes/日本語.md', content: 'naïve — ✓ 😀' }, session_id: 's', ratio: NaN },
    CTX,
  );
  const text = serializePayload(payload);

  it('is strict JSON with Python spacing, raw UTF-8 and no trailing newline', () => {
    expect(text.startsWith('{"hook_event_name": "pre_tool_call", "tool_name": "write_file", "tool_input": {"path": ')).toBe(true);
    expect(text).toContain('"notes/日本語.md"');
    expect(text).toContain('"ratio": null');
    expect(text.endsWith('}')).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...payload, extra: { ratio: null } });
  });

  it('python3 json.load(sys.stdin) reads it, keys in order', () => {
    const res = spawnSync(
      'python3',
      ['-c', 'import json,sys; p=json.load(sys.stdin); print(json.dumps([list(p), p["tool_input"]["content"]], ensure_ascii=False))'],
      { input: text, encoding: 'utf8' },
    );
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([[...WIRE_PAYLOAD_KEYS], 'naïve — ✓ 😀']);
  });

  it('a bash hook can pick fields out of it with grep/sed as it could from Hermes (": " spacing)', () => {
    const res = spawnSync('bash', ['-c', `grep -o '"tool_name": "[^"]*"' | sed 's/.*: //'`], { input: text, encoding: 'utf8' });
    expect(res.stdout.trim()).toBe('"write_file"');
  });
});

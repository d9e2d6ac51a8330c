import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchingEntries, parseAllowlist, serializeAllowlist, withApprovals, withoutCommand, type NewApproval } from '../../src/consent/allowlist.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/consent/hermes-allowlist.json');

const approval = (event: string, command: string): NewApproval => ({
  event,
  command,
  approved_at: '2026-01-01T00:00:00Z',
  script_mtime_at_approval: null,
  script_sha256: 'a'.repeat(64),
  script_path: command,
});

describe('parseAllowlist: as tolerant as Hermes', () => {
  it('reads a Hermes-written file with unknown entry and top-level keys', () => {
    const { doc, problem, ignoredEntries } = parseAllowlist(readFileSync(FIXTURE, 'utf8'));
    expect(problem).toBeNull();
    expect(ignoredEntries).toBe(0);
    expect(doc.approvals).toHaveLength(2);
    expect(doc.approvals[0]).toMatchObject({ event: 'pre_tool_call', command: '/opt/hooks/guard.sh', note: 'approved by ops' });
    expect(doc.extra).toEqual({ meta: { b: [3, 2, 1], a: 'café' }, version: 1 });
  });

  it.each([
    ['empty text', ''],
    ['trailing comma', '{"approvals": [{"event": "e", "command": "c"},]}'],
    ['trailing junk', '{"approvals": []} junk'],
    ['a comment', '// hi\n{"approvals": []}'],
  ])('%s → empty, problem invalid_json', (_name, text) => {
    expect(parseAllowlist(text)).toEqual({ doc: { approvals: [], extra: {} }, problem: 'invalid_json', ignoredEntries: 0 });
  });

  it('strips a UTF-8 BOM and reads the file (documented choice; Hermes V4 would see it as empty)', () => {
    const { doc, problem } = parseAllowlist('\uFEFF{"approvals": [{"event": "e", "command": "c"}]}');
    expect(problem).toBeNull();
    expect(doc.approvals).toEqual([{ event: 'e', command: 'c' }]);
  });

  it.each([['[]'], ['"text"'], ['42'], ['null']])('non-object root %s → empty, problem not_an_object', (text) => {
    expect(parseAllowlist(text)).toMatchObject({ doc: { approvals: [], extra: {} }, problem: 'not_an_object' });
  });

  it('approvals that is not a list → [] (other keys kept); a missing key is no problem', () => {
    expect(parseAllowlist('{"approvals": {"e": "c"}, "k": 1}')).toMatchObject({
      doc: { approvals: [], extra: { k: 1 } },
      problem: 'approvals_not_a_list',
    });
    expect(parseAllowlist('{"k": 1}')).toMatchObject({ doc: { approvals: [], extra: { k: 1 } }, problem: null });
  });

  it('ignores entries that are not objects and counts them', () => {
    const { doc, ignoredEntries } = parseAllowlist('{"approvals": ["x", 1, null, [], {"event": "e", "command": "c"}]}');
    expect(doc.approvals).toEqual([{ event: 'e', command: 'c' }]);
    expect(ignoredEntries).toBe(4);
  });

  it('a path-keyed file approves nothing (#31482)', () => {
    const { doc } = parseAllowlist('{"/opt/h.sh": {"sha256": "ab"}}');
    expect(matchingEntries(doc.approvals, 'pre_tool_call', '/opt/h.sh')).toEqual([]);
  });
});

describe('matchingEntries: exact (event, command)', () => {
  const entries = [
    { event: 'pre_tool_call', command: '/x.sh ' },
    { event: 'pre_tool_call', command: '~/x.sh' },
    { event: 'post_tool_call', command: '/x.sh' },
    { event: 'pre_tool_call', command: '/x.sh', extra: true },
  ];
  it('matches only identical strings: no trimming, no ~ expansion, event must match', () => {
    expect(matchingEntries(entries, 'pre_tool_call', '/x.sh')).toEqual([entries[3]]);
    expect(matchingEntries(entries, 'pre_tool_call', '/root/x.sh')).toEqual([]);
    expect(matchingEntries(entries, 'on_session_start', '/x.sh')).toEqual([]);
  });
});

describe('serializeAllowlist: what Python json.dumps(indent=2, sort_keys=True) writes', () => {
  it('sorts keys at every level, indents by 2, escapes non-ASCII, ends with a newline', () => {
    const text = serializeAllowlist({
      approvals: [{ event: 'e', command: 'écho ☃ 😀', approved_at: 't', z: { b: 1, a: 2 } }],
      extra: { zeta: [], alpha: {} },
    });
    expect(text).toBe(
      [
        '{',
        '  "alpha": {},',
        '  "approvals": [',
        '    {',
        '      "approved_at": "t",',
        '      "command": "\\u00e9cho \\u2603 \\ud83d\\ude00",',
        '      "event": "e",',
        '      "z": {',
        '        "a": 2,',
        '        "b": 1',
        '      }',
        '    }',
        '  ],',
        '  "zeta": []',
        '}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(text).approvals[0].command).toBe('écho ☃ 😀');
  });

  it('round-trips the Hermes fixture without losing anything', () => {
    const original = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const again = JSON.parse(serializeAllowlist(parseAllowlist(readFileSync(FIXTURE, 'utf8')).doc));
    expect(again).toEqual(original);
  });

  it('keeps a "__proto__" key as a plain key', () => {
    const { doc } = parseAllowlist('{"__proto__": {"x": 1}, "approvals": [{"__proto__": 2, "event": "e", "command": "c"}]}');
    const back = serializeAllowlist(doc);
    expect(back).toContain('"__proto__": {');
    expect(back).toContain('"__proto__": 2');
    expect(Object.getPrototypeOf(JSON.parse(back))).toBe(Object.prototype);
  });
});

describe('withApprovals / withoutCommand', () => {
  it('approving replaces every entry of the pair and appends at the end, leaving others alone', () => {
    const doc = {
      approvals: [
        { event: 'pre_tool_call', command: '/a.sh', old: 1 },
        { event: 'post_tool_call', command: '/a.sh' },
        { event: 'pre_tool_call', command: '/a.sh', old: 2 },
        { event: 'pre_tool_call', command: '/b.sh' },
      ],
      extra: { keep: true },
    };
    const next = withApprovals(doc, [approval('pre_tool_call', '/a.sh')]);
    expect(next.extra).toEqual({ keep: true });
    expect(next.approvals).toEqual([
      { event: 'post_tool_call', command: '/a.sh' },
      { event: 'pre_tool_call', command: '/b.sh' },
      approval('pre_tool_call', '/a.sh'),
    ]);
    expect(doc.approvals).toHaveLength(4); // input untouched
  });

  it('revoking removes the command under every event and counts', () => {
    const doc = {
      approvals: [
        { event: 'pre_tool_call', command: '/a.sh' },
        { event: 'post_tool_call', command: '/a.sh' },
        { event: 'pre_tool_call', command: '/a.sh ' },
        { event: 'pre_tool_call', command: '/b.sh' },
      ],
      extra: {},
    };
    const { doc: next, removed } = withoutCommand(doc, '/a.sh');
    expect(removed).toBe(2);
    expect(next.approvals.map((e) => e.command)).toEqual(['/a.sh ', '/b.sh']);
  });
});

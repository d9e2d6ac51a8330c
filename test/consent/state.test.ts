import { describe, expect, it } from 'vitest';
import type { ScriptInfo } from '../../src/consent/script-info.js';
import { consentOf, formatDrift } from '../../src/consent/state.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const spec = { event: 'pre_tool_call', command: 'bash /p/h.sh' };
const script = (over: Partial<ScriptInfo> = {}): ScriptInfo => ({
  command: spec.command,
  token: '/p/h.sh',
  path: '/p/h.sh',
  kind: 'script',
  note: null,
  found: true,
  sha256: A,
  mtime: '2025-05-01T00:00:00Z',
  error: null,
  identity: null,
  settled: false,
  runs: [],
  untrusted: null,
  named: [],
  unfollowable: null,
  ...over,
});
const entry = (over: Record<string, unknown> = {}) => ({
  event: spec.event,
  command: spec.command,
  approved_at: '2025-05-02T00:00:00Z',
  script_mtime_at_approval: '2025-05-01T00:00:00Z',
  script_sha256: A,
  script_path: '/p/h.sh',
  ...over,
});

describe('consentOf', () => {
  it('no entry → not_approved, saying so', () => {
    const info = consentOf(spec, [], script());
    expect(info).toEqual({
      state: 'not_approved',
      approved_at: null,
      pinned: false,
      script_path: '/p/h.sh',
      script_note: null,
      script_sha256: A,
      approved_sha256: null,
      script_mtime: '2025-05-01T00:00:00Z',
      approved_mtime: null,
      mtime_drift: null,
      allowlist_error: null,
      untrusted: null,
      reason: 'not approved: the allowlist has no entry for this event and command',
    });
  });

  it('an entry for another event or a differently spelled command does not approve', () => {
    expect(consentOf(spec, [entry({ event: 'post_tool_call' })], script()).state).toBe('not_approved');
    expect(consentOf(spec, [entry({ command: 'bash /p/h.sh ' })], script()).state).toBe('not_approved');
  });

  it('same hash → approved and pinned', () => {
    const info = consentOf(spec, { approvals: [entry()], extra: {} }, script());
    expect(info).toMatchObject({ state: 'approved', pinned: true, approved_at: '2025-05-02T00:00:00Z', approved_sha256: A, mtime_drift: false });
    expect(info.reason).toContain('still has the approved sha256 aaaaaaaaaaaa');
  });

  it('a different hash → modified, naming both hashes', () => {
    const info = consentOf(spec, [entry()], script({ sha256: B, mtime: '2025-06-01T00:00:00.5Z' }));
    expect(info).toMatchObject({ state: 'modified', pinned: true, approved_sha256: A, script_sha256: B, mtime_drift: true });
    expect(info.reason).toBe('modified since approval: /p/h.sh changed (sha256 aaaaaaaaaaaa… at approval 2025-05-02T00:00:00Z, now bbbbbbbbbbbb…)');
  });

  it('a pinned script that is now missing → modified', () => {
    const info = consentOf(spec, [entry()], script({ found: false, sha256: null, mtime: null, error: 'ENOENT: no such file' }));
    expect(info.state).toBe('modified');
    expect(info.reason).toContain('/p/h.sh is missing or unreadable now (ENOENT: no such file)');
  });

  it('says when the script now resolves elsewhere', () => {
    const info = consentOf(spec, [entry({ script_path: '/old/h.sh' })], script({ sha256: B }));
    expect(info.reason).toMatch(/; it was \/old\/h\.sh when approved$/);
  });

  it('a Hermes approval (no script_sha256 key) is unpinned — it runs as under Hermes — even when the script changed or vanished', () => {
    const hermes = { event: spec.event, command: spec.command, approved_at: '2025-05-02T00:00:00Z', script_mtime_at_approval: '2025-05-01T00:00:00Z' };
    const changed = consentOf(spec, [hermes], script({ sha256: B, mtime: '2025-05-03T00:00:00Z' }));
    expect(changed).toMatchObject({ state: 'unpinned', pinned: false, approved_sha256: null, mtime_drift: true });
    expect(changed.reason).toBe(
      'unpinned: approved 2025-05-02T00:00:00Z without a script hash (by Hermes or by hand), so any content of /p/h.sh runs — re-approve to pin it; ' +
        'script modified since approval (was 2025-05-01T00:00:00Z, now 2025-05-03T00:00:00Z)',
    );
    const gone = consentOf(spec, [hermes], script({ found: false, sha256: null, mtime: null }));
    expect(gone).toMatchObject({ state: 'unpinned', pinned: false, mtime_drift: null });
    const bare = consentOf(spec, [{ event: spec.event, command: spec.command }], script());
    expect(bare).toMatchObject({ state: 'unpinned', pinned: false, approved_at: null });
  });

  it('a null or empty hash in an entry this tool wrote (it has script_sha256 / script_path keys) is modified', () => {
    expect(consentOf(spec, [entry({ script_sha256: null })], script({ sha256: B })).state).toBe('modified');
    expect(consentOf(spec, [entry({ script_sha256: '' })], script({ sha256: B })).state).toBe('modified');
    const pathOnly = { event: spec.event, command: spec.command, script_path: '/p/h.sh' };
    expect(consentOf(spec, [pathOnly], script()).state).toBe('modified');
  });

  it('a refused allowlist approves nothing, and says why', () => {
    const info = consentOf(spec, [entry()], script(), { allowlistError: 'shell hook allowlist /h/a.json is refused: it is a FIFO' });
    expect(info).toMatchObject({
      state: 'not_approved',
      allowlist_error: 'shell hook allowlist /h/a.json is refused: it is a FIFO',
      reason: 'not approved: shell hook allowlist /h/a.json is refused: it is a FIFO',
    });
  });

  it('hash comparison ignores hex case', () => {
    expect(consentOf(spec, [entry({ script_sha256: A.toUpperCase() })], script()).state).toBe('approved');
  });

  it('with hand-made duplicates, any entry that still holds approves', () => {
    expect(consentOf(spec, [entry({ script_sha256: B }), entry()], script()).state).toBe('approved');
    expect(consentOf(spec, [entry({ script_sha256: B }), entry({ script_sha256: undefined })], script()).pinned).toBe(false);
    expect(consentOf(spec, [entry({ script_sha256: B }), entry({ script_sha256: 'c'.repeat(64) })], script()).state).toBe('modified');
  });

  it('mtime drift follows Hermes: newer → true, equal → false, older or unknown → null', () => {
    expect(consentOf(spec, [entry()], script({ mtime: '2025-05-01T00:00:00.000001Z' })).mtime_drift).toBe(true);
    expect(consentOf(spec, [entry({ script_mtime_at_approval: '2025-05-01T00:00:00+00:00' })], script()).mtime_drift).toBe(false);
    expect(consentOf(spec, [entry()], script({ mtime: '2025-04-01T00:00:00Z' })).mtime_drift).toBeNull();
    expect(consentOf(spec, [entry({ script_mtime_at_approval: null })], script()).mtime_drift).toBeNull();
  });

  it('a bare command not on PATH reports its name as the script path', () => {
    const info = consentOf({ event: 'e', command: 'jq .' }, [], {
      ...script(),
      command: 'jq .',
      token: 'jq',
      path: null,
      found: false,
      sha256: null,
      mtime: null,
      error: 'not found on PATH',
    });
    expect(info.script_path).toBe('jq');
  });
});

describe('formatDrift', () => {
  it('uses the Hermes list/doctor wording', () => {
    expect(formatDrift({ mtime_drift: true, approved_mtime: 'A', script_mtime: 'B' })).toBe('script modified since approval (was A, now B)');
    expect(formatDrift({ mtime_drift: false, approved_mtime: 'A', script_mtime: 'A' })).toBeNull();
  });
});

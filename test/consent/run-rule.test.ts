import { describe, expect, it } from 'vitest';
import type { ConsentState } from '../../src/types.js';
import { acceptsUnapproved, blanketAcceptSources, whatRunDoes, type RunSubject } from '../../src/consent/run-rule.js';

const shell = (consent: ConsentState | null, failClosed = false): RunSubject => ({ kind: 'shell', consent, failClosed });
const rule = { safeMode: false, accept: false };

describe('whatRunDoes: what `run` does with one hook', () => {
  it('runs approved and unpinned (Hermes-written) approvals', () => {
    expect(whatRunDoes(shell('approved'), rule)).toEqual({ runs: true, via: 'approval' });
    expect(whatRunDoes(shell('unpinned'), rule)).toEqual({ runs: true, via: 'approval' });
  });

  it('skips an unapproved or modified hook; a fail_closed guard blocks instead', () => {
    expect(whatRunDoes(shell('not_approved'), rule)).toEqual({ runs: false, why: 'not_approved', effect: 'skipped' });
    expect(whatRunDoes(shell('modified', true), rule)).toEqual({ runs: false, why: 'modified', effect: 'blocks' });
  });

  it('blanket acceptance runs them (approved first)', () => {
    expect(whatRunDoes(shell('modified', true), { safeMode: false, accept: true })).toEqual({ runs: true, via: 'accept' });
  });

  it("safe mode runs no user hook — shell hooks and plugins — but the host's own callbacks and the built-in", () => {
    const safe = { safeMode: true, accept: true };
    expect(whatRunDoes(shell('approved'), safe)).toEqual({ runs: false, why: 'safe_mode', effect: 'skipped' });
    expect(whatRunDoes(shell('not_approved', true), safe)).toEqual({ runs: false, why: 'safe_mode', effect: 'skipped' });
    expect(whatRunDoes({ kind: 'plugin' }, safe).runs).toBe(false);
    expect(whatRunDoes({ kind: 'host' }, safe).runs).toBe(true);
    expect(whatRunDoes({ kind: 'builtin' }, safe).runs).toBe(true);
  });

  it('a shell hook that is not consent-checked runs unless safe mode holds', () => {
    expect(whatRunDoes(shell(null), rule)).toEqual({ runs: true, via: 'not_checked' });
    expect(whatRunDoes(shell(null), { safeMode: true, accept: false }).runs).toBe(false);
  });
});

describe('blanket acceptance', () => {
  const none = { env: {}, autoAccept: false, ownConfig: true };

  it('lists what asked for it, in the order messages give them', () => {
    expect(blanketAcceptSources({ acceptHooks: true, env: { HERMES_ACCEPT_HOOKS: '1' }, autoAccept: true, ownConfig: true })).toEqual([
      'hooks_auto_accept: true',
      '--accept-hooks',
      'HERMES_ACCEPT_HOOKS=1',
    ]);
    expect(blanketAcceptSources(none)).toEqual([]);
  });

  it("hooks_auto_accept counts only in the profile's own config.yaml", () => {
    expect(blanketAcceptSources({ ...none, autoAccept: true, ownConfig: false })).toEqual([]);
    expect(acceptsUnapproved({ ...none, autoAccept: true, ownConfig: false, configTrusted: true })).toBe(false);
    expect(acceptsUnapproved({ ...none, autoAccept: true, configTrusted: true })).toBe(true);
  });

  it('nothing approves blindly from an untrusted config', () => {
    expect(acceptsUnapproved({ ...none, acceptHooks: true, env: { HERMES_ACCEPT_HOOKS: '1' }, configTrusted: false })).toBe(false);
    expect(acceptsUnapproved({ ...none, env: { HERMES_ACCEPT_HOOKS: 'true' }, configTrusted: true })).toBe(true);
  });
});

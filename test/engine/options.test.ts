import { describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_OPEN_SESSIONS, DEFAULT_MAX_OUTPUT_BYTES, resolveEngineOptions } from '../../src/engine/options.js';
import { silentLogger } from '../../src/engine/logger.js';

describe('resolveEngineOptions', () => {
  it('applies every default once', () => {
    const o = resolveEngineOptions({ env: {}, cwd: '/x', logger: silentLogger, interactive: false });
    expect(o).toMatchObject({
      cwd: '/x',
      safeMode: false,
      enforceConsent: true,
      acceptHooks: false,
      interactive: false,
      promptable: false,
      concurrency: DEFAULT_CONCURRENCY,
      maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
      surface: 'cli',
      plugins: true,
      exitCleanup: true,
      outbound: true,
      events: null,
      sessionIdleMs: null,
      maxOpenSessions: DEFAULT_MAX_OPEN_SESSIONS,
    });
    expect([DEFAULT_CONCURRENCY, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_OPEN_SESSIONS]).toEqual([16, 1024 * 1024, 10_000]);
  });

  it('reads safe mode from the given environment; a host that did not say "never prompt" stays promptable', () => {
    const o = resolveEngineOptions({ env: { HERMES_SAFE_MODE: '1' }, logger: silentLogger, events: ['pre_tool_call'] });
    expect(o.safeMode).toBe(true);
    expect(o.promptable).toBe(true);
    expect(o.events?.has('pre_tool_call')).toBe(true);
    expect(o.events?.has('post_tool_call')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { parsePluginsConfig } from '../../src/plugins/config.js';

const parse = (yaml: string) => parsePluginsConfig(parseConfigText(yaml, '/h/config.yaml'));

describe('parsePluginsConfig', () => {
  it('defaults: nothing enabled, 30 s bound', () => {
    expect(parse('hooks: {}\n')).toEqual({ enabled: [], hookCallbackTimeoutMs: 30_000, diagnostics: [] });
    expect(parse('')).toEqual({ enabled: [], hookCallbackTimeoutMs: 30_000, diagnostics: [] });
  });

  it('reads plugins.enabled in order, trims, dedupes, drops disabled ones', () => {
    const r = parse('plugins:\n  enabled: [beta, " alpha ", beta, gamma]\n  disabled: [gamma]\n');
    expect(r.enabled).toEqual(['beta', 'alpha']);
    expect(r.diagnostics).toEqual([]);
  });

  it('warns with position about a non-list and non-string entries', () => {
    const r = parse('plugins:\n  enabled:\n    - ok\n    - 42\n    - ""\n');
    expect(r.enabled).toEqual(['ok']);
    expect(r.diagnostics.map((d) => [d.path, d.line])).toEqual([
      ['plugins.enabled[1]', 4],
      ['plugins.enabled[2]', 5],
    ]);
    const r2 = parse('plugins:\n  enabled: alpha\n');
    expect(r2.enabled).toEqual([]);
    expect(r2.diagnostics[0]).toMatchObject({ level: 'warning', path: 'plugins.enabled', line: 2, column: 12, file: '/h/config.yaml' });
  });

  it.each([
    ['45', 45_000, 0],
    ['"45"', 45_000, 0],
    ['2.5', 2_500, 0],
    ['0', null, 0],
    ['600', 600_000, 0],
    ['601', 600_000, 1],
    ['-5', 30_000, 1],
    ['soon', 30_000, 1],
    ['true', 30_000, 1],
    ['.inf', 30_000, 1],
    ['null', 30_000, 0],
  ])('hook_callback_timeout: %s → %s ms (%i warnings)', (value, ms, warnings) => {
    const r = parse(`plugins:\n  hook_callback_timeout: ${value}\n`);
    expect(r.hookCallbackTimeoutMs).toBe(ms);
    expect(r.diagnostics).toHaveLength(warnings);
    for (const d of r.diagnostics) expect(d).toMatchObject({ level: 'warning', path: 'plugins.hook_callback_timeout', line: 2 });
  });

  it('a non-mapping plugins key is a warning, not a crash', () => {
    const r = parse('plugins: [a, b]\n');
    expect(r.enabled).toEqual([]);
    expect(r.diagnostics.map((d) => d.message)).toEqual(['`plugins` must be a mapping; ignored']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertClaudeMatcher, convertRegexMatcher, dialectMatchesTool } from '../../src/dialects/matchers.js';
import { DEFAULT_DIALECT_MAPS as maps } from '../../src/dialects/names.js';

const fullMatch = (source: string) => (name: string) => new RegExp(`^(?:${source})$`).test(name);

describe('convertClaudeMatcher', () => {
  it.each([
    [undefined, null],
    [null, null],
    ['', null],
    ['*', null],
    ['  ', null],
    ['Bash', 'Bash'],
    ['Edit|Write', 'Edit|Write'],
    ['Edit, Write', 'Edit|Write'],
    ['Edit|MultiEdit|Write', 'Edit|MultiEdit|Write'],
    ['Notebook-Edit', 'Notebook-Edit'],
    ['mcp__memory__.*', '.*(?:mcp__memory__.*).*'],
    ['^Bash$', '.*(?:^Bash$).*'],
    ['mcp__(', 'mcp__\\('],
  ] as const)('%j → %j', (matcher, expected) => {
    expect(convertClaudeMatcher(matcher)).toBe(expected);
  });

  it('exact names stay exact: Edit does not select MultiEdit; `mcp__memory` selects nothing', () => {
    expect(fullMatch(convertClaudeMatcher('Edit')!)('MultiEdit')).toBe(false);
    expect(fullMatch(convertClaudeMatcher('mcp__memory')!)('mcp__memory__store')).toBe(false);
    expect(fullMatch(convertClaudeMatcher('mcp__memory__.*')!)('mcp__memory__store')).toBe(true);
  });

  it('a regex matcher selects exactly the names Claude selects with an unanchored test', () => {
    const names = ['Bash', 'Read', 'Edit', 'MultiEdit', 'Write', 'mcp__memory__store', 'mcp__github__create_issue', 'WebFetch', 'a.b', ''];
    const regexes = ['mcp__.*', '^Bash$', 'Edit$', 'Web.+', '^mcp__(memory|fs)__', 'a\\.b', '.*', 'e'];
    fc.assert(
      fc.property(fc.constantFrom(...regexes), fc.constantFrom(...names), (m, name) => {
        const claude = /^[A-Za-z0-9_ ,|-]+$/.test(m)
          ? m
              .split(/[|,]/)
              .map((s) => s.trim())
              .includes(name)
          : new RegExp(m).test(name);
        expect(fullMatch(convertClaudeMatcher(m)!)(name)).toBe(claude);
      }),
    );
  });
});

describe('convertRegexMatcher (Codex, Gemini, Qwen)', () => {
  it('keeps the unanchored meaning: Bash also selects BashOutput', () => {
    expect(convertRegexMatcher('Bash')).toBe('.*(?:Bash).*');
    expect(fullMatch(convertRegexMatcher('Bash')!)('BashOutput')).toBe(true);
    expect(convertRegexMatcher('*')).toBeNull();
    expect(convertRegexMatcher('write_file|replace')).toBe('.*(?:write_file|replace).*');
    // Gemini falls back to exact equality when the regex does not compile.
    expect(convertRegexMatcher('run_shell_command(')).toBe('run_shell_command\\(');
  });
});

describe('dialectMatchesTool', () => {
  const test = (source: string | null) => (source === null ? () => true : fullMatch(source));
  it('a dialect hook may name the tool the agent way or ours', () => {
    expect(dialectMatchesTool('claude', maps, test('Bash'), 'terminal')).toBe(true);
    expect(dialectMatchesTool('claude', maps, test('terminal'), 'terminal')).toBe(true);
    expect(dialectMatchesTool('claude', maps, test('Edit|Write'), 'patch')).toBe(true);
    expect(dialectMatchesTool('claude', maps, test('Edit|Write'), 'write_file')).toBe(true);
    expect(dialectMatchesTool('claude', maps, test('Bash'), 'read_file')).toBe(false);
    expect(dialectMatchesTool('claude', maps, test('.*(?:mcp__memory__.*).*'), 'mcp_memory_store')).toBe(true);
    expect(dialectMatchesTool('gemini', maps, test('.*(?:write_file|replace).*'), 'patch')).toBe(true);
  });

  it('Codex aliases: Write selects apply_patch, i.e. our patch (not write_file)', () => {
    expect(dialectMatchesTool('codex', maps, test('Write'), 'patch')).toBe(true);
    expect(dialectMatchesTool('claude', maps, test('Write'), 'patch')).toBe(false);
  });

  it('hermes hooks only know our names; no tool name never matches', () => {
    expect(dialectMatchesTool('hermes', maps, test('Bash'), 'terminal')).toBe(false);
    expect(dialectMatchesTool('claude', maps, test('.*'), null)).toBe(false);
  });
});

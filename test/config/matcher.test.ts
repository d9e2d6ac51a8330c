import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../../src/config/matcher.js';
import { runPython } from '../_python.js';

describe('compileMatcher', () => {
  it('no matcher matches everything, even without a tool name', () => {
    const m = compileMatcher(null);
    expect(m).toMatchObject({ source: null, literal: false, error: null });
    for (const name of ['terminal', '', undefined, null, 42]) expect(m.test(name)).toBe(true);
    expect(compileMatcher('   ').source).toBeNull();
    expect(compileMatcher('   ').test(undefined)).toBe(true);
  });

  it('with a matcher, a missing or non-string tool name never matches', () => {
    const m = compileMatcher('.*');
    for (const name of [undefined, null, 42, ['terminal'], { name: 'terminal' }]) expect(m.test(name)).toBe(false);
    expect(m.test('')).toBe(true);
  });

  it('must match the whole tool name', () => {
    const m = compileMatcher('terminal|file');
    expect(m.test('terminal')).toBe(true);
    expect(m.test('file')).toBe(true);
    expect(m.test('terminal_extra')).toBe(false);
    expect(m.test('my_file')).toBe(false);
    const w = compileMatcher('write_file|patch');
    expect(w.test('write_files')).toBe(false);
    expect(compileMatcher('terminal').test('terminal2')).toBe(false);
    expect(compileMatcher('term').test('terminal')).toBe(false);
  });

  it('tries alternatives until the whole name matches (fullmatch, not first match)', () => {
    expect(compileMatcher('a|ab').test('ab')).toBe(true);
    expect(compileMatcher('mcp_.*|web_search').test('mcp_github_create_issue')).toBe(true);
  });

  it('trims the pattern and caches compiled matchers', () => {
    expect(compileMatcher(' terminal\n').source).toBe('terminal');
    expect(compileMatcher(' terminal\n').test('terminal')).toBe(true);
    expect(compileMatcher('terminal')).toBe(compileMatcher('terminal'));
  });

  it.each([
    ['(?P<tool>read|write)_file', 'read_file', true],
    ['(?P<x>ab)(?P=x)', 'abab', true],
    ['(?P<x>ab)(?P=x)', 'abba', false],
    ['(?i)TERMINAL', 'terminal', true],
    ['(?i)(?s)a.b', 'A\nb', true],
    ['a.b', 'a\nb', false],
    ['\\Aterminal\\Z', 'terminal', true],
    ['terminal$', 'terminal', true],
    ['(?m)^terminal$', 'terminal', true],
    ['(?x) term  inal  # the terminal tool', 'terminal', true],
    ['(?x)[ ]x', ' x', true],
    ['x{,2}', 'xx', true],
    ['x{,2}', 'xxx', false],
    ['x{,}', 'xxxx', true],
    ['\\x41\\u0042\\U00000043', 'ABC', true],
    ['\\101', 'A', true],
    ['a(?#comment)b', 'ab', true],
    ['[]a]+', ']a]', true],
    ['[^]a]', 'b', true],
    ['a\\-b', 'a-b', true],
    ['(a)\\1', 'aa', true],
  ])('translates Python syntax: %s on %j → %s', (pattern, name, expected) => {
    const m = compileMatcher(pattern);
    expect(m.error).toBeNull();
    expect(m.literal).toBe(false);
    expect(m.test(name)).toBe(expected);
  });

  it.each([
    ['write_file(', /unterminated|Unterminated/],
    ['[abc', /unterminated character set/],
    ['\\q', /bad escape \\q at position 0/],
    ['a\\1', /invalid group reference 1/],
    ['(?P=nope)', /unknown group name 'nope'/],
    ['a(?i)b', /global flags not at the start of the expression at position 1/],
    ['(?i:ab)', /scoped inline flags/],
    ['*x', /Nothing to repeat|nothing to repeat/],
    ['(?<n>x)', /unknown extension \?<n/],
    ['\\x4', /incomplete escape \\x4/],
  ])('falls back to literal equality for %s', (pattern, error) => {
    const m = compileMatcher(pattern);
    expect(m.literal).toBe(true);
    expect(m.error).toMatch(error);
    expect(m.test(pattern)).toBe(true);
    expect(m.test(`${pattern}x`)).toBe(false);
  });

  it('agrees with Python re.fullmatch (after Hermes strips the matcher) on what compiles and what matches', () => {
    const patterns = [
      'terminal',
      'terminal|file',
      'write_file|patch',
      'mcp_.*',
      'mcp__github__.+',
      '(read|write)_file',
      '(?P<t>read|write)_file',
      '(?P<x>a)(?P=x)',
      '(?i)Terminal',
      '(?s).+',
      '.+',
      '(?m)^x$',
      '^terminal$',
      'terminal$',
      'a$\\n',
      '\\Aweb_.*\\Z',
      '\\w+',
      '\\d{2,}',
      '[a-z_]+',
      '[]x]',
      '[^]x]+',
      'x{,2}',
      'x{2,}',
      '(?x) web _ search',
      '\\x77eb',
      '\\0',
      '\\141b',
      'a{3,2}',
      'write_file(',
      '[abc',
      '\\q',
      '\\1',
      '(a)\\2',
      '(?P=x)',
      '*x',
      'a**',
      'a(?i)b',
      '(?z)',
      '(?<n>x)',
      '(?<=a)b',
      '(?!x).+',
      '\\x4',
      'tool\\.run',
      'a\\-b',
      '\\ ',
      '\\ x',
      '{',
      'a{',
      'a}',
      ']',
      '',
      'a|',
      '()',
      '\\b\\w+\\b',
      '[\\s\\S]+',
      '\\ufffd',
      'é+',
      '(?a)\\w+',
    ];
    const names = [
      'terminal',
      'file',
      'write_file',
      'read_file',
      'mcp_x',
      'mcp__github__pr',
      'Terminal',
      'a\nb',
      'x',
      'x\n',
      'xx',
      'xxx',
      'aa',
      'a',
      'ab',
      'b',
      'a\n',
      'web_search',
      'web',
      '12',
      ']',
      ']x]',
      '\0',
      'ab',
      'tool.run',
      'toolxrun',
      'a-b',
      ' ',
      '{',
      'a{',
      'a}',
      '',
      'éé',
      '\ufffd',
      'write_file(',
      '[abc',
      'z_ok',
    ];
    const py = runPython<{ ok: boolean; matches: boolean[] }[]>(
      [
        'import json, re, sys, warnings',
        'warnings.simplefilter("ignore")',
        'd = json.load(sys.stdin)',
        'out = []',
        'for p in d["patterns"]:',
        '    p = p.strip()  # Hermes strips the matcher before compiling it',
        '    try:',
        '        r = re.compile(p)',
        '        out.append({"ok": True, "matches": [r.fullmatch(n) is not None for n in d["names"]]})',
        '    except re.error:',
        '        out.append({"ok": False, "matches": [n == p for n in d["names"]]})',
        'json.dump(out, sys.stdout)',
      ].join('\n'),
      { patterns, names },
    );
    patterns.forEach((pattern, k) => {
      const m = compileMatcher(pattern);
      const expected = py[k] as { ok: boolean; matches: boolean[] };
      if (pattern.trim() === '') return; // our matcher treats blank as "no matcher", as the config parser does
      expect({ pattern, compiled: !m.literal }).toEqual({ pattern, compiled: expected.ok });
      expect({ pattern, matches: names.map((n) => m.test(n)) }).toEqual({ pattern, matches: expected.matches });
    });
  });
});

import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../../src/config/matcher.js';
import { didYouMean, isTruthyEnv, parseAutoAccept, parseHooksConfig } from '../../src/config/hooks.js';
import { parseConfigText } from '../../src/config/source.js';
import { SORTED_EVENT_NAMES } from '../../src/events.js';
import type { Diagnostic } from '../../src/types.js';

const FILE = '/profiles/work/config.yaml';
const parse = (...lines: string[]) => parseHooksConfig(parseConfigText(lines.join('\n'), FILE));

/** The one diagnostic at `path` (fails when there is none or several). */
function diagAt(diags: Diagnostic[], path: string): Diagnostic {
  const found = diags.filter((d) => d.path === path);
  expect(found, `diagnostics at ${path}: ${JSON.stringify(diags, null, 1)}`).toHaveLength(1);
  return found[0] as Diagnostic;
}

describe('parseHooksConfig — the shape around hooks:', () => {
  it.each([
    ['an empty file', ''],
    ['a comment only', '# nothing here'],
    ['no hooks key', 'model: gpt-4'],
    ['hooks: null', 'hooks:'],
    ['an empty hooks mapping', 'hooks: {}'],
  ])('%s → zero hooks and no diagnostic', (_name, text) => {
    const r = parseHooksConfig(parseConfigText(text, FILE));
    expect(r.specs).toEqual([]);
    expect(r.diagnostics).toEqual([]);
    expect(r.autoAccept).toBe(false);
  });

  // Every hook written there is lost, so each is an error (validate exits 1), not a silent "no hooks".
  it.each([
    ['hooks as a string', 'hooks: pre_tool_call', 1, 8, 'str'],
    ['hooks as a list', 'hooks:\n  - pre_tool_call:\n      - command: /g.sh', 2, 3, 'list'],
    ['hooks as a number', 'hooks: 3', 1, 8, 'int'],
  ])('%s → zero hooks and an error at hooks', (_name, text, line, column, pytype) => {
    const r = parseHooksConfig(parseConfigText(text, FILE));
    expect(r.specs).toEqual([]);
    expect(r.diagnostics).toEqual([
      {
        level: 'error',
        path: 'hooks',
        line,
        column,
        message: `must be a mapping of event name to a list of hooks (hooks: {pre_tool_call: [{command: …}]}); got ${pytype} — none of its hooks are registered`,
        file: FILE,
      },
    ]);
  });

  it.each([
    ['a list at the root', '- hooks: {}', 'list'],
    ['a string at the root', 'just text', 'str'],
  ])('%s → zero hooks and an error for the whole file', (_name, text, pytype) => {
    const r = parseHooksConfig(parseConfigText(text, FILE));
    expect(r.specs).toEqual([]);
    expect(r.diagnostics).toEqual([
      {
        level: 'error',
        path: '',
        line: 1,
        column: 1,
        message: `the config must be a mapping of sections (hooks:, model: …); got ${pytype} — no hook is read from it`,
        file: FILE,
      },
    ]);
  });

  it('passes a YAML syntax error through as the only diagnostic', () => {
    const source = parseConfigText('hooks:\n  pre_tool_call: [\n', FILE);
    expect(source.syntaxError).not.toBeNull();
    const r = parseHooksConfig(source);
    expect(r).toEqual({ strict: false, refused: [], specs: [], diagnostics: [source.syntaxError], autoAccept: false, foreign: [] });
  });

  it('reads a full valid entry with its position and defaults', () => {
    const r = parse(
      'model: gpt-4',
      'hooks:',
      '  pre_tool_call:',
      '    - command: /opt/hooks/guard.sh',
      '      matcher: terminal',
      '      timeout: 10',
      '      fail_closed: true',
      '  on_session_start:',
      '    - command: ~/hooks/hello.py',
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.specs).toEqual([
      {
        event: 'pre_tool_call',
        command: '/opt/hooks/guard.sh',
        matcher: 'terminal',
        timeout: 10,
        fail_closed: true,
        dialect: 'hermes',
        index: 0,
        path: 'hooks.pre_tool_call[0]',
        line: 4,
        column: 7,
      },
      {
        event: 'on_session_start',
        command: '~/hooks/hello.py',
        matcher: null,
        timeout: 60,
        fail_closed: false,
        dialect: 'hermes',
        index: 0,
        path: 'hooks.on_session_start[0]',
        line: 9,
        column: 7,
      },
    ]);
  });

  it('keeps document order across events and entries', () => {
    const r = parse(
      'hooks:',
      '  post_tool_call:',
      '    - command: b',
      '  pre_tool_call:',
      '    - command: a2',
      '    - command: a1',
      '  pre_llm_call: [{command: c}]',
    );
    expect(r.specs.map((s) => `${s.event}:${s.command}`)).toEqual(['post_tool_call:b', 'pre_tool_call:a2', 'pre_tool_call:a1', 'pre_llm_call:c']);
  });

  it('reads hooks from flow style, anchors and merge keys like PyYAML', () => {
    const r = parse('defaults: &guard {command: /g.sh, timeout: 5}', 'hooks:', '  pre_tool_call:', '    - *guard', '    - <<: *guard', '      matcher: patch');
    expect(r.diagnostics).toEqual([]);
    expect(r.specs.map((s) => [s.command, s.matcher, s.timeout])).toEqual([
      ['/g.sh', null, 5],
      ['/g.sh', 'patch', 5],
    ]);
  });
});

describe('parseHooksConfig — event keys', () => {
  it('skips the reserved keys outbound and output_spill silently', () => {
    const r = parse('hooks:', '  outbound:', '    - url: https://example.com', '  output_spill: {max: 3}', '  pre_tool_call: [{command: x}]');
    expect(r.diagnostics).toEqual([]);
    expect(r.specs).toHaveLength(1);
  });

  it('refuses a Python-plugin-only event with Hermes wording, at the key', () => {
    const r = parse('hooks:', '  transform_api_error_classification:', '    - command: /x.sh');
    expect(r.specs).toEqual([]);
    const d = diagAt(r.diagnostics, 'hooks.transform_api_error_classification');
    expect(d).toMatchObject({ level: 'error', line: 2, column: 3, file: FILE });
    expect(d.message).toBe(
      "hook event 'transform_api_error_classification' is Python-plugin-only: shell hooks cannot return its directive, so this registration is refused rather than silently ignored",
    );
  });

  it('refuses a Python-plugin-only event even with a null value (checked before the null skip)', () => {
    const r = parse('hooks:', '  transform_api_error_classification:');
    expect(r.diagnostics.map((d) => d.path)).toEqual(['hooks.transform_api_error_classification']);
  });

  it.each([
    ['pre_tool_cal', 'pre_tool_call'],
    ['Pre_Tool_Call', 'pre_tool_call'],
    ['on_sesion_start', 'on_session_start'],
    ['post_tool', 'post_tool_call'],
    ['PRE_LLM_CALL', null],
  ])('unknown event %s → did you mean %s', (name, suggestion) => {
    const r = parse('model: x', 'hooks:', '  pre_tool_call: [{command: ok}]', `  ${name}:`, '    - command: /x.sh');
    expect(r.specs.map((s) => s.command)).toEqual(['ok']);
    const d = diagAt(r.diagnostics, `hooks.${name}`);
    expect(d).toMatchObject({ level: 'error', line: 4, column: 3 });
    if (suggestion) {
      expect(d.message).toBe(`unknown hook event '${name}' in hooks: config — did you mean '${suggestion}'?`);
    } else {
      expect(d.message).toBe(`unknown hook event '${name}' in hooks: config (valid: ${SORTED_EVENT_NAMES.join(', ')})`);
    }
  });

  it('lists every valid event, sorted, for a hopeless name', () => {
    const r = parse('hooks:', '  xyzzy: []');
    const d = diagAt(r.diagnostics, 'hooks.xyzzy');
    expect(d.message).toMatch(/^unknown hook event 'xyzzy' in hooks: config \(valid: agent_loop_stopped, api_request_error, /);
    expect(d.message.endsWith('transform_terminal_output, transform_tool_result)')).toBe(true);
  });

  it('treats non-string keys as unknown events', () => {
    const r = parse('hooks:', '  1: []', '  true: []', '  ~: []');
    expect(r.specs).toEqual([]);
    expect(r.diagnostics.map((d) => [d.path, d.line, d.column])).toEqual([
      ['hooks.1', 2, 3],
      ['hooks.true', 3, 3],
      ['hooks.null', 4, 3],
    ]);
    expect(r.diagnostics[0]?.message).toMatch(/^unknown hook event '1' in hooks: config \(valid: /);
    expect(r.diagnostics[1]?.message).toMatch(/^unknown hook event 'True' in hooks: config/);
    expect(r.diagnostics[2]?.message).toMatch(/^unknown hook event 'None' in hooks: config/);
  });

  it('skips a null event value silently', () => {
    const r = parse('hooks:', '  pre_tool_call:', '  post_tool_call: ~');
    expect(r).toEqual({ strict: false, refused: [], specs: [], diagnostics: [], autoAccept: false, foreign: [] });
  });

  it.each([
    ['a mapping', '{command: x}', 'dict — write each hook as a list item: `- command: …`'],
    ['a string', '/x.sh', 'str'],
    ['an int', '3', 'int'],
    ['a float', '2.5', 'float'],
    ['a bool', 'yes', 'bool'],
  ])('an event value that is %s is not a list: an error, its hooks are lost', (_n, value, pytype) => {
    const r = parse('hooks:', `  pre_llm_call: ${value}`, '  post_llm_call: [{command: ok}]');
    expect(r.specs.map((s) => s.command)).toEqual(['ok']);
    const d = diagAt(r.diagnostics, 'hooks.pre_llm_call');
    expect(d).toMatchObject({ level: 'error', line: 2, column: 17 });
    expect(d.message).toBe(`hooks.pre_llm_call must be a list of hook definitions; got ${pytype}`);
  });
});

describe('parseHooksConfig — entries', () => {
  it.each([
    ['a string', '"/x.sh"', 'str'],
    ['a number', '42', 'int'],
    ['a list', '[a, b]', 'list'],
    ['null', '~', 'NoneType'],
  ])('an entry that is %s is dropped; the others stay', (_n, value, pytype) => {
    const r = parse('hooks:', '  pre_tool_call:', `    - ${value}`, '    - command: ok');
    expect(r.specs.map((s) => [s.command, s.index, s.path])).toEqual([['ok', 1, 'hooks.pre_tool_call[1]']]);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0]');
    expect(d).toMatchObject({ level: 'error', line: 3, column: 7 });
    expect(d.message).toMatch(`hooks.pre_tool_call[0] must be a mapping with a 'command' key; got ${pytype}`);
  });

  it.each([
    ['missing', '    - matcher: x', 3, 7],
    ['empty', '    - command: ""', 3, 16],
    ['blank', '    - command: "  \\t "', 3, 16],
    ['a number', '    - command: 12', 3, 16],
    ['a list', '    - command: [bash, x.sh]', 3, 16],
    ['null (points just after the colon)', '    - command:', 3, 15],
  ])('a command that is %s drops the entry', (_n, line, l, c) => {
    const r = parse('hooks:', '  pre_tool_call:', line);
    expect(r.specs).toEqual([]);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0].command');
    expect(d).toMatchObject({ level: 'error', line: l, column: c });
    expect(d.message).toBe("hooks.pre_tool_call[0] is missing a non-empty 'command' field");
  });

  it('trims the command: it is the identity (edge case 8)', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: "  /x.sh  "', '    - command: "\\t/y.sh --flag\\n"');
    expect(r.specs.map((s) => s.command)).toEqual(['/x.sh', '/y.sh --flag']);
    expect(r.diagnostics).toEqual([]);
  });

  it('ignores unknown keys like Hermes, but names each one (info: nothing written is lost)', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - {command: x, blocking: true, type: command, name: n, async: false}');
    expect(r.specs).toHaveLength(1);
    const reads = '(a hook entry reads: command, matcher, timeout, fail_closed, dialect)';
    expect(r.diagnostics.map((d) => [d.level, d.path, d.column, d.message])).toEqual([
      ['info', 'hooks.pre_tool_call[0].blocking', 20, `unknown key 'blocking' is ignored ${reads}`],
      ['info', 'hooks.pre_tool_call[0].type', 36, `unknown key 'type' is ignored ${reads}`],
      ['info', 'hooks.pre_tool_call[0].name', 51, `unknown key 'name' is ignored ${reads}`],
      ['info', 'hooks.pre_tool_call[0].async', 60, `unknown key 'async' is ignored ${reads}`],
    ]);
  });

  it('one malformed entry never stops the others', () => {
    const r = parse(
      'hooks:',
      '  pre_tool_call:',
      '    - command: a',
      '      timeout: nope',
      '    - 17',
      '    - command: ""',
      '    - command: b',
      '      matcher: [1]',
      '  bogus_event: []',
      '  post_tool_call: {}',
      '  on_session_end:',
      '    - command: c',
    );
    expect(r.specs.map((s) => `${s.event}[${s.index}]`)).toEqual(['pre_tool_call[0]', 'pre_tool_call[3]', 'on_session_end[0]']);
    expect(r.diagnostics.map((d) => d.path)).toEqual([
      'hooks.pre_tool_call[0].timeout',
      'hooks.pre_tool_call[1]',
      'hooks.pre_tool_call[2].command',
      'hooks.pre_tool_call[3].matcher',
      'hooks.bogus_event',
      'hooks.post_tool_call',
    ]);
  });
});

describe('parseHooksConfig — matcher', () => {
  it('a non-string matcher is ignored with a warning; the entry is kept', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', '      matcher: 42');
    expect(r.specs.map((s) => s.matcher)).toEqual([null]);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0].matcher');
    expect(d).toMatchObject({ level: 'warning', line: 4, column: 16 });
    expect(d.message).toBe(
      'hooks.pre_tool_call[0].matcher must be a string regex; ignoring — this hook runs for every tool; write it as a string: matcher: "42"',
    );
  });

  it('a matcher on a non-tool event is dropped with the Hermes warning (even whitespace-only)', () => {
    const r = parse('hooks:', '  pre_llm_call:', '    - command: x', '      matcher: "terminal"', '    - command: y', '      matcher: "  "');
    expect(r.specs.map((s) => s.matcher)).toEqual([null, null]);
    const d = diagAt(r.diagnostics, 'hooks.pre_llm_call[0].matcher');
    expect(d).toMatchObject({ line: 4, column: 16 });
    expect(d.message).toBe(
      "hooks.pre_llm_call[0].matcher='terminal' will be ignored at runtime — the matcher field is only honored for pre_tool_call / post_tool_call.  The hook will fire on every pre_llm_call event.",
    );
    expect(diagAt(r.diagnostics, 'hooks.pre_llm_call[1].matcher').message).toMatch(/^hooks\.pre_llm_call\[1\]\.matcher=' {2}' will be ignored/);
  });

  it('trims the matcher; blank means none (edge case 5)', () => {
    const r = parse('hooks:', '  post_tool_call:', '    - command: x', '      matcher: " terminal\\n"', '    - command: y', '      matcher: "   "');
    expect(r.diagnostics).toEqual([]);
    expect(r.specs.map((s) => s.matcher)).toEqual(['terminal', null]);
    const m = compileMatcher(r.specs[0]?.matcher ?? null);
    expect(m.test('terminal')).toBe(true);
    expect(m.test('terminal2')).toBe(false);
  });

  it('an invalid regex warns and is matched literally', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', '      matcher: "write_file("');
    expect(r.specs.map((s) => s.matcher)).toEqual(['write_file(']);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0].matcher');
    expect(d).toMatchObject({ level: 'warning', line: 4, column: 16 });
    expect(d.message).toMatch(/^shell hook matcher 'write_file\(' is invalid \(.+\) — treating as literal equality$/);
    const m = compileMatcher('write_file(');
    expect(m.literal).toBe(true);
    expect(m.test('write_file(')).toBe(true);
    expect(m.test('write_file')).toBe(false);
  });

  it('Python regex syntax is accepted without a warning', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', '      matcher: "(?P<t>write|read)_file"');
    expect(r.diagnostics).toEqual([]);
    expect(compileMatcher(r.specs[0]?.matcher ?? null).test('read_file')).toBe(true);
  });
});

describe('parseHooksConfig — timeout (edge case 6)', () => {
  const timeoutOf = (value: string) => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', `      timeout: ${value}`);
    return { timeout: r.specs[0]?.timeout, diags: r.diagnostics };
  };

  it.each([
    ['30', 30],
    ['1', 1],
    ['300', 300],
    ['"45"', 45],
    ['" 30 "', 30],
    ['"+30"', 30],
    ['"1_0"', 10],
    ['1_0', 10],
    ['"٣٠"', 30],
    ['0x1e', 30],
  ])('timeout %s → %d without a warning', (value, expected) => {
    const { timeout, diags } = timeoutOf(value);
    expect(timeout).toBe(expected);
    expect(diags).toEqual([]);
  });

  // Read as Hermes' int() reads them, and said: the number used is not the one written.
  it.each([
    ['2.9', 2, 'hooks.pre_tool_call[0].timeout=2.9 is read as 2s (Hermes reads it with int(), which truncates) — write a whole number of seconds'],
    ['1.5', 1, 'hooks.pre_tool_call[0].timeout=1.5 is read as 1s (Hermes reads it with int(), which truncates) — write a whole number of seconds'],
    ['true', 1, 'hooks.pre_tool_call[0].timeout: true is read as 1s (Hermes reads it with int(), and a YAML boolean is 1) — write a number of seconds'],
    ['yes', 1, 'hooks.pre_tool_call[0].timeout: true is read as 1s (Hermes reads it with int(), and a YAML boolean is 1) — write a number of seconds'],
  ])('timeout %s → %d, with a warning at its line:column', (value, expected, message) => {
    const { timeout, diags } = timeoutOf(value);
    expect(timeout).toBe(expected);
    expect(diagAt(diags, 'hooks.pre_tool_call[0].timeout')).toMatchObject({ level: 'warning', line: 4, column: 16, message });
  });

  it.each([
    ['"30.5"', "'30.5'"],
    ['thirty', "'thirty'"],
    ['"1__0"', "'1__0'"],
    ['""', "''"],
    ['[30]', '[30]'],
    ['{s: 30}', "{'s': 30}"],
    ['null', 'None'],
    ['.inf', 'inf'],
    ['.nan', 'nan'],
    ['2024-01-01', 'datetime.date(2024, 1, 1)'],
  ])('timeout %s is not an int → 60 with the value in the message', (value, repr) => {
    const { timeout, diags } = timeoutOf(value);
    expect(timeout).toBe(60);
    const d = diagAt(diags, 'hooks.pre_tool_call[0].timeout');
    expect(d).toMatchObject({ level: 'warning', line: 4, column: 16 });
    expect(d.message).toBe(`hooks.pre_tool_call[0].timeout must be an int (got ${repr}); using default 60s`);
  });

  it.each([['0'], ['-5'], ['0.5'], ['false'], ['"-0"']])('timeout %s is below 1 → 60 (not 1)', (value) => {
    const { timeout, diags } = timeoutOf(value);
    expect(timeout).toBe(60);
    expect(diagAt(diags, 'hooks.pre_tool_call[0].timeout').message).toBe('hooks.pre_tool_call[0].timeout must be >=1; using default 60s');
  });

  it.each([
    ['301', '301'],
    ['"1_000"', '1000'],
    ['99999999999999999999', '100000000000000000000'],
  ])('timeout %s clamps to 300', (value, shown) => {
    const { timeout, diags } = timeoutOf(value);
    expect(timeout).toBe(300);
    expect(diagAt(diags, 'hooks.pre_tool_call[0].timeout').message).toBe(`hooks.pre_tool_call[0].timeout=${shown}s exceeds max 300s; clamping`);
  });
});

describe('parseHooksConfig — fail_closed', () => {
  const fc = (...fields: string[]) => parse('hooks:', '  pre_tool_call:', '    - command: x', ...fields.map((f) => `      ${f}`));

  it.each([
    [['fail_closed: true'], true],
    [['fail_closed: yes'], true],
    [['fail_closed: on'], true],
    [['fail_closed: false'], false],
    [['failClosed: true'], true],
    [['fail_closed: false', 'failClosed: true'], false],
    [['failClosed: true', 'fail_closed: false'], false],
    [[], false],
  ])('%j → %s', (fields, expected) => {
    const r = fc(...fields);
    expect(r.diagnostics).toEqual([]);
    expect(r.specs[0]?.fail_closed).toBe(expected);
  });

  it('fail_closed: null with failClosed: true → false with a warning (edge case 7)', () => {
    const r = fc('fail_closed: null', 'failClosed: true');
    expect(r.specs[0]?.fail_closed).toBe(false);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0].fail_closed');
    expect(d).toMatchObject({ level: 'warning', line: 4, column: 20 });
    expect(d.message).toBe('hooks.pre_tool_call[0].fail_closed must be a boolean (got None); using default false (fail open)');
  });

  it.each([
    ['fail_closed: "true"', 'fail_closed', "'true'"],
    ['fail_closed: "yes"', 'fail_closed', "'yes'"],
    ['fail_closed: 1', 'fail_closed', '1'],
    ['failClosed: "on"', 'failClosed', "'on'"],
  ])('%s is not a boolean: false as Hermes reads it, and said loudly', (field, key, repr) => {
    const r = fc(field);
    expect(r.specs[0]?.fail_closed).toBe(false);
    const d = diagAt(r.diagnostics, `hooks.pre_tool_call[0].${key}`);
    expect(d).toMatchObject({ level: 'warning', line: 4 });
    expect(d.message).toBe(
      `hooks.pre_tool_call[0].fail_closed must be a boolean (got ${repr}); using default false (fail open) — ${repr} is NOT the boolean true: ` +
        'as Hermes reads it this guard fails OPEN (a failure lets the call through); write fail_closed: true without quotes',
    );
  });

  it('fail_closed: true on a non-blocking event → false with the Hermes warning', () => {
    const r = parse('hooks:', '  post_tool_call:', '    - command: x', '      failClosed: true');
    expect(r.specs[0]?.fail_closed).toBe(false);
    const d = diagAt(r.diagnostics, 'hooks.post_tool_call[0].failClosed');
    expect(d).toMatchObject({ line: 4, column: 19 });
    expect(d.message).toBe(
      'hooks.post_tool_call[0].fail_closed=true will be ignored at runtime — fail_closed only applies to blocking-capable events (pre_tool_call).  The hook will fail open on post_tool_call like any other hook.',
    );
  });
});

describe('parseHooksConfig — dialect (beyond Hermes)', () => {
  it.each(['hermes', 'claude', 'codex', 'gemini', 'cursor', ' Claude '])('accepts dialect %j', (dialect) => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', `      dialect: "${dialect}"`);
    expect(r.diagnostics).toEqual([]);
    expect(r.specs[0]?.dialect).toBe(dialect.trim().toLowerCase());
  });

  it('defaults to hermes when absent or null', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', '    - command: y', '      dialect:');
    expect(r.specs.map((s) => s.dialect)).toEqual(['hermes', 'hermes']);
  });

  it.each([
    ['"claude-code"', "'claude-code'"],
    ['42', '42'],
    ['[claude]', "['claude']"],
  ])('refuses dialect %s and skips the entry', (value, repr) => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', `      dialect: ${value}`, '    - command: y');
    expect(r.specs.map((s) => s.command)).toEqual(['y']);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[0].dialect');
    expect(d).toMatchObject({ level: 'error', line: 4, column: 16 });
    expect(d.message).toContain(
      `hooks.pre_tool_call[0].dialect must be one of hermes, claude, codex, gemini, cursor, copilot, qwen, droid, goose, antigravity (got ${repr}); skipping this hook`,
    );
  });
});

describe('parseHooksConfig — duplicates', () => {
  it('collapses identical (event, matcher, command, dialect) entries with an info diagnostic', () => {
    const r = parse(
      'hooks:',
      '  pre_tool_call:',
      '    - command: /x.sh',
      '      matcher: terminal',
      '    - command: " /x.sh "',
      '      matcher: " terminal"',
      '    - command: /x.sh',
      '      matcher: patch',
      '    - command: /x.sh',
      '      matcher: terminal',
      '      dialect: claude',
      '  post_tool_call:',
      '    - command: /x.sh',
      '      matcher: terminal',
    );
    expect(r.specs.map((s) => `${s.event}[${s.index}] ${s.matcher} ${s.dialect}`)).toEqual([
      'pre_tool_call[0] terminal hermes',
      'pre_tool_call[2] patch hermes',
      'pre_tool_call[3] terminal claude',
      'post_tool_call[0] terminal hermes',
    ]);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[1]');
    expect(d).toMatchObject({ level: 'info', line: 5, column: 7 });
    expect(d.message).toBe('hooks.pre_tool_call[1] duplicates hooks.pre_tool_call[0] (same command, matcher and dialect); the duplicate is ignored');
  });

  it('warns (not just info) when the ignored duplicate has other settings', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: /x.sh', '    - command: /x.sh', '      fail_closed: true');
    expect(r.specs).toHaveLength(1);
    expect(r.specs[0]?.fail_closed).toBe(false);
    const d = diagAt(r.diagnostics, 'hooks.pre_tool_call[1]');
    expect(d.level).toBe('warning');
    expect(d.message).toContain('fail_closed=true');
  });

  it('warns about a duplicate YAML key, naming it; the last one wins like PyYAML', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: a', '  pre_tool_call:', '    - command: b', '      timeout: 5', '      timeout: 7');
    expect(r.specs.map((s) => [s.command, s.timeout, s.line])).toEqual([['b', 7, 5]]);
    expect(r.diagnostics.map((d) => [d.level, d.path, d.line, d.column])).toEqual([
      ['warning', 'hooks.pre_tool_call', 4, 3],
      ['warning', 'hooks.pre_tool_call[0].timeout', 7, 7],
    ]);
    expect(r.diagnostics[0]?.message).toBe("duplicate key 'pre_tool_call' in hooks: the earlier one on line 2 is ignored (the last one wins)");
    expect(r.diagnostics[1]?.message).toBe("duplicate key 'timeout' in hooks.pre_tool_call[0]: the earlier one on line 6 is ignored (the last one wins)");
  });

  it('warns about a second top-level hooks: block, which replaces the first', () => {
    const r = parse('hooks:', '  pre_tool_call: [{command: a}]', 'model: x', 'hooks:', '  post_tool_call: [{command: b}]');
    expect(r.specs.map((s) => s.command)).toEqual(['b']);
    const d = diagAt(r.diagnostics, 'hooks');
    expect(d).toMatchObject({ line: 4, column: 1 });
    expect(d.message).toBe("duplicate key 'hooks' at the top level: the earlier one on line 1 is ignored (the last one wins)");
  });

  it('points a field diagnostic at the value that won', () => {
    const r = parse('hooks:', '  pre_tool_call:', '    - command: x', '      timeout: 5', '      timeout: nope');
    const d = r.diagnostics.find((x) => x.message.includes('must be an int'));
    expect(d).toMatchObject({ path: 'hooks.pre_tool_call[0].timeout', line: 5, column: 16 });
  });
});

describe('hooks_auto_accept and truthy env values', () => {
  it.each([
    ['true', true],
    ['yes', true],
    ['on', true],
    ['false', false],
    ['"1"', true],
    ['" TRUE "', true],
    ['"Yes"', true],
    ['"on"', true],
    ['1', false],
    ['null', false],
    ['"false"', false],
    ['"no"', false],
    ['"y"', false],
    ['[true]', false],
  ])('hooks_auto_accept: %s → %s', (value, expected) => {
    const r = parse('hooks: {}', `hooks_auto_accept: ${value}`);
    expect(r.autoAccept).toBe(expected);
    expect(r.diagnostics).toEqual([]);
  });

  it('reads hooks_auto_accept even when hooks is absent, never from under hooks:', () => {
    expect(parse('hooks_auto_accept: true').autoAccept).toBe(true);
    expect(parse('hooks:', '  hooks_auto_accept: true').autoAccept).toBe(false);
  });

  it('parseAutoAccept follows the same rule', () => {
    expect(parseAutoAccept(true)).toBe(true);
    expect(parseAutoAccept(' on ')).toBe(true);
    expect(parseAutoAccept(1)).toBe(false);
    expect(parseAutoAccept(null)).toBe(false);
  });

  it.each([
    ['1', true],
    [' true ', true],
    ['YES', true],
    ['On', true],
    ['0', false],
    ['', false],
    ['no', false],
    ['enabled', false],
    [undefined, false],
  ])('isTruthyEnv(%j) → %s', (value, expected) => {
    expect(isTruthyEnv(value)).toBe(expected);
  });
});

describe('didYouMean', () => {
  it('suggests the closest event name, or null', () => {
    expect(didYouMean('pre_tool_cal')).toBe('pre_tool_call');
    expect(didYouMean('on_sesion_start')).toBe('on_session_start');
    expect(didYouMean('nothing_like_it_at_all')).toBeNull();
    expect(didYouMean(1)).toBeNull();
  });
});

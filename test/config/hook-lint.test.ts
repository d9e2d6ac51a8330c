// What validate says about a config that would quietly stop a guard from guarding (issue 16).
// Driven through parseHooksConfig, the way every command reads a config, with exact messages.

import { describe, expect, it } from 'vitest';
import { concernsEvent, shellQuote } from '../../src/config/hook-lint.js';
import { parseHooksConfig } from '../../src/config/hooks.js';
import { parseConfigText } from '../../src/config/source.js';
import { parseDialectsConfig } from '../../src/config/dialects.js';
import { splitCommand } from '../../src/shell-words.js';
import type { Diagnostic } from '../../src/types.js';

const FILE = '/profiles/work/config.yaml';

function parse(...lines: string[]) {
  const source = parseConfigText(lines.join('\n'), FILE);
  return parseHooksConfig(source, { dialectMaps: parseDialectsConfig(source).maps });
}

/** [level, path, line, column, message] of every diagnostic, in order. */
const rows = (diags: Diagnostic[]) => diags.map((d) => [d.level, d.path, d.line, d.column, d.message]);

/** One pre_tool_call entry with the given field lines. */
const entry = (...fields: string[]) => parse('hooks:', '  pre_tool_call:', ...fields.map((f, i) => `${i === 0 ? '    - ' : '      '}${f}`));

describe('unknown keys in a hook entry', () => {
  it('names each misspelling, what it was meant to be, and what is lost (the issue-16 entry)', () => {
    const r = entry('command: /g.sh', 'matchr: terminal', 'timout: 5', 'failclosed: true');
    // The engine still runs the entry, as Hermes would: for every tool, 60 s, failing open.
    expect(r.specs).toMatchObject([{ command: '/g.sh', matcher: null, timeout: 60, fail_closed: false }]);
    expect(rows(r.diagnostics)).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matchr',
        4,
        7,
        "unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run for every tool",
      ],
      [
        'warning',
        'hooks.pre_tool_call[0].timout',
        5,
        7,
        "unknown key 'timout' — did you mean 'timeout'? As written it is ignored, so this hook gets the default timeout of 60s",
      ],
      [
        'warning',
        'hooks.pre_tool_call[0].failclosed',
        6,
        7,
        "unknown key 'failclosed' — did you mean 'fail_closed'? As written it is ignored, so this hook is not fail_closed: a failure will allow the call",
      ],
    ]);
  });

  it.each([
    ['FailClosed', 'fail_closed'],
    ['fail-closed', 'fail_closed'],
    ['Matcher', 'matcher'],
    ['TIMEOUT', 'timeout'],
    ['timeout_seconds', 'timeout'],
    ['dialekt', 'dialect'],
  ])('%s → did you mean %s', (key, meant) => {
    const r = entry('command: /g.sh', `${key}: x`);
    expect(r.diagnostics.filter((d) => d.path === `hooks.pre_tool_call[0].${key}`).map((d) => [d.level, d.message.split(' As written')[0]])).toEqual([
      ['warning', `unknown key '${key}' — did you mean '${meant}'?`],
    ]);
  });

  it('says what a misspelled matcher costs on a non-tool event, and a misspelled dialect anywhere', () => {
    const r = parse('hooks:', '  pre_llm_call:', '    - command: /c.sh', '      matchr: terminal', '      dialekt: claude');
    expect(rows(r.diagnostics)).toEqual([
      [
        'warning',
        'hooks.pre_llm_call[0].matchr',
        4,
        7,
        "unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run on every pre_llm_call event",
      ],
      [
        'warning',
        'hooks.pre_llm_call[0].dialekt',
        5,
        7,
        "unknown key 'dialekt' — did you mean 'dialect'? As written it is ignored, so this hook's output is read as Hermes JSON, so another agent's block is not understood",
      ],
    ]);
  });

  it('a misspelling next to the real key is still reported, without a false consequence', () => {
    const r = entry('command: /g.sh', 'matcher: terminal', 'matchr: patch');
    expect(r.specs[0]?.matcher).toBe('terminal');
    expect(rows(r.diagnostics)).toEqual([
      ['warning', 'hooks.pre_tool_call[0].matchr', 5, 7, "unknown key 'matchr' — did you mean 'matcher'? It is ignored ('matcher' is set on this entry too)"],
    ]);
  });

  it('a misspelled command: the key is named, and the entry is an error (it is dropped)', () => {
    const r = entry('comand: /g.sh');
    expect(r.specs).toEqual([]);
    expect(rows(r.diagnostics)).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].comand',
        3,
        7,
        "unknown key 'comand' — did you mean 'command'? As written it is ignored, so this entry has no command and is skipped",
      ],
      ['error', 'hooks.pre_tool_call[0].command', 3, 7, "hooks.pre_tool_call[0] is missing a non-empty 'command' field"],
    ]);
  });

  it('failClosed is a known key (no diagnostic)', () => {
    expect(entry('command: /g.sh', 'failClosed: true').diagnostics).toEqual([]);
  });
});

describe('top-level keys', () => {
  it('never flags the sections of a real Hermes config.yaml', () => {
    const r = parse(
      'model: {default: anthropic/claude-opus-4, provider: openrouter}',
      'providers: {}',
      'toolsets: [hermes-cli]',
      'tools: {}',
      'agent: {max_turns: 90}',
      'terminal: {backend: local}',
      'browser: {}',
      'display: {compact: false}',
      'memory: {memory_enabled: true}',
      'honcho: {}',
      'delegation: {}',
      'approvals: {mode: manual}',
      'mcp_servers: {}',
      'guardrails: {}',
      'hooks: {}',
      'hooks_auto_accept: false',
      'plugins: {}',
      'dialects: {}',
      'tool_loop_guardrails: {}',
    );
    expect(r.diagnostics).toEqual([]);
  });

  it.each([
    ['hook', 'hooks', 'none of the hooks under it are registered'],
    ['Hooks', 'hooks', 'none of the hooks under it are registered'],
    ['hooks_auto_acept', 'hooks_auto_accept', 'hooks are not auto-accepted, so an unapproved hook does not run unattended'],
    ['tool_loop_guardrail', 'tool_loop_guardrails', 'the tool-loop guardrails run with their defaults'],
    ['plugin', 'plugins', 'no plugin is loaded from it'],
    ['dialect', 'dialects', 'the built-in name maps are used instead'],
  ])('%s: → did you mean %s', (key, meant, lost) => {
    const r = parse('model: x', `${key}:`, '  pre_tool_call: []');
    expect(rows(r.diagnostics)).toEqual([['warning', key, 2, 1, `unknown top-level key — did you mean '${meant}'? As written, ${lost}`]]);
  });

  it('a hook event written at the top level (hooks: forgotten or mis-indented) is an error', () => {
    const r = parse('hooks:', 'pre_tool_call:', '  - command: /g.sh');
    expect(r.specs).toEqual([]);
    expect(rows(r.diagnostics)).toEqual([
      ['error', 'pre_tool_call', 2, 1, 'a hook event at the top level is not read — indent it under hooks: (as written, none of its hooks are registered)'],
    ]);
  });
});

describe('commands that cannot be split', () => {
  it.each([
    [
      "/g.sh 'oops",
      false,
      "command '/g.sh 'oops' cannot be parsed: No closing quotation — this hook can never start (each failure is only a warning and the call goes ahead); fix the quoting",
    ],
    [
      '/g.sh "oops',
      true,
      `command '/g.sh "oops' cannot be parsed: No closing quotation — this hook can never start (as fail_closed it blocks every call it matches); fix the quoting`,
    ],
    [
      '/g.sh \\',
      false,
      "command '/g.sh \\' cannot be parsed: No escaped character — this hook can never start (each failure is only a warning and the call goes ahead); fix the quoting",
    ],
  ])('%s (fail_closed %s) is an error with the splitter’s own words', (command, failClosed, message) => {
    const r = parse('hooks:', '  pre_tool_call:', `    - command: ${JSON.stringify(command)}`, `      fail_closed: ${failClosed}`);
    expect(rows(r.diagnostics)).toEqual([['error', 'hooks.pre_tool_call[0].command', 3, 16, message]]);
    // The message is exactly what spawn reports when run tries it.
    const split = splitCommand(command);
    expect(split.ok).toBe(false);
    expect(message.startsWith((split as { error: string }).error)).toBe(true);
  });
});

describe('shell syntax in a command that runs without a shell', () => {
  const commandDiag = (command: string) => {
    const r = entry(`command: ${JSON.stringify(command)}`);
    return rows(r.diagnostics).filter((d) => d[1] === 'hooks.pre_tool_call[0].command');
  };

  it.each([
    ['echo hi | cat', "the pipe '|'", 'echo'],
    ['/g.sh || true', "the or-list '||'", '/g.sh'],
    ['/g.sh && echo ok', "the and-list '&&'", '/g.sh'],
    ['/g.sh -v; echo done', "the command separator ';'", '/g.sh'],
    ['/g.sh > /tmp/log', "the redirection '>'", '/g.sh'],
    ['/g.sh >> /tmp/log', "the redirection '>>'", '/g.sh'],
    ['/g.sh < /tmp/in', "the redirection '<'", '/g.sh'],
    ['/g.sh 2>&1', "the redirection '>&'", '/g.sh'],
    ['/g.sh $HOME', "the variable '$HOME'", '/g.sh'],
    ['/g.sh "${HOME}/x"', "the variable '${HOME}'", '/g.sh'],
    ['/g.sh "$USER" | tee /tmp/log', "the variable '$USER' and the pipe '|'", '/g.sh'],
  ])('%s → a warning with the exact bash -c rewrite', (command, named, program) => {
    const verb = named.includes(' and ') ? 'are' : 'is';
    expect(commandDiag(command)).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].command',
        3,
        16,
        `runs without a shell, so ${named} ${verb} passed to ${program} as literal text — write: bash -c ${shellQuote(command)} — or move it into a script`,
      ],
    ]);
  });

  it('an expansion in the program itself is an error: the hook never starts', () => {
    expect(commandDiag('$HOME/hooks/g.sh --strict')).toEqual([
      [
        'error',
        'hooks.pre_tool_call[0].command',
        3,
        16,
        "runs without a shell, so the variable '$HOME' is not interpreted: the program '$HOME/hooks/g.sh' does not exist and this hook never starts — move it into a script file and make that script the command (as bash -c code it could not be approved: the variable '$HOME' hides what it runs from the approval's pin)",
      ],
    ]);
  });

  // The approval of a bash -c rewrite pins the scripts its commands name (consent/_shell-code.ts),
  // but cannot see through a command substitution: suggesting it would suggest a hook that can never be approved.
  it.each([
    ['/g.sh $(date +%s)', "the command substitution '$(…)'"],
    ['/g.sh `date`', "the command substitution '`date`'"],
  ])('%s → a warning that suggests a script file, not a bash -c rewrite it could not pin', (command, named) => {
    expect(commandDiag(command)).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].command',
        3,
        16,
        `runs without a shell, so ${named} is passed to /g.sh as literal text — move it into a script file and make that script the command ` +
          `(as bash -c code it could not be approved: ${named} hides what it runs from the approval's pin)`,
      ],
    ]);
  });

  it('an operator glued to the program is an error too: spawn looks for a program named `/g.sh;`', () => {
    expect(commandDiag('/g.sh; echo done')).toEqual([
      [
        'error',
        'hooks.pre_tool_call[0].command',
        3,
        16,
        "runs without a shell, so the command separator ';' is not interpreted: the program '/g.sh;' does not exist and this hook never starts — write: bash -c '/g.sh; echo done' — or move it into a script",
      ],
    ]);
  });

  it('a leading VAR=value is an error with the env rewrite', () => {
    expect(commandDiag('DEBUG=1 /g.sh')).toEqual([
      [
        'error',
        'hooks.pre_tool_call[0].command',
        3,
        16,
        "runs without a shell, so the assignment 'DEBUG=1' is taken as the program name and this hook never starts — write: env DEBUG=1 /g.sh (or bash -c 'DEBUG=1 /g.sh')",
      ],
    ]);
  });

  it.each([
    ["/g.sh '|' ';' '$HOME' '>'", 'quoted in single quotes'],
    ['/g.sh "a|b" "x;y" "a > b"', 'operators in double quotes'],
    ['/g.sh \\| \\$HOME \\;', 'escaped'],
    ["bash -c 'jq . | tee /tmp/log'", 'a bash -c script in single quotes'],
    ['bash -c "echo $HOME | cat"', 'a bash -c script in double quotes (the shell expands it)'],
    ['sh -ec "cd $HOME && ./g.sh"', 'sh -ec'],
    ['~/hooks/g.sh --mode=strict a=b', 'a tilde and = in later words'],
    ['python3 ~/hooks/g.py', 'an interpreter prefix'],
    ['/g.sh price$', 'a $ not followed by a name'],
  ])('%s (%s) is fine', (command) => {
    expect(commandDiag(command)).toEqual([]);
  });

  it('the suggested rewrite splits back to bash -c and the exact command, quotes included', () => {
    for (const command of ["echo 'it''s' | cat", 'grep -q "x\'y" /tmp/f && echo ok', "a'b | c"]) {
      expect(splitCommand(`bash -c ${shellQuote(command)}`)).toEqual({ ok: true, argv: ['bash', '-c', command] });
    }
  });
});

describe('matchers that name no tool the host calls', () => {
  const matcherDiag = (matcher: string, ...extra: string[]) => {
    const r = entry('command: /g.sh', `matcher: ${JSON.stringify(matcher)}`, ...extra);
    return rows(r.diagnostics).filter((d) => d[1] === 'hooks.pre_tool_call[0].matcher');
  };
  const WHOLE = '(a matcher is case-sensitive and must match the whole name)';

  it.each([
    ['Terminal', 'terminal', ''],
    ['terminl', 'terminal', ''],
    ['bash', 'terminal', " (bash is Copilot CLI's name for it; Hermes calls it terminal)"],
    ['Bash', 'terminal', " (Bash is Claude Code's name for it; Hermes calls it terminal)"],
    ['Shell', 'terminal', " (Shell is Cursor's name for it; Hermes calls it terminal)"],
    ['Read', 'read_file', " (Read is Claude Code's name for it; Hermes calls it read_file)"],
  ])('%s → did you mean %s', (matcher, meant, why) => {
    expect(matcherDiag(matcher)).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        `matcher '${matcher}' matches no Hermes tool name ${WHOLE} — did you mean '${meant}'?${why} As written, this hook never runs for it`,
      ],
    ]);
  });

  it('names the dead alternative of a list of names', () => {
    expect(matcherDiag('terminal|Write')).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        `'Write' in matcher 'terminal|Write' matches no Hermes tool name ${WHOLE} — did you mean 'write_file'? (Write is Claude Code's name for it; Hermes calls it write_file) As written, this hook never runs for it`,
      ],
    ]);
  });

  it('a regex that only misses by case', () => {
    expect(matcherDiag('TERM.*')).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        "matcher 'TERM.*' matches no Hermes tool name (a matcher is case-sensitive) — did you mean 'terminal'? As written, this hook never runs for it",
      ],
    ]);
  });

  it('a name we do not know is only an info: Hermes also calls plugin tools and built-ins no map names', () => {
    expect(matcherDiag('browser_navigate')).toEqual([
      [
        'info',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        "matcher 'browser_navigate' matches no known Hermes tool name (delegate_task, memory, patch, read_file, search_files, terminal, todo, web_extract, web_search, write_file); fine for a plugin or MCP tool, otherwise this hook never runs",
      ],
    ]);
  });

  it.each(['terminal', 'read_file|write_file', '(patch|write_file)', '.*_file', 'mcp_github_.*', 'mcp__github__create_issue', '(?i)TERMINAL'])(
    '%s is fine',
    (matcher) => {
      expect(matcherDiag(matcher)).toEqual([]);
    },
  );

  it("a dialect hook's matcher is checked against that agent's names and ours", () => {
    expect(matcherDiag('Bash|Edit', 'dialect: claude')).toEqual([]);
    expect(matcherDiag('terminal', 'dialect: claude')).toEqual([]);
    expect(matcherDiag('bash', 'dialect: claude')).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        `matcher 'bash' matches no Claude Code or Hermes tool name ${WHOLE} — did you mean 'Bash'? As written, this hook never runs for it`,
      ],
    ]);
    expect(matcherDiag('Shell', 'dialect: claude')).toEqual([
      [
        'warning',
        'hooks.pre_tool_call[0].matcher',
        4,
        16,
        `matcher 'Shell' matches no Claude Code or Hermes tool name ${WHOLE} — did you mean 'Bash'? (Shell is Cursor's name for it) As written, this hook never runs for it`,
      ],
    ]);
    expect(matcherDiag('run_shell_command', 'dialect: gemini')).toEqual([]);
  });

  it("the config's own dialects: maps add tool names", () => {
    const r = parse(
      'dialects:',
      '  claude:',
      '    tools: {Browse: browser_navigate}',
      'hooks:',
      '  pre_tool_call:',
      '    - command: /g.sh',
      '      matcher: browser_navigate',
    );
    expect(r.diagnostics).toEqual([]);
  });

  it('a matcher on a non-tool event is not judged twice (Hermes already says it is ignored)', () => {
    const r = parse('hooks:', '  pre_llm_call:', '    - command: /g.sh', '      matcher: Bash');
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "hooks.pre_llm_call[0].matcher='Bash' will be ignored at runtime — the matcher field is only honored for pre_tool_call / post_tool_call.  The hook will fire on every pre_llm_call event.",
    ]);
  });
});

describe('concernsEvent (what run <event> repeats on stderr)', () => {
  it.each([
    ['hooks.pre_tool_call[0].matchr', true],
    ['hooks.pre_tool_call[1].command', true],
    ['hooks.pre_tool_call', true],
    ['hooks.pre_tool_cal', true],
    ['hooks', true],
    ['', true],
    ['hook', true],
    ['pre_tool_call', true],
    ['hooks.post_tool_call[0].matcher', false],
    ['hooks.pre_tool_call_x', true],
    ['hooks.on_session_start', false],
    ['hooks.on_sesion_start', false],
    ['hooks_auto_acept', false],
    ['hooks.outbound[0].url', false],
    ['tool_loop_guardrails.warn_after', false],
    ['model', false],
  ])('%s → %s for pre_tool_call', (path, expected) => {
    expect(concernsEvent({ path }, 'pre_tool_call')).toBe(expected);
  });
});

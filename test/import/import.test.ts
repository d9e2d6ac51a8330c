// `hermes-hooks import`: the example configs of each agent's documentation, converted, with every
// part that cannot be carried over reported at its place in the source file.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { importAgentConfig, mergeIntoConfig, type ImportedHook } from '../../src/import/import.js';
import type { Diagnostic } from '../../src/types.js';
import { configText, FIXTURES } from '../_dialect-fixtures.js';
import { AGENT_DIALECTS } from '../../src/dialects/agents/index.js';

const expected = (name: string): string => readFileSync(`${FIXTURES}expected/${name}.yaml`, 'utf8');
const tuples = (diagnostics: Diagnostic[]) => diagnostics.map((d) => [d.level, d.path, d.line, d.message]);

/** Split a command line the way Hermes does (Python shlex), to prove a wrapped command means the same. */
function shlexSplit(command: string): string[] {
  const r = spawnSync('python3', ['-c', 'import json, shlex, sys; print(json.dumps(shlex.split(sys.stdin.read())))'], { input: command, encoding: 'utf8' });
  return JSON.parse(r.stdout) as string[];
}

describe("importAgentConfig: the agents' documented examples", () => {
  it('Claude Code settings.json', () => {
    const r = importAgentConfig('/home/user/my-project/.claude/settings.json', configText('claude-settings.json'));
    expect(r.dialect).toBe('claude');
    expect(r.yaml).toBe(expected('claude'));
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Claude Code settings (dialect claude)'],
      ['info', 'hooks.PreToolUse[0].hooks[0].command', 10, 'runs through sh -c: it uses shell syntax, and hermes-hooks runs commands without a shell'],
      [
        'warning',
        'hooks.PreToolUse[0].hooks[2].if',
        15,
        'the \'if\' rule "Bash(git *)" cannot be carried over: the hook now runs on every call its matcher selects',
      ],
      ['info', 'hooks.PreToolUse[0].hooks[2].statusMessage', 17, 'statusMessage is not shown by hermes-hooks; dropped'],
      ['info', 'hooks.PreToolUse[0].hooks[2].command', 16, 'the project-dir variable is replaced by /home/user/my-project (the folder that holds this config)'],
      ['info', 'hooks.PreToolUse[2].hooks[0].command', 32, 'runs through sh -c: it uses shell syntax, and hermes-hooks runs commands without a shell'],
      ['warning', 'hooks.PreToolUse[3].hooks[0].timeout', 37, 'timeout 900 s exceeds the maximum of 300 s; clamped to 300'],
      [
        'warning',
        'hooks.PreToolUse[3].hooks[1].type',
        38,
        'http hooks (http://localhost:8080/hooks/pre-tool-use) cannot be carried over: hermes-hooks runs command hooks only; not imported',
      ],
      ['info', 'hooks.PostToolUse[0].hooks[0].command', 48, 'runs through sh -c: it uses shell syntax, and hermes-hooks runs commands without a shell'],
      ['warning', 'hooks.PostToolUse[0].hooks[1].async', 50, 'async cannot be carried over: hermes-hooks waits for the hook (within its timeout)'],
      [
        'warning',
        'hooks.SessionStart[0].matcher',
        55,
        "matcher 'compact' cannot be carried over: Hermes matchers only select tools, so this hook runs on every on_session_start event",
      ],
      [
        'warning',
        'hooks.Notification',
        57,
        "Claude Code event 'Notification' has no Hermes counterpart; not imported: notify-send 'Claude Code' 'Awaiting your input'",
      ],
      [
        'warning',
        'hooks.PermissionRequest',
        60,
        "Claude Code event 'PermissionRequest' has no Hermes counterpart; not imported: /home/user/bin/auto-approve.sh",
      ],
      ['warning', 'hooks.Stop[0].hooks[0].type', 66, 'prompt hooks cannot be carried over: hermes-hooks runs command hooks only; not imported'],
      ['info', 'hooks.Stop[0].hooks[1].command', 67, 'the project-dir variable is replaced by /home/user/my-project (the folder that holds this config)'],
      ['warning', 'hooks.Stop[0].hooks[1].onFailure', 67, 'fail-closed only applies to pre_tool_call in hermes-hooks; this pre_verify hook fails open'],
      ['info', 'hooks', 3, "7 hook(s) set no timeout: Claude Code's default is 600 s, hermes-hooks' is 60 s"],
    ]);
    expect(r.diagnostics.every((d) => d.file === '/home/user/my-project/.claude/settings.json')).toBe(true);
  });

  it('Codex hooks.json', () => {
    const r = importAgentConfig('/home/user/my-project/.codex/hooks.json', configText('codex-hooks.json'));
    expect(r.dialect).toBe('codex');
    expect(r.yaml).toBe(expected('codex'));
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Codex hooks.json (dialect codex)'],
      [
        'warning',
        'hooks.SessionStart[0].matcher',
        5,
        "matcher 'startup|resume' cannot be carried over: Hermes matchers only select tools, so this hook runs on every on_session_start event",
      ],
      ['info', 'hooks.SessionStart[0].hooks[0].statusMessage', 7, 'statusMessage is not shown by hermes-hooks; dropped'],
      ['info', 'hooks.PreToolUse[0].hooks[0].statusMessage', 18, 'statusMessage is not shown by hermes-hooks; dropped'],
      ['info', 'hooks.PreToolUse[0].hooks[0].command', 17, 'runs through sh -c: it uses shell syntax, and hermes-hooks runs commands without a shell'],
      ['warning', 'hooks.PreToolUse[2].matcher', 27, "matcher 'mcp__(fs' is not a valid regex (Codex skips this group); not imported"],
      [
        'warning',
        'hooks.PermissionRequest',
        31,
        "Codex CLI event 'PermissionRequest' has no Hermes counterpart; not imported: python3 /home/user/.codex/hooks/permission.py",
      ],
      ['warning', 'hooks.PostToolUse[0].hooks[0].async', 38, 'async cannot be carried over: hermes-hooks waits for the hook (within its timeout)'],
      ['warning', 'hooks.PostToolUse[0].hooks[1].type', 39, 'agent hooks cannot be carried over: hermes-hooks runs command hooks only; not imported'],
      ['info', 'hooks.UserPromptSubmit[0].hooks[0].enabled', 44, 'disabled in the source; not imported'],
      ['info', 'hooks', 2, "3 hook(s) set no timeout: Codex CLI's default is 600 s, hermes-hooks' is 60 s"],
    ]);
  });

  it('Gemini CLI settings.json (with comments; timeouts in ms)', () => {
    const r = importAgentConfig('/home/user/my-project/.gemini/settings.json', configText('gemini-settings.json'));
    expect(r.dialect).toBe('gemini');
    expect(r.yaml).toBe(expected('gemini'));
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Gemini CLI settings (dialect gemini, timeouts in milliseconds)'],
      ['info', 'hooks.BeforeTool[0].hooks[0].command', 11, 'the project-dir variable is replaced by /home/user/my-project (the folder that holds this config)'],
      [
        'warning',
        'hooks.BeforeTool[1].sequential',
        19,
        "sequential cannot be carried over: hermes-hooks runs an event's hooks concurrently and each sees the original input",
      ],
      [
        'warning',
        'hooks.BeforeTool[1].hooks[0].env',
        21,
        "env cannot be carried over: hermes-hooks gives hooks the host's environment; set the variables there or in a wrapper script",
      ],
      [
        'warning',
        'hooks.BeforeTool[1].hooks[0].timeout',
        21,
        "timeout 30 is in milliseconds here and becomes 1 s; if it was meant as seconds (Claude's unit, which `gemini hooks migrate` and Qwen 1.x examples copy unconverted), set timeout: 30 in the imported entry",
      ],
      ['warning', 'hooks.AfterAgent[0].hooks[0].timeout', 36, 'timeout 600000 ms exceeds the maximum of 300 s; clamped to 300'],
      [
        'warning',
        'hooks.SessionStart[0].matcher',
        39,
        "matcher 'startup' cannot be carried over: Hermes matchers only select tools, so this hook runs on every on_session_start event",
      ],
      ['warning', 'hooks.BeforeModel', 41, "Gemini CLI event 'BeforeModel' has no Hermes counterpart; not imported: /opt/hooks/model-guard.sh"],
    ]);
  });

  it('Cursor hooks.json', () => {
    const r = importAgentConfig('/home/user/my-project/.cursor/hooks.json', configText('cursor-hooks.json'));
    expect(r.dialect).toBe('cursor');
    expect(r.yaml).toBe(expected('cursor'));
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Cursor hooks.json (dialect cursor)'],
      [
        'info',
        'hooks.beforeShellExecution[0].command',
        5,
        'relative path ./hooks/audit.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/audit.sh',
      ],
      ['warning', 'hooks.beforeShellExecution[1].matcher', 6, 'matcher on beforeShellExecution cannot be carried over; the hook runs for every terminal call'],
      [
        'info',
        'hooks.beforeShellExecution[1].command',
        6,
        'relative path ./hooks/block-git.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/block-git.sh',
      ],
      [
        'info',
        'hooks.beforeMCPExecution[0].command',
        8,
        'relative path ./hooks/mcp-guard.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/mcp-guard.sh',
      ],
      [
        'info',
        'hooks.beforeReadFile[0].command',
        9,
        'relative path ./hooks/redact.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/redact.sh',
      ],
      [
        'info',
        'hooks.preToolUse[0].command',
        10,
        'relative path ./hooks/pre-tool.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/pre-tool.sh',
      ],
      [
        'info',
        'hooks.afterFileEdit[0].command',
        11,
        'relative path ./hooks/format.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/format.sh',
      ],
      ['warning', 'hooks.afterFileEdit[0].failClosed', 11, 'fail-closed only applies to pre_tool_call in hermes-hooks; this post_tool_call hook fails open'],
      [
        'warning',
        'hooks.beforeSubmitPrompt[0].command',
        12,
        'relative path hooks/prompt-check.ts in the arguments resolves from the working directory of Hermes, not from the folder of hooks.json',
      ],
      ['warning', 'hooks.stop[0].loop_limit', 13, 'loop_limit cannot be carried over: Hermes caps pre_verify nudges with agent.max_verify_nudges (default 3)'],
      [
        'info',
        'hooks.stop[0].command',
        13,
        'relative path ./hooks/audit-stop.sh resolved from the folder of hooks.json: /home/user/my-project/.cursor/hooks/audit-stop.sh',
      ],
      ['warning', 'hooks.afterAgentThought', 14, "Cursor event 'afterAgentThought' has no Hermes counterpart; not imported: ./hooks/thoughts.sh"],
      ['warning', 'hooks.sessionStart[0].type', 15, 'prompt hooks cannot be carried over: hermes-hooks runs command hooks only; not imported'],
      ['info', 'hooks', 3, "7 hook(s) set no timeout: Cursor's default is not documented, hermes-hooks' is 60 s"],
    ]);
  });

  it('Qwen Code settings.json: dialect qwen, timeouts in seconds but 1000 and up in ms (as Qwen Code 0.24.4 reads them)', () => {
    const r = importAgentConfig('/home/user/my-project/.qwen/settings.json', configText('qwen-settings.json'));
    expect(r.dialect).toBe('qwen');
    expect(r.yaml).toBe(expected('qwen'));
    expect(r.hooks.map((h) => h.timeout)).toEqual([10, 3]);
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Qwen Code settings (dialect qwen, timeouts in seconds (1000 and up in milliseconds))'],
      ['info', 'hooks.PreToolUse[0].hooks[1].timeout', 8, 'timeout 2500 is read as milliseconds by Qwen Code (1000 and up are ms) and becomes 3 s'],
    ]);
  });

  it('the imported block is a valid hooks: config, and commands wrapped in a shell mean what they meant', () => {
    const original = JSON.parse(configText('claude-settings.json')).hooks.PreToolUse[0].hooks[0].command as string;
    const r = importAgentConfig('/home/user/my-project/.claude/settings.json', configText('claude-settings.json'));
    const source = parseConfigText(r.yaml, 'imported.yaml');
    expect(source.syntaxError).toBeNull();
    const hooks = (source.data as { hooks: Record<string, { command: string; dialect: string; timeout?: number }[]> }).hooks;
    expect(Object.keys(hooks)).toEqual(['pre_tool_call', 'post_tool_call', 'on_session_start', 'pre_verify']);
    expect(
      Object.values(hooks)
        .flat()
        .every((e) => e.dialect === 'claude'),
    ).toBe(true);
    expect(shlexSplit(hooks['pre_tool_call']![0]!.command)).toEqual(['sh', '-c', original]);
    // Exec form (`args`): one word per argument, spaces kept.
    expect(shlexSplit(hooks['pre_tool_call']![5]!.command)).toEqual(['python3', '.claude/hooks/secret scan.py', '--strict']);
    expect(shlexSplit(hooks['pre_tool_call']![2]!.command)).toEqual(['/home/user/my-project/.claude/hooks/git-policy.sh']);
    expect(r.hooks[1]).toEqual({
      event: 'pre_tool_call',
      command: '/usr/local/bin/guard',
      matcher: 'Bash',
      timeout: 5,
      fail_closed: true,
      dialect: 'claude',
      source: 'hooks.PreToolUse[0].hooks[1]',
    });
  });
});

describe('importAgentConfig: formats, detection and odd input', () => {
  it('detects the format from the path, then the content', () => {
    const claudeShape = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/g.sh' }] }] } });
    expect(importAgentConfig('settings.json', claudeShape).dialect).toBe('claude');
    expect(importAgentConfig('plugin/hooks.json', claudeShape).dialect).toBe('codex');
    expect(importAgentConfig('/x/.claude/hooks.json', claudeShape).dialect).toBe('claude');
    const geminiShape = JSON.stringify({ hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: '/g.sh', timeout: 1500 }] }] } });
    const g = importAgentConfig('settings.json', geminiShape);
    expect(g.dialect).toBe('gemini');
    expect(g.hooks[0]).toMatchObject({ event: 'pre_tool_call', timeout: 2, matcher: '.*(?:write_file).*' });
    const cursorShape = JSON.stringify({ version: 1, hooks: { beforeReadFile: [{ command: '/r.sh' }] } });
    expect(importAgentConfig('hooks.json', cursorShape).hooks).toEqual([
      {
        event: 'pre_tool_call',
        command: '/r.sh',
        matcher: 'read_file',
        timeout: null,
        fail_closed: false,
        dialect: 'cursor',
        source: 'hooks.beforeReadFile[0]',
      },
    ]);
    // --dialect forces the reading: the same file as Gemini makes its 30 a millisecond value.
    const forced = importAgentConfig(
      'settings.json',
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: '/s.sh', timeout: 30 }] }] } }),
      { dialect: 'gemini' },
    );
    expect(forced.hooks[0]).toMatchObject({ event: 'on_session_start', timeout: 1, dialect: 'gemini' });
  });

  it('says what it cannot read: TOML, invalid JSON (with its position), a Hermes dialect, no hooks', () => {
    expect(importAgentConfig('/p/.codex/config.toml', '[hooks]\n')).toMatchObject({
      dialect: 'codex',
      hooks: [],
      yaml: '',
      diagnostics: [{ level: 'error', message: 'Codex [hooks] tables in config.toml are not supported; move them to a hooks.json next to it and import that' }],
    });
    const bad = importAgentConfig('/p/.claude/settings.json', '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
    expect(bad.hooks).toEqual([]);
    expect(bad.diagnostics).toHaveLength(1);
    expect(bad.diagnostics[0]).toMatchObject({ level: 'error', line: 3, column: 20, file: '/p/.claude/settings.json' });
    expect(bad.diagnostics[0]!.message).toMatch(/^not valid JSON: /);
    expect(importAgentConfig('x.json', '{}', { dialect: 'hermes' }).diagnostics[0]!.message).toBe(
      `a Hermes config needs no import; pass the agent's dialect (${AGENT_DIALECTS.join(', ')})`,
    );
    expect(importAgentConfig('x.json', '[]').diagnostics[0]!.message).toBe('expected a JSON object with a "hooks" key');
    const empty = importAgentConfig('/p/.claude/settings.json', '{"model": "opus", "disableAllHooks": true}');
    expect(tuples(empty.diagnostics)).toEqual([
      ['info', '', 1, 'read as Claude Code settings (dialect claude)'],
      ['warning', 'disableAllHooks', 1, 'disableAllHooks is set: the agent runs none of these hooks; importing them anyway'],
      ['warning', '', 1, 'no "hooks" in this file; nothing to import'],
    ]);
    expect(empty.yaml).toBe('# hooks imported from /p/.claude/settings.json (Claude Code settings) by hermes-hooks import\n\nhooks: {}\n');
  });

  it('a user-level config keeps $CLAUDE_PROJECT_DIR (it names no project) and says hermes-hooks does not set it', () => {
    const text = JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh' }] }] },
    });
    const r = importAgentConfig('/home/user/.claude/settings.json', text, { home: '/home/user' });
    expect(r.hooks[0]!.command).toBe(`sh -c '"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh'`);
    expect(tuples(r.diagnostics).slice(1, 3)).toEqual([
      [
        'warning',
        'hooks.PreToolUse[0].hooks[0].command',
        1,
        'uses $CLAUDE_PROJECT_DIR, which hermes-hooks does not set (it sets HERMES_HOME and HERMES_HOOK_EVENT)',
      ],
      ['info', 'hooks.PreToolUse[0].hooks[0].command', 1, 'runs through sh -c: it uses shell syntax, and hermes-hooks runs commands without a shell'],
    ]);
    // The same file in a project folder gets the folder.
    expect(importAgentConfig('/home/user/app/.claude/settings.json', text, { home: '/home/user' }).hooks[0]!.command).toBe('/home/user/app/.claude/hooks/g.sh');
  });

  it('reports malformed entries, duplicates and values it had to change', () => {
    const text = JSON.stringify(
      {
        hooks: {
          PreToolUse: [
            { matcher: 42, hooks: [{ type: 'command', command: '/a.sh', timeout: -1, onFailure: 'maybe' }] },
            { matcher: 'Bash', hooks: [{ type: 'command', command: '/b.sh', shell: 'powershell' }, 'nope', { type: 'command' }] },
            { hooks: [{ type: 'command', command: '/a.sh', custom: 1 }] },
            { matcher: 'Bash' },
          ],
          PostToolUse: { matcher: 'x' },
        },
      },
      null,
      2,
    );
    const r = importAgentConfig('/p/.claude/settings.json', text);
    expect(r.hooks.map((h: ImportedHook) => [h.command, h.matcher, h.timeout, h.fail_closed])).toEqual([['/a.sh', null, null, false]]);
    expect(tuples(r.diagnostics)).toEqual([
      ['info', '', 1, 'read as Claude Code settings (dialect claude)'],
      ['warning', 'hooks.PreToolUse[0].matcher', 5, 'matcher must be a string; got 42; matching every call'],
      ['warning', 'hooks.PreToolUse[0].hooks[0].timeout', 10, 'timeout -1 is not a positive number of seconds; using the default of 60 s'],
      ['warning', 'hooks.PreToolUse[0].hooks[0].onFailure', 11, 'onFailure must be "continue" or "block"; got "maybe"; failing open'],
      ['warning', 'hooks.PreToolUse[1].hooks[0].shell', 21, 'shell "powershell" hooks cannot be run by hermes-hooks; not imported'],
      ['warning', 'hooks.PreToolUse[1].hooks[1]', 23, 'hook must be an object with a command; not imported'],
      ['warning', 'hooks.PreToolUse[1].hooks[2]', 24, 'hook has no command; not imported'],
      ['info', 'hooks.PreToolUse[2].hooks[0].custom', 34, "unknown field 'custom' ignored"],
      ['info', 'hooks.PreToolUse[2].hooks[0]', 31, 'same event, matcher and command as hooks.PreToolUse[0].hooks[0]; imported once'],
      ['warning', 'hooks.PreToolUse[3].hooks', 38, 'matcher group has no hooks list; not imported'],
      ['warning', 'hooks.PostToolUse', 42, 'hooks.PostToolUse must be a list of matcher groups; not imported'],
      ['info', 'hooks', 2, "1 hook(s) set no timeout: Claude Code's default is 600 s, hermes-hooks' is 60 s"],
    ]);
  });
});

describe('mergeIntoConfig', () => {
  const imported = importAgentConfig(
    '/p/.cursor/hooks.json',
    JSON.stringify({
      version: 1,
      hooks: { beforeShellExecution: [{ command: '/h/audit.sh', timeout: 10, failClosed: true }], stop: [{ command: '/h/stop.sh' }] },
    }),
  ).hooks;

  it('adds entries under hooks:, keeping comments and turning the shipped `hooks: {}` into a block', () => {
    // (The yaml library sets a document's closing comment off with a blank line.)
    const existing = ['# my Hermes profile', 'model: opus # the big one', 'hooks: {}', 'hooks_auto_accept: false', '# end', ''].join('\n');
    expect(mergeIntoConfig(existing, imported)).toBe(
      [
        '# my Hermes profile',
        'model: opus # the big one',
        'hooks:',
        '  pre_tool_call:',
        '    - command: /h/audit.sh',
        '      matcher: terminal',
        '      timeout: 10',
        '      fail_closed: true',
        '      dialect: cursor',
        '  pre_verify:',
        '    - command: /h/stop.sh',
        '      dialect: cursor',
        'hooks_auto_accept: false',
        '',
        '# end',
        '',
      ].join('\n'),
    );
  });

  it('appends to existing event lists and skips entries already present (same command and matcher)', () => {
    const existing = [
      'hooks:',
      '  pre_tool_call:',
      '    # the native guard',
      '    - command: /h/guard.sh',
      '    - command: " /h/audit.sh "',
      '      matcher: terminal',
      '  pre_verify:',
      '',
    ].join('\n');
    const merged = mergeIntoConfig(existing, imported);
    expect(merged).toBe(
      [
        'hooks:',
        '  pre_tool_call:',
        '    # the native guard',
        '    - command: /h/guard.sh',
        '    - command: " /h/audit.sh "',
        '      matcher: terminal',
        '  pre_verify:',
        '    - command: /h/stop.sh',
        '      dialect: cursor',
        '',
      ].join('\n'),
    );
    // Merging twice changes nothing.
    expect(mergeIntoConfig(merged, imported)).toBe(merged);
  });

  it('starts a config from nothing; refuses a config it cannot extend', () => {
    expect(mergeIntoConfig('', imported.slice(1))).toBe('hooks:\n  pre_verify:\n    - command: /h/stop.sh\n      dialect: cursor\n');
    expect(() => mergeIntoConfig('hooks: [1]\n', imported)).toThrow('hooks: in config.yaml is not a mapping');
    expect(() => mergeIntoConfig('hooks:\n  pre_verify: yes\n', imported)).toThrow('hooks.pre_verify in config.yaml is not a list');
    expect(() => mergeIntoConfig('- a\n', imported)).toThrow('config.yaml must be a mapping at the top level');
    expect(() => mergeIntoConfig('a: [\n', imported)).toThrow(/^config.yaml does not parse: /);
  });
});

describe("importAgentConfig on a Hermes config.yaml holding another agent's block (issue 20)", () => {
  const pasted = [
    'model: opus  # the rest of the config is left alone',
    'hooks:',
    '  pre_tool_call:',
    '    - command: /ok.sh',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    '          command: /g.sh',
    '          timeout: 10',
    '  UserPromptSubmit:',
    '    - command: /ctx.sh',
    '',
  ].join('\n');

  it('converts only the foreign keys (groups, and flat entries under their names), naming them', () => {
    const r = importAgentConfig('/h/.hermes/config.yaml', pasted);
    expect(r.dialect).toBe('claude');
    expect(r.foreignKeys).toEqual(['PreToolUse', 'UserPromptSubmit']);
    expect(r.hooks).toEqual([
      { event: 'pre_tool_call', command: '/g.sh', matcher: 'Bash', timeout: 10, fail_closed: false, dialect: 'claude', source: 'hooks.PreToolUse[0].hooks[0]' },
      { event: 'pre_llm_call', command: '/ctx.sh', matcher: null, timeout: null, fail_closed: false, dialect: 'claude', source: 'hooks.UserPromptSubmit[0]' },
    ]);
    expect(r.diagnostics.filter((d) => d.level !== 'info')).toEqual([]);
  });

  it('--write replaces them in that same file, keeping the Hermes entries and the rest; again, it changes nothing', () => {
    const r = importAgentConfig('/h/.hermes/config.yaml', pasted);
    const merged = mergeIntoConfig(pasted, r.hooks, { replaceKeys: r.foreignKeys! });
    expect(merged).toBe(
      [
        'model: opus # the rest of the config is left alone',
        'hooks:',
        '  pre_tool_call:',
        '    - command: /ok.sh',
        '    - command: /g.sh',
        '      matcher: Bash',
        '      timeout: 10',
        '      dialect: claude',
        '  pre_llm_call:',
        '    - command: /ctx.sh',
        '      dialect: claude',
        '',
      ].join('\n'),
    );
    const again = importAgentConfig('/h/.hermes/config.yaml', merged);
    expect(again.foreignKeys).toEqual([]);
    expect(again.hooks).toEqual([]);
  });

  it('a Cursor block (version: 1, flat entries) keeps its family matcher and failClosed', () => {
    const r = importAgentConfig('/h/x.conf', 'version: 1\nhooks:\n  beforeShellExecution:\n    - command: /g.sh\n      failClosed: true\n', {
      hermesConfig: true,
    });
    expect(r.dialect).toBe('cursor');
    expect(r.hooks).toEqual([
      {
        event: 'pre_tool_call',
        command: '/g.sh',
        matcher: 'terminal',
        timeout: null,
        fail_closed: true,
        dialect: 'cursor',
        source: 'hooks.beforeShellExecution[0]',
      },
    ]);
  });
});

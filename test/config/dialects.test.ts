import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { parseDialectsConfig } from '../../src/config/dialects.js';
import { DEFAULT_DIALECT_MAPS as maps, toOurEvent, toOurTool, toTheirTool, argsToOurs } from '../../src/dialects/names.js';

describe('parseDialectsConfig', () => {
  const text = [
    'hooks: {}',
    'dialects:',
    '  claude:',
    '    events:',
    '      Notification: on_human_input_request',
    '      PostToolUseFailure: null',
    '      Bogus: not_an_event',
    '      Classify: transform_api_error_classification',
    '    tools:',
    '      NotebookEdit: patch',
    '      Glob: null',
    '      Broken: 42',
    '    args:',
    '      NotebookEdit: {notebook_path: path}',
    "      '*': {file_path: null}",
    '      Bash: [command]',
    '  hermes: {}',
    '  claud: {}',
    '  gemini: [1]',
    '  cursor:',
    '    colours: {}',
    '',
  ].join('\n');

  it('merges overrides over the defaults and reports every bad entry with its position', () => {
    const { maps: merged, diagnostics } = parseDialectsConfig(parseConfigText(text, '/p/config.yaml'));
    expect(diagnostics.map((d) => [d.level, d.path, d.line, d.column, d.message])).toEqual([
      ['warning', 'dialects.claude.events.Bogus', 7, 14, "'not_an_event' is not a Hermes event; ignoring"],
      [
        'warning',
        'dialects.claude.events.Classify',
        8,
        17,
        "'transform_api_error_classification' is Python-plugin-only; shell hooks cannot serve it; ignoring",
      ],
      ['warning', 'dialects.claude.tools.Broken', 12, 15, 'must be a tool name (a non-empty string) or null; got number 42'],
      ['warning', 'dialects.claude.args.Bash', 16, 13, 'must be a mapping of their argument key to ours; got a list'],
      ['warning', 'dialects.hermes', 17, 3, 'hermes is the native wire and has no name maps; ignoring'],
      [
        'warning',
        'dialects.claud',
        18,
        3,
        "unknown dialect 'claud' under dialects: (valid: claude, codex, gemini, cursor, copilot, qwen, droid, goose, antigravity); ignoring",
      ],
      ['warning', 'dialects.gemini', 19, 11, 'must be a mapping with events, tools, args and/or platform; got a list'],
      ['warning', 'dialects.cursor.colours', 21, 5, "unknown key 'colours' under dialects.cursor (valid: events, tools, args, platform); ignoring"],
    ]);
    expect(diagnostics.every((d) => d.file === '/p/config.yaml')).toBe(true);

    expect(toOurEvent(merged, 'claude', 'Notification')).toBe('on_human_input_request');
    expect(toOurEvent(merged, 'claude', 'PostToolUseFailure')).toBeNull();
    expect(toOurEvent(merged, 'claude', 'PreToolUse')).toBe('pre_tool_call');
    // The user's entry comes first, so it is also how our patch renders.
    expect(toOurTool(merged, 'claude', 'NotebookEdit')).toBe('patch');
    expect(toTheirTool(merged, 'claude', 'patch')).toBe('NotebookEdit');
    expect(toOurTool(merged, 'claude', 'Glob')).toBe('Glob');
    expect(argsToOurs(merged, 'claude', 'NotebookEdit', { notebook_path: 'a.ipynb' })).toEqual({ path: 'a.ipynb' });
    expect(argsToOurs(merged, 'claude', 'Read', { file_path: 'a' })).toEqual({ file_path: 'a' });
    // Other dialects keep their defaults.
    expect(merged.codex).toBe(maps.codex);
    expect(toTheirTool(merged, 'gemini', 'patch')).toBe('replace');
  });

  it('no dialects key → the defaults, silently; a non-mapping → the defaults with a warning', () => {
    expect(parseDialectsConfig(parseConfigText('hooks: {}\n', 'c.yaml'))).toEqual({ maps, diagnostics: [] });
    const r = parseDialectsConfig(parseConfigText('dialects: claude\n', 'c.yaml'));
    expect(r.maps).toBe(maps);
    expect(r.diagnostics.map((d) => [d.path, d.line, d.message])).toEqual([
      ['dialects', 1, 'must be a mapping of agent name to name maps; got string "claude"'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  argsToOurs,
  argsToTheirs,
  DEFAULT_DIALECT_MAPS as maps,
  defaultDialectMaps,
  mcpNameToOurs,
  mcpNameToTheirs,
  theirToolNames,
  toOurEvent,
  toOurTool,
  toTheirEvent,
  toTheirTool,
} from '../../src/dialects/names.js';

describe('default event maps', () => {
  it.each([
    ['PreToolUse', 'pre_tool_call'],
    ['PostToolUse', 'post_tool_call'],
    ['UserPromptSubmit', 'pre_llm_call'],
    ['SessionStart', 'on_session_start'],
    ['SessionEnd', 'on_session_end'],
    ['SubagentStop', 'subagent_stop'],
    ['Stop', 'pre_verify'],
  ] as const)('Claude %s ↔ %s, both ways', (theirs, ours) => {
    expect(toOurEvent(maps, 'claude', theirs)).toBe(ours);
    expect(toTheirEvent(maps, 'claude', ours)).toBe(theirs);
  });

  it('Codex uses Claude names for the events it fires', () => {
    expect(toTheirEvent(maps, 'codex', 'pre_tool_call')).toBe('PreToolUse');
    expect(toTheirEvent(maps, 'codex', 'pre_verify')).toBe('Stop');
    expect(toTheirEvent(maps, 'codex', 'subagent_stop')).toBeNull();
  });

  it('Gemini and Cursor have their own names', () => {
    expect(toTheirEvent(maps, 'gemini', 'pre_tool_call')).toBe('BeforeTool');
    expect(toTheirEvent(maps, 'gemini', 'pre_llm_call')).toBe('BeforeAgent');
    expect(toTheirEvent(maps, 'gemini', 'pre_verify')).toBe('AfterAgent');
    expect(toTheirEvent(maps, 'cursor', 'pre_tool_call')).toBe('preToolUse');
    expect(toOurEvent(maps, 'cursor', 'beforeShellExecution')).toBe('pre_tool_call');
    expect(toOurEvent(maps, 'cursor', 'beforeReadFile')).toBe('pre_tool_call');
    expect(toTheirEvent(maps, 'cursor', 'pre_llm_call')).toBe('beforeSubmitPrompt');
    expect(toTheirEvent(maps, 'cursor', 'pre_verify')).toBe('stop');
  });

  it('an event with no counterpart maps to nothing', () => {
    expect(toTheirEvent(maps, 'claude', 'on_session_finalize')).toBeNull();
    expect(toOurEvent(maps, 'claude', 'Notification')).toBeNull();
    expect(defaultDialectMaps()).toBe(maps);
  });
});

describe('default tool and argument maps', () => {
  it('maps Claude tools both ways; Edit and MultiEdit are both patch, rendered as Edit', () => {
    expect(toOurTool(maps, 'claude', 'Bash')).toBe('terminal');
    expect(toOurTool(maps, 'claude', 'Read')).toBe('read_file');
    expect(toOurTool(maps, 'claude', 'Write')).toBe('write_file');
    expect(toOurTool(maps, 'claude', 'MultiEdit')).toBe('patch');
    expect(toTheirTool(maps, 'claude', 'patch')).toBe('Edit');
    expect(theirToolNames(maps, 'claude', 'patch')).toEqual(['Edit', 'MultiEdit']);
    expect(toTheirTool(maps, 'claude', 'terminal')).toBe('Bash');
    // A tool nobody mapped keeps its name.
    expect(toTheirTool(maps, 'claude', 'vision_analyze')).toBe('vision_analyze');
    expect(toOurTool(maps, 'claude', 'NotebookEdit')).toBe('NotebookEdit');
  });

  it('Codex: canonical Bash and apply_patch, with Write/Edit as aliases of apply_patch', () => {
    expect(toTheirTool(maps, 'codex', 'terminal')).toBe('Bash');
    expect(toTheirTool(maps, 'codex', 'patch')).toBe('apply_patch');
    expect(theirToolNames(maps, 'codex', 'patch')).toEqual(['apply_patch', 'Edit', 'Write']);
    expect(toOurTool(maps, 'codex', 'shell')).toBe('terminal');
  });

  it('Gemini and Cursor tool names', () => {
    expect(toTheirTool(maps, 'gemini', 'terminal')).toBe('run_shell_command');
    expect(toTheirTool(maps, 'gemini', 'patch')).toBe('replace');
    expect(toOurTool(maps, 'gemini', 'google_web_search')).toBe('web_search');
    expect(toTheirTool(maps, 'cursor', 'terminal')).toBe('Shell');
  });

  it('MCP: mcp__server__tool ↔ mcp_server_tool (not for Cursor)', () => {
    expect(mcpNameToOurs('mcp__github__create_issue')).toBe('mcp_github_create_issue');
    expect(mcpNameToOurs('mcp__my-server__do.it')).toBe('mcp_my_server_do_it');
    expect(mcpNameToTheirs('mcp_github_create_issue')).toBe('mcp__github__create_issue');
    expect(mcpNameToOurs('Bash')).toBeNull();
    expect(toOurTool(maps, 'claude', 'mcp__memory__store')).toBe('mcp_memory_store');
    expect(toTheirTool(maps, 'gemini', 'mcp_memory_store')).toBe('mcp__memory__store');
    expect(toTheirTool(maps, 'cursor', 'mcp_memory_store')).toBe('mcp_memory_store');
  });

  it('renames argument keys: file_path ↔ path, tool-specific maps before *', () => {
    expect(argsToOurs(maps, 'claude', 'Read', { file_path: '/a', offset: 3 })).toEqual({ path: '/a', offset: 3 });
    expect(argsToTheirs(maps, 'claude', 'Read', { path: '/a', offset: 3 })).toEqual({ file_path: '/a', offset: 3 });
    expect(argsToOurs(maps, 'claude', 'Bash', { command: 'ls', run_in_background: true })).toEqual({ command: 'ls', background: true });
    expect(argsToOurs(maps, 'claude', 'Grep', { pattern: 'x', glob: '*.ts', path: 'src' })).toEqual({ pattern: 'x', file_glob: '*.ts', path: 'src' });
    expect(argsToOurs(maps, 'gemini', 'read_file', { absolute_path: '/a' })).toEqual({ path: '/a' });
    // Going back, the first of several keys for `path` wins: Gemini's current file_path.
    expect(argsToTheirs(maps, 'gemini', 'read_file', { path: '/a' })).toEqual({ file_path: '/a' });
    expect(argsToTheirs(maps, 'gemini', 'run_shell_command', { command: 'ls', workdir: '/w' })).toEqual({ command: 'ls', dir_path: '/w' });
    // A renamed key wins over a pass-through key of the same name, whatever the order.
    expect(argsToOurs(maps, 'claude', 'Read', { path: 'stale', file_path: '/meant' })).toEqual({ path: '/meant' });
    expect(argsToOurs(maps, 'claude', null, { file_path: '/a' })).toEqual({ path: '/a' });
  });
});

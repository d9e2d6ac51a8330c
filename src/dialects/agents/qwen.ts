// Qwen Code (@qwen-code/qwen-code 0.24.4, tried here: reference new-agents-2026-12.md §Qwen Code).
// A Gemini CLI fork that took Claude Code's hooks: Claude's event names, matcher groups and
// `hookSpecificOutput` answers in `settings.json`, with its own tool names (run_shell_command …,
// arguments under `file_path`). Its stdin is Claude's plus timestamp, prompt_id and tool_call_id.
// Quirks, as seen in 0.24.4: timeouts are SECONDS except that a value of 1000 or more is still read
// as milliseconds (the 1.x examples wrote ms); `updatedInput` on PreToolUse is ignored although its
// docs say it rewrites; a hook that times out, exits 1 or prints garbage fails open.

import { answerClaudeFamily, readClaudeFamily, renderClaudeFamily } from './_claude-family.js';
import { defineAgent } from './module.js';

export const qwen = defineAgent({
  name: 'qwen',
  label: 'Qwen Code',
  mimics: 'claude',
  names: {
    events: {
      PreToolUse: 'pre_tool_call',
      PostToolUse: 'post_tool_call',
      PostToolUseFailure: 'post_tool_call',
      UserPromptSubmit: 'pre_llm_call',
      Stop: 'pre_verify',
      SessionStart: 'on_session_start',
      SessionEnd: 'on_session_end',
      SubagentStart: 'subagent_start',
      SubagentStop: 'subagent_stop',
    },
    tools: {
      run_shell_command: 'terminal',
      read_file: 'read_file',
      write_file: 'write_file',
      edit: 'patch',
      grep_search: 'search_files',
      glob: 'search_files',
      web_search: 'web_search',
      web_fetch: 'web_extract',
      agent: 'delegate_task',
      todo_write: 'todo',
    },
    args: {
      '*': { file_path: 'path' },
      run_shell_command: { is_background: 'background', directory: 'workdir' },
      grep_search: { glob: 'file_glob', path: 'path' },
      glob: { path: 'path' },
      agent: { prompt: 'goal' },
    },
  },
  mcpDoubleUnderscore: true,
  configShape: 'groups',
  timeoutUnit: 's',
  timeoutMsFrom: 1000,
  toolFailureEvents: ['PostToolUseFailure'],
  stdin: {
    kwargs: {
      pre_tool_call: { tool_use_id: 'tool_call_id' },
      post_tool_call: { tool_use_id: 'tool_call_id', tool_response: 'result', error: 'error_message' },
      pre_llm_call: { prompt: 'user_message' },
      pre_verify: { last_assistant_message: 'final_response' },
      subagent_start: { agent_id: 'child_session_id', agent_type: 'child_role' },
      subagent_stop: { agent_id: 'child_session_id', agent_type: 'child_role' },
    },
    attempt: { key: 'stop_hook_active', counts: 'repeat' },
  },
  blockOnStdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
  renderStdin: (f) => ({ ...renderClaudeFamily('claude', f), prompt_id: typeof f.extra['prompt_id'] === 'string' ? f.extra['prompt_id'] : '' }),
  readRun: (r) => readClaudeFamily('claude', r),
  answer: (a) => answerClaudeFamily('claude', a),
  // Claude's keys plus prompt_id, which Claude Code never sends.
  recognise: { mimicMark: 'prompt_id' },
  import: {
    formats: [
      {
        id: 'qwen',
        writer: 'Qwen Code',
        title: 'Qwen Code settings',
        dir: '.qwen',
        timeoutUnit: 's',
        defaultTimeout: 60,
        projectDirVar: 'QWEN_PROJECT_DIR',
        envPrefix: 'QWEN',
      },
    ],
    matcherStyle: 'regex',
    invalidMatcher: 'exact',
    shell: 'sh',
  },
  doctor: {
    files: [
      { under: 'home', path: '.qwen/settings.json', role: 'reads' },
      { under: 'project', path: '.qwen/settings.json', role: 'reads' },
      { under: 'home', path: '.qwen/hooks.json', role: 'wrong', instead: '~/.qwen/settings.json (under "hooks")' },
      { under: 'project', path: '.qwen/hooks.json', role: 'wrong', instead: '.qwen/settings.json (under "hooks")' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    defaultTimeout: 60,
    exactNameMatchers: false,
    invalidMatcher: 'exact',
    notes: ['Qwen Code reads the project .qwen/settings.json only in a trusted folder; ~/.qwen/settings.json always.'],
  },
  printConfig: {
    setupNotes: [
      'Where: merge the "hooks" object into ~/.qwen/settings.json (every project) or',
      '  <project>/.qwen/settings.json (read only once the folder is trusted). Keep the other keys.',
      'Timeouts are seconds (Qwen Code 0.24.4; a value of 1000 or more is read as milliseconds).',
      'Qwen Code 0.24.4 ignores updatedInput: a hook that rewrites a call is dropped there and the',
      '  original call runs; blocks and context work. It has no fail-closed setting (a timeout or exit 1',
      '  lets the call through): the printed command blocks by itself when serve cannot answer.',
    ],
  },
  support: {
    block: 'yes',
    rewrite: 'ignored',
    context: 'yes',
    stop: 'yes',
    failures: {
      timeout: 'fails open: the call runs',
      crash: 'a command that cannot start or exits 1 fails open: the call runs',
      garbled: 'stdout that is not JSON is ignored: the call runs',
    },
    verified: { how: 'real-agent', version: '0.24.4' },
    drops: { rewrite: 'Qwen Code 0.24.4 ignores updatedInput on PreToolUse (its docs say it rewrites)' },
  },
});

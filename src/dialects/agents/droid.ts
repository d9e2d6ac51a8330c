// Factory Droid (@factory/cli-linux-x64 0.225.2, tried here: reference new-agents-2026-12.md
// §Factory Droid). Claude Code's events, entry shape and `hookSpecificOutput` answers, with its own
// tool names (Execute, Read, Create, Edit …; Edit's strings are old_str/new_str). Its hooks file
// `hooks.json` (~/.factory, <project>/.factory) is keyed by event AT THE TOP LEVEL: a `hooks`
// wrapper there is ignored (with a warning nobody sees under `droid exec`), so nothing runs. Only
// when hooks.json is absent does it read the `hooks` key of the settings.json beside it.
// A hook that times out, exits 1 or prints garbage fails open (exit 1's stderr joins the tool output).

import { answerClaudeFamily, readClaudeFamily, renderClaudeFamily } from './_claude-family.js';
import { defineAgent } from './module.js';

export const droid = defineAgent({
  name: 'droid',
  label: 'Factory Droid',
  mimics: 'claude',
  names: {
    events: {
      PreToolUse: 'pre_tool_call',
      PostToolUse: 'post_tool_call',
      UserPromptSubmit: 'pre_llm_call',
      Stop: 'pre_verify',
      SessionStart: 'on_session_start',
      SessionEnd: 'on_session_end',
      SubagentStop: 'subagent_stop',
    },
    tools: {
      Execute: 'terminal',
      Read: 'read_file',
      Create: 'write_file',
      Edit: 'patch',
      MultiEdit: 'patch',
      ApplyPatch: 'patch',
      Grep: 'search_files',
      Glob: 'search_files',
      WebSearch: 'web_search',
      FetchUrl: 'web_extract',
      Task: 'delegate_task',
      TodoWrite: 'todo',
    },
    args: {
      '*': { file_path: 'path' },
      Edit: { old_str: 'old_string', new_str: 'new_string' },
      Grep: { glob: 'file_glob', path: 'path' },
      Glob: { path: 'path' },
      Task: { prompt: 'goal' },
    },
  },
  mcpDoubleUnderscore: true,
  configShape: 'groups',
  timeoutUnit: 's',
  topLevelEvents: /(^|[\\/])hooks\.json$/,
  stdin: {
    kwargs: {
      pre_tool_call: { tool_use_id: 'tool_call_id' },
      post_tool_call: { tool_use_id: 'tool_call_id', tool_response: 'result' },
      pre_llm_call: { prompt: 'user_message' },
      pre_verify: { last_assistant_message: 'final_response' },
      subagent_stop: { agent_id: 'child_session_id', agent_type: 'child_role' },
    },
    attempt: { key: 'stop_hook_active', counts: 'repeat' },
  },
  blockOnStdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
  renderStdin: (f) => renderClaudeFamily('claude', f),
  readRun: (r) => readClaudeFamily('claude', r),
  answer: (a) => answerClaudeFamily('claude', a),
  // Its stdin is Claude Code's key for key: nothing tells the two apart.
  recognise: {},
  import: {
    formats: [
      {
        id: 'droid',
        writer: 'Factory Droid',
        title: 'Factory Droid hooks',
        dir: '.factory',
        timeoutUnit: 's',
        defaultTimeout: 60,
        projectDirVar: 'FACTORY_PROJECT_DIR',
        envPrefix: 'FACTORY',
      },
    ],
    matcherStyle: 'names-or-regex',
    invalidMatcher: 'exact',
    shell: 'sh',
  },
  doctor: {
    files: [
      { under: 'home', path: '.factory/hooks.json', role: 'reads' },
      { under: 'project', path: '.factory/hooks.json', role: 'reads' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse'],
    defaultTimeout: 60,
    exactNameMatchers: false,
    invalidMatcher: 'exact',
    notes: ['Factory Droid reads the "hooks" of .factory/settings.json only where no .factory/hooks.json exists: those are not checked here.'],
  },
  printConfig: {
    setupNotes: [
      'Where: ~/.factory/hooks.json (every project) or <project>/.factory/hooks.json, the events at the',
      '  TOP LEVEL of the file, as printed: Droid ignores a "hooks" wrapper there. Merge into the events',
      '  already in it. Start a new droid session after editing; /hooks lists what it loaded.',
      'It has no fail-closed setting (a timeout or exit 1 lets the call through): the printed command',
      '  blocks by itself when serve cannot answer.',
    ],
  },
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'yes',
    stop: 'yes',
    failures: {
      timeout: 'fails open: the call runs',
      crash: 'a command that cannot start or exits 1 fails open: the call runs (exit 1 stderr joins the tool output)',
      garbled: 'stdout that is not JSON is ignored: the call runs',
    },
    verified: { how: 'real-agent', version: '0.225.2' },
  },
});

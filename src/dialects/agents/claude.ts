// Claude Code (reference §b1). Qwen Code and Factory Droid write its shapes with their own tool names (qwen.ts, droid.ts).
//
// Names: Hermes tool names/keys are terminal{command, workdir, background, timeout},
// read_file{path, offset, limit}, write_file{path, content}, patch{mode, path, old_string,
// new_string, replace_all, patch}, search_files{pattern, target, path, file_glob}, web_search{query},
// web_extract{urls}, delegate_task{goal, context}, todo{todos}, memory.
// Only keys that mean the same thing are renamed; values are never converted (Claude's Bash
// `timeout` is in ms, Hermes' terminal `timeout` in s: the key passes through unchanged).

import { answerClaudeFamily, readClaudeFamily, renderClaudeFamily } from './_claude-family.js';
import { defineAgent } from './module.js';

const SETUP_NOTES = [
  'Where: merge the "hooks" object into ~/.claude/settings.json (every project) or',
  '  <project>/.claude/settings.json (that project; .claude/settings.local.json to keep it out of git).',
  '  Keep the other keys of the file; if it already has "hooks", add these events to it.',
  "Before it runs: interactive Claude Code holds back settings-file hooks until the folder's",
  '  workspace-trust dialog is accepted (claude -p treats the folder as trusted). Start a new',
  '  session after editing; /hooks in Claude Code lists what it loaded.',
  'The PreToolUse handler carries "onFailure": "block" (Claude Code 2.1.295+): a command that cannot',
  '  start, times out or exits oddly blocks the call instead of letting it through. Keep it when editing.',
];

export const claude = defineAgent({
  name: 'claude',
  label: 'Claude Code',
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
      Bash: 'terminal',
      Read: 'read_file',
      Write: 'write_file',
      Edit: 'patch',
      MultiEdit: 'patch',
      Grep: 'search_files',
      Glob: 'search_files',
      WebSearch: 'web_search',
      WebFetch: 'web_extract',
      Task: 'delegate_task',
      TodoWrite: 'todo',
    },
    args: {
      '*': { file_path: 'path' },
      Bash: { run_in_background: 'background' },
      // Grep and Glob name their folder `path`, as we do: pinned, or `*` would render it file_path.
      Grep: { glob: 'file_glob', path: 'path' },
      Glob: { path: 'path' },
      Task: { prompt: 'goal' },
    },
  },
  mcpDoubleUnderscore: true,
  configShape: 'groups',
  timeoutUnit: 's',
  toolFailureEvents: ['PostToolUseFailure'],
  // Claude sets it in every command hook's env: "1" for an attended session (interactive, or an
  // IDE/desktop entrypoint), "0" for -p/--print, SDK and background runs.
  attendedEnv: { variable: 'CLAUDE_CODE_SESSION_ATTENDED', attended: '1', unattended: '0' },
  // Their stdin's own fields under our kwarg names (renderStdin writes the same fields back).
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
  renderStdin: (f) => renderClaudeFamily('claude', f),
  readRun: (r) => readClaudeFamily('claude', r),
  answer: (a) => answerClaudeFamily('claude', a),
  // Keys no Hermes payload has at the top level (its extras live under `extra`); transcript_path
  // alone tells (Gemini sends it too: see its stdinMark), or any two of them.
  recognise: { stdinKeys: ['transcript_path', 'permission_mode', 'tool_use_id'] },
  import: {
    formats: [
      {
        id: 'claude',
        writer: 'Claude Code',
        title: 'Claude Code settings',
        dir: '.claude',
        timeoutUnit: 's',
        defaultTimeout: 600,
        projectDirVar: 'CLAUDE_PROJECT_DIR',
        envPrefix: 'CLAUDE',
      },
    ],
    matcherStyle: 'names-or-regex',
    invalidMatcher: 'exact',
    shell: 'sh',
  },
  doctor: {
    files: [
      { under: 'home', path: '.claude/settings.json', role: 'reads' },
      { under: 'project', path: '.claude/settings.json', role: 'reads' },
      { under: 'project', path: '.claude/settings.local.json', role: 'reads' },
      { under: 'home', path: '.claude/hooks.json', role: 'wrong', instead: '~/.claude/settings.json (under "hooks")' },
      { under: 'project', path: '.claude/hooks.json', role: 'wrong', instead: '.claude/settings.json (under "hooks")' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    defaultTimeout: 600,
    defaultTimeoutOn: { UserPromptSubmit: 30 },
    exactNameMatchers: true,
    invalidMatcher: 'skip',
    notes: [
      "cannot verify workspace trust: interactive Claude Code runs settings-file hooks only after the folder's trust dialog is accepted (claude -p " +
        'trusts it); /hooks in Claude Code lists what it loaded.',
    ],
  },
  printConfig: {
    httpHooks: true,
    // "HTTP hooks are not supported for SessionStart" (and Setup): Claude skips them with a log line.
    noHttpOn: ['SessionStart', 'Setup'],
    // Every turn starts with a prompt: through the client it brings back a serve that idled out.
    startsServeOn: ['UserPromptSubmit'],
    // Every wiring's PreToolUse command handler (client, --run; --http's http one too): not optional.
    gateFailClosed: { onFailure: 'block' },
    setupNotes: SETUP_NOTES,
    // The --http snippet's onFailure: say what it depends on.
    httpNotes: (tokenFile, setupNotes) => [
      `  and give Claude Code the token: export HERMES_HOOKS_TOKEN=$(cat ${tokenFile})`,
      ...setupNotes.filter((l) => l !== SETUP_NOTES[6] && l !== SETUP_NOTES[7]),
      'Needs Claude Code 2.1.295+ for "onFailure": "block": an older one lets every call through while the',
      '  server is down or the token is wrong — wire it with print-config claude (no --http) there.',
    ],
    // Mods (2.1.287+, tried on 2.1.332): tool.call (before and after next), prompt.submit, turn.complete,
    // session.start and session.end are the events a mod sees that have a hook name.
    mod: {
      events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'],
      since: '2.1.287',
      manifest: '.claude-plugin/plugin.json',
      template: 'agent-mod/register.js',
      enable: (dir) => [
        `Enable it: claude --plugin-dir ${dir} (each session), or for good: claude plugin marketplace add ${dir}, then`,
        '  claude plugin install hermes-hooks@<the marketplace it named> (writes enabledPlugins). Needs Claude Code 2.1.287+; an older one',
        '  ignores the folder — keep the command hooks (print-config claude, no --mod) there.',
        "Don't also keep print-config's command hooks in settings.json: every call would be checked twice.",
        `Check it: claude plugin validate ${dir}  and  hermes-hooks doctor --agent claude --mod ${dir}`,
      ],
    },
  },
  // Proven by scripts/e2e/claude.mjs (claude -p against a fake model, every wiring and serve state).
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'yes',
    stop: 'yes',
    failures: {
      timeout: 'no decision, the call runs — unless onFailure: block (2.1.295+), which print-config sets on PreToolUse',
      crash: 'a non-blocking error (exit other than 0/2), the call runs — unless onFailure: block',
      garbled: 'stdout that is not JSON is shown as text, the call runs',
    },
    verified: { how: 'real-agent', version: 'Claude Code 2.1.197' },
  },
});

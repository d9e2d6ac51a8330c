// Gemini CLI (reference §b3): top-level `decision`/`reason` answers, `hookSpecificOutput.tool_input`
// (merged onto the call), plain text read by exit code; timeouts in milliseconds; settings.json
// allows comments.
//
// Where Gemini fails open on something its author clearly meant as "no", we block instead
// (DECISION below): exit 2 with no output, or with JSON that does not deny, lets the tool run in
// Gemini (the bug llxprt-code fixed in PR #2975); here exit 2 on a tool call always blocks.

import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import { firstText, nonBlank, parseMaybeJson, promptText } from '../values.js';
import { defineAgent, type AnswerInput, type DialectAnswer, type ReadInput, type Reading, type StdinFields } from './module.js';
import { approve, block, BLOCKED, contextOf, continueWith, json, none, obj, OK_EMPTY, str, withSystemMessage } from './_read.js';

function renderStdin(f: StdinFields): Record<string, unknown> {
  const { ourEvent, extra } = f;
  const out: Record<string, unknown> = {
    session_id: f.sessionId,
    transcript_path: f.transcriptPath,
    cwd: f.cwd,
    hook_event_name: f.theirEvent,
    timestamp: f.timestamp ?? new Date().toISOString(),
  };
  if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
    out['tool_name'] = f.theirTool;
    out['tool_input'] = f.toolInput;
    if (ourEvent === 'post_tool_call') out['tool_response'] = parseMaybeJson(extra['result']);
  } else if (ourEvent === 'pre_llm_call') {
    out['prompt'] = promptText(extra['user_message']);
  } else if (ourEvent === 'pre_verify') {
    out['prompt'] = promptText(extra['user_message']);
    out['prompt_response'] = str(extra['final_response']) ?? '';
    out['stop_hook_active'] = f.attempt > 1;
  } else if (ourEvent === 'on_session_start') {
    out['source'] = 'startup';
  } else if (ourEvent === 'on_session_end') {
    out['reason'] = 'exit';
  }
  return out;
}

function decideJson(json: JsonObject, r: ReadInput): Directive | null {
  const hso = obj(json['hookSpecificOutput']);
  const decision = json['decision'];
  const reason = nonBlank(json['reason']);
  const context = nonBlank(hso['additionalContext']);
  switch (r.event) {
    case 'pre_tool_call':
      if (json['continue'] === false) return block(firstText(json['stopReason'], reason));
      if (decision === 'deny' || decision === 'block') return block(reason);
      if (decision === 'ask') return approve(reason);
      // Gemini shallow-merges tool_input onto the call, exactly what our modify does.
      if (isPlainObject(hso['tool_input'])) return { action: 'modify', args: r.toOurArgs(hso['tool_input']) };
      return contextOf(context);
    case 'pre_verify':
      // AfterAgent deny = "retry", with the reason as the next instruction.
      return decision === 'deny' || decision === 'block' ? continueWith(reason) : null;
    default:
      return contextOf(context);
  }
}

function parseText(text: string): JsonObject | null {
  try {
    let v = JSON.parse(text) as unknown;
    // Gemini parses twice when the first parse yields a string (a JSON-encoded JSON object).
    if (typeof v === 'string') v = JSON.parse(v) as unknown;
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}

function readRun(r: ReadInput): Reading {
  const { stdout, event } = r;
  const exit = r.run.exit_code;
  // Gemini reads stderr when stdout is empty.
  const text = stdout !== '' ? stdout : r.run.stderr.trim();
  const json = text === '' ? null : parseText(text);
  const garbled = stdout !== '' && json === null;
  const blocksTool = exit === 2 && event === 'pre_tool_call';

  if (json) {
    const directive = decideJson(json, r);
    // DECISION: exit 2 blocks a tool call even when the JSON does not deny (Gemini lets it run).
    if (blocksTool && directive?.action !== 'block') return { directive: block(firstText(json['reason'], r.stderr)), garbled };
    return { directive, garbled };
  }
  if (text === '') {
    // DECISION: exit 2 with no output blocks (fixing the llxprt-code bug, reference §c 5).
    return { directive: blocksTool ? block(undefined) : null, garbled };
  }
  // Plain text: exit 0 → allow (a system message), exit 1 → warning, any other code → deny with the text.
  if (exit !== null && exit >= 2) {
    if (event === 'pre_tool_call') return { directive: block(text.slice(0, 400)), garbled };
    if (event === 'pre_verify') return { directive: continueWith(text), garbled };
  }
  return none(garbled);
}

// A guardrail warning (decision.context) on BeforeTool is not sent: Gemini drops additionalContext
// there (it reads it on AfterTool only), and the next AfterTool is another process's answer.
// Exit 0 + `decision` JSON: Gemini ignores the exit code when JSON is present and does not block on
// exit 2 without text (§b3). A rewrite is `hookSpecificOutput.tool_input` alone: Gemini reads it
// whatever the decision, so no `decision:"allow"` is sent with it.
// Gemini shows a top-level systemMessage to the person on every event.
const answer = (a: AnswerInput): DialectAnswer => withSystemMessage(answerDecision(a), a.notice);

function answerDecision({ theirEvent, decision, theirArgs }: AnswerInput): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    const rewrite = theirArgs ? { hookSpecificOutput: { hookEventName: theirEvent, tool_input: theirArgs } } : {};
    if (decision.action === 'block') {
      const reason = decision.message ?? BLOCKED;
      // A hard stop (stop_turn) also ends the agent loop: Gemini honours `continue:false` on BeforeTool.
      return json({ decision: 'deny', reason, ...(decision.stop_turn === true ? { continue: false, stopReason: reason } : {}) });
    }
    if (decision.action === 'approve') return json({ decision: 'ask', ...(decision.message ? { reason: decision.message } : {}), ...rewrite });
    // No `decision`: the rewrite alone, whatever Gemini would have decided on its own.
    if (theirArgs) return json(rewrite);
    return OK_EMPTY;
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ decision: 'deny', reason: decision.message ?? 'Continue.' });
  }
  if (decision.context !== null) return json({ hookSpecificOutput: { hookEventName: theirEvent, additionalContext: decision.context } });
  return OK_EMPTY;
}

export const gemini = defineAgent({
  name: 'gemini',
  label: 'Gemini CLI',
  names: {
    events: {
      BeforeTool: 'pre_tool_call',
      AfterTool: 'post_tool_call',
      BeforeAgent: 'pre_llm_call',
      AfterAgent: 'pre_verify',
      SessionStart: 'on_session_start',
      SessionEnd: 'on_session_end',
    },
    tools: {
      run_shell_command: 'terminal',
      read_file: 'read_file',
      write_file: 'write_file',
      replace: 'patch',
      search_file_content: 'search_files',
      glob: 'search_files',
      google_web_search: 'web_search',
      web_fetch: 'web_extract',
      write_todos: 'todo',
      save_memory: 'memory',
    },
    args: {
      // Older Gemini releases called read_file's key `absolute_path`; `file_path` renders first.
      '*': { file_path: 'path', absolute_path: 'path' },
      run_shell_command: { dir_path: 'workdir', directory: 'workdir' },
      search_file_content: { include: 'file_glob', dir_path: 'path' },
      glob: { dir_path: 'path' },
    },
  },
  mcpDoubleUnderscore: true,
  configShape: 'groups',
  configComments: true,
  timeoutUnit: 'ms',
  // Their stdin's own fields under our kwarg names (renderStdin writes the same fields back).
  stdin: {
    kwargs: {
      post_tool_call: { tool_response: 'result' },
      pre_llm_call: { prompt: 'user_message' },
      pre_verify: { prompt: 'user_message', prompt_response: 'final_response' },
    },
    attempt: { key: 'stop_hook_active', counts: 'repeat' },
  },
  blockOnStdout: '{"decision":"deny"}',
  renderStdin,
  readRun,
  answer,
  // It sends transcript_path as Claude Code does; the timestamp tells them apart.
  recognise: { stdinMark: 'timestamp' },
  import: {
    formats: [
      {
        id: 'gemini',
        writer: 'Gemini CLI',
        title: 'Gemini CLI settings',
        dir: '.gemini',
        timeoutUnit: 'ms',
        defaultTimeout: 60,
        projectDirVar: 'GEMINI_PROJECT_DIR',
        envPrefix: 'GEMINI',
      },
    ],
    matcherStyle: 'regex',
    invalidMatcher: 'exact',
    shell: 'bash',
    ownEvents: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress'],
  },
  doctor: {
    files: [
      { under: 'home', path: '.gemini/settings.json', role: 'reads' },
      { under: 'project', path: '.gemini/settings.json', role: 'reads' },
      { under: 'home', path: '.gemini/hooks.json', role: 'wrong', instead: '~/.gemini/settings.json (under "hooks")' },
      { under: 'project', path: '.gemini/hooks.json', role: 'wrong', instead: '.gemini/settings.json (under "hooks")' },
    ],
    gate: 'BeforeTool',
    toolEvents: ['BeforeTool', 'AfterTool'],
    defaultTimeout: 60,
    exactNameMatchers: false,
    invalidMatcher: 'exact',
    msTimeoutHint: 'Gemini counts milliseconds',
    notes: ['project hooks (.gemini/settings.json) run only in trusted folders; /hooks panel in Gemini CLI lists what it loaded.'],
  },
  printConfig: {
    handlerName: 'hermes-hooks',
    setupNotes: [
      'Where: merge the "hooks" object into ~/.gemini/settings.json (user) or',
      '  <project>/.gemini/settings.json (project hooks run only in trusted folders).',
      'Before it runs: Gemini CLI warns once about a new or changed hook, then trusts it. Older',
      '  stable releases needed the hook system switched on in settings.json (unverified for your',
      "  version: if /hooks panel lists nothing, check Gemini CLI's hooks docs). Timeouts are ms.",
    ],
  },
  // Proven by scripts/e2e/gemini.mjs (Gemini CLI core's own HookSystem and scheduler, no model).
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'ignored',
    stop: 'yes',
    failures: {
      timeout: 'a failed hook, the call runs',
      crash: 'exit 1 is a warning and the call runs; plain text with exit 2 or more denies',
      garbled: 'plain text on exit 0 allows (shown as a message); JSON wins over the exit code',
    },
    verified: { how: 'real-agent', version: 'Gemini CLI core 0.61.0' },
    drops: { context: 'Gemini drops additionalContext on BeforeTool (it reads it on AfterTool only): a context for the tool gate is not sent' },
  },
});

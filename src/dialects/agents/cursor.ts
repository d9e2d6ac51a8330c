// Cursor (reference §b4): `permission` answers with `user_message`/`agent_message` (camelCase before
// v2.0) and `updated_input`; per-family events (beforeShellExecution …) fire next to preToolUse;
// a versioned hooks.json of flat `- command:` entries; MCP tools keep their own names.

import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import { inert } from '../../display.js';
import { firstText, nonBlank, parseJsonObject, promptText } from '../values.js';
import { defineAgent, type AnswerInput, type DialectAnswer, type ReadInput, type Reading, type StdinFields, type ToolFamily } from './module.js';
import { approve, block, BLOCKED, contextOf, continueWith, json, num, OK_EMPTY, str } from './_read.js';

/**
 * Cursor's tool-family events: which tools they cover on our side. A pre_tool_call for a tool in a
 * family renders as that family's event; anything else renders as preToolUse / postToolUse.
 */
const FAMILIES: Readonly<Record<string, ToolFamily>> = {
  beforeShellExecution: { tools: ['terminal'], phase: 'pre', input: 'command' },
  beforeReadFile: { tools: ['read_file'], phase: 'pre', input: 'file' },
  beforeMCPExecution: { tools: 'mcp', phase: 'pre', input: 'tool' },
  afterShellExecution: { tools: ['terminal'], phase: 'post', input: 'command' },
  afterFileEdit: { tools: ['write_file', 'patch'], phase: 'post', input: 'file' },
  afterMCPExecution: { tools: 'mcp', phase: 'post', input: 'tool' },
};

/** The fields of one event beyond the common ones (null: none). */
function eventFields(f: StdinFields): Record<string, unknown> | null {
  const { input, extra, theirEvent } = f;
  switch (theirEvent) {
    case 'beforeShellExecution':
      return { command: str(input['command']) ?? '', cwd: str(input['workdir']) ?? f.cwd };
    case 'beforeReadFile':
      return { file_path: str(input['path']) ?? '', content: f.fileContent ?? null, attachments: [] };
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      // Cursor passes MCP arguments as a JSON string (reference §b4).
      return {
        tool_name: f.theirTool,
        tool_input: JSON.stringify(f.toolInput),
        ...(theirEvent === 'afterMCPExecution'
          ? { result_json: typeof extra['result'] === 'string' ? extra['result'] : JSON.stringify(extra['result'] ?? null) }
          : {}),
      };
    case 'afterShellExecution':
      return { command: str(input['command']) ?? '', output: str(extra['result']) ?? '', duration: num(extra['duration_ms']) ?? 0 };
    case 'afterFileEdit': {
      const edit =
        f.ourTool === 'write_file'
          ? { old_string: '', new_string: str(input['content']) ?? '' }
          : { old_string: str(input['old_string']) ?? '', new_string: str(input['new_string']) ?? '' };
      return { file_path: str(input['path']) ?? '', edits: [edit] };
    }
    case 'beforeSubmitPrompt':
      return { prompt: promptText(extra['user_message']), attachments: [] };
    case 'afterAgentResponse':
      return { text: str(extra['assistant_response']) ?? '' };
    case 'stop':
      return { status: 'completed', loop_count: Math.max(0, f.attempt - 1) };
    default:
      return null;
  }
}

function renderStdin(f: StdinFields): Record<string, unknown> {
  const out: Record<string, unknown> = {
    conversation_id: f.sessionId,
    generation_id: str(f.extra['turn_id']) ?? '',
    model: f.model ?? '',
    hook_event_name: f.theirEvent,
    workspace_roots: [f.cwd],
    user_email: str(f.extra['user_email']),
    ...eventFields(f),
  };
  // Tool events always carry tool_name/tool_input too, so a hook written for preToolUse still
  // finds them when a call renders as a family event (beforeShellExecution …).
  if ((f.ourEvent === 'pre_tool_call' || f.ourEvent === 'post_tool_call') && !('tool_name' in out)) {
    out['tool_name'] = f.theirTool;
    out['tool_input'] = f.toolInput;
    if (f.theirEvent === 'postToolUse' || f.theirEvent === 'postToolUseFailure') out['tool_output'] = str(f.extra['result']) ?? '';
  }
  return out;
}

function decideJson(json: JsonObject, r: ReadInput): Directive | null {
  const agentMessage = firstText(json['agent_message'], json['agentMessage']);
  const userMessage = firstText(json['user_message'], json['userMessage']);
  const context = nonBlank(json['additional_context']);
  switch (r.event) {
    case 'pre_tool_call': {
      const permission = json['permission'];
      // The block message goes to the model as the tool's error, so the agent's text comes first.
      if (permission === 'deny') return block(firstText(agentMessage, userMessage));
      if (permission === 'ask') return approve(firstText(userMessage, agentMessage));
      if ((permission === 'allow' || permission === undefined) && isPlainObject(json['updated_input'])) {
        return { action: 'modify', args: r.toOurArgs(json['updated_input']) };
      }
      return contextOf(context);
    }
    case 'pre_verify':
      return continueWith(nonBlank(json['followup_message']));
    default:
      return contextOf(context);
  }
}

function readRun(r: ReadInput): Reading {
  const { stdout, event } = r;
  const json = stdout.startsWith('{') ? parseJsonObject(stdout) : null;
  const garbled = stdout !== '' && json === null;
  if (r.run.exit_code === 2 && event === 'pre_tool_call') {
    const j = json ?? {};
    return { directive: block(firstText(j['agent_message'], j['agentMessage'], j['user_message'], j['userMessage'], r.stderr)), garbled };
  }
  return { directive: json ? decideJson(json, r) : null, garbled };
}

// Exit 0 + `permission` JSON, always explicit on permission events (an empty answer from a
// permission hook may be read as invalid, §b4): Cursor has no neutral answer, `allow` is its "go
// ahead". Whether Cursor's hook `allow` also skips its own allowlist prompt is not documented in
// our sources (unverified). Only preToolUse can carry `updated_input`; a rewrite on
// beforeShellExecution & co. is answered as a deny that tells the agent what to run.
// Cursor documents one field it shows the person, `user_message`, on its permission answers (the
// tool gates): a notice goes there, after the block reason when there is one. Its other events
// (sessionStart included) document no such field, so a notice there stays on stderr alone.
function answer(a: AnswerInput): DialectAnswer {
  const out = answerDecision(a);
  if (!a.notice || a.decision.event !== 'pre_tool_call' || out.stdout === '') return out;
  const fields = JSON.parse(out.stdout) as JsonObject;
  const said = typeof fields['user_message'] === 'string' ? `${fields['user_message']}\n` : '';
  return json({ ...fields, user_message: `${said}${a.notice}` });
}

function answerDecision({ theirEvent, decision, theirArgs }: AnswerInput): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    const canRewrite = theirEvent === 'preToolUse';
    if (decision.action === 'block') {
      const message = decision.message ?? BLOCKED;
      return json({ permission: 'deny', user_message: message, agent_message: message });
    }
    if (decision.action === 'approve') {
      const message = decision.message ?? 'hermes-hooks asks for approval';
      return json({ permission: 'ask', user_message: message, agent_message: message, ...(theirArgs && canRewrite ? { updated_input: theirArgs } : {}) });
    }
    if (theirArgs && canRewrite) return json({ permission: 'allow', updated_input: theirArgs });
    if (theirArgs) {
      // The hook wanted different arguments and this event cannot carry them: running the original
      // call would ignore the hook, so refuse it and say what would be allowed.
      const wanted = inert(
        theirEvent === 'beforeShellExecution' && typeof theirArgs['command'] === 'string' ? theirArgs['command'] : JSON.stringify(theirArgs),
      );
      const message = `hermes-hooks rewrote this call, but Cursor's ${theirEvent} cannot apply rewrites; run it as: ${wanted}`;
      return json({ permission: 'deny', user_message: message, agent_message: message });
    }
    return json({ permission: 'allow' });
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') {
    return json({ followup_message: decision.message ?? 'Continue.' });
  }
  if (theirEvent === 'beforeSubmitPrompt') {
    return json({ continue: true, ...(decision.context !== null ? { additional_context: decision.context } : {}) });
  }
  if (decision.context !== null) return json({ additional_context: decision.context });
  return OK_EMPTY;
}

export const cursor = defineAgent({
  name: 'cursor',
  label: 'Cursor',
  names: {
    events: {
      preToolUse: 'pre_tool_call',
      beforeShellExecution: 'pre_tool_call',
      beforeMCPExecution: 'pre_tool_call',
      beforeReadFile: 'pre_tool_call',
      postToolUse: 'post_tool_call',
      postToolUseFailure: 'post_tool_call',
      afterShellExecution: 'post_tool_call',
      afterMCPExecution: 'post_tool_call',
      afterFileEdit: 'post_tool_call',
      beforeSubmitPrompt: 'pre_llm_call',
      afterAgentResponse: 'post_llm_call',
      stop: 'pre_verify',
      sessionStart: 'on_session_start',
      sessionEnd: 'on_session_end',
      subagentStart: 'subagent_start',
      subagentStop: 'subagent_stop',
    },
    tools: {
      Shell: 'terminal',
      Read: 'read_file',
      Write: 'write_file',
      Edit: 'patch',
      Grep: 'search_files',
      Task: 'delegate_task',
    },
    args: {
      '*': { file_path: 'path' },
      Shell: { cwd: 'workdir' },
    },
  },
  families: FAMILIES,
  mcpDoubleUnderscore: false,
  configShape: 'flat',
  versionedConfig: true,
  timeoutUnit: 's',
  // A documented Cursor field: if the command cannot even start, Cursor blocks instead of going ahead.
  failClosedField: 'failClosed',
  toolFailureEvents: ['postToolUseFailure'],
  stdin: {
    sessionKeys: ['conversation_id', 'session_id'],
    renames: { generation_id: 'turn_id' },
    // Each event's own fields under our kwarg names (renderStdin writes the same fields back).
    kwargs: {
      post_tool_call: { tool_output: 'result', output: 'result', result_json: 'result', duration: 'duration_ms', error: 'error_message' },
      pre_llm_call: { prompt: 'user_message' },
      post_llm_call: { text: 'assistant_response' },
    },
    attempt: { key: 'loop_count', counts: 'loops' },
  },
  blockOnStdout: '{"permission":"deny"}',
  renderStdin,
  readRun,
  answer,
  recognise: { stdinKeys: ['cursor_version', 'conversation_id', 'generation_id', 'workspace_roots'], decisive: true },
  import: {
    formats: [{ id: 'cursor', writer: 'Cursor', title: 'Cursor hooks.json', dir: '.cursor', timeoutUnit: 's', defaultTimeout: null, envPrefix: 'CURSOR' }],
    matcherStyle: 'names-or-regex',
    invalidMatcher: 'exact',
    shell: 'sh',
    // Cursor resolves a relative script path from the folder of hooks.json.
    scriptsFromConfigDir: true,
  },
  doctor: {
    files: [
      { under: 'home', path: '.cursor/hooks.json', role: 'reads' },
      { under: 'project', path: '.cursor/hooks.json', role: 'reads' },
      { under: 'home', path: '.cursor/settings.json', role: 'wrong', instead: '~/.cursor/hooks.json' },
      { under: 'project', path: '.cursor/settings.json', role: 'wrong', instead: '.cursor/hooks.json' },
    ],
    gate: 'preToolUse',
    toolEvents: ['preToolUse', 'postToolUse', 'postToolUseFailure'],
    defaultTimeout: null,
    exactNameMatchers: false,
    invalidMatcher: 'skip',
  },
  printConfig: {
    setupNotes: [
      'Where: ~/.cursor/hooks.json (user) or <project>/.cursor/hooks.json (project); keep',
      '  "version": 1 and merge into its "hooks". Cursor also runs Claude Code settings hooks when',
      '  third-party configs are on: wire one agent or the other, not both, or each call runs twice.',
      'Before it runs: nothing to approve in Cursor itself (restarting Cursor after editing is the',
      '  safe assumption; unverified). Its Hooks output panel shows each run.',
    ],
  },
  // Not run here: docs/dialects.md and reference §b4 (cursor.com/docs/agent/hooks, mostly through third-party copies).
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'no',
    stop: 'yes',
    failures: {
      timeout: 'fails open unless failClosed: true (print-config sets it on preToolUse)',
      crash: 'fails open unless failClosed: true; exit 2 blocks',
      garbled: 'invalid JSON from a permission hook is reported to block (third-party, unverified)',
    },
    verified: { how: 'docs', source: 'cursor.com/docs/agent/hooks through third-party copies (reference §b4)', date: '2026-09-14' },
    drops: { rewrite: "Cursor's beforeShellExecution and the other family events cannot carry a rewrite: hermes-hooks denies and says what to run" },
  },
});

// GitHub Copilot CLI (1.0.102; docs: docs.github.com …/copilot-cli-reference/cli-hooks-reference, read
// 2026-12; /work/shared/reference/new-agents-2026-12.md): `~/.copilot/hooks/*.json` and a trusted repo's
// `.github/hooks/*.json`, `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":…,"timeoutSec":30}]}}`
// — flat entries, no matcher groups. camelCase events get camelCase stdin (`toolName`, `toolArgs` as an
// object, `timestamp` in ms, no hook_event_name) and are answered at the top level: `permissionDecision`
// (+ `permissionDecisionReason`), `modifiedArgs`. A Claude-shaped answer to a camelCase hook is ignored
// and the tool runs, so we answer in Copilot's own shape. (Copilot also runs Claude's PascalCase events
// with Claude's shapes: that is the `claude` dialect; this record is Copilot's own wiring.)
//
// Failures, as tried against 1.0.102: a timeout and unparsable stdout let the call run; exit 2 blocks
// (the reason is lost); exit 1 on preToolUse blocks too. Our reader does the same with a Copilot hook.

import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import { firstText, nonBlank, parseJsonObject, promptText } from '../values.js';
import { defineAgent, type AnswerInput, type DialectAnswer, type ReadInput, type Reading, type StdinFields } from './module.js';
import { approve, block, BLOCKED, contextOf, continueWith, json, none, OK_EMPTY, str, withStderrNotice } from './_read.js';

function renderStdin(f: StdinFields): Record<string, unknown> {
  const { ourEvent, extra } = f;
  const at = f.timestamp === undefined ? Date.now() : Date.parse(f.timestamp);
  const out: Record<string, unknown> = { sessionId: f.sessionId, timestamp: Number.isFinite(at) ? at : Date.now(), cwd: f.cwd };
  if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
    out['toolName'] = f.theirTool;
    out['toolArgs'] = f.toolInput;
    if (f.theirEvent === 'postToolUseFailure') out['error'] = str(extra['error_message']) ?? '';
    else if (ourEvent === 'post_tool_call') {
      const result = extra['result'];
      out['toolResult'] = { resultType: 'success', textResultForLlm: typeof result === 'string' ? result : JSON.stringify(result ?? null) };
    }
  } else if (ourEvent === 'pre_llm_call') {
    out['prompt'] = promptText(extra['user_message']);
  } else if (ourEvent === 'pre_verify') {
    out['transcriptPath'] = f.transcriptPath ?? '';
    out['stopReason'] = 'end_turn';
  } else if (ourEvent === 'on_session_start') {
    out['source'] = 'startup';
  } else if (ourEvent === 'on_session_end') {
    out['reason'] = 'complete';
  } else if (ourEvent === 'subagent_start' || ourEvent === 'subagent_stop') {
    out['transcriptPath'] = f.transcriptPath ?? '';
    out['agentName'] = str(extra['child_role']) ?? '';
    if (ourEvent === 'subagent_stop') out['stopReason'] = 'end_turn';
  }
  return out;
}

function decideJson(json: JsonObject, r: ReadInput): Directive | null {
  const context = nonBlank(json['additionalContext']);
  switch (r.event) {
    case 'pre_tool_call': {
      const decision = json['permissionDecision'];
      const reason = nonBlank(json['permissionDecisionReason']);
      if (decision === 'deny') return block(reason);
      if (decision === 'ask') return approve(reason);
      if ((decision === 'allow' || decision === undefined) && isPlainObject(json['modifiedArgs'])) {
        return { action: 'modify', args: r.toOurArgs(json['modifiedArgs']) };
      }
      return contextOf(context);
    }
    case 'pre_verify':
      // agentStop `decision:"block"` forces another turn with `reason` as the prompt.
      return json['decision'] === 'block' ? continueWith(nonBlank(json['reason'])) : null;
    default:
      return contextOf(context);
  }
}

function readRun(r: ReadInput): Reading {
  const { stdout, event } = r;
  const exit = r.run.exit_code;
  const json = stdout.startsWith('{') ? parseJsonObject(stdout) : null;
  const garbled = stdout !== '' && json === null;
  // Copilot blocks a preToolUse call whose hook exits non-zero (2, and 1 as tried); the reason is ours to keep.
  if (exit !== 0 && exit !== null && event === 'pre_tool_call') {
    return { directive: block(firstText(json?.['permissionDecisionReason'], r.stderr, `the hook exited ${exit}`)), garbled };
  }
  if (exit === 2 && event === 'pre_verify') return { directive: continueWith(firstText(json?.['reason'], r.stderr)), garbled };
  if (exit !== 0) return none(garbled);
  return { directive: json ? decideJson(json, r) : null, garbled };
}

// Exit 0 + top-level JSON, the only shape a camelCase hook is read in. A rewrite is `modifiedArgs`
// alone; an approval is `ask` (Copilot prompts the person). `additionalContext` reaches the model as
// a user message on preToolUse, userPromptSubmitted and sessionStart (tried on 1.0.102; the docs say
// the latter two are not processed).
// Copilot documents no field it shows the person for a hook's notice: it stays on stderr.
function answer(a: AnswerInput): DialectAnswer {
  return withStderrNotice(answerDecision(a), a.notice);
}

function answerDecision({ decision, theirArgs }: AnswerInput): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    if (decision.action === 'block') return json({ permissionDecision: 'deny', permissionDecisionReason: decision.message ?? BLOCKED });
    if (decision.action === 'approve') {
      return json({
        permissionDecision: 'ask',
        permissionDecisionReason: decision.message ?? 'hermes-hooks asks for approval',
        ...(theirArgs ? { modifiedArgs: theirArgs } : {}),
      });
    }
    // modifiedArgs alone rewrites (tried on 1.0.102): no `allow`, so Copilot's own permission check still runs.
    if (theirArgs) return json({ modifiedArgs: theirArgs });
    return OK_EMPTY;
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') return json({ decision: 'block', reason: decision.message ?? 'Continue.' });
  if (decision.context !== null) return json({ additionalContext: decision.context });
  return OK_EMPTY;
}

export const copilot = defineAgent({
  name: 'copilot',
  label: 'Copilot CLI',
  names: {
    events: {
      preToolUse: 'pre_tool_call',
      postToolUse: 'post_tool_call',
      postToolUseFailure: 'post_tool_call',
      userPromptSubmitted: 'pre_llm_call',
      agentStop: 'pre_verify',
      sessionStart: 'on_session_start',
      sessionEnd: 'on_session_end',
      subagentStart: 'subagent_start',
      subagentStop: 'subagent_stop',
    },
    // The docs' "Tool names for hook matching"; bash first, so our terminal renders as bash.
    tools: {
      bash: 'terminal',
      powershell: 'terminal',
      view: 'read_file',
      create: 'write_file',
      edit: 'patch',
      grep: 'search_files',
      glob: 'search_files',
      web_fetch: 'web_extract',
      task: 'delegate_task',
    },
    // Keys as 1.0.102 offers its tools to the model (view{path}, bash{command, description …}).
    args: {
      create: { file_text: 'content' },
      edit: { old_str: 'old_string', new_str: 'new_string' },
      grep: { glob: 'file_glob' },
      task: { prompt: 'goal' },
    },
  },
  mcpDoubleUnderscore: false,
  configShape: 'flat',
  versionedConfig: true,
  handlerKeys: { command: 'bash', timeout: 'timeoutSec', type: 'command' },
  timeoutUnit: 's',
  toolFailureEvents: ['postToolUseFailure'],
  stdin: {
    sessionKeys: ['sessionId', 'session_id'],
    toolKeys: { name: 'toolName', input: 'toolArgs' },
    renames: { transcriptPath: 'transcript_path' },
    kwargs: {
      post_tool_call: { 'toolResult.textResultForLlm': 'result', error: 'error_message' },
      pre_llm_call: { prompt: 'user_message' },
      subagent_start: { agentName: 'child_role' },
      subagent_stop: { agentName: 'child_role' },
    },
  },
  blockOnStdout: '{"permissionDecision":"deny","permissionDecisionReason":"…"}',
  renderStdin,
  readRun,
  answer,
  // camelCase tool keys no other agent's stdin has: either tells alone (it also sends Gemini's mark, `timestamp`).
  recognise: { stdinKeys: ['toolArgs', 'toolName'], decisive: true },
  import: {
    formats: [
      {
        id: 'copilot',
        writer: 'Copilot CLI',
        title: 'Copilot CLI hooks file',
        dir: '.copilot',
        timeoutUnit: 's',
        defaultTimeout: 30,
        projectDirVar: 'COPILOT_PROJECT_DIR',
        envPrefix: 'COPILOT',
      },
      {
        id: 'copilot-repo',
        writer: 'Copilot CLI',
        title: 'Copilot CLI repository hooks file (.github/hooks)',
        dir: '.github',
        timeoutUnit: 's',
        defaultTimeout: 30,
        projectDirVar: 'COPILOT_PROJECT_DIR',
        envPrefix: 'COPILOT',
      },
    ],
    // Copilot's matchers (permissionRequest, notification …) are regexes anchored on the whole name.
    matcherStyle: 'regex',
    invalidMatcher: 'exact',
    shell: 'bash',
    ownEvents: ['userPromptSubmitted', 'agentStop', 'errorOccurred', 'permissionRequest', 'preCompact', 'notification'],
  },
  doctor: {
    files: [
      { under: 'home', path: '.copilot/hooks/hermes-hooks.json', role: 'reads' },
      { under: 'project', path: '.github/hooks/hermes-hooks.json', role: 'reads' },
      { under: 'home', path: '.copilot/hooks.json', role: 'wrong', instead: '~/.copilot/hooks/hermes-hooks.json (any *.json in that folder)' },
      { under: 'project', path: '.github/hooks.json', role: 'wrong', instead: '.github/hooks/hermes-hooks.json (any *.json in that folder)' },
    ],
    gate: 'preToolUse',
    toolEvents: ['preToolUse', 'postToolUse', 'postToolUseFailure'],
    defaultTimeout: 30,
    exactNameMatchers: false,
    invalidMatcher: 'exact',
    notes: [
      'Copilot CLI reads every *.json in ~/.copilot/hooks/ and, in trusted folders only, .github/hooks/ (copilot -p skips the repo ones unless ' +
        '--trust-folder): doctor reads hermes-hooks.json there.',
    ],
  },
  printConfig: {
    setupNotes: [
      'Where: save it as ~/.copilot/hooks/hermes-hooks.json (every *.json there is read) or',
      '  <repo>/.github/hooks/hermes-hooks.json (read only in trusted folders; copilot -p needs --trust-folder).',
      '  Keep "version": 1. Timeouts (timeoutSec) are seconds.',
      "Before it runs: start a new copilot session. The camelCase events are answered in Copilot's own",
      "  shape; do not also wire Claude's PascalCase events in Copilot, or each call runs twice.",
    ],
  },
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'yes',
    stop: 'yes',
    failures: {
      timeout: 'the call runs (fails open)',
      crash: 'exit 1 or 2 on preToolUse blocks the call (exit 2 loses the reason)',
      garbled: 'unparsable stdout is ignored and the call runs (fails open)',
    },
    verified: { how: 'real-agent', version: '1.0.102' },
  },
});

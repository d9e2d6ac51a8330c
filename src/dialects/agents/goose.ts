// Goose (block/goose, Open Plugins hooks; built from its docs, not run here — see `support.verified`):
// hooks live in a plugin folder, `.agents/plugins/<plugin>/hooks/hooks.json` beside `plugin.json`,
// in Claude's matcher-group shape; commands run through `sh -c`, timeouts in seconds (default 30).
// Its stdin names the event `event` and the session `session_id`; tools are namespaced
// (`developer__shell`). Only PreToolUse and Stop can block: exit 2 (reason on stderr) or
// `{"decision":"block","reason"}` on stdout whatever the exit code. No rewrite, no context.
// A hook that gives no decision (crash, timeout, garbage) is ignored unless the handler says
// `on_failure: "block"`, which print-config writes on PreToolUse.
//
// Versions: block/goose's own docs (documentation/docs/guides/context-engineering/hooks.md, plugin
// folders) are followed, not the older fork's ~/.config/goose/hooks.json (sovren-software/goose
// docs/hooks.md, 600 s default): upstream is what Goose ships.

import type { Directive, JsonObject } from '../../types.js';
import { inert } from '../../display.js';
import { nonBlank, parseJsonObject, promptText } from '../values.js';
import { defineAgent, type AnswerInput, type DialectAnswer, type ReadInput, type Reading, type StdinFields } from './module.js';
import { block, BLOCKED, continueWith, json, OK_EMPTY, str, withStderrNotice } from './_read.js';

/** Goose's words when a blocking hook gives an empty reason. */
const GOOSE_DEFAULT_REASON = 'denied by plugin hook';

function renderStdin(f: StdinFields): Record<string, unknown> {
  const { ourEvent, extra } = f;
  const out: Record<string, unknown> = { event: f.theirEvent, session_id: f.sessionId };
  if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') {
    out['matcher_context'] = f.theirTool;
    out['tool_name'] = f.theirTool;
    out['tool_input'] = f.toolInput;
    out['working_dir'] = f.cwd;
    out['tool_call_id'] = str(extra['tool_call_id']) ?? '';
  } else if (ourEvent === 'pre_llm_call') {
    const message = promptText(extra['user_message']);
    out['matcher_context'] = message;
    out['message'] = message;
  } else if (ourEvent === 'pre_verify') {
    const last = str(extra['final_response']);
    if (last !== null) out['last_assistant_message'] = last;
  }
  return out;
}

/** `event` is Goose's hook_event_name; matcher_context repeats the tool name or prompt. */
function normalise(raw: JsonObject): JsonObject {
  const { event, matcher_context: _matched, ...rest } = raw;
  return event === undefined ? rest : { hook_event_name: event, ...rest };
}

function readRun(r: ReadInput): Reading {
  const { stdout, event } = r;
  const json = stdout.startsWith('{') ? parseJsonObject(stdout) : null;
  const garbled = stdout !== '' && json === null;
  // Only PreToolUse and Stop can block in Goose; exit 2 takes the reason from stderr, the JSON
  // block counts whatever the exit code (docs: "stdout Is the Decision Channel").
  const blocks =
    r.run.exit_code === 2
      ? (nonBlank(r.stderr) ?? GOOSE_DEFAULT_REASON)
      : json?.['decision'] === 'block'
        ? (nonBlank(json['reason']) ?? GOOSE_DEFAULT_REASON)
        : null;
  let directive: Directive | null = null;
  if (blocks !== null && event === 'pre_tool_call') directive = block(blocks);
  // A blocking Stop keeps the turn going: the reason is the next instruction.
  else if (blocks !== null && event === 'pre_verify') directive = continueWith(blocks);
  return { directive, garbled };
}

// Exit 0 + `decision` JSON. Goose cannot ask or rewrite: an approve or a rewrite is answered as a
// block that says why (running the original call would ignore what the hook said). An allow is
// said explicitly, so an `on_failure: block` handler sees a decision. Goose documents no field it
// shows the person, so a notice goes on stderr (withStderrNotice).
function answer(a: AnswerInput): DialectAnswer {
  return withStderrNotice(answerDecision(a), a.notice);
}

function answerDecision({ theirEvent, decision, theirArgs }: AnswerInput): DialectAnswer {
  if (decision.event === 'pre_tool_call') {
    if (decision.action === 'block') return json({ decision: 'block', reason: decision.message ?? BLOCKED });
    if (decision.action === 'approve') {
      const asked = decision.message ?? 'hermes-hooks asks for approval';
      return json({ decision: 'block', reason: `${asked} (Goose hooks cannot ask for approval, so hermes-hooks blocks the call)` });
    }
    if (theirArgs) {
      const wanted = inert(typeof theirArgs['command'] === 'string' ? theirArgs['command'] : JSON.stringify(theirArgs));
      return json({ decision: 'block', reason: `hermes-hooks rewrote this call, but Goose's ${theirEvent} cannot apply rewrites; run it as: ${wanted}` });
    }
    return json({ decision: 'allow' });
  }
  if (decision.event === 'pre_verify' && decision.action === 'continue') return json({ decision: 'block', reason: decision.message ?? 'Continue.' });
  return OK_EMPTY;
}

export const goose = defineAgent({
  name: 'goose',
  label: 'Goose',
  names: {
    events: {
      PreToolUse: 'pre_tool_call',
      PostToolUse: 'post_tool_call',
      PostToolUseFailure: 'post_tool_call',
      UserPromptSubmit: 'pre_llm_call',
      Stop: 'pre_verify',
      SessionStart: 'on_session_start',
      SessionEnd: 'on_session_end',
    },
    tools: {
      developer__shell: 'terminal',
      developer__write: 'write_file',
      developer__edit: 'patch',
    },
    args: {
      developer__shell: { timeout_secs: 'timeout' },
      developer__edit: { before: 'old_string', after: 'new_string' },
    },
  },
  // Goose names every extension's tools `<extension>__<tool>`: an MCP tool passes under that name.
  mcpDoubleUnderscore: false,
  configShape: 'groups',
  timeoutUnit: 's',
  toolFailureEvents: ['PostToolUseFailure'],
  stdin: {
    normalise,
    renames: { working_dir: 'cwd' },
    kwargs: {
      pre_llm_call: { message: 'user_message' },
      pre_verify: { last_assistant_message: 'final_response' },
    },
  },
  blockOnStdout: '{"decision":"block","reason":"blocked"}',
  renderStdin,
  readRun,
  answer,
  recognise: { stdinKeys: ['matcher_context', 'working_dir'] },
  import: {
    formats: [{ id: 'goose', writer: 'Goose', title: 'Goose plugin hooks.json', dir: '.agents', timeoutUnit: 's', defaultTimeout: 30, envPrefix: 'GOOSE' }],
    matcherStyle: 'regex',
    invalidMatcher: 'skip',
    shell: 'sh',
    ownEvents: ['PreToolUseResult', 'BeforeReadFile', 'AfterFileEdit', 'BeforeShellExecution', 'AfterShellExecution'],
  },
  doctor: {
    files: [
      { under: 'home', path: '.agents/plugins/hermes-hooks/hooks/hooks.json', role: 'reads' },
      { under: 'project', path: '.agents/plugins/hermes-hooks/hooks/hooks.json', role: 'reads' },
      { under: 'home', path: '.config/goose/hooks.json', role: 'wrong', instead: '~/.agents/plugins/hermes-hooks/hooks/hooks.json (a plugin folder)' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    defaultTimeout: 30,
    exactNameMatchers: false,
    invalidMatcher: 'skip',
    notes: ['Goose loads a plugin folder only with its plugin.json beside hooks/; a bare "*" matcher is a bad regex Goose skips (use ".*").'],
  },
  printConfig: {
    matchAll: '.*',
    // Goose's own fail-closed field: a hook that gives no decision (cannot start, times out) blocks.
    gateFailClosed: { on_failure: 'block' },
    setupNotes: [
      'Where: a plugin folder, ~/.agents/plugins/hermes-hooks/ (user) or <project>/.agents/plugins/hermes-hooks/',
      '  (project): save this as hooks/hooks.json in it, and beside hooks/ a plugin.json such as',
      '  {"name":"hermes-hooks","version":"1.0.0"} (Goose loads no plugin without one).',
      'Before it runs: start a new goose session from that project. Keep "on_failure": "block" on',
      '  PreToolUse (without it a hook that gives no decision lets the call run), and keep the ".*"',
      '  matcher: Goose reads matchers as regexes and silently skips a rule whose matcher is "*".',
    ],
  },
  support: {
    block: 'yes',
    rewrite: 'no',
    context: 'no',
    stop: 'yes',
    failures: {
      timeout: 'no decision: the call runs, unless the handler has on_failure: block (print-config sets it on PreToolUse)',
      crash: 'no decision (spawn error, exit other than 0/2, a signal): the call runs, unless on_failure: block',
      garbled: 'no decision (not a JSON object, no decision, not UTF-8): the call runs, unless on_failure: block; Stop always fails open',
    },
    verified: { how: 'docs', source: 'block/goose documentation/docs/guides/context-engineering/hooks.md (commit 0825b57)', date: '2026-12-06' },
    drops: {
      rewrite: "Goose's PreToolUse cannot apply a rewrite: hermes-hooks blocks the call and says what to run instead",
      context: 'Goose hooks cannot add context for the model: a context a hook gives is dropped',
    },
  },
});

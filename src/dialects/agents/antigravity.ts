// Antigravity CLI (`agy`, Gemini CLI's successor; Go, not run here — built from docs, see
// `support.verified`). camelCase stdin with the call nested: `{conversationId, stepIdx, toolCall:
// {name: "run_command", args: {CommandLine, Cwd}}, transcriptPath, workspacePaths, …}` and no event
// name (the command line says it). Answers `{"decision":"allow|deny|ask|force_ask","reason"}`; a
// missing or malformed decision FAILS CLOSED, so every answer says its decision, allow included.
//
// Versions disagree about the file: the hooks docs write named hooks, `{"<name>": {"enabled", "PreToolUse":
// […]}}` in ~/.gemini/config/hooks.json or <workspace>/.agents/hooks.json; agy 1.0.5 was reported
// (websentry-ai/setup PR #104) to read a `{"hooks": {…}}` wrapper and to run only PreToolUse and
// PostToolUse; 1.1.11 reportedly loads hooks from installed plugins only. We write `{"hooks": {…}}`:
// under the docs' reading that is one named hook called "hooks", under 1.0.5's the wrapper — the one
// shape both read. The catch-all matcher is "" (reported for 1.0.5; an empty regex matches any tool).

import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import { inert } from '../../display.js';
import { nonBlank, parseJsonObject } from '../values.js';
import { defineAgent, type AnswerInput, type DialectAnswer, type ReadInput, type Reading, type StdinFields } from './module.js';
import { approve, block, BLOCKED, json, obj, str, withStderrNotice } from './_read.js';

function renderStdin(f: StdinFields): Record<string, unknown> {
  const { ourEvent } = f;
  const out: Record<string, unknown> = { conversationId: f.sessionId, stepIdx: 0 };
  if (ourEvent === 'pre_tool_call' || ourEvent === 'post_tool_call') out['toolCall'] = { name: f.theirTool, args: f.toolInput };
  if (ourEvent === 'post_tool_call' && str(f.extra['error_message']) !== null) out['error'] = str(f.extra['error_message']);
  out['transcriptPath'] = f.transcriptPath ?? '';
  out['workspacePaths'] = [f.cwd];
  out['artifactDirectoryPath'] = '';
  return out;
}

/** The nested call as tool_name/tool_input; the first workspace as cwd. */
function normalise(raw: JsonObject): JsonObject {
  const { toolCall, ...rest } = raw;
  const out: JsonObject = { ...rest };
  if (isPlainObject(toolCall)) {
    out['tool_name'] = toolCall['name'] ?? null;
    out['tool_input'] = obj(toolCall['args']);
  }
  const roots = raw['workspacePaths'];
  if (Array.isArray(roots) && typeof roots[0] === 'string' && out['cwd'] === undefined) out['cwd'] = roots[0];
  return out;
}

// A hook written for Antigravity that gives no decision would block the call there; here it gives
// no directive, as every dialect's silent hook does (Hermes semantics: only fail_closed blocks on a
// failure). Its garbage stdout is still reported as garbled, so fail_closed blocks on it. Exit 2
// without a decision blocks (agy fails closed on it, and its author clearly meant "no").
function readRun(r: ReadInput): Reading {
  const json = r.stdout.startsWith('{') ? parseJsonObject(r.stdout) : null;
  const garbled = r.stdout !== '' && json === null;
  if (r.event === 'pre_tool_call' && r.run.exit_code === 2 && json?.['decision'] === undefined) return { directive: block(nonBlank(r.stderr)), garbled };
  if (json === null || r.event !== 'pre_tool_call') return { directive: null, garbled };
  const decision = json['decision'];
  const reason = nonBlank(json['reason']);
  let directive: Directive | null = null;
  if (decision === 'deny') directive = block(reason);
  else if (decision === 'ask' || decision === 'force_ask') directive = approve(reason);
  return { directive, garbled };
}

// Always a decision (a missing one fails closed in agy). Asking is `force_ask`: plain `ask` honours
// agy's Always-Allow cache, which would let a call hermes-hooks wants a person to see run unseen.
// Antigravity's PreToolUse documents no rewrite: a rewrite is answered as a deny that says what to run.
// It documents no field it shows the person for a hook's notice: that goes on stderr.
function answer(a: AnswerInput): DialectAnswer {
  return withStderrNotice(answerDecision(a), a.notice);
}

function answerDecision({ decision, theirArgs }: AnswerInput): DialectAnswer {
  if (decision.event !== 'pre_tool_call') return json({ decision: 'allow' });
  if (decision.action === 'block') return json({ decision: 'deny', reason: decision.message ?? BLOCKED });
  if (decision.action === 'approve') return json({ decision: 'force_ask', reason: decision.message ?? 'hermes-hooks asks for approval' });
  if (theirArgs) {
    const wanted = inert(typeof theirArgs['CommandLine'] === 'string' ? theirArgs['CommandLine'] : JSON.stringify(theirArgs));
    return json({ decision: 'deny', reason: `hermes-hooks rewrote this call, but Antigravity cannot apply rewrites; run it as: ${wanted}` });
  }
  return json({ decision: 'allow' });
}

export const antigravity = defineAgent({
  name: 'antigravity',
  label: 'Antigravity',
  names: {
    events: {
      PreToolUse: 'pre_tool_call',
      PostToolUse: 'post_tool_call',
      PreInvocation: 'pre_llm_call',
      Stop: 'pre_verify',
    },
    tools: {
      run_command: 'terminal',
      view_file: 'read_file',
      write_to_file: 'write_file',
      replace_file_content: 'patch',
      multi_replace_file_content: 'patch',
    },
    // Only run_command's keys are documented (CommandLine, Cwd); the file tools' pass unchanged.
    args: {
      run_command: { CommandLine: 'command', Cwd: 'workdir' },
    },
  },
  mcpDoubleUnderscore: false,
  configShape: 'groups',
  timeoutUnit: 's',
  stdin: {
    normalise,
    sessionKeys: ['conversationId'],
    renames: { transcriptPath: 'transcript_path' },
    kwargs: { post_tool_call: { error: 'error_message' } },
  },
  blockOnStdout: '{"decision":"deny","reason":"blocked"}',
  renderStdin,
  readRun,
  answer,
  recognise: { stdinKeys: ['conversationId', 'toolCall', 'stepIdx', 'workspacePaths'], decisive: true },
  import: {
    formats: [
      {
        id: 'antigravity',
        writer: 'Antigravity',
        title: 'Antigravity hooks.json',
        dir: '.agents',
        timeoutUnit: 's',
        defaultTimeout: null,
        envPrefix: 'ANTIGRAVITY',
      },
    ],
    matcherStyle: 'regex',
    invalidMatcher: 'skip',
    shell: 'sh',
    ownEvents: ['PreInvocation', 'PostInvocation'],
  },
  doctor: {
    files: [
      { under: 'home', path: '.gemini/config/hooks.json', role: 'reads' },
      { under: 'project', path: '.agents/hooks.json', role: 'reads' },
      { under: 'home', path: '.gemini/antigravity-cli/hooks.json', role: 'wrong', instead: '~/.gemini/config/hooks.json' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse'],
    defaultTimeout: null,
    exactNameMatchers: false,
    invalidMatcher: 'skip',
    notes: ['Antigravity releases disagree on where hooks load from (1.1.11 reportedly only from installed plugins): check its log says it loaded them.'],
  },
  printConfig: {
    matchAll: '',
    setupNotes: [
      'Where: merge the "hooks" object into ~/.gemini/config/hooks.json (user) or <workspace>/.agents/hooks.json',
      '  (project). Antigravity releases disagree (named hooks in its docs, a "hooks" wrapper in 1.0.5,',
      '  plugins only in 1.1.11; unverified here): if agy logs "loaded 0 named hooks", see its hooks docs.',
      'Before it runs: nothing to approve. An answer without a decision blocks in Antigravity, so',
      '  hermes-hooks always answers one ("allow" included); "allow" does not skip agy\'s own prompt.',
    ],
  },
  support: {
    block: 'yes',
    rewrite: 'no',
    context: 'no',
    stop: 'no',
    failures: {
      timeout: 'reported to block the call (no decision fails closed; unverified here)',
      crash: 'no decision: the call is blocked',
      garbled: 'a missing or malformed decision blocks the call',
    },
    verified: {
      how: 'docs',
      source: 'Antigravity CLI hooks docs (antigravity.google, mirrored at gemini.meetcoding.cn/antigravity/hooks.html)',
      date: '2026-12-06',
    },
    drops: {
      rewrite: 'Antigravity documents no rewrite: hermes-hooks denies the call and says what to run instead',
      context: 'Antigravity hooks cannot add context this way (PreInvocation injectSteps is not used): a context a hook gives is dropped',
      stop: 'Antigravity documents no answer on Stop that keeps the agent going: a continue is dropped',
    },
  },
});

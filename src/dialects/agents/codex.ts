// Codex (reference §b2). It speaks Claude Code's event names (only the ones it fires) and its hook
// shape; its hook tool names are canonical: `Bash` for every shell-like tool and `apply_patch` for
// edits; `Write`/`Edit` are matcher aliases of apply_patch. apply_patch carries the patch text in
// `command` (as shell tools do); Hermes' patch tool takes V4A text in `patch`.
// It runs a hook only once the hook is trusted, recorded in ~/.codex/config.toml (checked by doctor).

import { answerClaudeFamily, readClaudeFamily, renderClaudeFamily } from './_claude-family.js';
import { defineAgent, type AgentCheck, type TrustFacts } from './module.js';

const TRUST_HOW = 'trust it in the interactive codex with /hooks, or run codex with --dangerously-bypass-hook-trust';

/**
 * Codex records trust in config.toml as `[hooks.state."<source>:<event>:<group>:<handler>"]` with a
 * `trusted_hash` (reference §b2; the key format is known from Codex's source and third parties). We
 * cannot recompute Codex's hash, so a recorded trust is reported as such, not as proof.
 */
const trust: TrustFacts = {
  file: '.codex/config.toml',
  check(config, entry): AgentCheck {
    const snake = entry.event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    const suffix = `:${snake}:${entry.group}:${entry.index}`;
    if (!config || config.text === null) {
      return {
        ok: false,
        message:
          `not trusted: ${config?.path ?? '~/.codex/config.toml'} does not exist, so no trust is recorded and Codex skips this hook without a ` +
          `word — ${TRUST_HOW}`,
      };
    }
    // Codex keys trust by the hooks file's absolute real path (hooks/src/lib.rs hook_key).
    const states = codexHookStates(config.text);
    const paths = [entry.filePath, entry.realPath].filter((p): p is string => p !== undefined);
    const state = states.find((s) => paths.some((p) => s.key === `${p}${suffix}`));
    if (!state) {
      return {
        ok: false,
        message:
          `not trusted: no [hooks.state] record for ${entry.filePath}${suffix} in ${config.path}, so Codex skips this hook without a word — ` + `${TRUST_HOW}`,
      };
    }
    if (state.enabled === false) return { ok: false, message: `disabled in ${config.path} (enabled = false): Codex does not run it — enable it in /hooks` };
    if (!state.trustedHash) return { ok: false, message: `not trusted: ${config.path} has a record for it but no trusted_hash — ${TRUST_HOW}` };
    return {
      ok: null,
      message:
        `trust recorded in ${config.path}; cannot verify it still matches this entry (any edit makes it "modified" and Codex skips it) — if ` +
        `unsure, open /hooks`,
    };
  },
  note(config, mentionsUs) {
    const toml = config.text;
    if (!toml || !/^\s*\[\[?hooks\.(?!state\b)/m.test(toml) || !mentionsUs(toml)) return null;
    return {
      ok: null,
      message: `${config.path} also wires hermes-hooks inline under [hooks]: not checked here (TOML); /hooks in codex lists and trusts those entries.`,
    };
  },
};

export interface CodexHookState {
  key: string;
  trustedHash: string | null;
  enabled: boolean | null;
}

/**
 * The hook trust records of a config.toml — a line scan, enough for the two keys we read, in the
 * two shapes Codex and installers write: `[hooks.state."KEY"]` tables with `trusted_hash = "…"` /
 * `enabled = false` lines, and `"KEY" = { trusted_hash = "…", enabled = false }` under `[hooks.state]`.
 */
export function codexHookStates(toml: string): CodexHookState[] {
  const out: CodexHookState[] = [];
  const KEY = String.raw`(?:"((?:[^"\\]|\\.)*)"|'([^']*)')`;
  const keyOf = (m: RegExpExecArray, i: number): string => (m[i] !== undefined ? m[i]!.replace(/\\(.)/g, '$1') : m[i + 1]!);
  const read = (text: string, state: CodexHookState): void => {
    const hash = /(?:^|[\s,{])trusted_hash\s*=\s*["']([^"']*)["']/.exec(text);
    if (hash) state.trustedHash = hash[1]!;
    const enabled = /(?:^|[\s,{])enabled\s*=\s*(true|false)\b/.exec(text);
    if (enabled) state.enabled = enabled[1] === 'true';
  };
  let current: CodexHookState | null = null;
  let inStateTable = false;
  for (const line of toml.split('\n')) {
    const header = new RegExp(String.raw`^\s*\[\s*hooks\.state\.${KEY}\s*\]\s*(#.*)?$`).exec(line);
    if (header) {
      current = { key: keyOf(header, 1), trustedHash: null, enabled: null };
      out.push(current);
      inStateTable = false;
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = null;
      inStateTable = /^\s*\[\s*hooks\.state\s*\]/.test(line);
      continue;
    }
    if (current) {
      read(line, current);
    } else if (inStateTable) {
      const inline = new RegExp(String.raw`^\s*${KEY}\s*=\s*\{(.*)\}`).exec(line);
      if (inline) {
        const state: CodexHookState = { key: keyOf(inline, 1), trustedHash: null, enabled: null };
        read(inline[3]!, state);
        out.push(state);
      }
    }
  }
  return out;
}

export const codex = defineAgent({
  name: 'codex',
  label: 'Codex',
  mimics: 'claude',
  names: {
    events: {
      PreToolUse: 'pre_tool_call',
      PostToolUse: 'post_tool_call',
      UserPromptSubmit: 'pre_llm_call',
      Stop: 'pre_verify',
      SessionStart: 'on_session_start',
    },
    tools: {
      Bash: 'terminal',
      shell: 'terminal',
      local_shell: 'terminal',
      exec_command: 'terminal',
      apply_patch: 'patch',
      Edit: 'patch',
      Write: 'patch',
    },
    args: {
      apply_patch: { command: 'patch' },
    },
  },
  mcpDoubleUnderscore: true,
  configShape: 'groups',
  timeoutUnit: 's',
  // Its JSON parser fails the hook on any field it does not expect; exit 2 + stderr is its block.
  stderrIsBlockReason: true,
  // Their stdin's own fields under our kwarg names (renderStdin writes the same fields back).
  stdin: {
    kwargs: {
      pre_tool_call: { tool_use_id: 'tool_call_id' },
      post_tool_call: { tool_use_id: 'tool_call_id', tool_response: 'result', error: 'error_message' },
      pre_llm_call: { prompt: 'user_message' },
      pre_verify: { last_assistant_message: 'final_response' },
    },
    attempt: { key: 'stop_hook_active', counts: 'repeat' },
  },
  blockOnStdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
  renderStdin: (f) => renderClaudeFamily('codex', f),
  readRun: (r) => readClaudeFamily('codex', r),
  answer: (a) => answerClaudeFamily('codex', a),
  recognise: { mimicMark: 'turn_id' },
  import: {
    formats: [{ id: 'codex', writer: 'Codex CLI', title: 'Codex hooks.json', dir: '.codex', timeoutUnit: 's', defaultTimeout: 600, envPrefix: 'CODEX' }],
    matcherStyle: 'regex',
    invalidMatcher: 'skip',
    // Codex ignores the matcher on these two itself.
    matcherIgnoredOn: ['UserPromptSubmit', 'Stop'],
    shell: 'sh',
    fileName: /(^|[\\/])hooks\.json$/,
    unsupported: { file: /\.toml$/i, message: 'Codex [hooks] tables in config.toml are not supported; move them to a hooks.json next to it and import that' },
  },
  doctor: {
    files: [
      { under: 'home', path: '.codex/hooks.json', role: 'reads' },
      { under: 'project', path: '.codex/hooks.json', role: 'reads' },
      { under: 'home', path: '.codex/settings.json', role: 'wrong', instead: '~/.codex/hooks.json' },
      { under: 'project', path: '.codex/settings.json', role: 'wrong', instead: '.codex/hooks.json' },
    ],
    gate: 'PreToolUse',
    toolEvents: ['PreToolUse', 'PostToolUse'],
    defaultTimeout: 600,
    exactNameMatchers: false,
    invalidMatcher: 'skip',
    // Codex matches its canonical names and their aliases (Edit|Write fire for apply_patch, §b2).
    matcherTools: [['Bash'], ['apply_patch', 'Edit', 'Write'], ['mcp__server__tool']],
    trust,
  },
  printConfig: {
    setupNotes: [
      'Where: ~/.codex/hooks.json (user) or <repo>/.codex/hooks.json (project), merged into its "hooks".',
      'Before it runs: Codex runs a hook only once it is TRUSTED, and skips an untrusted one without',
      '  a word. Open the interactive codex, run /hooks and trust the hermes-hooks entries (or start',
      "  codex with --dangerously-bypass-hook-trust, for automation). Trust pins each entry's hash:",
      '  any edit to an entry (command, matcher, timeout) makes it "modified" and it stops running',
      '  until trusted again. Hooks are on by default since Codex 0.124 ([features] hooks).',
    ],
  },
  // Proven by scripts/e2e/codex.mjs (codex exec against a fake model, every wiring and serve state).
  support: {
    block: 'yes',
    rewrite: 'yes',
    context: 'yes',
    stop: 'yes',
    failures: {
      timeout: '"hook timed out": a failed hook, the call runs',
      crash: 'a failed hook (exit other than 0/2), the call runs',
      garbled: 'unparsable JSON or any field Codex does not expect fails the hook, the call runs',
    },
    verified: { how: 'real-agent', version: 'Codex 0.171.0' },
  },
});

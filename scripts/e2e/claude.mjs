#!/usr/bin/env node
// End to end against the REAL Claude Code (issue 23): `claude -p` with the hooks print-config prints
// in a throw-away $HOME/.claude/settings.json, talking to a fake Messages API on 127.0.0.1
// (ANTHROPIC_BASE_URL, dummy key). The fake model's first answer is a Bash tool_use
// `touch MARK && rm -rf DIR/x` (or `touch MARK && ls`), its second a final text; MARK existing
// afterwards means the tool ran. `--allowedTools Bash` takes Claude's own permission prompt out of
// the way, so only the hooks decide.
//
//   npm i --prefix /tmp/agents-research @anthropic-ai/claude-code
//   CLAUDE_BIN=/tmp/agents-research/node_modules/@anthropic-ai/claude-code/bin/claude.exe node scripts/e2e/claude.mjs [--root CHECKOUT]
//
// Scenarios (_harness.mjs runScenarios): `print-config claude --run`; the default client wiring (every
// event a command hook to the bundled client) and `print-config claude --http --url
// http://127.0.0.1:PORT` (http hooks to `serve --http`, the token in HERMES_HOOKS_TOKEN), each with
// serve up, frozen, killed, never started and never started with autostart off. Timeouts are the
// printed chain scaled by E2E_SCALE. "ms" is the tool round trip as the model sees it: from the
// tool_use answer to the request carrying its tool_result.
// Exit 0 when every outcome is the one issue 23 demands.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messagesApi, runAgent } from './_fake-apis.mjs';
import { reportBroken, runBrokenGuards } from './_broken-guard.mjs';
import { makeHome, report, runScenarios } from './_harness.mjs';

const CLAUDE = process.env.CLAUDE_BIN ?? '/tmp/agents-research/node_modules/@anthropic-ai/claude-code/bin/claude.exe';
if (!existsSync(CLAUDE)) {
  console.error(`Set CLAUDE_BIN to the claude binary (not found: ${CLAUDE}); see the header of this file.`);
  process.exit(2);
}

// --- a fake Messages API: tool_use first, then a final text ---------------------------------------
const api = { command: '', requests: [], toolUseAt: 0, toolResultAt: 0 };

function reply(msg) {
  const last = msg.messages.at(-1);
  const toolResult = Array.isArray(last?.content) ? last.content.find((b) => b.type === 'tool_result') : undefined;
  const hasBash = (msg.tools ?? []).some((t) => t.name === 'Bash');
  if (toolResult) {
    api.toolResultAt ||= performance.now();
    api.toolResult = typeof toolResult.content === 'string' ? toolResult.content : JSON.stringify(toolResult.content);
    return { content: [{ type: 'text', text: 'done' }], stop: 'end_turn' };
  }
  if (!hasBash) return { content: [{ type: 'text', text: 'ok' }], stop: 'end_turn' };
  api.toolUseAt = performance.now();
  return {
    content: [{ type: 'tool_use', id: `toolu_e2e_${api.requests.length}`, name: 'Bash', input: { command: api.command, description: 'e2e' } }],
    stop: 'tool_use',
  };
}

const { server, port: apiPort } = await messagesApi((msg) => {
  api.requests.push(msg);
  return reply(msg);
});

// --- one claude -p run -----------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-claude-e2e-'));

async function claudeRun(snippet, command, { env: extraEnv, token, broken = false }) {
  const home = mkdtempSync(join(work, 'home-'));
  const project = join(home, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  writeFileSync(join(home, '.claude/settings.json'), JSON.stringify(snippet, null, 2));
  const mark = join(home, 'tool-ran');
  Object.assign(api, { command: command.replace('MARK', mark).replace('DIR', home), requests: [], toolUseAt: 0, toolResultAt: 0, toolResult: '' });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extraEnv,
    // http hooks send `Bearer $HERMES_HOOKS_TOKEN`: a serve that never ran left no token to give.
    HERMES_HOOKS_TOKEN: token ?? 'no-serve-token',
  };
  const t0 = performance.now();
  // A broken-guard row reads Claude's whole JSON stream (hook events, system messages), not only the result.
  const format = broken ? ['stream-json', '--verbose'] : ['json'];
  const claudeArgs = ['-p', 'Run the command.', '--output-format', ...format, '--allowedTools', 'Bash'];
  const { code, stdout, stderr: err } = await runAgent(CLAUDE, claudeArgs, { cwd: project, env, timeoutMs: 300_000 });
  const ran = existsSync(mark);
  const ms = api.toolUseAt && api.toolResultAt ? Math.round(api.toolResultAt - api.toolUseAt) : undefined;
  // Claude quotes a failed command hook as `[<its command>]: <its stderr>`: the client's command line
  // is long and the same every time, so it is shortened to [client] to leave room for the reason.
  const said = api.toolResult || err.trim() || `exit ${code}, ${api.requests.length} API requests`;
  const note = said
    .replace(/\[[^\]]*hermes-hooks-client[^\]]*\]/g, '[client]')
    .replace(/\s+/g, ' ')
    .slice(0, 110);
  const outcome = api.toolResultAt ? (ran ? 'allowed' : 'blocked') : 'no tool_result';
  const places = broken ? { ...streamPlaces(stdout), stderr: err, ...transcriptPlaces(home), 'model request': JSON.stringify(api.requests) } : undefined;
  return { outcome, ms, total_ms: Math.round(performance.now() - t0), note, places };
}

/** Claude's JSON stream, one place per kind of line; `system/hook_response` (SessionStart's) only echoes a hook's raw stdout. */
function streamPlaces(stdout) {
  const places = {};
  for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
    const d = JSON.parse(line);
    const kind = [d.type, d.subtype].filter(Boolean).join('/');
    const where = `${kind === 'system/hook_response' ? 'raw ' : ''}stream-json ${kind}${d.hook_event ? ` (${d.hook_event})` : ''}`;
    places[where] = `${places[where] ?? ''}${line}\n`;
  }
  return places;
}

/**
 * The session transcripts Claude wrote under `home` (~/.claude/projects/<project>/<session>.jsonl), one
 * place per attachment kind and event: `hook_system_message (PreToolUse)` is the systemMessage as Claude
 * parsed it for the person; `hook_success` only keeps the hook's raw stdout.
 */
function transcriptPlaces(home) {
  const dir = join(home, '.claude/projects');
  const places = {};
  if (!existsSync(dir)) return places;
  for (const f of readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, String(f)), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))) {
      const d = JSON.parse(line);
      const a = d.attachment;
      const raw = a?.type === 'hook_success' ? 'raw ' : '';
      const where = a ? `${raw}transcript ${a.type}${a.hookEvent ? ` (${a.hookEvent})` : ''}` : `transcript ${d.type}`;
      places[where] = `${places[where] ?? ''}${line}\n`;
    }
  }
  return places;
}

// --- scenarios -------------------------------------------------------------------------------------
const { home, cleanup } = makeHome();
let result;
let broken;
try {
  result = await runScenarios('claude', home, {
    wirings: ['run', 'client', 'http'],
    commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'],
    call: claudeRun,
  });
  broken = await runBrokenGuards('claude', { wirings: ['run', 'client'], call: claudeRun });
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const version = (await runAgent(CLAUDE, ['--version'], { timeoutMs: 60_000 })).stdout.trim();
const code = report(`Claude Code ${version}; fake Messages API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']);
process.exit(reportBroken(broken, ['said']) || code);

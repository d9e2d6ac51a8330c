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

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHome, report, runScenarios } from './_harness.mjs';

const CLAUDE = process.env.CLAUDE_BIN ?? '/tmp/agents-research/node_modules/@anthropic-ai/claude-code/bin/claude.exe';
if (!existsSync(CLAUDE)) {
  console.error(`Set CLAUDE_BIN to the claude binary (not found: ${CLAUDE}); see the header of this file.`);
  process.exit(2);
}
const run = (file, args, opts) => (file.endsWith('.js') ? [process.execPath, [file, ...args], opts] : [file, args, opts]);

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
  return { content: [{ type: 'tool_use', id: `toolu_e2e_${api.requests.length}`, name: 'Bash', input: { command: api.command, description: 'e2e' } }], stop: 'tool_use' };
}

function sendSse(res, message, content, stop) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', {});
  res.end();
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"input_tokens":10}');
    }
    if (!req.url.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const msg = JSON.parse(body);
    api.requests.push(msg);
    const { content, stop } = reply(msg);
    const message = { id: `msg_${api.requests.length}`, type: 'message', role: 'assistant', model: msg.model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
    if (msg.stream) return sendSse(res, message, content, stop);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const apiPort = server.address().port;

// --- one claude -p run -----------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-claude-e2e-'));

async function claudeRun(snippet, command, { env: extraEnv, token }) {
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
  const child = spawn(...run(CLAUDE, ['-p', 'Run the command.', '--output-format', 'json', '--allowedTools', 'Bash'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const code = await new Promise((r) => child.on('close', r));
  clearTimeout(timer);
  const ran = existsSync(mark);
  const ms = api.toolUseAt && api.toolResultAt ? Math.round(api.toolResultAt - api.toolUseAt) : undefined;
  // Claude quotes a failed command hook as `[<its command>]: <its stderr>`: the client's command line
  // is long and the same every time, so it is shortened to [client] to leave room for the reason.
  const said = api.toolResult || err.trim() || `exit ${code}, ${api.requests.length} API requests`;
  const note = said.replace(/\[[^\]]*hermes-hooks-client[^\]]*\]/g, '[client]').replace(/\s+/g, ' ').slice(0, 110);
  return { outcome: api.toolResultAt ? (ran ? 'allowed' : 'blocked') : 'no tool_result', ms, total_ms: Math.round(performance.now() - t0), note };
}

// --- scenarios -------------------------------------------------------------------------------------
const { home, cleanup } = makeHome();
let result;
try {
  result = await runScenarios('claude', home, { wirings: ['run', 'client', 'http'], commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'], call: claudeRun });
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const version = execFileSync(...run(CLAUDE, ['--version'], { encoding: 'utf8' })).trim();
process.exit(report(`Claude Code ${version}; fake Messages API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']));

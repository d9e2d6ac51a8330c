#!/usr/bin/env node
// End to end against the REAL Qwen Code (issue 32): `qwen -p … --yolo --auth-type openai` with the
// hooks print-config prints in a throw-away $HOME/.qwen/settings.json, talking to a fake OpenAI Chat
// Completions API on 127.0.0.1 (OPENAI_BASE_URL, dummy key). The fake model's first answer is a
// run_shell_command call `touch MARK && rm -rf DIR/x` (or `touch MARK && ls`), its second a final
// text; MARK existing afterwards means the tool ran. --yolo takes Qwen's own approval out of the way,
// so only the hooks decide.
//
//   npm i --prefix /tmp/agents-new @qwen-code/qwen-code@0.24.4   (name the version: Node 20 gets 0.15.10)
//   QWEN_BIN=/tmp/agents-new/node_modules/@qwen-code/qwen-code/cli.js node scripts/e2e/qwen.mjs [--root CHECKOUT]
//
// Scenarios: `print-config qwen --run`, and the default client wiring with serve up, frozen, killed,
// never started and never started with autostart off (_harness.mjs runScenarios); then a wedged
// fail_closed guard and a rewriting guard (_guard-rows.mjs: Qwen 0.24.4 ignores updatedInput, so the
// original call must run — the record's support.rewrite 'ignored'). "ms": from the tool call the fake
// model sent to the request carrying the tool's result. Exit 0 when every row is ok.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chatCompletionsApi, runAgent } from './_fake-apis.mjs';
import { reportGuardRows, runGuardRows } from './_guard-rows.mjs';
import { makeHome, report, runScenarios } from './_harness.mjs';

const QWEN = process.env.QWEN_BIN ?? '/tmp/agents-new/node_modules/@qwen-code/qwen-code/cli.js';
if (!existsSync(QWEN)) {
  console.error(`Set QWEN_BIN to Qwen Code's cli.js (not found: ${QWEN}); see the header of this file.`);
  process.exit(2);
}

// --- a fake Chat Completions API: a run_shell_command call first, then a final text ----------------
const api = { command: '', requests: 0, callAt: 0, resultAt: 0, result: '' };

const { server, port: apiPort } = await chatCompletionsApi((body) => {
  api.requests++;
  const last = body.messages.at(-1);
  if (last?.role === 'tool') {
    api.resultAt ||= performance.now();
    api.result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    return { content: 'done' };
  }
  if (!(body.tools ?? []).some((t) => t.function?.name === 'run_shell_command')) return { content: 'ok' };
  api.callAt = performance.now();
  return {
    tool_calls: [{ id: `call_e2e_${api.requests}`, name: 'run_shell_command', arguments: JSON.stringify({ command: api.command, description: 'e2e' }) }],
  };
});

// --- one qwen -p run -------------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-qwen-e2e-'));

async function qwenRun(snippet, command, { env: extraEnv }) {
  const home = mkdtempSync(join(work, 'home-'));
  const project = join(home, 'project');
  mkdirSync(join(home, '.qwen'), { recursive: true });
  mkdirSync(project);
  const quiet = { privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true } };
  writeFileSync(join(home, '.qwen/settings.json'), JSON.stringify({ ...quiet, ...snippet }, null, 2));
  const mark = join(home, 'tool-ran');
  Object.assign(api, { command: command.replace('MARK', mark).replace('DIR', home), requests: 0, callAt: 0, resultAt: 0, result: '' });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    OPENAI_BASE_URL: `http://127.0.0.1:${apiPort}/v1`,
    OPENAI_API_KEY: 'sk-e2e-dummy',
    OPENAI_MODEL: 'e2e',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    ...extraEnv,
  };
  const t0 = performance.now();
  const args = ['-p', 'Run the command.', '--yolo', '--auth-type', 'openai', '-o', 'stream-json'];
  // Qwen 0.24.4 lingers ~35 s after its result line (no network: a timer of its own); the run is over by then.
  const doneWhen = (out) => out.includes('"type":"result"');
  const { code, stderr: err } = await runAgent(QWEN, args, { cwd: project, env, timeoutMs: 300_000, doneWhen });
  const ran = existsSync(mark);
  const ms = api.callAt && api.resultAt ? Math.round(api.resultAt - api.callAt) : undefined;
  const said = api.result || err.trim().split('\n').at(-1) || `exit ${code}, ${api.requests} API requests`;
  const note = said.replace(/\s+/g, ' ').slice(0, 110);
  const outcome = api.resultAt ? (ran ? 'allowed' : 'blocked') : 'no tool result';
  return { outcome, rewritten: existsSync(join(dirname(mark), 'rewritten')), ms, total_ms: Math.round(performance.now() - t0), note };
}

// --- scenarios -------------------------------------------------------------------------------------
const { home, cleanup } = makeHome();
let result;
let guards;
try {
  result = await runScenarios('qwen', home, { wirings: ['run', 'client'], commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'], call: qwenRun });
  guards = await runGuardRows('qwen', { wirings: ['run', 'client'], call: qwenRun });
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const version = (await runAgent(QWEN, ['--version'], { timeoutMs: 60_000 })).stdout.trim();
const code = report(`Qwen Code ${version}; fake Chat Completions API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']);
process.exit(reportGuardRows(guards, ['ms', 'total_ms', 'note']) || code);

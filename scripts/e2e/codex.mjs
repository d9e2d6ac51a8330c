#!/usr/bin/env node
// End to end against the REAL Codex CLI (issue 23): `codex exec` with the hooks print-config prints
// in a throw-away $CODEX_HOME/hooks.json, talking to a fake Responses API on 127.0.0.1 (a
// `model_providers.e2e` entry with base_url and wire_api "responses", dummy key). The fake model's
// first answer is an exec_command function call `touch MARK && rm -rf DIR/x` (or `touch MARK && ls`),
// its second a final message; MARK existing afterwards means the tool ran. Flags so that only the
// hooks decide: --dangerously-bypass-approvals-and-sandbox (no approval prompt, no sandbox) and
// --dangerously-bypass-hook-trust (the printed hooks run without /hooks trust).
//
//   npm i --prefix /tmp/agents-research @openai/codex
//   CODEX_BIN=/tmp/agents-research/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex \
//     node scripts/e2e/codex.mjs [--root CHECKOUT]
//
// Scenarios (_harness.mjs runScenarios): `print-config codex --run`, and the default client wiring
// with serve up, frozen, killed, never started and never started with autostart off. Timeouts are
// the printed chain scaled by E2E_SCALE. "ms" is the tool round trip as the model sees it: from the
// function call to the request carrying its output.
// Exit 0 when every outcome is the one issue 23 demands.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { responsesApi, runAgent } from './_fake-apis.mjs';
import { reportBroken, runBrokenGuards } from './_broken-guard.mjs';
import { makeHome, report, runScenarios } from './_harness.mjs';

const CODEX = process.env.CODEX_BIN ?? '/tmp/agents-research/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';
if (!existsSync(CODEX)) {
  console.error(`Set CODEX_BIN to the codex binary (not found: ${CODEX}); see the header of this file.`);
  process.exit(2);
}

// --- a fake Responses API: a function call first, then a final message ----------------------------
const api = { command: '', requests: 0, bodies: [], callAt: 0, outputAt: 0, output: '' };

function answer(body) {
  const output = (body.input ?? []).find((i) => i.type === 'function_call_output');
  const shell = (body.tools ?? []).find((t) => t.name === 'exec_command' || t.name === 'shell');
  if (output) {
    api.outputAt ||= performance.now();
    api.output = typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
    return { type: 'message', role: 'assistant', id: `msg_${api.requests}`, content: [{ type: 'output_text', text: 'done' }] };
  }
  if (!shell) return { type: 'message', role: 'assistant', id: `msg_${api.requests}`, content: [{ type: 'output_text', text: 'no shell tool offered' }] };
  api.callAt = performance.now();
  const args = shell.name === 'exec_command' ? { cmd: api.command } : { command: ['bash', '-lc', api.command] };
  return { type: 'function_call', id: `fc_${api.requests}`, call_id: `call_e2e_${api.requests}`, name: shell.name, arguments: JSON.stringify(args) };
}

const { server, port: apiPort } = await responsesApi((body) => {
  api.requests++;
  api.bodies.push(body);
  return answer(body);
});

// --- one codex exec run ----------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-codex-e2e-'));

async function codexRun(snippet, command, { env: extraEnv, broken = false }) {
  const home = mkdtempSync(join(work, 'home-'));
  const codexHome = join(home, '.codex');
  const project = join(home, 'project');
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(project);
  writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify(snippet, null, 2));
  const mark = join(home, 'tool-ran');
  Object.assign(api, { command: command.replace('MARK', mark).replace('DIR', home), requests: 0, bodies: [], callAt: 0, outputAt: 0, output: '' });
  const env = { ...process.env, ...extraEnv, HOME: home, CODEX_HOME: codexHome, E2E_API_KEY: 'sk-e2e-dummy' };
  const provider = `model_providers.e2e={name="e2e",base_url="http://127.0.0.1:${apiPort}/v1",wire_api="responses",env_key="E2E_API_KEY"}`;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--ephemeral',
    '--dangerously-bypass-approvals-and-sandbox',
    '--dangerously-bypass-hook-trust',
    '-c',
    provider,
    '-c',
    'model_provider="e2e"',
    '-m',
    'gpt-5',
    'Run the command.',
  ];
  const t0 = performance.now();
  const { code, stdout, stderr: err } = await runAgent(CODEX, args, { cwd: project, env, timeoutMs: 300_000 });
  const ran = existsSync(mark);
  const ms = api.callAt && api.outputAt ? Math.round(api.outputAt - api.callAt) : undefined;
  const note = (api.output || `exit ${code}: ${err.trim().split('\n').at(-1)}`).replace(/\s+/g, ' ').slice(0, 110);
  // Codex refuses some commands on its own (`rm -rf` → "CreateProcess … Rejected"), after the hook:
  // only a "blocked by PreToolUse hook" output is the guard's block.
  const blocked = /PreToolUse hook/.test(api.output) ? 'blocked' : 'blocked by codex itself';
  const row = { outcome: api.outputAt ? (ran ? 'allowed' : blocked) : 'no tool output', ms, total_ms: Math.round(performance.now() - t0), note };
  if (!broken) return row;
  // A broken-guard row also reads the --json event stream of a second, identical run.
  const places = { stdout, stderr: err, 'model request': JSON.stringify(api.bodies) };
  Object.assign(api, { requests: 0, bodies: [], callAt: 0, outputAt: 0, output: '' });
  // Not --ephemeral: Codex then keeps the session's rollout under $CODEX_HOME/sessions.
  const json = await runAgent(CODEX, ['exec', '--json', ...args.slice(1).filter((a) => a !== '--ephemeral')], { cwd: project, env, timeoutMs: 300_000 });
  Object.assign(places, { 'exec --json stdout': json.stdout, 'exec --json stderr': json.stderr, rollout: rollouts(codexHome) });
  places['model request (--json run)'] = JSON.stringify(api.bodies);
  return { ...row, places };
}

/** The session rollouts Codex wrote under $CODEX_HOME/sessions (YYYY/MM/DD/rollout-….jsonl). */
function rollouts(codexHome) {
  const dir = join(codexHome, 'sessions');
  if (!existsSync(dir)) return '';
  const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.jsonl'));
  return files.map((f) => readFileSync(join(dir, String(f)), 'utf8')).join('\n');
}

// --- scenarios -------------------------------------------------------------------------------------
const { home, cleanup } = makeHome();
let result;
let broken;
try {
  result = await runScenarios('codex', home, { wirings: ['run', 'client'], commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'], call: codexRun });
  broken = await runBrokenGuards('codex', { wirings: ['run', 'client'], call: codexRun });
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const version = execFileSync(CODEX, ['--version'], { encoding: 'utf8' }).trim();
const code = report(`${version}; fake Responses API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']);
process.exit(reportBroken(broken, ['said']) || code);

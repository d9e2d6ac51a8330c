#!/usr/bin/env node
// End to end against the REAL Factory Droid (issue 32): `droid exec --auto high` with the hooks
// print-config prints as a throw-away $HOME/.factory/hooks.json (keyed by event at the top level, as
// Droid reads it), talking to a fake OpenAI Chat Completions API on 127.0.0.1 (a `customModels` entry
// in $HOME/.factory/settings.json with `generic-chat-completion-api`, dummy key; no login). The fake
// model's first answer is an Execute call `touch MARK && rm -rf DIR/x` (or `touch MARK && ls`), its
// second a final text; MARK existing afterwards means the tool ran. --auto high takes Droid's own
// approval out of the way, so only the hooks decide.
//
//   npm i --prefix /tmp/agents-new @factory/cli-linux-x64@0.225.2   (the @factory/cli wrapper names a missing binary)
//   DROID_BIN=/tmp/agents-new/node_modules/@factory/cli-linux-x64/bin/droid node scripts/e2e/droid.mjs [--root CHECKOUT]
//
// Scenarios: `print-config droid --run`, and the default client wiring with serve up, frozen, killed,
// never started and never started with autostart off (_harness.mjs runScenarios); then a wedged
// fail_closed guard and a rewriting guard (_guard-rows.mjs: Droid applies updatedInput, so the
// rewritten call must run — the record's support.rewrite 'yes'). "ms": from the tool call the fake
// model sent to the request carrying the tool's result. Exit 0 when every row is ok.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chatCompletionsApi, runAgent } from './_fake-apis.mjs';
import { reportGuardRows, runGuardRows } from './_guard-rows.mjs';
import { makeHome, report, runScenarios } from './_harness.mjs';

const DROID = process.env.DROID_BIN ?? '/tmp/agents-new/node_modules/@factory/cli-linux-x64/bin/droid';
if (!existsSync(DROID)) {
  console.error(`Set DROID_BIN to the droid binary (not found: ${DROID}); see the header of this file.`);
  process.exit(2);
}

// --- a fake Chat Completions API: an Execute call first, then a final text -------------------------
const api = { command: '', requests: 0, callAt: 0, resultAt: 0, result: '' };

const { server, port: apiPort } = await chatCompletionsApi((body) => {
  api.requests++;
  const last = body.messages.at(-1);
  if (last?.role === 'tool') {
    api.resultAt ||= performance.now();
    api.result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    return { content: 'done' };
  }
  if (!(body.tools ?? []).some((t) => t.function?.name === 'Execute')) return { content: 'ok' };
  api.callAt = performance.now();
  const args = { command: api.command, riskLevelReason: 'e2e check', riskLevel: 'low' };
  return { tool_calls: [{ id: `call_e2e_${api.requests}`, name: 'Execute', arguments: JSON.stringify(args) }] };
});

// --- one droid exec run ----------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-droid-e2e-'));

async function droidRun(snippet, command, { env: extraEnv }) {
  const home = mkdtempSync(join(work, 'home-'));
  const project = join(home, 'project');
  mkdirSync(join(home, '.factory'), { recursive: true });
  mkdirSync(project);
  const model = {
    model: 'e2e',
    displayName: 'e2e',
    baseUrl: `http://127.0.0.1:${apiPort}/v1`,
    apiKey: 'sk-e2e-dummy',
    provider: 'generic-chat-completion-api',
  };
  writeFileSync(join(home, '.factory/settings.json'), JSON.stringify({ customModels: [{ ...model, maxOutputTokens: 4096 }] }, null, 2));
  writeFileSync(join(home, '.factory/hooks.json'), JSON.stringify(snippet, null, 2));
  const mark = join(home, 'tool-ran');
  Object.assign(api, { command: command.replace('MARK', mark).replace('DIR', home), requests: 0, callAt: 0, resultAt: 0, result: '' });
  const env = { PATH: process.env.PATH, HOME: home, ...extraEnv };
  const t0 = performance.now();
  const { code, stderr: err } = await runAgent(DROID, ['exec', '--auto', 'high', '-m', 'custom:e2e', '-o', 'json', 'Run the command.'], {
    cwd: project,
    env,
    timeoutMs: 300_000,
  });
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
  result = await runScenarios('droid', home, { wirings: ['run', 'client'], commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'], call: droidRun });
  guards = await runGuardRows('droid', { wirings: ['run', 'client'], call: droidRun });
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const version = (await runAgent(DROID, ['--version'], { timeoutMs: 60_000 })).stdout.trim();
const code = report(`Factory Droid ${version}; fake Chat Completions API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']);
process.exit(reportGuardRows(guards, ['ms', 'total_ms', 'note']) || code);

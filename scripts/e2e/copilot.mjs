#!/usr/bin/env node
// End to end against the REAL GitHub Copilot CLI (issue 32): `copilot -p` with the hooks print-config
// prints in a throw-away $HOME/.copilot/hooks/hermes-hooks.json, talking to a fake Chat Completions
// API on 127.0.0.1 (COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_TYPE=openai, COPILOT_OFFLINE: no login).
// The fake model's first answer is a `bash` tool call `touch MARK && rm -rf DIR/x` (or `touch MARK && ls`),
// its second a final text; MARK existing afterwards means the tool ran. `--allow-all-tools` takes
// Copilot's own permission prompt out of the way, so only the hooks decide.
//
//   npm i --prefix /tmp/agents-new @github/copilot@1.0.102
//   COPILOT_BIN=/tmp/agents-new/node_modules/@github/copilot-linux-x64/copilot node scripts/e2e/copilot.mjs [--root CHECKOUT]
//
// Scenarios (_harness.mjs runScenarios): `print-config copilot --run`, and the default client wiring
// with serve up, frozen, killed, never started and never started with autostart off. Then rows of its
// own, through `run` and the client (serve up): a guard that rewrites `echo original` into `touch
// REWRITTEN` (Copilot applies `modifiedArgs`), and a wedged fail_closed guard (sleeps past its 2 s
// timeout: the call must be blocked, well before the agent's own hook timeout). Timeouts are the
// printed chain scaled by E2E_SCALE. "ms" is the tool round trip as the model sees it: from the tool
// call to the request carrying its result. Exit 0 when every outcome is the one expected.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatCompletionsApi, runAgent } from './_fake-apis.mjs';
import { cli, killServesOf, makeHome, printConfig, report, runScenarios, serveIn, setAgentTimeout, table, timeoutChain, WIRINGS } from './_harness.mjs';

const COPILOT = process.env.COPILOT_BIN ?? '/tmp/agents-new/node_modules/@github/copilot-linux-x64/copilot';
if (!existsSync(COPILOT)) {
  console.error(`Set COPILOT_BIN to the copilot binary (not found: ${COPILOT}); see the header of this file.`);
  process.exit(2);
}

// --- a fake Chat Completions API: a bash tool call first, then a final text ------------------------
const api = { command: '', requests: 0, callAt: 0, resultAt: 0, result: '' };

function answer(body) {
  const tool = (body.messages ?? []).find((m) => m.role === 'tool');
  if (tool) {
    api.resultAt ||= performance.now();
    api.result = typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content);
    return { content: 'done' };
  }
  if (!(body.tools ?? []).some((t) => t.function?.name === 'bash')) return { content: 'no bash tool offered' };
  api.callAt = performance.now();
  return { tool_calls: [{ id: `call_e2e_${api.requests}`, name: 'bash', arguments: JSON.stringify({ command: api.command, description: 'e2e' }) }] };
}

const { server, port: apiPort } = await chatCompletionsApi((body) => {
  api.requests++;
  return answer(body);
});

// --- one copilot -p run ----------------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'hh-copilot-e2e-'));
// Copilot unpacks itself (~235 MB) into $XDG_CACHE_HOME/copilot on first start: one shared cache, not one per HOME.
const cache = join(work, 'cache');

async function copilotRun(snippet, command, { env: extraEnv }) {
  const home = mkdtempSync(join(work, 'home-'));
  const hooksDir = join(home, '.copilot', 'hooks');
  const project = join(home, 'project');
  mkdirSync(hooksDir, { recursive: true });
  mkdirSync(project);
  writeFileSync(join(hooksDir, 'hermes-hooks.json'), JSON.stringify(snippet, null, 2));
  const mark = join(home, 'tool-ran');
  const cmd = command.replace('MARK', mark).replace('DIR', home);
  Object.assign(api, { command: cmd, requests: 0, callAt: 0, resultAt: 0, result: '' });
  const env = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    ...extraEnv,
    HOME: home,
    XDG_CACHE_HOME: cache,
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${apiPort}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_MODEL: 'e2e-model',
    COPILOT_OFFLINE: 'true',
  };
  const t0 = performance.now();
  const { code, stderr } = await runAgent(COPILOT, ['-p', 'Run the command.', '--allow-all-tools', '--output-format', 'json'], {
    cwd: project,
    env,
    timeoutMs: 300_000,
  });
  const ms = api.callAt && api.resultAt ? Math.round(api.resultAt - api.callAt) : undefined;
  const note = (api.result || `exit ${code}: ${stderr.trim().split('\n').at(-1)}`).replace(/\s+/g, ' ').slice(0, 110);
  const denied = /Denied by preToolUse hook/.test(api.result);
  const outcome = !api.resultAt ? 'no tool output' : existsSync(mark) ? 'allowed' : denied ? 'blocked' : 'not run, not denied';
  return { outcome, ms, total_ms: Math.round(performance.now() - t0), note };
}

// --- rows of its own: a rewriting guard, a wedged fail_closed guard ---------------------------------
const OWN = {
  rewrite: {
    guard: `#!/usr/bin/env bash\nif grep -q 'echo original' ; then echo '{"action":"modify","args":{"command":"touch REWRITTEN_PATH"}}'; fi\n`,
    entry: '',
    command: 'echo original',
    expected: 'rewritten',
  },
  'wedged fail_closed': {
    guard: '#!/bin/sh\nexec sleep 600\n',
    entry: '      fail_closed: true\n      timeout: 2\n',
    command: 'touch MARK && ls',
    expected: 'blocked',
  },
};

async function ownRows() {
  const rows = [];
  for (const [name, own] of Object.entries(OWN)) {
    const home = mkdtempSync('/tmp/hhc-');
    const guard = join(home, 'guard.sh');
    try {
      for (const wiring of WIRINGS.filter((w) => w === 'run' || w === 'client')) {
        writeFileSync(guard, own.guard.replace('REWRITTEN_PATH', join(home, 'rewritten-by-guard')));
        chmodSync(guard, 0o755);
        writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(guard)}\n${own.entry}`);
        cli(['approve', '--all', '--home', home]);
        const snippet = printConfig('copilot', home, { wiring });
        const chain = timeoutChain(snippet);
        setAgentTimeout(snippet, chain.agent);
        const env = chain.client !== undefined ? { HERMES_HOOKS_TIMEOUT: String(chain.client) } : {};
        const serve = wiring === 'run' ? { stop: async () => {} } : await serveIn('up', home, { requestTimeout: chain.serve });
        try {
          rmSync(join(home, 'rewritten-by-guard'), { force: true });
          const r = await copilotRun(snippet, own.command, { env });
          if (name === 'rewrite') r.outcome = existsSync(join(home, 'rewritten-by-guard')) ? 'rewritten' : r.outcome;
          rows.push({ row: name, wiring, serve: wiring === 'run' ? '-' : 'up', ...r, expected: own.expected });
        } finally {
          await serve.stop();
        }
      }
    } finally {
      killServesOf(home);
      rmSync(home, { recursive: true, force: true });
    }
  }
  for (const r of rows) r.verdict = r.outcome === r.expected ? 'ok' : 'FAIL';
  return rows;
}

// --- scenarios -------------------------------------------------------------------------------------
const { home, cleanup } = makeHome();
let result;
let own = [];
const version = execFileSync(COPILOT, ['--version'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { PATH: process.env.PATH, HOME: work, XDG_CACHE_HOME: cache },
})
  .trim()
  .split('\n')[0];
try {
  result = await runScenarios('copilot', home, { wirings: ['run', 'client'], commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'], call: copilotRun });
  if (process.env.E2E_OWN !== '0') own = await ownRows();
} finally {
  cleanup();
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

const code = report(`${version}; fake Chat Completions API on 127.0.0.1:${apiPort}`, result, ['ms', 'total_ms', 'note']);
if (own.length) {
  console.log('\nrewrite (the guard modifies echo original) and a wedged fail_closed guard (timeout 2 s):');
  console.log(table(own, ['row', 'wiring', 'serve', 'outcome', 'expected', 'verdict', 'ms', 'total_ms', 'note']));
}
process.exit(code || (own.every((r) => r.verdict === 'ok') ? 0 : 1));

#!/usr/bin/env node
// End to end against Gemini CLI's REAL hook machinery (issue 23): @google/gemini-cli-core's
// HookSystem (registry → planner → HookRunner spawning the printed command → aggregator) and the
// scheduler's own evaluateBeforeToolHook, which turns the aggregated answer into "run the tool" or
// "error: blocked / stopped". Only Gemini's Config object is a stand-in (the few getters the hook
// path reads); the model and the tool are not involved — BeforeTool is fired for
// run_shell_command with `rm -rf /` and with `ls`, exactly as the scheduler would.
//
//   npm i --prefix /tmp/agents-research @google/gemini-cli-core
//   GEMINI_CORE=/tmp/agents-research/node_modules/@google/gemini-cli-core node scripts/e2e/gemini.mjs [--root CHECKOUT]
//
// Scenarios: `print-config gemini` (run per call), and `print-config gemini --serve` with serve up,
// frozen (SIGSTOP), killed (SIGKILL, stale socket) and never started. Timeouts are the printed chain
// scaled by E2E_SCALE (see _harness.mjs). Exit 0 when every outcome is the one issue 23 demands.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUN_WIRING, SERVE_STATES, makeHome, printConfig, serveIn, setAgentTimeout, table, timeoutChain, judgeRows } from './_harness.mjs';

const CORE = process.env.GEMINI_CORE ?? '/tmp/agents-research/node_modules/@google/gemini-cli-core';
if (!existsSync(join(CORE, 'dist/src/hooks/hookSystem.js'))) {
  console.error(`Set GEMINI_CORE to an installed @google/gemini-cli-core (not found: ${CORE}).`);
  process.exit(2);
}
const load = (p) => import(pathToFileURL(join(CORE, 'dist/src', p)).href);
const { HookSystem } = await load('hooks/hookSystem.js');
const { evaluateBeforeToolHook } = await load('scheduler/hook-utils.js');
const version = JSON.parse(await (await import('node:fs/promises')).readFile(join(CORE, 'package.json'), 'utf8')).version;

/** The slice of Gemini's Config the hook path reads; anything else answers undefined. */
function fakeConfig(hooks) {
  const base = {
    isTrustedFolder: () => true,
    getHooks: () => hooks,
    getProjectHooks: () => undefined,
    getExtensions: () => [],
    getDisabledHooks: () => [],
    getSessionId: () => 'hermes-e2e',
    getWorkingDir: () => process.cwd(),
    getProjectRoot: () => process.cwd(),
    geminiClient: undefined,
    storage: { getPlansDir: () => '/tmp' },
    sanitizationConfig: { allowedEnvironmentVariables: [], blockedEnvironmentVariables: [], enableEnvironmentVariableRedaction: false },
  };
  const config = new Proxy(base, { get: (t, k) => (k in t ? t[k] : k === 'config' ? config : () => undefined) });
  return { config, base };
}

/** Gemini's own debug chatter goes to console.*; keep it, to quote its timeout/failure lines. */
async function quietly(fn) {
  const saved = { log: console.log, debug: console.debug, warn: console.warn, error: console.error, info: console.info };
  const lines = [];
  for (const k of Object.keys(saved)) console[k] = (...a) => lines.push(a.map(String).join(' '));
  try {
    return { value: await fn(), lines };
  } finally {
    Object.assign(console, saved);
  }
}

async function fireBeforeTool(hooks, command) {
  const { config, base } = fakeConfig(hooks);
  const { value, lines } = await quietly(async () => {
    const hs = new HookSystem(config);
    await hs.initialize();
    base.getHookSystem = () => hs;
    const t0 = performance.now();
    const r = await evaluateBeforeToolHook(config, { build: () => ({}) }, { name: 'run_shell_command' }, { params: { command } });
    return { r, ms: Math.round(performance.now() - t0) };
  });
  const { r, ms } = value;
  const outcome = r.status === 'error' ? 'blocked' : r.hookDecision === 'ask' ? 'ask' : 'allowed';
  const note = r.error?.message ?? lines.find((l) => /timed out|failed for event/i.test(l)) ?? '';
  return { outcome, ms, note: note.replace(/\s+/g, ' ').slice(0, 110) };
}

const COMMANDS = ['rm -rf /', 'ls'];
const rows = [];
const { home, socket, cleanup } = makeHome();
let chain;
try {
  // run per call: no serve involved.
  const runSnippet = printConfig('gemini', home);
  chain = timeoutChain(runSnippet, { unitMs: true });
  setAgentTimeout(runSnippet, chain.agent, { unitMs: true });
  if (RUN_WIRING) for (const command of COMMANDS) rows.push({ wiring: 'run', serve: '-', command, ...(await fireBeforeTool(runSnippet.hooks, command)) });

  const serveSnippet = printConfig('gemini', home, { serve: true });
  chain = timeoutChain(serveSnippet, { unitMs: true });
  setAgentTimeout(serveSnippet, chain.agent, { unitMs: true });
  if (chain.client !== undefined) process.env.HERMES_HOOKS_TIMEOUT = String(chain.client);
  for (const state of SERVE_STATES) {
    const serve = await serveIn(state, home, { requestTimeout: chain.serve });
    try {
      for (const command of COMMANDS) rows.push({ wiring: 'serve', serve: state, command, ...(await fireBeforeTool(serveSnippet.hooks, command)) });
    } finally {
      await serve.stop();
    }
  }
} finally {
  cleanup();
}

judgeRows(rows);
console.log(`Gemini CLI core ${version}; socket ${socket}`);
console.log(
  `timeouts (s): agent ${chain.agent} (printed ${chain.shipped.agent}), client ${chain.client ?? '-'} (shipped ${chain.shipped.client ?? '-'}), serve --request-timeout ${chain.serve} (default ${chain.shipped.serve}); scale ${process.env.E2E_SCALE ?? 0.1}`,
);
console.log(table(rows, ['wiring', 'serve', 'command', 'outcome', 'expected', 'verdict', 'ms', 'note']));
process.exit(rows.every((r) => r.verdict === 'ok') ? 0 : 1);

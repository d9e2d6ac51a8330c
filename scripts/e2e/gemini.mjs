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
// Scenarios (_harness.mjs runScenarios): `print-config gemini --run`, and the default client wiring
// with serve up, frozen, killed, never started and never started with autostart off. Timeouts are the
// printed chain scaled by E2E_SCALE. Exit 0 when every outcome is the one issue 23 demands.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reportBroken, runBrokenGuards } from './_broken-guard.mjs';
import { makeHome, report, runScenarios } from './_harness.mjs';

const CORE = process.env.GEMINI_CORE ?? '/tmp/agents-research/node_modules/@google/gemini-cli-core';
if (!existsSync(join(CORE, 'dist/src/hooks/hookSystem.js'))) {
  console.error(`Set GEMINI_CORE to an installed @google/gemini-cli-core (not found: ${CORE}).`);
  process.exit(2);
}
const load = (p) => import(pathToFileURL(join(CORE, 'dist/src', p)).href);
const { HookSystem } = await load('hooks/hookSystem.js');
const { evaluateBeforeToolHook } = await load('scheduler/hook-utils.js');
const { coreEvents, CoreEvent } = await load('utils/events.js');
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
  // Gemini's HookEventHandler emits each hook's systemMessage as this event, for the CLI's UI to display.
  const uiMessages = [];
  const onMessage = (m) => uiMessages.push(`${m.eventName} ${m.hookName}: ${m.message}`);
  coreEvents.on(CoreEvent.HookSystemMessage, onMessage);
  const { value, lines } = await quietly(async () => {
    const hs = new HookSystem(config);
    await hs.initialize();
    base.getHookSystem = () => hs;
    const t0 = performance.now();
    const r = await evaluateBeforeToolHook(config, { build: () => ({}) }, { name: 'run_shell_command' }, { params: { command } });
    return { r, ms: Math.round(performance.now() - t0) };
  }).finally(() => coreEvents.off(CoreEvent.HookSystemMessage, onMessage));
  const { r, ms } = value;
  const outcome = r.status === 'error' ? 'blocked' : r.hookDecision === 'ask' ? 'ask' : 'allowed';
  const note = r.error?.message ?? lines.find((l) => /timed out|failed for event/i.test(l)) ?? '';
  const places = { [`coreEvents ${CoreEvent.HookSystemMessage} (BeforeTool)`]: uiMessages.join('\n'), 'raw debug log': lines.join('\n') };
  return { outcome, ms, note: note.replace(/\s+/g, ' ').slice(0, 110), places };
}

/** Gemini's HookRunner spawns the hook with this process's environment: `env` is added to it for the call. */
async function withEnv(env, fn) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const { home, socket, cleanup } = makeHome();
let result;
let broken;
const call = (snippet, command, { env }) => withEnv(env, () => fireBeforeTool(snippet.hooks, command.replace('touch MARK && ', '')));
try {
  result = await runScenarios('gemini', home, { wirings: ['run', 'client'], commands: ['rm -rf /', 'ls'], unitMs: true, call });
  broken = await runBrokenGuards('gemini', { wirings: ['run', 'client'], unitMs: true, call });
} finally {
  cleanup();
}
const code = report(`Gemini CLI core ${version}; socket ${socket}`, result, ['ms', 'note']);
process.exit(reportBroken(broken, ['said']) || code);

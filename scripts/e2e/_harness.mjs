// Shared pieces of the per-agent e2e scripts (issue 23, "Proven against the real agents"): a
// throw-away Hermes home with one approved guard, the wiring print-config prints for it, the
// timeout chain scaled down so a frozen serve costs seconds instead of minutes, and a
// `hermes-hooks serve` to start, freeze (SIGSTOP), kill or never start.
//
// The checkout under test: --root DIR, else $HERMES_E2E_ROOT, else this file's ../.. — so the
// scripts can be pointed at another checkout. Needs `npm run build` there (dist/cli/bin.js).

import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

export const ROOT = resolve(argValue('--root') ?? process.env.HERMES_E2E_ROOT ?? fileURLToPath(new URL('../..', import.meta.url)));
export const BIN = join(ROOT, 'dist/cli/bin.js');
if (!existsSync(BIN)) {
  console.error(`${BIN} is missing: run 'npm run build' in ${ROOT} first.`);
  process.exit(2);
}

/** The CLI under test; stdout as text. */
export function cli(args, opts = {}) {
  return execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** The guard every scenario uses: blocks a command containing `rm -rf`, allows anything else. */
const GUARD = `#!/usr/bin/env bash
input=$(cat)
if grep -q 'rm -rf' <<<"$input"; then
  echo '{"action":"block","message":"e2e guard: rm -rf is not allowed"}'
fi
`;

/**
 * A temp HERMES_HOME with the guard as a pre_tool_call hook, approved through the built CLI.
 * Short path under /tmp: serve's socket lives in it and Unix socket paths are limited to ~100 bytes.
 */
export function makeHome() {
  const home = mkdtempSync('/tmp/hhe-');
  const guard = join(home, 'guard.sh');
  writeFileSync(guard, GUARD);
  chmodSync(guard, 0o755);
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(guard)}\n`);
  cli(['approve', '--all', '--home', home]);
  return { home, socket: join(home, 'hermes-hooks.sock'), cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * The wirings print-config offers: `client` (the default: every event through the bundled client to
 * serve on the home's socket), `run` (`--run`: a `hermes-hooks run` per call) and `http` (`--http`,
 * agents with http hooks only: their http hooks to serve's loopback listener).
 */
const WIRING_FLAGS = { client: [], run: ['--run'], http: ['--http'] };

/** The JSON snippet `print-config AGENT [--run|--http] --home H [...extra]` prints on stdout. */
export function printConfig(agent, home, { wiring = 'client', extra = [] } = {}) {
  const flags = WIRING_FLAGS[wiring];
  if (!flags) throw new Error(`printConfig: unknown wiring ${wiring} (one of ${Object.keys(WIRING_FLAGS).join(', ')})`);
  return JSON.parse(cli(['print-config', agent, ...flags, '--home', home, ...extra]));
}

/** `print-config AGENT --mod DIR --home H`: writes the mod (Claude Code's in-process plugin) into DIR; returns DIR. */
export function printMod(agent, home, dir, extra = []) {
  return cli(['print-config', agent, '--mod', dir, '--home', home, ...extra]).trim();
}

/** Every handler of a printed `{hooks: {Event: [{hooks: [handler]}]}}` snippet (flat files: each entry is one). */
export function handlers(snippet) {
  return Object.values(snippet.hooks ?? snippet).flatMap((groups) => groups.flatMap((g) => g.hooks ?? [g]));
}

/** A handler's command and timeout key: `command`/`timeout`, or Copilot's `bash`/`timeoutSec`. */
const commandOf = (h) => h.command ?? h.bash ?? '';
const timeoutKey = (h) => ('timeoutSec' in h ? 'timeoutSec' : 'timeout');

// --- the timeout chain, scaled ------------------------------------------------------------------
// Shipped: the agent timeout print-config writes, the client's curl deadline (HERMES_HOOKS_TIMEOUT,
// default in the client script) and serve's --request-timeout (default in `serve --help`). The
// scripts multiply all three by E2E_SCALE (default 0.1) so their ORDER stays what ships — a frozen
// serve then shows the same open/closed outcome as in production, in tens of seconds. Each can be
// pinned instead: E2E_AGENT_TIMEOUT, E2E_CLIENT_TIMEOUT, E2E_SERVE_TIMEOUT (seconds).
export const SCALE = Number(process.env.E2E_SCALE ?? 0.1);

/** The client script a printed client command runs (an absolute path after the guard, after its interpreter), if any. */
export function clientPath(command) {
  return command.match(/ (\/\S*\/hermes-hooks-client(?:\.bash)?) /)?.[1];
}

/** The client's default deadline, as its source spells it: `${HERMES_HOOKS_TIMEOUT:-N}` (bash) or `env('HERMES_HOOKS_TIMEOUT', N)` (perl). */
function clientDefaultSeconds(client) {
  const m = client && existsSync(client) ? readFileSync(client, 'utf8').match(/HERMES_HOOKS_TIMEOUT(?::-|'\s*,\s*)(\d+)/) : null;
  return m ? Number(m[1]) : undefined;
}

function serveDefaultSeconds() {
  const m = cli(['serve', '--help']).match(/--request-timeout SEC[^\n]*default (\d+)/);
  return m ? Number(m[1]) : 330;
}

/**
 * The scaled chain for one printed snippet. `unitMs` is the agent's timeout unit (Gemini: ms).
 * Returns seconds for each link plus the printed (unscaled) agent timeout.
 */
export function timeoutChain(snippet, { unitMs = false } = {}) {
  const hs = handlers(snippet);
  const printed = Math.max(...hs.map((h) => h[timeoutKey(h)] ?? 0)) / (unitMs ? 1000 : 1);
  const path = hs.map((h) => clientPath(commandOf(h))).find(Boolean);
  const client = clientDefaultSeconds(path);
  // A client wiring whose deadline is not scaled would outlast the scaled agent timeout: a false "open".
  if (hs.some((h) => commandOf(h).includes('hermes-hooks-client')) && client === undefined) {
    throw new Error(`e2e: cannot find the client's default deadline (client ${path ?? 'not found in the printed command'})`);
  }
  const serve = serveDefaultSeconds();
  const pick = (env, shipped) => (process.env[env] ? Number(process.env[env]) : shipped === undefined ? undefined : Math.round(shipped * SCALE));
  return {
    shipped: { agent: printed, client, serve },
    agent: pick('E2E_AGENT_TIMEOUT', printed),
    client: pick('E2E_CLIENT_TIMEOUT', client),
    serve: pick('E2E_SERVE_TIMEOUT', serve),
  };
}

/** Rewrites every handler's timeout to `seconds` (in ms when `unitMs`), in place. */
export function setAgentTimeout(snippet, seconds, { unitMs = false } = {}) {
  for (const h of handlers(snippet)) h[timeoutKey(h)] = unitMs ? seconds * 1000 : seconds;
  return snippet;
}

// --- serve ----------------------------------------------------------------------------------------

export async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

function health({ socket, port, token }) {
  return new Promise((res) => {
    const req = request(
      {
        ...(socket ? { socketPath: socket } : { host: '127.0.0.1', port }),
        path: '/v1/health',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        timeout: 1000,
      },
      (r) => {
        r.resume();
        res(r.statusCode === 200);
      },
    );
    req.on('error', () => res(false));
    req.on('timeout', () => {
      req.destroy();
      res(false);
    });
    req.end();
  });
}

/**
 * `hermes-hooks serve --home H` (socket), with `--http 127.0.0.1:PORT --socket <home>/hermes-hooks.sock`
 * for http hooks (the socket too: the client-wired events of that snippet call it there, and with
 * --http alone serve would not listen on it); resolves once it answers /v1/health. The handle can
 * freeze (SIGSTOP: the kernel still accepts connections, nobody answers), kill (SIGKILL: the socket
 * file stays behind, stale) and stop.
 */
export async function startServe(home, { port, requestTimeout } = {}) {
  const http = port ? ['--http', `127.0.0.1:${port}`, '--socket', join(home, 'hermes-hooks.sock')] : [];
  const args = [BIN, 'serve', '--home', home, ...http, ...(requestTimeout ? ['--request-timeout', String(requestTimeout)] : [])];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (c) => (stderr += c));
  const tokenFile = join(home, 'hermes-hooks.token');
  for (let i = 0; i < 100; i++) {
    const token = port && existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined;
    if (await health(port ? { port, token } : { socket: join(home, 'hermes-hooks.sock') })) break;
    if (proc.exitCode !== null) throw new Error(`serve exited ${proc.exitCode}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const gone = new Promise((r) => proc.once('exit', r));
  return {
    proc,
    stderr: () => stderr,
    token: () => (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined),
    freeze: () => proc.kill('SIGSTOP'),
    kill: async () => {
      proc.kill('SIGKILL');
      await gone;
    },
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
      await gone;
    },
  };
}

/**
 * The serve states a scenario can ask for. `up`/`frozen`/`killed` start serve (frozen: SIGSTOP;
 * killed: SIGKILL, its socket left behind, stale); `never` and `noauto` start none and leave no
 * socket, token or mark of an earlier serve. `noauto` runs the agent with HERMES_HOOKS_AUTOSTART=0,
 * so the client cannot start one either.
 */
const ALL_STATES = ['up', 'frozen', 'killed', 'never', 'noauto'];
const STATE_LABELS = { noauto: 'never, no autostart' };
const ALL_WIRINGS = ['run', 'client', 'http'];

/** A comma list from the environment, kept to the known names (default: all of them). */
export function picked(env, all) {
  const names = (process.env[env] ?? all.join(',')).split(',').map((x) => x.trim());
  return all.filter((n) => names.includes(n));
}
/** E2E_WIRINGS=run,client,http and E2E_STATES=up,frozen,killed,never,noauto (default: all) pick the scenarios to run. */
export const WIRINGS = picked('E2E_WIRINGS', ALL_WIRINGS);
const SERVE_STATES = picked('E2E_STATES', ALL_STATES);
/** E2E_ROWS=states,broken (default both): the serve-state scenarios, the broken-guard rows, or both. */
export const ROWS = picked('E2E_ROWS', ['states', 'broken']);

/**
 * The bundled client starts a serve itself when none answers (killed: a stale socket; never: no
 * socket), unless HERMES_HOOKS_AUTOSTART=0 — set for the whole run, it makes every such row expect a block.
 */
const AUTOSTART = process.env.HERMES_HOOKS_AUTOSTART !== '0';

/** Kill serves started for `home` that the harness did not start itself (the client's autostart). */
export function killServesOf(home) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.includes('serve') && argv.includes(home)) process.kill(Number(name), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Brings serve to `state` for `home`; the handle's `stop` also ends any serve the client started meanwhile. */
export async function serveIn(state, home, opts) {
  if (state === 'never' || state === 'noauto') {
    // Never started: no socket (a killed serve's stale one), no token, no client mark beside the socket.
    for (const f of readdirSync(home))
      if (f.startsWith('hermes-hooks.sock') || f === 'hermes-hooks.token') rmSync(join(home, f), { recursive: true, force: true });
    return { token: () => undefined, stop: async () => killServesOf(home) };
  }
  const s = await startServe(home, opts);
  if (state === 'frozen') s.freeze();
  if (state === 'killed') await s.kill();
  return {
    ...s,
    stop: async () => {
      await s.stop();
      killServesOf(home);
    },
  };
}

/**
 * Runs one agent through every picked scenario: each wiring it supports (`run` with no serve, then
 * `client` and `http` in every serve state), each command, by `call(snippet, command, { env, token })`
 * which runs the agent once and returns `{ outcome, ms, ... }`. `env`: what the agent's environment
 * must add (the scaled client deadline, HERMES_HOOKS_AUTOSTART=0 for `noauto`); `token`: serve's
 * bearer token for http hooks, when it has one. The snippet's timeouts are the scaled chain
 * (`unitMs`: the agent's timeouts are in ms). Returns the judged rows and each wiring's chain.
 */
export async function runScenarios(agent, home, { wirings, commands, call, unitMs = false }) {
  const rows = [];
  const chains = {};
  if (!ROWS.includes('states')) return { rows, chains };
  const port = wirings.includes('http') ? await freePort() : undefined;
  try {
    for (const wiring of WIRINGS.filter((w) => wirings.includes(w))) {
      const snippet = printConfig(agent, home, { wiring, extra: wiring === 'http' ? ['--url', `http://127.0.0.1:${port}`] : [] });
      const chain = (chains[wiring] = timeoutChain(snippet, { unitMs }));
      setAgentTimeout(snippet, chain.agent, { unitMs });
      const env = {
        ...(chain.client !== undefined ? { HERMES_HOOKS_TIMEOUT: String(chain.client) } : {}),
        ...(AUTOSTART ? {} : { HERMES_HOOKS_AUTOSTART: '0' }),
      };
      const states = wiring === 'run' ? ['-'] : SERVE_STATES;
      for (const state of states) {
        const serve =
          state === '-'
            ? { token: () => undefined, stop: async () => {} }
            : await serveIn(state, home, { port: wiring === 'http' ? port : undefined, requestTimeout: chain.serve });
        const rowEnv = state === 'noauto' ? { ...env, HERMES_HOOKS_AUTOSTART: '0' } : env;
        try {
          for (const command of commands)
            rows.push({ wiring, serve: state, command, ...(await call(snippet, command, { env: rowEnv, token: serve.token() })) });
        } finally {
          await serve.stop();
        }
      }
    }
  } finally {
    killServesOf(home);
  }
  judgeRows(rows);
  return { rows, chains };
}

// --- reporting ------------------------------------------------------------------------------------

export function table(rows, cols) {
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals) => `| ${vals.map((v, i) => String(v ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => r[c])))].join('\n');
}

/**
 * The outcome issue 23 demands: `rm -rf` always blocked; `ls` allowed while the guard can answer,
 * blocked when it cannot — never open. The guard cannot answer on a frozen serve, nor where nothing
 * may start one (`noauto`, or HERMES_HOOKS_AUTOSTART=0 for the run), nor through http hooks on a
 * serve the client started for a home that never had one: it writes a new token, which the agent's
 * environment (the hooks' Authorization header) cannot hold yet.
 */
export function expected(command, wiring, state) {
  const unstarted = state === 'killed' || state === 'never';
  const unanswerable = state === 'frozen' || state === 'noauto' || (!AUTOSTART && unstarted) || (wiring === 'http' && state === 'never');
  return command.includes('rm -rf') || unanswerable ? 'blocked' : 'allowed';
}

/** Fills each row's `expected` and `verdict`, and shows the command without the marker and the state by its label. */
function judgeRows(rows) {
  for (const r of rows) {
    r.expected = expected(r.command, r.wiring, r.serve);
    r.verdict = r.outcome === r.expected ? 'ok' : r.expected === 'blocked' ? 'FAIL (open)' : 'FAIL (closed)';
    r.command = r.command.replace('touch MARK && ', '');
    r.serve = STATE_LABELS[r.serve] ?? r.serve;
  }
}

/** Prints the agent line, each wiring's scaled timeout chain and the table; returns the exit code (0: every row ok). */
export function report(title, { rows, chains }, cols) {
  console.log(title);
  for (const [wiring, c] of Object.entries(chains)) {
    const client = c.client === undefined ? '' : `, client ${c.client} (shipped ${c.shipped.client})`;
    const serve = wiring === 'run' ? '' : `, serve --request-timeout ${c.serve} (default ${c.shipped.serve})`;
    console.log(`timeouts (s), ${wiring}: agent ${c.agent} (printed ${c.shipped.agent})${client}${serve}; scale ${SCALE}`);
  }
  console.log(table(rows, ['wiring', 'serve', 'command', 'outcome', 'expected', 'verdict', ...cols]));
  return rows.every((r) => r.verdict === 'ok') ? 0 : 1;
}

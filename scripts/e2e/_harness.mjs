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

/** The JSON snippet `print-config AGENT [--serve] --home H [...extra]` prints on stdout. */
export function printConfig(agent, home, { serve = false, extra = [] } = {}) {
  return JSON.parse(cli(['print-config', agent, ...(serve ? ['--serve'] : []), '--home', home, ...extra]));
}

/** Every handler of a printed `{hooks: {Event: [{hooks: [handler]}]}}` snippet. */
export function handlers(snippet) {
  return Object.values(snippet.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks));
}

// --- the timeout chain, scaled ------------------------------------------------------------------
// Shipped: the agent timeout print-config writes, the client's curl deadline (HERMES_HOOKS_TIMEOUT,
// default in the client script) and serve's --request-timeout (default in `serve --help`). The
// scripts multiply all three by E2E_SCALE (default 0.1) so their ORDER stays what ships — a frozen
// serve then shows the same open/closed outcome as in production, in tens of seconds. Each can be
// pinned instead: E2E_AGENT_TIMEOUT, E2E_CLIENT_TIMEOUT, E2E_SERVE_TIMEOUT (seconds).
export const SCALE = Number(process.env.E2E_SCALE ?? 0.1);

/** The client script a printed --serve command runs (the path right after `' `), if any. */
export function clientPath(command) {
  return command.match(/' (\S*hermes-hooks-client)\b/)?.[1];
}

function clientDefaultSeconds(client) {
  const m = client && existsSync(client) ? readFileSync(client, 'utf8').match(/HERMES_HOOKS_TIMEOUT:-(\d+)/) : null;
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
  const printed = Math.max(...hs.map((h) => h.timeout ?? 0)) / (unitMs ? 1000 : 1);
  const client = clientDefaultSeconds(hs.map((h) => clientPath(h.command ?? '')).find(Boolean));
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
  for (const h of handlers(snippet)) h.timeout = unitMs ? seconds * 1000 : seconds;
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
      { ...(socket ? { socketPath: socket } : { host: '127.0.0.1', port }), path: '/v1/health', headers: token ? { authorization: `Bearer ${token}` } : {}, timeout: 1000 },
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
 * `hermes-hooks serve --home H` (socket) or with `--http 127.0.0.1:PORT`; resolves once it answers
 * /v1/health. The handle can freeze (SIGSTOP: the kernel still accepts connections, nobody answers),
 * kill (SIGKILL: the socket file stays behind, stale) and stop.
 */
export async function startServe(home, { port, requestTimeout } = {}) {
  const args = [BIN, 'serve', '--home', home, ...(port ? ['--http', `127.0.0.1:${port}`] : []), ...(requestTimeout ? ['--request-timeout', String(requestTimeout)] : [])];
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
 * The serve states a scenario can ask for. `setup` brings serve to that state and returns a
 * teardown. `up`/`frozen`/`killed` start it; `never` does not (no socket, nothing on the port).
 */
const ALL_STATES = ['up', 'frozen', 'killed', 'never'];
/** E2E_SCENARIOS=run,up,frozen,killed,never (default: all) picks the scenarios to run. */
const PICKED = (process.env.E2E_SCENARIOS ?? ['run', ...ALL_STATES].join(',')).split(',').map((x) => x.trim());
export const RUN_WIRING = PICKED.includes('run');
export const SERVE_STATES = ALL_STATES.filter((s) => PICKED.includes(s));

/**
 * The bundled client starts a serve itself when none answers (killed: a stale socket; never: no
 * socket), unless HERMES_HOOKS_AUTOSTART=0 — then those calls are answered by the guard through the
 * serve the client started, and that serve is stopped with the scenario.
 */
export const AUTOSTART = process.env.HERMES_HOOKS_AUTOSTART !== '0';

/** Kill serves started for `home` that the harness did not start itself (the client's autostart). */
function killServesOf(home) {
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

export async function serveIn(state, home, opts) {
  const autostarted = { token: () => undefined, stop: async () => killServesOf(home) };
  if (state === 'never') {
    rmSync(join(home, 'hermes-hooks.sock'), { force: true }); // a killed serve's stale socket
    return autostarted;
  }
  const s = await startServe(home, opts);
  if (state === 'frozen') s.freeze();
  if (state === 'killed') {
    await s.kill();
    return { ...s, stop: async () => { await s.stop(); killServesOf(home); } };
  }
  return s;
}

// --- reporting ------------------------------------------------------------------------------------

export function table(rows, cols) {
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals) => `| ${vals.map((v, i) => String(v ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => r[c])))].join('\n');
}

/**
 * Whether an outcome is the one issue 23 demands: `rm -rf` blocked; `ls` allowed while the guard can
 * answer, blocked when it cannot (serve frozen, killed or never started: never open).
 */
export function expected(command, state, also = []) {
  // Killed or never started, the client starts a serve (unless HERMES_HOOKS_AUTOSTART=0): the guard
  // answers. `also`: states an agent cannot be answered in anyway (Claude's `never`: no token yet).
  const unanswerable = state === 'frozen' || also.includes(state) || (!AUTOSTART && (state === 'killed' || state === 'never'));
  return command.includes('rm -rf') || unanswerable ? 'blocked' : 'allowed';
}

export function verdict(command, state, outcome, also = []) {
  const want = expected(command, state, also);
  return outcome === want ? 'ok' : want === 'blocked' ? 'FAIL (open)' : 'FAIL (closed)';
}

/** Fills each row's `expected` and `verdict` (a run-wiring row counts as serve `up`), and shows the command without the marker. */
export function judgeRows(rows, also = []) {
  for (const r of rows) {
    const state = r.serve === '-' ? 'up' : r.serve;
    r.expected = expected(r.command, state, also);
    r.verdict = verdict(r.command, state, r.outcome, also);
    r.command = r.command.replace('touch MARK && ', '');
  }
}

// hostile (opt-in: `node bench/run.mjs --only hostile`): serve under 1 000 hostile connections held
// open — partial headers, headers then a body dripped byte by byte, and idle ones, on loopback
// --http (no token) and on the Unix socket — while a legitimate PreToolUse is made over --http
// (Claude Code's http hook) and through the bundled bash + curl client (Codex's command hook).
// Each legitimate call must be answered by its ~10 ms guard hook, within 100 ms of that hook's own
// time (a bare spawn of it, same run) over --http; through the client, whose own time is mostly
// bash and curl starting, within 100 ms of the same client calling a second, unattacked serve at
// the same moment (the attacker shares the machine's cores: that cost is the machine's, not serve's;
// the client's time without attack is shown too). Once with the open-file limit of this machine, once under
// `ulimit -n 1024` as on a default CI runner (the cap then derives from it), and with
// HH_BENCH_BASELINE=<built checkout> the same attack on that build (before → after).
// The attacker keeps its 1 000 connections up: one that the server closes is opened again a
// second later. It runs in this process, which needs an open-file limit above 1 100.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { makeWorkspace } from '../lib/fixtures.mjs';
import { BIN, ROOT } from '../lib/paths.mjs';
import { runCommand, spawnBare } from '../lib/proc.mjs';
import { round, summarize } from '../lib/stats.mjs';

/** ~10 ms: read the payload, one external sleep, block saying it ran. */
const GUARD = `#!/bin/bash
input=$(cat)
sleep 0.01
echo '{"action": "block", "message": "guarded by the bench hook"}'
`;
const STDIN = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: '/tmp' });
const HOSTILE = 1000;
const REOPEN_MS = 1000;
const TARGET_MS = 100;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startServe(bin, home, sock, nofile) {
  const cmd = `${nofile ? `ulimit -n ${nofile} && ` : ''}exec "${process.execPath}" "${bin}" serve --home "${home}" --socket "${sock}" --http 127.0.0.1:0`;
  const child = spawn('bash', ['-c', cmd], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return {
    child,
    exited,
    stderr: () => err,
    async ready() {
      for (let i = 0; i < 600 && (err.match(/serving HTTP/g) ?? []).length < 2; i++) await sleep(25);
      const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(err)?.[1]);
      if (!port) throw new Error(`serve did not start: ${err}`);
      return { port, token: readFileSync(join(home, 'hermes-hooks.token'), 'utf8').trim() };
    },
  };
}

/** One legitimate Claude Code PreToolUse over --http: the outcome and its wall time. */
function viaHttp(port, token) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/agent/claude/PreToolUse',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          let reason = null;
          try {
            reason = JSON.parse(body).hookSpecificOutput?.permissionDecisionReason ?? null;
          } catch {}
          resolve({ ms, outcome: classify(res.statusCode === 200, reason ?? body) });
        });
      },
    );
    req.on('error', (e) => resolve({ ms: performance.now() - t0, outcome: `error: ${e.code ?? e.message}` }));
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.end(STDIN);
  });
}

/** One legitimate Codex PreToolUse through the bundled client on the socket. */
async function viaClient(client, sock) {
  const r = await runCommand([client, 'codex', 'PreToolUse', sock], { stdin: STDIN });
  return { ms: r.wall_ms, outcome: r.code === 0 ? 'allowed unchecked' : classify(r.code === 2, r.stderr) };
}

function classify(ok, text) {
  if (String(text).startsWith('hermes-hooks-client: ')) return `blocked by the client: ${String(text).slice(21, 140)}`;
  if (!ok) return `error: ${String(text).slice(0, 120)}`;
  if (String(text).includes('guarded by the bench hook')) return 'hook';
  if (/did not check|cannot decide/.test(String(text))) return 'blocked unchecked (shed)';
  if (String(text).trim() === '') return 'allowed unchecked';
  return `other: ${String(text).slice(0, 120)}`;
}

/** The attacker: `n` connections of three kinds on both transports, reopened when closed. */
function attack(port, sock, n) {
  const live = new Set();
  let stopped = false;
  let opened = 0;
  let closedByServer = 0;
  const kinds = ['partial', 'dripped', 'idle', 'partial', 'dripped'];
  const open = (i) => {
    const tcp = i % 2 === 0;
    const kind = kinds[Math.floor(i / 2) % kinds.length];
    const s = tcp ? connect(port, '127.0.0.1') : connect(sock);
    const host = tcp ? `127.0.0.1:${port}` : 'localhost';
    const conn = { s, tcp, kind, openedAt: performance.now(), closedAt: null };
    opened += 1;
    live.add(conn);
    s.on('error', () => {});
    let timer = null;
    s.once('connect', () => {
      if (kind === 'partial') {
        s.write(`POST /v1/agent/claude/PreToolUse HTTP/1.1\r\nHost: ${host}\r\n`);
        timer = setInterval(() => s.writable && s.write('X-Drip: 1\r\n'), 1000);
      } else if (kind === 'dripped') {
        s.write(`POST /v1/agent/claude/PreToolUse HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{`);
        timer = setInterval(() => s.writable && s.write(' '), 1000);
      }
    });
    s.once('close', () => {
      clearInterval(timer);
      conn.closedAt = performance.now();
      live.delete(conn);
      if (!stopped) {
        closedByServer += 1;
        setTimeout(() => !stopped && open(i), REOPEN_MS);
      }
    });
  };
  for (let i = 0; i < n; i++) open(i);
  return {
    stats: () => ({ open: live.size, opened, closed_by_server: closedByServer }),
    /** Stop reopening; resolves with the seconds until the server had closed every TCP connection left (null: not within `ms`). */
    async stopAndWatchDeadline(ms) {
      stopped = true;
      const t0 = performance.now();
      const tcpLeft = () => [...live].filter((c) => c.tcp).length;
      while (tcpLeft() > 0 && performance.now() - t0 < ms) await sleep(50);
      return tcpLeft() === 0 ? round((performance.now() - t0) / 1000, 1) : null;
    },
    destroy() {
      stopped = true;
      for (const c of live) c.s.destroy();
    },
  };
}

/** User + system CPU of a process so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

function fdCount(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** The serve process under bash's exec: the child itself. */
async function measureVariant({ label, bin, client, home, sock, nofile, calls }) {
  const served = startServe(bin, home, sock, nofile);
  const { port, token } = await served.ready();
  // The control: the same build and config, never attacked. A client call to it at the same moment
  // pays what the attack costs the machine (two cores shared with the attacker), not serve.
  const controlSock = sock.replace(/\.sock$/, '-control.sock');
  const control = startServe(bin, home, controlSock, nofile);
  await control.ready();
  const pid = served.child.pid;
  const quiet = { http: [], client: [] };
  for (let i = 0; i < calls / 2; i++) {
    quiet.http.push(await viaHttp(port, token));
    quiet.client.push(await viaClient(client, sock));
  }
  const attacker = attack(port, sock, HOSTILE);
  const attackStart = performance.now();
  const cpu0 = cpuMs(pid);
  await sleep(3000); // all opened, the first evictions done
  const held = attacker.stats();
  let peakFds = fdCount(pid);
  const under = { http: [], client: [], control: [] };
  for (let i = 0; i < calls; i++) {
    under.http.push(await viaHttp(port, token));
    under.client.push(await viaClient(client, sock));
    under.control.push(await viaClient(client, controlSock));
    peakFds = Math.max(peakFds ?? 0, fdCount(pid) ?? 0);
    await sleep(100);
  }
  const heldAfter = attacker.stats();
  const attackS = (performance.now() - attackStart) / 1000;
  // serve's CPU over the attack, legitimate calls included: what the attack costs it whatever the load.
  const cpuShare = cpu0 === null ? null : round((cpuMs(pid) - cpu0) / (attackS * 1000), 3);
  const deadlineS = await attacker.stopAndWatchDeadline(30_000);
  attacker.destroy();
  const stderr = served.stderr();
  const shedLines = (stderr.match(/serve is shedding load|serve closed \d+ connection/g) ?? []).length;
  served.child.kill('SIGTERM');
  control.child.kill('SIGTERM');
  const exit = await Promise.race([served.exited, sleep(20_000).then(() => 'did not exit')]);
  if (exit === 'did not exit') served.child.kill('SIGKILL');
  if ((await Promise.race([control.exited, sleep(20_000).then(() => 'did not exit')])) === 'did not exit') control.child.kill('SIGKILL');
  const outcomes = (list) => list.reduce((m, r) => ((m[r.outcome] = (m[r.outcome] ?? 0) + 1), m), {});
  return {
    label,
    nofile: nofile ?? readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+)/)?.[1] ?? null,
    quiet: { http: summarize(quiet.http.map((r) => r.ms)), client: summarize(quiet.client.map((r) => r.ms)) },
    under_attack: {
      http: summarize(under.http.map((r) => r.ms)),
      client: summarize(under.client.map((r) => r.ms)),
      client_to_unattacked_serve: summarize(under.control.map((r) => r.ms)),
      outcomes_http: outcomes(under.http),
      outcomes_client: outcomes(under.client),
    },
    attacker_at_start: held,
    attacker_at_end: heldAfter,
    attack_s: round(attackS, 1),
    server_fds_peak: peakFds,
    server_cpu_share_under_attack: cpuShare,
    tcp_closed_by_deadline_within_s: deadlineS,
    stderr_shed_lines: shedLines,
    stderr_tail: stderr.split('\n').filter(Boolean).slice(-3),
    exit,
  };
}

benchMain(async ({ quick }) => {
  const ws = makeWorkspace('hostile');
  const result = {
    name: 'hostile',
    title: `serve under ${HOSTILE} hostile connections: a legitimate PreToolUse over --http and through the client, vs its hook's own time`,
    figures: [],
  };
  try {
    const hook = ws.script('guard.sh', GUARD);
    const home = ws.home('home', `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(hook)}\n`);
    const approve = await runCommand(['node', BIN, 'approve', '--all', '--home', home], {});
    if (approve.code !== 0) throw new Error(`approve failed: ${approve.stderr}`);
    const calls = quick ? 6 : 20;

    // The hook's own time: a bare spawn of it with the same stdin, in this run.
    const bare = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      await spawnBare(hook, [], STDIN);
      bare.push(performance.now() - t0);
    }
    const hookMs = summarize(bare);
    result.hook_own_time = hookMs;

    const client = `${ROOT}/scripts-examples/hosts/hermes-hooks-client`;
    const variants = [
      { label: 'this machine’s open-file limit', bin: BIN, client, nofile: null },
      { label: 'ulimit -n 1024', bin: BIN, client, nofile: 1024 },
    ];
    const base = process.env.HH_BENCH_BASELINE;
    if (base)
      variants.push({
        label: 'baseline build, ulimit -n 1024',
        bin: `${base}/dist/cli/bin.js`,
        client: `${base}/scripts-examples/hosts/hermes-hooks-client`,
        nofile: 1024,
        baseline: true,
      });
    result.variants = [];
    for (const [i, v] of variants.entries()) {
      result.variants.push(await measureVariant({ ...v, home, sock: join(ws.dir, `s${i}.sock`), calls }));
    }

    const over = (x) => round(x - hookMs.median, 1);
    for (const [i, v] of result.variants.entries()) {
      const isBase = variants[i].baseline === true;
      const u = v.under_attack;
      const byHook = (u.outcomes_http.hook ?? 0) + (u.outcomes_client.hook ?? 0);
      const total = 2 * calls;
      const other = Object.entries({ ...u.outcomes_http })
        .concat(Object.entries(u.outcomes_client))
        .filter(([k]) => k !== 'hook');
      const note = `${v.attacker_at_end.open} hostile connections open at the end (${v.attacker_at_end.opened} opened, ${v.attacker_at_end.closed_by_server} closed by serve and reopened); server fds peak ${v.server_fds_peak} of ${v.nofile}; serve used ${v.server_cpu_share_under_attack === null ? '?' : `${round(v.server_cpu_share_under_attack * 100, 1)}%`} of a core during the attack; ${other.length ? `other answers: ${other.map(([k, n]) => `${k} ×${n}`).join(', ')}` : 'no other answer'}`;
      result.figures.push(
        figure(`${v.label}: legitimate calls answered by their hook under attack`, `${byHook}/${total}`, '', {
          target: isBase ? null : `${total}/${total}`,
          pass: isBase ? null : byHook === total,
          note,
        }),
      );
      if (isBase) continue;
      result.figures.push(
        figure(`${v.label}: --http call under attack, max − hook's own time`, over(u.http.max), 'ms', {
          target: `≤ ${TARGET_MS}`,
          pass: over(u.http.max) <= TARGET_MS,
          limit: `hook's own time ${hookMs.median} ms (median of ${calls} bare spawns)`,
          note: `under attack median ${u.http.median} ms, p95 ${u.http.p95}, max ${u.http.max}; without attack median ${v.quiet.http.median} ms`,
        }),
        // The client's time is mostly bash and curl starting, which the attacker (this process,
        // on the same two cores) slows whatever serve does: the target compares the attacked serve
        // with an unattacked one at the same moment; against the quiet run it is shown, not judged.
        figure(
          `${v.label}: client call under attack, max − max of the same client to an unattacked serve at the same moment`,
          round(u.client.max - u.client_to_unattacked_serve.max, 1),
          'ms',
          {
            target: `≤ ${TARGET_MS}`,
            pass: u.client.max - u.client_to_unattacked_serve.max <= TARGET_MS,
            limit: `to the unattacked serve: median ${u.client_to_unattacked_serve.median} ms, p95 ${u.client_to_unattacked_serve.p95}, max ${u.client_to_unattacked_serve.max}`,
            note: `under attack median ${u.client.median} ms, p95 ${u.client.p95}, max ${u.client.max}`,
          },
        ),
        figure(`${v.label}: client call under attack, max − the client's own time without attack`, round(u.client.max - v.quiet.client.median, 1), 'ms', {
          limit: `the client's own time without attack ${v.quiet.client.median} ms (median): the hook (${hookMs.median} ms) plus bash and curl starting`,
          note: `max − hook's own time ${over(u.client.max)} ms; includes what the attacker's CPU costs bash and curl (the figure above separates it)`,
        }),
        figure(
          `${v.label}: hostile --http connections closed by the headers deadline after the attacker stops`,
          v.tcp_closed_by_deadline_within_s ?? '> 30',
          's',
          {
            target: '≤ 12',
            pass: v.tcp_closed_by_deadline_within_s !== null && v.tcp_closed_by_deadline_within_s <= 12,
            note: `--headers-timeout 10 s; a token-less body is answered 401 at once; ${v.stderr_shed_lines} line(s) on stderr over ${v.attack_s} s of attack (at most one per 10 s)`,
          },
        ),
      );
    }
  } finally {
    ws.cleanup();
  }
  return result;
});

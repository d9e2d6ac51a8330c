// serve: what one long-lived server costs per emit, side by side with the bare spawn of the same
// ~10 ms bash hook and with `hermes-hooks run` (a Node start per call), interleaved run by run:
// emits through the Unix socket (HTTP keep-alive) and through --stdio (JSON-RPC), plus the
// client that command-only agents run per call — perl, and the bash + curl one for machines without
// perl — and the perl client on an event with no hook (against a bare spawn of `true`). Then memory: the server's RSS after
// 100 000 emits across 1 000 sessions vs after the first 1 000. Then load: 64 concurrent socket
// clients × 1 000 requests, malformed ones interleaved, every request answered exactly once and
// no hook process left.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { benchMain, figure } from '../lib/bench-main.mjs';
import { makeWorkspace } from '../lib/fixtures.mjs';
import { measureInterleaved } from '../lib/interleave.mjs';
import { BIN, ROOT } from '../lib/paths.mjs';
import { runCommand, spawnBare } from '../lib/proc.mjs';
import { round, summarize } from '../lib/stats.mjs';

/** ~10 ms: read the payload, one external sleep, print an empty directive. */
const TEN_MS_HOOK = `#!/bin/bash
read -r _payload || :
sleep 0.01
echo '{}'
`;
const CLIENT = `${ROOT}/scripts-examples/hosts/hermes-hooks-client`;
const CLIENT_BASH = `${ROOT}/scripts-examples/hosts/hermes-hooks-client.bash`;
const KW = { tool_name: 'terminal', args: { command: 'ls -la' }, session_id: 'bench' };
const CLAUDE_STDIN = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, cwd: '/tmp' });

const FLOOR_SERVER = `${ROOT}/bench/lib/probes/floor-server.mjs`;

function startServer(home, args, argv = [BIN, 'serve', '--home', home, ...args]) {
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const ready = new Promise((resolve, reject) => {
    const t = setInterval(() => {
      if (/hermes-hooks: serving |floor: serving/.test(err)) {
        clearInterval(t);
        resolve();
      }
      if (child.exitCode !== null) {
        clearInterval(t);
        reject(new Error(`serve exited: ${err}`));
      }
    }, 10);
  });
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  return { child, ready, exited, stderr: () => err };
}

function rpc(child) {
  let seq = 0;
  let buf = '';
  const waiting = new Map();
  child.stdout.on('data', (c) => {
    buf += c;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (msg.id != null) {
        waiting.get(msg.id)?.(msg);
        waiting.delete(msg.id);
      }
    }
  });
  return (method, params) =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
}

function post(socketPath, path, body, agent) {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path, agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** User + system CPU of a process so far, ms (from /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

function rssKb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : null;
}

function liveGroupMembers(pgids) {
  const wanted = new Set(pgids);
  let n = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] !== 'Z' && wanted.has(Number(f[2]))) n++;
    } catch {}
  }
  return n;
}

benchMain(async ({ quick }) => {
  const ws = makeWorkspace('serve');
  const result = {
    name: 'serve',
    title: 'serve: per-emit latency through the socket and --stdio vs bare spawn and `run`; RSS over 100 000 emits; 64 × 1 000 clients',
    figures: [],
  };
  try {
    // ---- latency ---------------------------------------------------------------------------
    const hook = ws.script('ten-ms.sh', TEN_MS_HOOK);
    const home = ws.home('home', `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(hook)}\n`);
    const approve = await runCommand(['node', BIN, 'approve', '--all', '--home', home], {});
    if (approve.code !== 0) throw new Error(`approve failed: ${approve.stderr}`);
    const sockPath = ws.file('s.sock');
    const sock = startServer(home, ['--socket', sockPath]);
    const stdio = startServer(home, ['--stdio']);
    // The same hook behind the least a Node server can do, on each transport: the floor.
    const floorSockPath = ws.file('floor.sock');
    const floorSock = startServer(null, null, [FLOOR_SERVER, hook, '--socket', floorSockPath]);
    const floorStdio = startServer(null, null, [FLOOR_SERVER, hook, '--stdio']);
    // A serve with no hook at all: what a call costs that no hook is configured for.
    const unhookedSockPath = ws.file('unhooked.sock');
    const unhooked = startServer(ws.home('unhooked', 'hooks: {}\n'), ['--socket', unhookedSockPath]);
    await Promise.all([sock.ready, stdio.ready, floorSock.ready, floorStdio.ready, unhooked.ready]);
    const call = rpc(stdio.child);
    const floorCall = rpc(floorStdio.child);
    // One keep-alive connection per server (the agent pools per socket path), as a host holds.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = JSON.parse((await post(sockPath, '/v1/emit/pre_tool_call', JSON.stringify(KW), agent)).body);
    if (first.hooks[0]?.status !== 'ok') throw new Error(`hook did not run: ${JSON.stringify(first.hooks[0])}`);
    const { serializePayload } = await import(`${ROOT}/dist/protocol/serialize.js`);
    const payload = serializePayload(first.payload);
    const payloadLine = JSON.stringify({ tool_name: 'terminal', tool_input: KW.args, session_id: 'bench' });
    const clientEnv = { ...process.env, HERMES_HOOKS_SOCKET: sockPath };
    const unhookedEnv = { ...process.env, HERMES_HOOKS_SOCKET: unhookedSockPath };
    const client = (argv, env) => async () => {
      const r = await runCommand([...argv, 'claude', 'PreToolUse'], { stdin: CLAUDE_STDIN, env });
      if (r.code !== 0) throw new Error(`client exited ${r.code}: ${r.stderr}`);
    };

    const ok = (e) => {
      if (e.hooks?.[0]?.status !== 'ok') throw new Error(`emit failed: ${JSON.stringify(e).slice(0, 300)}`);
    };
    const variants = {
      bare: async () => {
        const r = await spawnBare(hook, [], payload, { detached: true });
        if (r.code !== 0) throw new Error(`bare hook exited ${r.code}`);
      },
      socket: async () => ok(JSON.parse((await post(sockPath, '/v1/emit/pre_tool_call', JSON.stringify(KW), agent)).body)),
      stdio: async () => ok((await call('emit', { event: 'pre_tool_call', kwargs: KW })).result),
      floor_socket: async () => {
        const r = JSON.parse((await post(floorSockPath, '/', JSON.stringify(KW), agent)).body);
        if (r.exit_code !== 0) throw new Error(`floor server's hook exited ${r.exit_code}`);
      },
      floor_stdio: async () => {
        const r = (await floorCall('emit', { event: 'pre_tool_call', kwargs: KW })).result;
        if (r.exit_code !== 0) throw new Error(`floor server's hook exited ${r.exit_code}`);
      },
      client_perl: client([CLIENT], clientEnv),
      client_curl: client([CLIENT_BASH], clientEnv),
      bare_true: async () => {
        const r = await spawnBare('true', [], CLAUDE_STDIN);
        if (r.code !== 0) throw new Error(`true exited ${r.code}`);
      },
      unhooked_perl: client([CLIENT], unhookedEnv),
      // Without the shebang's /usr/bin/env: what a hook command that runs `perl CLIENT` saves.
      unhooked_perl_direct: client(['perl', CLIENT], unhookedEnv),
      unhooked_curl: client([CLIENT_BASH], unhookedEnv),
      run: async () => {
        const r = await runCommand(['node', BIN, 'run', 'pre_tool_call', '--home', home], { stdin: payloadLine });
        if (r.code !== 0) throw new Error(`run exited ${r.code}: ${r.stderr}`);
      },
    };
    const runs = quick ? 15 : 60;
    const warmup = quick ? 3 : 8;
    // CPU the servers spend per emit (spawning the hook included) — unlike wall time, barely moved
    // by other load on the machine. The bare spawn's CPU is this process's, per spawn.
    // Warm both servers first, so their CPU below is per emit, not V8 compiling the server's code.
    for (let i = 0; i < 40; i++) {
      await variants.socket();
      await variants.stdio();
    }
    const cpu0 = { socket: cpuMs(sock.child.pid), stdio: cpuMs(stdio.child.pid) };
    const { names, wall, cpu } = await measureInterleaved(variants, { warmup, runs });
    const serverCpu = {
      // The socket server also answers both clients' calls: three emits per round.
      socket: (cpuMs(sock.child.pid) - cpu0.socket) / (3 * (warmup + runs)),
      stdio: (cpuMs(stdio.child.pid) - cpu0.stdio) / (warmup + runs),
    };
    const bareCpu = summarize(cpu.bare, 3).median;
    const lat = Object.fromEntries(names.map((n) => [n, summarize(wall[n], 3)]));
    result.latency = {
      runs,
      hook: 'ten-ms.sh (bash: read, sleep 0.01, echo {})',
      wall_ms: lat,
      server_cpu_ms_per_emit: serverCpu,
      bare_spawn_host_cpu_ms: bareCpu,
    };
    const over = (n) => lat[n].median - lat.bare.median;
    const limit = `bare spawn ${lat.bare.median} ms (p95 ${lat.bare.p95})`;
    result.figures.push(
      figure('emit through the socket − bare spawn, median', round(over('socket'), 2), 'ms', {
        target: '≤ 1.5',
        pass: over('socket') <= 1.5,
        limit: `${limit}; the floor — a bare Node HTTP server on a Unix socket spawning the same hook — ${round(over('floor_socket'), 2)} ms over it`,
        note: `socket ${lat.socket.median} ms (p95 ${lat.socket.p95}): ${round(lat.socket.median - lat.floor_socket.median, 2)} ms over the floor`,
      }),
      figure('emit through --stdio − bare spawn, median', round(over('stdio'), 2), 'ms', {
        target: '≤ 1.5',
        pass: over('stdio') <= 1.5,
        limit: `${limit}; the floor — a bare Node JSON-lines server spawning the same hook — ${round(over('floor_stdio'), 2)} ms over it`,
        note: `stdio ${lat.stdio.median} ms (p95 ${lat.stdio.p95}): ${round(lat.stdio.median - lat.floor_stdio.median, 2)} ms over the floor`,
      }),
      figure(
        'server CPU per emit (socket / stdio) − host CPU per bare spawn',
        `${round(serverCpu.socket - bareCpu, 2)} / ${round(serverCpu.stdio - bareCpu, 2)}`,
        'ms',
        {
          limit: `bare spawn ${round(bareCpu, 2)} ms CPU in the spawning process`,
          note: `server CPU per emit, spawn included: socket ${round(serverCpu.socket, 2)} ms, stdio ${round(serverCpu.stdio, 2)} ms (/proc ticks of 10 ms, over ${warmup + runs} rounds); what the server adds whatever the load`,
        },
      ),
      figure('`run` per call ÷ emit through the socket', round(lat.run.median / lat.socket.median, 1), '×', {
        target: '≥ 10',
        pass: lat.run.median / lat.socket.median >= 10,
        limit: `run ${lat.run.median} ms (p95 ${lat.run.p95})`,
      }),
      figure('perl client per call (command-only agents) − bare spawn', round(over('client_perl'), 2), 'ms', {
        limit,
        note: `client ${lat.client_perl.median} ms (p95 ${lat.client_perl.p95}) vs bash + curl ${lat.client_curl.median} ms: ${round(lat.client_curl.median - lat.client_perl.median, 2)} ms less`,
      }),
      figure('bash + curl client per call (command-only agents) − bare spawn', round(over('client_curl'), 2), 'ms', {
        limit,
        note: `client ${lat.client_curl.median} ms vs run ${lat.run.median} ms: ${round(lat.run.median / lat.client_curl.median, 1)}× cheaper`,
      }),
      figure('an event with no hook configured, through the perl client − bare `true` spawn', round(lat.unhooked_perl.median - lat.bare_true.median, 2), 'ms', {
        target: '≤ 5',
        pass: lat.unhooked_perl.median - lat.bare_true.median <= 5,
        limit: `bare spawn of true ${lat.bare_true.median} ms (p95 ${lat.bare_true.p95})`,
        note: `perl client ${lat.unhooked_perl.median} ms (p95 ${lat.unhooked_perl.p95}); run as \`perl CLIENT\` (no env) ${round(lat.unhooked_perl_direct.median - lat.bare_true.median, 2)} ms over; bash + curl ${lat.unhooked_curl.median} ms, ${round(lat.unhooked_curl.median - lat.bare_true.median, 2)} ms over`,
      }),
    );
    agent.destroy();
    sock.child.kill('SIGTERM');
    stdio.child.stdin.end();
    floorSock.child.kill('SIGTERM');
    floorStdio.child.stdin.end();
    unhooked.child.kill('SIGTERM');
    await Promise.all([sock.exited, stdio.exited, floorSock.exited, floorStdio.exited, unhooked.exited]);

    // ---- memory: 100 000 emits across 1 000 sessions ---------------------------------------------
    // The hook's matcher never matches, so no process is spawned: what is measured is the server's
    // own per-emit and per-session state (guardrails, session book, human-input, buffers).
    const memHome = ws.home('mem', `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(hook)}\n      matcher: "never_called"\n`);
    await runCommand(['node', BIN, 'approve', '--all', '--home', memHome], {});
    const mem = startServer(memHome, ['--stdio', '--idle-timeout', '2']);
    await mem.ready;
    const memCall = rpc(mem.child);
    const total = quick ? 20_000 : 100_000;
    const SESSIONS = 1000;
    const WINDOW = 64;
    let rssFirst = null;
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const sid = `s${i % SESSIONS}`;
        const event = i % 2 === 0 ? 'pre_tool_call' : 'post_tool_call';
        const kwargs = {
          tool_name: `tool${i % 13}`,
          args: { n: i % 97 },
          session_id: sid,
          platform: 'telegram',
          ...(event === 'post_tool_call' ? { result: `{"ok": ${i % 5}}` } : {}),
        };
        const r = await memCall('emit', { event, kwargs });
        if (!r.result) throw new Error(`emit ${i} failed: ${JSON.stringify(r.error)}`);
        if (i === SESSIONS - 1) rssFirst = rssKb(mem.child.pid);
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const rssLast = rssKb(mem.child.pid);
    const health = (await memCall('health')).result;
    mem.child.stdin.end();
    await mem.exited;
    const growthMb = (rssLast - rssFirst) / 1024;
    result.memory = {
      emits: total,
      sessions: SESSIONS,
      in_flight_window: WINDOW,
      rss_after_first_1000_kb: rssFirst,
      rss_after_all_kb: rssLast,
      emits_per_s: Math.round(total / seconds),
      open_sessions_at_end: health.open_sessions,
    };
    result.figures.push(
      figure(`RSS growth, ${total.toLocaleString('en')} emits / 1 000 sessions vs the first 1 000`, round(growthMb, 1), 'MB', {
        target: '< 30',
        pass: growthMb < 30,
        limit: `RSS ${round(rssFirst / 1024, 1)} MB after 1 000 emits → ${round(rssLast / 1024, 1)} MB`,
        note: `${Math.round(total / seconds)} emits/s over stdio with ${WINDOW} in flight; ${health.open_sessions} sessions open at the end`,
        retry: false,
      }),
    );

    // ---- load: 64 clients × 1 000 requests over the socket -------------------------------------
    // Every 20th request runs the ~10 ms hook (its matcher matches); the others run the same engine
    // path without a process, so 64 000 requests fit the benchmark's time. Every 10th is malformed.
    const loadHook = ws.script('pid-hook.sh', `#!/bin/bash\necho $$ >> ${ws.file('pids')}\nread -r _p || :\nsleep 0.01\necho '{}'\n`);
    const loadHome = ws.home('load', `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(loadHook)}\n      matcher: "spawn_me"\n`);
    await runCommand(['node', BIN, 'approve', '--all', '--home', loadHome], {});
    const loadSock = ws.file('load.sock');
    const load = startServer(loadHome, ['--socket', loadSock]);
    await load.ready;
    const CLIENTS = 64;
    const PER = quick ? 100 : 1000;
    const seen = new Map();
    let good = 0;
    let bad = 0;
    let wrong = 0;
    const lt0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const a = new Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < PER; i++) {
          const n = c * PER + i;
          if (i % 10 === 9) {
            const r = await post(loadSock, '/v1/emit/pre_tool_call', '{"tool_name": ', a);
            if (r.status === 400) bad++;
            else wrong++;
            continue;
          }
          const r = await post(
            loadSock,
            '/v1/emit/pre_tool_call',
            JSON.stringify({ tool_name: i % 20 === 0 ? 'spawn_me' : 'other', args: { n }, session_id: `c${c}` }),
            a,
          );
          const e = JSON.parse(r.body);
          if (r.status !== 200 || e.payload.tool_input.n !== n) wrong++;
          seen.set(n, (seen.get(n) ?? 0) + 1);
          good++;
        }
        a.destroy();
      }),
    );
    const loadS = (performance.now() - lt0) / 1000;
    const pids = readFileSync(ws.file('pids'), 'utf8').split('\n').filter(Boolean).map(Number);
    const left = liveGroupMembers(pids);
    load.child.kill('SIGTERM');
    await load.exited;
    const once = [...seen.values()].every((v) => v === 1);
    result.load = {
      clients: CLIENTS,
      per_client: PER,
      answered: good + bad,
      malformed: bad,
      wrong,
      hooks_spawned: pids.length,
      left_alive: left,
      seconds: round(loadS, 1),
    };
    result.figures.push(
      figure(
        `${CLIENTS} clients × ${PER} requests (1 in 10 malformed): answered exactly once, wrong answers, hook processes left`,
        `${once && good + bad === CLIENTS * PER ? 'yes' : 'NO'}, ${wrong}, ${left}`,
        '',
        {
          target: 'yes, 0, 0',
          pass: once && good + bad === CLIENTS * PER && wrong === 0 && left === 0,
          note: `${round((CLIENTS * PER) / loadS, 0)} requests/s; ${pids.length} hook runs`,
          retry: false,
        },
      ),
    );
    return result;
  } finally {
    ws.cleanup();
  }
});

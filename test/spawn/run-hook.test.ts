import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLiveHooks, liveHookCount } from '../../src/spawn/live-hooks.js';
import { EXIT_GRACE_MS, spawnHook, type SpawnHookOptions } from '../../src/spawn/run-hook.js';
import { _forceNamedStdinFiles, STDIN_FILE_PREFIX, stdinFileDir } from '../../src/spawn/stdin-file.js';
import { fixture, groupMembers, isRunning, killQuietly, sleep, waitFor } from './_helpers.js';

const PAYLOAD = JSON.stringify({ hook_event_name: 'pre_tool_call', tool_name: 'terminal', tool_input: { command: 'ls' } });

/** DESIGN's promise: at the deadline TERM, KILL 500 ms later, pipes abandoned 500 ms after that. */
const KILL_PATH_MS = 1000;
/** Stated margin for timers and process exits on a loaded 2-core machine (as in test/torture). */
const TIMER_MARGIN_MS = 1500;
/** How much earlier than asked a Node timer may fire, measured against performance.now(). */
const TIMER_EARLY_MS = 5;

const run = (command: string, extra: Partial<SpawnHookOptions> = {}) => spawnHook({ command, stdin: PAYLOAD, timeoutMs: 10_000, ...extra });

const pidFrom = (text: string, key: string): number => {
  const m = new RegExp(`${key}=(\\d+)`).exec(text);
  if (!m) throw new Error(`no ${key}= in ${JSON.stringify(text)}`);
  return Number(m[1]);
};

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'spawn-test-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('spawnHook: exits', () => {
  it('runs a hook that exits 0 and captures both streams', async () => {
    const r = await run(`${fixture('exit-with.sh')} 0`);
    expect(r).toMatchObject({
      command: `${fixture('exit-with.sh')} 0`,
      argv: [fixture('exit-with.sh'), '0'],
      status: 'ok',
      exit_code: 0,
      signal: null,
      stdout: '{"out": 0}\n',
      stderr: 'err 0\n',
      error: null,
      timeout: 10,
    });
    expect(typeof r.pid).toBe('number');
    expect(r.duration_ms).toBeGreaterThan(0);
    expect(r.started_at).toBeGreaterThan(0);
  });

  it.each([1, 2, 42])('reports exit %i as nonzero_exit with its output', async (code) => {
    const r = await run(`${fixture('exit-with.sh')} ${code}`);
    expect(r).toMatchObject({ status: 'nonzero_exit', exit_code: code, signal: null, error: null });
    expect(r.stdout).toBe(`{"out": ${code}}\n`);
    expect(r.stderr).toBe(`err ${code}\n`);
  });

  it('reports a signal death it did not cause as nonzero_exit with the signal', async () => {
    const r = await run(`bash -c 'kill -KILL $$'`);
    expect(r).toMatchObject({ status: 'nonzero_exit', exit_code: null, signal: 'SIGKILL', error: null });
  });

  it('decodes invalid UTF-8 with replacement characters', async () => {
    const r = await run(fixture('invalid-utf8.sh'));
    expect(r.stdout).toBe('a\uFFFDb\u00e9c\uFFFD');
  });

  it('passes the base env plus extraEnv, honours cwd, and makes the child a group leader', async () => {
    const r = await run(fixture('print-env.sh'), {
      env: { ...process.env, BASE_VAR: 'base' },
      extraEnv: { HERMES_HOME: '/profiles/work', HERMES_HOOK_EVENT: 'pre_tool_call' },
      cwd: tmp,
    });
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('HERMES_HOME=/profiles/work\n');
    expect(r.stdout).toContain('HERMES_HOOK_EVENT=pre_tool_call\n');
    expect(r.stdout).toContain('BASE_VAR=base\n');
    expect(r.stdout).toContain(`PWD=${realpathSync(tmp)}\n`);
    expect(r.stdout).toContain(`pid=${r.pid} pgid=${r.pid}\n`);
  });

  it('gives the child the base env overlaid by extraEnv: each variable once, the override winning, even one named __proto__', async () => {
    const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HERMES_HOME: '/from/host', KEEP: 'kept' };
    Object.defineProperty(base, '__proto__', { value: 'odd', enumerable: true, configurable: true, writable: true });
    const r = await run('/usr/bin/env', { env: base, extraEnv: { HERMES_HOME: '/profiles/work', HERMES_HOOK_EVENT: 'pre_tool_call' } });
    expect(r.status).toBe('ok');
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    // Plus the run's own id, which tells what it leaves behind from anything else.
    const runId = lines.find((l) => l.startsWith('HERMES_HOOK_RUN_ID='));
    expect(runId).toMatch(new RegExp(`^HERMES_HOOK_RUN_ID=${process.pid}\\.\\d+$`));
    expect(lines.sort()).toEqual(
      ['HERMES_HOME=/profiles/work', 'HERMES_HOOK_EVENT=pre_tool_call', 'KEEP=kept', `PATH=${process.env.PATH}`, '__proto__=odd', runId].sort(),
    );
  });

  it('gives every run its own HERMES_HOOK_RUN_ID', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => run(`bash -c 'echo $HERMES_HOOK_RUN_ID'`)));
    expect(new Set(ids.map((r) => r.stdout)).size).toBe(3);
  });

  it('uses process.env when no env is given', async () => {
    const r = await run(fixture('print-env.sh'));
    expect(r.stdout).toContain('HERMES_HOME=unset\n');
  });

  it('expands ~/ in argument tokens with the given homedir', async () => {
    writeFileSync(join(tmp, 'home-hook.sh'), '#!/bin/bash\necho "home hook $1"\n', { mode: 0o755 });
    const r = await run('bash ~/home-hook.sh ~/arg', { homedir: tmp });
    expect(r).toMatchObject({ status: 'ok', argv: ['bash', `${tmp}/home-hook.sh`, `${tmp}/arg`] });
    expect(r.stdout).toBe(`home hook ${tmp}/arg\n`);
  });
});

describe('spawnHook: stdin', () => {
  it.each([
    ['reading fd 0', 'echo-stdin.sh'],
    ['cat /dev/stdin', 'cat-dev-stdin.sh'],
  ])('delivers the payload to a hook %s', async (_label, name) => {
    const r = await run(fixture(name));
    expect(r).toMatchObject({ status: 'ok', stdout: PAYLOAD, stderr: '' });
  });

  it('delivers the payload to `jq . < /dev/stdin`', async () => {
    const r = await run(fixture('jq-dev-stdin.sh'));
    expect(r).toMatchObject({ status: 'ok', stderr: '' });
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(PAYLOAD))}\n`);
  });

  it('gives a python hook reading /dev/stdin a regular file', async () => {
    const r = await run(fixture('read-dev-stdin.py'));
    expect(r.status).toBe('ok');
    expect(JSON.parse(r.stdout)).toEqual({ bytes: Buffer.byteLength(PAYLOAD), fd0: 'file', payload: PAYLOAD });
  });

  it('gives the child a payload file that is already unlinked', async () => {
    const r = await run(fixture('show-stdin-link.sh'));
    expect(r.status).toBe('ok');
    // Linux: created nameless (O_TMPFILE, shown as /dir/#inode); elsewhere: a name already unlinked.
    const nameless = '/#[0-9]+';
    const named = `/${STDIN_FILE_PREFIX}${process.pid}-[0-9a-f]{12}`;
    expect(r.stdout).toMatch(new RegExp(`(${process.platform === 'linux' ? nameless : named}) \\(deleted\\)\\n$`));
  });

  it('gives the child an unlinked named payload file where nameless files are not available', async () => {
    _forceNamedStdinFiles(true);
    try {
      const r = await run(fixture('show-stdin-link.sh'));
      expect(r.status).toBe('ok');
      expect(r.stdout).toMatch(new RegExp(`/${STDIN_FILE_PREFIX}${process.pid}-[0-9a-f]{12} \\(deleted\\)\\n$`));
    } finally {
      _forceNamedStdinFiles(false);
    }
  });

  it('gives every hook its own copy: one that rewrites its stdin through /proc/self/fd/0 changes only its own', async () => {
    const bytes = Buffer.from(PAYLOAD);
    const [writer, ...readers] = await Promise.all([
      spawnHook({ command: `bash -c 'printf EVIL > /proc/self/fd/0; cat /dev/stdin'`, stdin: bytes, timeoutMs: 10_000 }),
      ...['cat-dev-stdin.sh', 'echo-stdin.sh'].map((name) =>
        spawnHook({ command: `bash -c 'sleep 0.3; exec "$0"' ${fixture(name)}`, stdin: bytes, timeoutMs: 10_000 }),
      ),
      spawnHook({ command: `bash -c 'sleep 0.3; exec "$0"' ${fixture('read-dev-stdin.py')}`, stdin: bytes, timeoutMs: 10_000 }),
    ]);
    // The writer changed its own copy (root ignores the file's mode 0400; anyone else is refused)…
    expect(writer.status).toBe('ok');
    if (process.getuid?.() === 0) expect(writer.stdout).toBe('EVIL');
    else expect([writer.stdout, writer.stderr.includes('Permission denied')]).toEqual([PAYLOAD, true]);
    // …and every other hook, reading 0.3 s later, still sees the payload.
    expect(readers.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(readers.slice(0, 2).map((r) => r.stdout)).toEqual([PAYLOAD, PAYLOAD]);
    expect(JSON.parse(readers[2]!.stdout).payload).toBe(PAYLOAD);
    expect(bytes.toString()).toBe(PAYLOAD);
  });

  it('treats a hook that never reads a 5 MB payload as ok (no EPIPE)', async () => {
    const big = JSON.stringify({ hook_event_name: 'post_tool_call', extra: { blob: 'x'.repeat(5 * 1024 * 1024) } });
    const r = await spawnHook({ command: fixture('ignore-stdin.sh'), stdin: big, timeoutMs: 10_000 });
    expect(r).toMatchObject({ status: 'ok', exit_code: 0, stdout: '{}\n', error: null });
  });

  it('closes its descriptors: no fd leak over many runs', async () => {
    await run(fixture('echo-stdin.sh'));
    const before = readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 8; i++) await run(fixture('echo-stdin.sh'));
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before);
  });
});

describe('spawnHook: deadline and kills', () => {
  it('SIGTERMs a hook that outlives its timeout and keeps the output so far', async () => {
    const t0 = performance.now();
    const r = await spawnHook({ command: `bash -c 'echo started; sleep 1000; echo never'`, stdin: PAYLOAD, timeoutMs: 500 });
    const elapsed = performance.now() - t0;
    expect(r.duration_ms).toBeGreaterThanOrEqual(500 - TIMER_EARLY_MS); // not killed before its deadline
    expect(elapsed).toBeLessThan(500 + KILL_PATH_MS + TIMER_MARGIN_MS);
    expect(r).toMatchObject({ status: 'timeout', exit_code: null, signal: 'SIGTERM', error: null, stdout: 'started\n', timeout: 0.5 });
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('abandons the pipes of a setsid grandchild and still settles within timeout + 1.5 s', async () => {
    const t0 = performance.now();
    const r = await spawnHook({ command: fixture('setsid-grandchild-holds-stdout.sh'), stdin: PAYLOAD, timeoutMs: 1000 });
    const elapsed = performance.now() - t0;
    const escaped = pidFrom(r.stdout, 'grandchild');
    try {
      expect(elapsed).toBeLessThan(1000 + KILL_PATH_MS + TIMER_MARGIN_MS);
      expect(r.duration_ms).toBeGreaterThanOrEqual(1000 - TIMER_EARLY_MS);
      expect(r).toMatchObject({ status: 'timeout', exit_code: null, signal: 'SIGTERM' });
      // Everything in the hook's group is gone, and so is the escaped one that still held the pipes.
      expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
      expect(isRunning(r.pid!)).toBe(false);
      expect(await waitFor(() => !isRunning(escaped), 3000)).toBe(true);
      expect(r.left_processes).toBe(0); // a timeout says it killed the hook; the count is for hooks that exited
    } finally {
      killQuietly(escaped);
    }
  });

  it('SIGKILLs a hook group that ignores SIGTERM', async () => {
    const t0 = performance.now();
    const r = await spawnHook({ command: fixture('trap-term.sh'), stdin: PAYLOAD, timeoutMs: 500, killGraceMs: 300 });
    expect(performance.now() - t0).toBeLessThan(500 + KILL_PATH_MS + TIMER_MARGIN_MS);
    // It ignored the TERM: it lived through the whole grace before the KILL.
    expect(r.duration_ms).toBeGreaterThanOrEqual(500 + 300 - TIMER_EARLY_MS);
    expect(r).toMatchObject({ status: 'timeout', exit_code: null, signal: 'SIGKILL' });
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('runs six 1-second hooks concurrently', async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => run(fixture('sleep-one.sh'))));
    expect(runs.map((r) => [r.status, r.stdout])).toEqual(Array.from({ length: 6 }, () => ['ok', '{}\n']));
    // All six were running at one instant: the last to start started before the first to end ended.
    const lastStart = Math.max(...runs.map((r) => r.started_at));
    const firstEnd = Math.min(...runs.map((r) => r.started_at + r.duration_ms));
    expect(lastStart).toBeLessThan(firstEnd);
  });
});

const numberFrom = (text: string, key: string): number => pidFrom(text, key);

describe('spawnHook: the answer is taken at the exit (issue 24 item 3)', () => {
  /** Far below the 5 s timeout these hooks get, far above EXIT_GRACE_MS: the run did not wait for the deadline. */
  const WELL_BEFORE_TIMEOUT_MS = 4000;

  it('a setsid daemon holding stdout: the block printed before the exit is the answer, at once, and the daemon is killed', async () => {
    const r = await spawnHook({ command: fixture('setsid-daemon-then-block.sh'), stdin: PAYLOAD, timeoutMs: 5000 });
    const daemon = numberFrom(r.stderr, 'daemon');
    try {
      expect(r).toMatchObject({
        status: 'ok',
        exit_code: 0,
        signal: null,
        error: null,
        stdout: '{"action":"block","message":"blocked by the guard"}\n',
        left_processes: 1,
      });
      expect(r.duration_ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
      // It left the group, but it held the hook's output: found by that socket and ended.
      expect(await waitFor(() => !isRunning(daemon), 3000)).toBe(true);
    } finally {
      killQuietly(daemon);
    }
  });

  it('a background child in the group holding stdout is killed after the grace and counted', async () => {
    const r = await spawnHook({ command: fixture('grandchild-holds-stdout.sh'), stdin: PAYLOAD, timeoutMs: 5000 });
    const child = pidFrom(r.stdout, 'grandchild');
    try {
      expect(r).toMatchObject({ status: 'ok', exit_code: 0, left_processes: 1 });
      // At least the grace, and nowhere near the deadline.
      expect(r.duration_ms).toBeGreaterThanOrEqual(EXIT_GRACE_MS - TIMER_EARLY_MS);
      expect(r.duration_ms).toBeLessThan(WELL_BEFORE_TIMEOUT_MS);
      expect(await waitFor(() => !isRunning(child), 3000)).toBe(true);
      expect(await waitFor(() => groupMembers(r.pid!).length === 0, 3000)).toBe(true);
    } finally {
      killQuietly(child);
    }
  });

  it('a fire-and-forget helper left in the group (output redirected) is killed too, without any wait', async () => {
    expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    const r = await run(fixture('group-helper-redirected.sh'), { killGraceMs: 100 });
    const helper = pidFrom(r.stdout, 'helper');
    try {
      expect(r).toMatchObject({ status: 'ok', exit_code: 0, left_processes: 1 });
      expect(await waitFor(() => !isRunning(helper), 3000)).toBe(true);
      // Once its group is gone the run is forgotten: nothing stays registered.
      expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    } finally {
      killQuietly(helper);
    }
  });

  it("a helper that left the group and the hook's output (setsid, redirected) is kept", async () => {
    expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    const r = await run(fixture('setsid-helper-redirected.sh'));
    const helper = pidFrom(r.stdout, 'helper');
    try {
      expect(r).toMatchObject({ status: 'ok', exit_code: 0, left_processes: 0 });
      expect(liveHookCount()).toBe(0);
      expect(isRunning(helper)).toBe(true);
    } finally {
      killQuietly(helper);
    }
  });

  it('a grandchild still writing after the exit: the output is what came within the grace, and the writer is killed', async () => {
    const r = await spawnHook({ command: fixture('grandchild-keeps-writing.sh'), stdin: PAYLOAD, timeoutMs: 30_000 });
    const writer = numberFrom(r.stderr, 'writer');
    try {
      expect(r).toMatchObject({ status: 'ok', exit_code: 0 });
      expect(r.stdout.startsWith('first\n')).toBe(true);
      // The writer never stops on its own: the run ended long before the deadline all the same.
      expect(r.duration_ms).toBeLessThan(10_000);
      // The writer subshell and its current `sleep` are both in the group.
      expect(r.left_processes).toBeGreaterThanOrEqual(1);
      expect(await waitFor(() => !isRunning(writer), 3000)).toBe(true);
      expect(await waitFor(() => groupMembers(r.pid!).length === 0, 3000)).toBe(true);
    } finally {
      killQuietly(writer);
    }
  });

  it('what was still in the pipe at the exit is all read (200 000 bytes, a background child holding stdout)', async () => {
    const r = await spawnHook({ command: fixture('big-output-then-exit.sh'), stdin: PAYLOAD, timeoutMs: 5000 });
    const child = numberFrom(r.stderr, 'child');
    try {
      expect(r).toMatchObject({ status: 'ok', exit_code: 0, left_processes: 1 });
      expect(r.stdout).toBe('x'.repeat(200_000));
    } finally {
      killQuietly(child);
    }
  });

  it('a hook that leaves nothing settles at its exit, with nothing to report', async () => {
    const r = await run(fixture('exit-with.sh'));
    expect(r).toMatchObject({ status: 'ok', left_processes: 0 });
  });
});

describe('spawnHook: output cap', () => {
  it('ends an endless stdout as output_limit with at most the cap kept', async () => {
    const t0 = performance.now();
    const r = await run(fixture('endless-stdout.sh'), { maxOutputBytes: 64 * 1024 });
    // Killed at the cap (TERM, KILL, drain), long before its 10 s timeout.
    expect(performance.now() - t0).toBeLessThan(KILL_PATH_MS + TIMER_MARGIN_MS);
    expect(r).toMatchObject({ status: 'output_limit', exit_code: null });
    expect(r.stdout.length).toBe(64 * 1024);
    expect(r.stdout.startsWith('endless output line\n')).toBe(true);
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('caps stderr with the default 1 MiB', async () => {
    const r = await run(fixture('endless-stderr.sh'));
    expect(r.status).toBe('output_limit');
    expect(r.stderr.length).toBe(1_048_576);
    expect(r.stdout).toBe('');
  });

  // Issue 29: the cap bounds memory, never a verdict.
  const script = (name: string, body: string): string => {
    const file = join(tmp, name);
    writeFileSync(file, `#!/bin/bash\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };

  it('past the cap, output is drained and counted, the hook runs to its exit and its status counts', async () => {
    const r = await run(script('past-cap.sh', 'head -c 300000 /dev/zero | tr "\\0" e >&2\nprintf done\nexit 2'), { maxOutputBytes: 64 * 1024 });
    expect(r).toMatchObject({ status: 'nonzero_exit', exit_code: 2, signal: null, stdout: 'done', stdout_dropped_bytes: 0 });
    expect(r.stderr).toBe('e'.repeat(64 * 1024));
    expect(r.stderr_dropped_bytes).toBe(300_000 - 64 * 1024);
  });

  it('a hook echoing a payload far larger than the cap is not an endless writer: its exit counts', async () => {
    const r = await run(script('echo-payload.sh', 'cat >&2\nexit 2'), { stdin: 'p'.repeat(200_000), maxOutputBytes: 1024 });
    expect(r).toMatchObject({ status: 'nonzero_exit', exit_code: 2, stderr: 'p'.repeat(1024), stderr_dropped_bytes: 200_000 - 1024 });
  });

  it('what a hook left flooding its pipes after its exit does not undo the exit: killed and counted', async () => {
    // The child waits for the hook to be gone, then writes far past the endless-writer bound.
    const body = 'p=$$\n( while kill -0 $p 2>/dev/null; do :; done; exec yes ) &\nexit 2';
    const r = await run(script('left-flooding.sh', body), { maxOutputBytes: 1024 });
    expect(r).toMatchObject({ status: 'nonzero_exit', exit_code: 2, signal: null, stdout: 'y\n'.repeat(512) });
    expect(r.stdout_dropped_bytes).toBeGreaterThan(64 * 1024); // past the bound, after the exit
    expect(r.left_processes).toBeGreaterThanOrEqual(1);
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('accepts output of exactly the cap', async () => {
    const r = await run(`bash -c 'printf 0123456789'`, { maxOutputBytes: 10 });
    expect(r).toMatchObject({ status: 'ok', stdout: '0123456789' });
  });
});

describe('spawnHook: the launch checks', () => {
  it('beforeLaunch runs once, right before the start: a refusal starts nothing and leaks no descriptor', async () => {
    const marker = join(tmp, 'before-marker');
    const cmd = `bash -c 'touch ${marker}'`;
    await run(cmd, { beforeLaunch: () => 'no' }); // warm-up: fds opened lazily by the first spawn
    const fds = readdirSync('/proc/self/fd').length;
    let calls = 0;
    const r = await run(cmd, { beforeLaunch: () => (calls++, 'consent changed') });
    expect(r).toMatchObject({ status: 'launch_failed', error: 'consent changed', pid: null, exit_code: null });
    expect(calls).toBe(1);
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(fds);
  });

  it('beforeLaunch sees the world as the process will: what it writes, the process runs', async () => {
    const script = join(tmp, 'rewritten-before.sh');
    writeFileSync(script, '#!/bin/bash\necho old\n', { mode: 0o755 });
    const r = await run(script, { beforeLaunch: () => (writeFileSync(script, '#!/bin/bash\necho new\n'), null) });
    expect(r).toMatchObject({ status: 'ok', stdout: 'new\n' });
  });

  it('afterLaunch refusing kills the process group at once', async () => {
    const marker = join(tmp, 'after-marker');
    const r = await run(`bash -c 'sleep 0.5; touch ${marker}'`, { afterLaunch: () => 'script changed as it was started' });
    expect(r).toMatchObject({ status: 'launch_failed', error: 'script changed as it was started', signal: 'SIGKILL' });
    expect(r.pid).toBeGreaterThan(0);
    await sleep(700);
    expect(existsSync(marker)).toBe(false);
    expect(liveHookCount()).toBe(0);
  });

  it('a check that throws is a refusal, never a crash', async () => {
    const r = await run('true', {
      beforeLaunch: () => {
        throw new Error('boom');
      },
    });
    expect(r).toMatchObject({ status: 'launch_failed', error: 'launch check failed: boom' });
  });
});

describe('spawnHook: launch failures', () => {
  it('reports a missing command, naming the PATH it was looked up on', async () => {
    const r = await run('definitely-not-a-command-xyz --flag', { env: { PATH: '/usr/bin:/bin' } });
    expect(r).toMatchObject({
      status: 'launch_failed',
      error: 'command not found: `definitely-not-a-command-xyz` (looked up on PATH=/usr/bin:/bin)',
      exit_code: null,
      signal: null,
      pid: null,
      argv: ['definitely-not-a-command-xyz', '--flag'],
    });
    // The payload file was never left behind, not even for a hook that could not start.
    expect(readdirSync(stdinFileDir()).filter((n) => n.startsWith(`${STDIN_FILE_PREFIX}${process.pid}-`))).toEqual([]);
  });

  it('reports a missing script path, naming it', async () => {
    const r = await run(join(tmp, 'nope.sh'));
    expect(r).toMatchObject({ status: 'launch_failed', error: `command not found: ${join(tmp, 'nope.sh')} (no such file)` });
  });

  it('an unquoted path with spaces: names the word it tried and gives the quoted command', async () => {
    const dir = join(tmp, 'Mes Documents');
    mkdirSync(dir, { recursive: true });
    const script = join(dir, 'garde fou.sh');
    writeFileSync(script, '#!/bin/bash\necho {}\n');
    chmodSync(script, 0o755);
    const r = await run(`${script} --strict`);
    expect(r).toMatchObject({
      status: 'launch_failed',
      argv: [join(tmp, 'Mes'), 'Documents/garde', 'fou.sh', '--strict'],
      error: `command not found: ${join(tmp, 'Mes')} (no such file) — the command was split at the spaces in its path; quote the path: command: "'${script}' --strict"`,
    });
    // The fix works: the quoted command runs.
    expect(await run(`'${script}' --strict`)).toMatchObject({ status: 'ok', stdout: '{}\n' });
  });

  it('CRLF line endings: through env (exit 127) and in the #! line itself, both a launch failure with the sed fix', async () => {
    const viaEnv = join(tmp, 'crlf-env.sh');
    writeFileSync(viaEnv, '#!/usr/bin/env bash\r\necho {}\r\n');
    chmodSync(viaEnv, 0o755);
    const direct = join(tmp, 'crlf-direct.sh');
    writeFileSync(direct, '#!/bin/bash\r\necho {}\r\n');
    chmodSync(direct, 0o755);
    const r1 = await run(viaEnv);
    expect(r1).toMatchObject({
      status: 'launch_failed',
      exit_code: 127,
      error: `CRLF line endings: ${viaEnv} (its #! line asks for 'bash\\r') — run: sed -i 's/\\r$//' ${viaEnv}`,
    });
    expect(r1.stderr).toMatch(/env: .bash\\r/); // env's own words are kept too (it prints the \r as `\r`)
    expect(await run(direct)).toMatchObject({
      status: 'launch_failed',
      error: `CRLF line endings: ${direct} (its #! line asks for '/bin/bash\\r') — run: sed -i 's/\\r$//' ${direct}`,
    });
  });

  it('a #! line that runs a program through env that is not on PATH is a launch failure naming it', async () => {
    const script = join(tmp, 'py4.sh');
    writeFileSync(script, '#!/usr/bin/env no-such-python4\nprint(1)\n');
    chmodSync(script, 0o755);
    expect(await run(script, { env: { PATH: '/usr/bin:/bin' } })).toMatchObject({
      status: 'launch_failed',
      exit_code: 127,
      error: `the #! line of ${script} runs no-such-python4 through env, and no-such-python4 is not on PATH=/usr/bin:/bin — install no-such-python4, or correct the #! line`,
    });
  });

  it('a script that runs and exits 127 itself stays a non-zero exit', async () => {
    expect(await run(`bash -c 'exit 127'`)).toMatchObject({ status: 'nonzero_exit', exit_code: 127, error: null });
  });

  it('a leading VAR=value is looked up as a program: the error says to use env', async () => {
    const r = await run('FOO=1 ./hook.sh');
    expect(r).toMatchObject({
      status: 'launch_failed',
      argv: ['FOO=1', './hook.sh'],
      error: 'command not found: `FOO=1` — environment assignments need `env FOO=1 …` (commands run without a shell)',
    });
  });

  it('a missing relative path names the working directory it was looked up in', async () => {
    const r = await run('./nope.sh', { cwd: tmp });
    expect(r).toMatchObject({ status: 'launch_failed', error: `command not found: \`./nope.sh\` (looked up relative to the working directory ${tmp})` });
  });

  it('a script whose #! interpreter is missing names the interpreter, not the script', async () => {
    const script = join(tmp, 'bad-interp.sh');
    writeFileSync(script, '#!/nonexistent/interpreter -x\necho hi\n');
    chmodSync(script, 0o755);
    const r = await run(script);
    expect(r).toMatchObject({
      status: 'launch_failed',
      error: `the #! interpreter /nonexistent/interpreter of ${script} does not exist — install it, or correct the #! line`,
    });
  });

  it('names a missing working directory instead of blaming the command', async () => {
    const r = await run(fixture('exit-with.sh'), { cwd: join(tmp, 'no-such-dir') });
    expect(r).toMatchObject({ status: 'launch_failed', error: `working directory not found: ${join(tmp, 'no-such-dir')}` });
  });

  it('reports a mode-644 script as not executable (even as root)', async () => {
    const script = join(tmp, 'no-x.sh');
    writeFileSync(script, '#!/bin/bash\necho hi\n');
    chmodSync(script, 0o644);
    const r = await run(script);
    expect(r).toMatchObject({ status: 'launch_failed', error: `command not executable: ${script} — run: chmod +x ${script}`, exit_code: null });
  });

  it('reports a directory as not executable, naming it', async () => {
    expect(await run(tmp)).toMatchObject({
      status: 'launch_failed',
      error: `command not executable: ${tmp} is not a regular file — point the command at the program or script itself`,
    });
  });

  it('reports a script without a shebang as an exec format error, as Hermes does', async () => {
    const r = await run(fixture('no-shebang.sh'));
    expect(r).toMatchObject({
      status: 'launch_failed',
      error: `[Errno 8] Exec format error: '${fixture('no-shebang.sh')}' — it has no #! line: add #!/usr/bin/env bash as the first line`,
      stdout: '',
    });
  });

  it('reports an unparsable command with the split error', async () => {
    const r = await run(`bash -c 'echo unbalanced`);
    expect(r).toMatchObject({
      status: 'launch_failed',
      argv: [],
      error: `command 'bash -c 'echo unbalanced' cannot be parsed: No closing quotation`,
    });
  });

  it('reports an empty command', async () => {
    expect(await run('   ')).toMatchObject({ status: 'launch_failed', error: 'empty command' });
    expect(await run("''")).toMatchObject({ status: 'launch_failed', error: 'command not found' }); // an empty word names nothing to try
  });
});

describe('spawnHook: cancellation', () => {
  it('kills the group when the host aborts, as a cancelled timeout', async () => {
    const ac = new AbortController();
    const ready = join(tmp, 'abort-ready');
    const pending = spawnHook({
      command: fixture('sleep-forever-ready.sh'),
      stdin: PAYLOAD,
      timeoutMs: 30_000,
      signal: ac.signal,
      extraEnv: { READY_FILE: ready },
    });
    expect(await waitFor(() => existsSync(ready), 5000)).toBe(true);
    const abortedAt = performance.now();
    ac.abort();
    const r = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(KILL_PATH_MS + TIMER_MARGIN_MS);
    expect(r).toMatchObject({ status: 'timeout', error: 'cancelled', exit_code: null, signal: 'SIGTERM' });
    expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
  });

  it('does not start a hook when the signal is already aborted', async () => {
    const r = await spawnHook({ command: fixture('sleep-forever.sh'), stdin: PAYLOAD, timeoutMs: 30_000, signal: AbortSignal.abort() });
    expect(r).toMatchObject({ status: 'timeout', error: 'cancelled', pid: null });
  });

  it('killLiveHooks kills every running hook group', async () => {
    expect(await waitFor(() => liveHookCount() === 0, 3000)).toBe(true);
    const ready = [join(tmp, 'kill-ready-a'), join(tmp, 'kill-ready-b')];
    const runs = Promise.all([
      run(fixture('sleep-forever-ready.sh'), { extraEnv: { READY_FILE: ready[0]! } }),
      run(fixture('trap-term-ready.sh'), { extraEnv: { READY_FILE: ready[1]! } }),
    ]);
    // Both scripts are going: the child is started, the trap is installed.
    expect(await waitFor(() => ready.every((f) => existsSync(f)), 5000)).toBe(true);
    expect(liveHookCount()).toBe(2);
    const t0 = performance.now();
    expect(killLiveHooks()).toBe(2);
    const [a, b] = await runs;
    // SIGKILL at once, then at most the drain.
    expect(performance.now() - t0).toBeLessThan(KILL_PATH_MS + TIMER_MARGIN_MS);
    for (const r of [a!, b!]) {
      expect(r).toMatchObject({ status: 'timeout', error: 'cancelled', signal: 'SIGKILL' });
      expect(await waitFor(() => groupMembers(r.pid!).length === 0, 2000)).toBe(true);
    }
    expect(await waitFor(() => liveHookCount() === 0, 2000)).toBe(true);
  });
});

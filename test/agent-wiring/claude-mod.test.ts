// print-config claude --mod DIR: the generated register.js, run in Node against a REAL serve on a temp
// socket. The stand-in below is the mod HOST (Claude Code's `on`, `next` and `$.http.fetch` /
// `$.process.run` as the 2.1.332 worker gives them: a whole answer {status, ok, headers, text}, a
// rejection naming the errno; {exitCode, stdout, stderr}), not the thing under test.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { approvedHome, baseEnv, BIN, cleanupTemps, servesOf, startServe, stopServe, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

type Hook = ($: unknown, e: Record<string, unknown>, next: Next) => Promise<unknown>;
type Next = ((e: Record<string, unknown>) => Promise<unknown>) & { called?: boolean };

/** The mod host: loads register.js, dispatches one event as Claude Code would. */
async function loadMod(dir: string, env: NodeJS.ProcessEnv) {
  const text = readFileSync(join(dir, 'hooks/register.js'), 'utf8');
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as { register: (on: unknown) => void };
  const hooks = new Map<string, { hook: Hook; onError?: Hook }>();
  mod.register((event: string, hook: Hook) => {
    const entry: { hook: Hook; onError?: Hook } = { hook };
    hooks.set(event, entry);
    return { catch: (h: Hook) => (entry.onError = h) };
  });
  /** Every URL the mod fetched, in order (the host's record, as Claude Code's debug log has it). */
  const fetched: string[] = [];
  /** The mod's $.process.run calls that have ended. */
  const ran: string[][] = [];
  const $ = {
    http: {
      fetch: (url: string, init: { method?: string; headers?: Record<string, string>; body?: string; socketPath?: string }) =>
        new Promise((resolve, reject) => {
          fetched.push(url);
          const u = new URL(url);
          const req = request({ socketPath: init.socketPath, path: u.pathname, method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode, ok: (res.statusCode ?? 0) < 300, headers: res.headers, text: body }));
          });
          req.on('error', (e: NodeJS.ErrnoException) =>
            reject(new Error(`hermes-hooks: $.http.fetch(${url}) over ${init.socketPath} failed: ${e.code}: ${e.message}`)),
          );
          req.end(init.body);
        }),
    },
    process: {
      run: (argv: string[], opts: { stdin?: string; timeoutMs?: number }) =>
        new Promise((resolve) => {
          const c = spawn(argv[0]!, argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: opts.timeoutMs });
          let stdout = '';
          let stderr = '';
          c.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
          c.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
          c.on('close', (code) => {
            ran.push(argv);
            resolve({ exitCode: code, stdout, stderr });
          });
          c.stdin.end(opts.stdin ?? '');
        }),
    },
  };
  return Object.assign(dispatch, { fetched, ran });
  async function dispatch(event: string, e: Record<string, unknown>) {
    const calls: Record<string, unknown>[] = [];
    const next: Next = async (x) => {
      next.called = true;
      calls.push(x);
      return { output: 'ran' };
    };
    const entry = hooks.get(event)!;
    let result: unknown;
    try {
      result = await entry.hook($, e, next);
    } catch {
      result = await entry.onError!($, e, next);
    }
    return { result: result as Record<string, unknown>, calls };
  }
}

const GUARD = `#!/usr/bin/env bash
input=$(cat)
if grep -q 'rm -rf' <<<"$input"; then echo '{"action":"block","message":"mod test guard: rm -rf is not allowed"}'; fi
if grep -q 'curl' <<<"$input"; then echo '{"action":"modify","args":{"command":"echo rewritten"}}'; fi
`;

/** A home with the guard, the mod print-config writes for it, and the host that runs it. */
async function setUp(envExtra: Record<string, string> = {}) {
  const dir = tempDir('hh-mod-');
  const guard = writeScript(join(dir, 'guard.sh'), GUARD);
  const home = await approvedHome({ pre_tool_call: [guard] });
  const modDir = join(dir, 'mod');
  const env = baseEnv({ HERMES_HOME: home, ...envExtra });
  const printed = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const c = spawn(process.execPath, [BIN, 'print-config', 'claude', '--mod', modDir, '--home', home], { env });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b: Buffer) => (stdout += b));
    c.stderr.on('data', (b: Buffer) => (stderr += b));
    c.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  expect(printed.code, printed.stderr).toBe(0);
  return { home, modDir, printed, dispatch: await loadMod(modDir, env), socket: join(home, 'hermes-hooks.sock') };
}

const bash = (command: string) => ({ tool: 'Bash', tool_use_id: 'toolu_1', command, description: 'test' });

describe('print-config claude --mod DIR', () => {
  it('writes a plugin (manifest, hooks.json naming ./register.js, the module) and says how to enable it; refuses a DIR holding something else', async () => {
    const { modDir, printed, home } = await setUp();
    expect(JSON.parse(readFileSync(join(modDir, '.claude-plugin/plugin.json'), 'utf8')).name).toBe('hermes-hooks');
    expect(JSON.parse(readFileSync(join(modDir, 'hooks/hooks.json'), 'utf8'))).toEqual({ modules: ['./register.js'] });
    expect(readFileSync(join(modDir, 'hooks/register.js'), 'utf8')).toContain(`"socket": "${join(home, 'hermes-hooks.sock')}"`);
    expect(printed.stdout.trim()).toBe(modDir);
    expect(printed.stderr).toContain(`claude --plugin-dir ${modDir}`);
    const foreign = tempDir('hh-mod-foreign-');
    mkdirSync(join(foreign, 'hooks'));
    writeFileSync(join(foreign, 'hooks/register.js'), 'export function register() {}\n');
    const refused = spawn(process.execPath, [BIN, 'print-config', 'claude', '--mod', foreign, '--home', home], { env: baseEnv() });
    let err = '';
    refused.stderr.on('data', (b: Buffer) => (err += b));
    const code = await new Promise((r) => refused.on('close', r));
    expect(code).toBe(1);
    expect(err).toContain('holds something else');
    expect(readFileSync(join(foreign, 'hooks/register.js'), 'utf8')).toBe('export function register() {}\n');
  }, 30_000);

  it('doctor --agent claude --mod DIR: the mod print-config wrote passes; one edited since is a ✗ naming the command that writes it again', async () => {
    const { modDir, home } = await setUp();
    const doctor = () =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const c = spawn(process.execPath, [BIN, 'doctor', '--agent', 'claude', '--mod', modDir, '--home', home], { env: baseEnv() });
        let stdout = '';
        c.stdout.on('data', (b: Buffer) => (stdout += b));
        c.on('close', (code) => resolve({ code, stdout }));
      });
    const fresh = await doctor();
    expect(fresh.code, fresh.stdout).toBe(0);
    expect(fresh.stdout).toContain('is the mod print-config writes for this profile');
    const file = join(modDir, 'hooks/register.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"probeMs": 1000', '"probeMs": 9000'));
    const edited = await doctor();
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain(`hooks/register.js differs from what print-config writes now`);
    expect(edited.stdout).toContain(`hermes-hooks print-config claude --mod ${modDir} --home ${home}`);
  }, 30_000);

  it('doctor --agent claude --mod DIR --socket S checks the mod print-config wrote for that socket, and names it in the rewrite', async () => {
    const { home } = await setUp();
    const modDir = join(tempDir('hh-mod-sock-'), 'mod');
    const socket = join(tempDir('hh-mod-sock-'), 'serve.sock');
    const cli = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const c = spawn(process.execPath, [BIN, ...args], { env: baseEnv() });
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (b: Buffer) => (stdout += b));
        c.stderr.on('data', (b: Buffer) => (stderr += b));
        c.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const printed = await cli(['print-config', 'claude', '--mod', modDir, '--home', home, '--socket', socket]);
    expect(printed.code, printed.stderr).toBe(0);
    const same = await cli(['doctor', '--agent', 'claude', '--mod', modDir, '--home', home, '--socket', socket]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toContain('is the mod print-config writes for this profile');
    const other = await cli(['doctor', '--agent', 'claude', '--mod', modDir, '--home', home]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('differs from what print-config writes now');
    const moved = await cli(['doctor', '--agent', 'claude', '--mod', modDir, '--home', home, '--socket', `${socket}.2`]);
    expect(moved.stdout).toContain(`--socket ${socket}.2`);
  }, 30_000);

  it('serve up: rm -rf denied with the guard message, ls goes on unchanged, a rewrite goes on rewritten', async () => {
    const { home, dispatch } = await setUp();
    const served = await startServe(home, []);
    try {
      const blocked = await dispatch('tool.call', bash('rm -rf /'));
      expect(blocked.result).toEqual({ deny: 'mod test guard: rm -rf is not allowed' });
      expect(blocked.calls).toEqual([]);
      const allowed = await dispatch('tool.call', bash('ls'));
      expect(allowed.calls).toEqual([bash('ls')]);
      expect(allowed.result).toEqual({ output: 'ran' });
      const rewritten = await dispatch('tool.call', bash('curl example.com'));
      expect(rewritten.calls).toEqual([{ ...bash('curl example.com'), command: 'echo rewritten' }]);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 30_000);

  it('a call serve answers at once leaves nothing of the liveness probe behind: no /v1/health request, no timer', async () => {
    const { home, dispatch } = await setUp();
    const served = await startServe(home, []);
    try {
      const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const before = timers();
      const allowed = await dispatch('tool.call', bash('ls'));
      expect(allowed.calls).toEqual([bash('ls')]);
      // Before: the probe's 1 s timer stayed armed after each answer (and ran then).
      expect(timers()).toBe(before);
      expect(dispatch.fetched.filter((u) => u.endsWith('/v1/health'))).toEqual([]);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 30_000);

  it('serve frozen before the session: SessionStart asks through the client (its connection ends with it), the calls after it send no request', async () => {
    const { home, dispatch } = await setUp();
    const served = await startServe(home, []);
    process.kill(served.child.pid!, 'SIGSTOP');
    try {
      const started = await dispatch('session.start', { cwd: home, isInteractive: false });
      expect(started.calls.length).toBe(1);
      // Claude goes on at once: the client still waits on the frozen serve, and the first call waits for it.
      expect(dispatch.ran).toEqual([]);
      const t = Date.now();
      const call = await dispatch('tool.call', bash('ls'));
      expect(dispatch.ran.map((argv) => argv.includes('SessionStart'))).toEqual([true]);
      // Not a timing target: proof that the client's silence rule, not a deadline, ended it.
      expect(Date.now() - t).toBeLessThan(10_000);
      expect(call.calls).toEqual([]);
      expect(String(call.result.deny)).toContain('did not answer a moment ago');
      // A $.http.fetch to a frozen serve cannot be aborted by a mod and holds Claude Code at exit (30 s): none was made.
      expect(dispatch.fetched).toEqual([]);
    } finally {
      process.kill(served.child.pid!, 'SIGKILL');
      await served.exited;
    }
  }, 30_000);

  it('serve not running, autostart off: denied, saying serve is not running; autostart on: the client starts serve and the guard answers', async () => {
    const off = await setUp({ HERMES_HOOKS_AUTOSTART: '0' });
    const denied = await off.dispatch('tool.call', bash('ls'));
    expect(denied.calls).toEqual([]);
    expect(String(denied.result.deny)).toContain('no hermes-hooks serve is running');
    const on = await setUp();
    try {
      const blocked = await on.dispatch('tool.call', bash('rm -rf /'));
      expect(blocked.result).toEqual({ deny: 'mod test guard: rm -rf is not allowed' });
      expect(servesOf(on.home).length).toBe(1);
      // Started: the next call goes straight over the socket.
      const allowed = await on.dispatch('tool.call', bash('ls'));
      expect(allowed.calls).toEqual([bash('ls')]);
    } finally {
      for (const pid of servesOf(on.home)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);

  it('serve frozen (SIGSTOP): denied within seconds as frozen, and the next call at once', async () => {
    const { home, dispatch } = await setUp();
    const served = await startServe(home, []);
    process.kill(served.child.pid!, 'SIGSTOP');
    try {
      let t = Date.now();
      const first = await dispatch('tool.call', bash('ls'));
      expect(first.calls).toEqual([]);
      expect(String(first.result.deny)).toContain('it is frozen or wedged');
      // Not a timing target: proof that the 310 s deadline was not waited out.
      expect(Date.now() - t).toBeLessThan(10_000);
      t = Date.now();
      const second = await dispatch('tool.call', bash('ls'));
      expect(String(second.result.deny)).toContain('did not answer a moment ago');
      expect(Date.now() - t).toBeLessThan(1000);
    } finally {
      process.kill(served.child.pid!, 'SIGKILL');
      await served.exited;
    }
  }, 30_000);

  for (const [name, answer] of [
    ['garbage with exit 0', (res: import('node:http').ServerResponse) => res.writeHead(200, { 'x-hermes-hooks-exit': '0' }).end('<html>not json')],
    ['an HTTP 500', (res: import('node:http').ServerResponse) => res.writeHead(500).end('{"error":{}}')],
    ['no exit header', (res: import('node:http').ServerResponse) => res.writeHead(200).end('{}')],
  ] as const) {
    it(`something else on the socket answering ${name}: denied`, async () => {
      const { socket, dispatch } = await setUp();
      const impostor: Server = createServer((req, res) => {
        req.resume();
        req.on('end', () => answer(res));
      });
      await new Promise<void>((r) => impostor.listen(socket, r));
      try {
        const r = await dispatch('tool.call', bash('ls'));
        expect(r.calls).toEqual([]);
        expect(typeof r.result.deny).toBe('string');
      } finally {
        await new Promise((r) => impostor.close(r));
      }
      expect(existsSync(socket)).toBe(false);
    }, 30_000);
  }
});

// Real servers for the serve tests: `node dist/cli/bin.js serve …` as a child process, clients over
// its Unix socket, loopback TCP and stdio, and /proc look-ups for hook processes left behind.

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';
import { join } from 'node:path';
import { BIN, baseEnv, cleanupTemps as cleanupCliTemps, hooksYaml, makeHome, ROOT, tempDir, waitFor, writeScript } from '../cli/_helpers.js';

export { baseEnv, hooksYaml, makeHome, tempDir, waitFor, writeScript, ROOT, BIN } from '../cli/_helpers.js';

export interface Served {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code (or signal name) once the server has exited. */
  exited: Promise<number | string>;
  socket: string | null;
  port: number | null;
  token: string | null;
  home: string;
}

const started: ChildProcess[] = [];

/** afterAll: no server outlives its test file, then the temp dirs go. */
export function cleanupTemps(): void {
  killServers();
  cleanupCliTemps();
}

/** Kills (SIGKILL) every server a test started and left running, e.g. after a failed assertion. */
export function killServers(): void {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** Starts `serve` with `args` (plus --home HOME) and waits until every transport announced itself. */
export async function startServe(home: string, args: string[], opts: { env?: NodeJS.ProcessEnv; stdio?: boolean } = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--home', home, ...args], {
    env: opts.env ?? baseEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  child.stdin!.on('error', () => {});
  const exited = new Promise<number | string>((r) => child.once('exit', (code, signal) => r(code ?? signal ?? -1)));
  let gone = false;
  void exited.then(() => (gone = true));
  // --http alone listens on the profile's socket too, unless a running serve holds it (said on stderr).
  const socketToo = args.includes('--socket') || !args.includes('--stdio');
  const wants = Number(socketToo) + Number(args.includes('--http')) + Number(args.includes('--stdio'));
  const held = () => Number(/is held by a serve already running/.test(err));
  const ok = await waitFor(() => gone || (err.match(/hermes-hooks: serving /g)?.length ?? 0) >= wants - held(), 20_000, 20);
  if (!ok || gone) throw new Error(`serve did not start: ${err}`);
  const sock = /serving HTTP on unix socket (\S+) /.exec(err)?.[1] ?? null;
  const port = /serving HTTP on http:\/\/[^ ]*:(\d+) /.exec(err)?.[1];
  let token: string | null = null;
  if (port) {
    try {
      token = readFileSync(join(home, 'hermes-hooks.token'), 'utf8').trim();
    } catch {
      token = null; // --token-env
    }
  }
  return { child, stderr: () => err, exited, socket: sock, port: port ? Number(port) : null, token, home };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  trailers: Record<string, string | undefined>;
}

/** One HTTP request over the Unix socket (`socketPath`) or TCP (`port`). */
export function http(
  target: { socketPath?: string; port?: number; host?: string },
  method: string,
  path: string,
  opts: { body?: string; headers?: Record<string, string>; signal?: AbortSignal; agent?: Agent } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...(target.socketPath ? { socketPath: target.socketPath } : { host: target.host ?? '127.0.0.1', port: target.port }),
        method,
        path,
        headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
        agent: opts.agent ?? false,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), trailers: res.trailers }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export function postJson(served: Served, path: string, body: unknown): Promise<HttpResult> {
  return http({ socketPath: served.socket! }, 'POST', path, { body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A JSON-RPC client over a served child's stdio. */
export function rpcClient(served: Served) {
  let seq = 0;
  let buf = '';
  const waiting = new Map<number | string, (msg: Record<string, unknown>) => void>();
  const lines: Record<string, unknown>[] = [];
  served.child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = JSON.parse(line) as Record<string, unknown>;
      lines.push(msg);
      const id = msg.id as number | string | null | undefined;
      if (id !== undefined && id !== null && waiting.has(id)) {
        waiting.get(id)!(msg);
        waiting.delete(id);
      }
    }
  });
  return {
    /** Every line the server wrote, in order. */
    lines,
    call(method: string, params?: unknown): Promise<Record<string, unknown>> {
      const id = ++seq;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        served.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) })}\n`);
      });
    },
    async result<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
      const msg = await this.call(method, params);
      if (msg.error) throw new Error(`${method}: ${JSON.stringify(msg.error)}`);
      return msg.result as T;
    },
    raw(line: string): void {
      served.child.stdin!.write(line);
    },
  };
}

/** Pids of live (non-zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] = state, [1] = ppid, [2] = pgrp
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A hook that records its pid ($$, = its process group) in DIR, then runs BODY. */
export function pidHook(dir: string, name: string, body: string): string {
  return writeScript(join(dir, name), `#!/bin/bash\necho $$ >> ${join(dir, 'pids')}\n${body}\n`);
}

export function recordedPids(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A profile home whose config.yaml has `hooks`, every hook approved (through the real CLI). */
export async function approvedHome(hooks: Record<string, (string | Record<string, unknown>)[]>, tail = ''): Promise<string> {
  const home = makeHome(hooksYaml(hooks, tail));
  const r = await new Promise<number>((resolve) => {
    const c = spawn(process.execPath, [BIN, 'approve', '--all', '--home', home], { env: baseEnv(), stdio: 'ignore' });
    c.once('exit', (code) => resolve(code ?? 1));
  });
  if (r !== 0) throw new Error('approve failed');
  return home;
}

export async function stopServe(served: Served, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  if (served.child.exitCode === null && served.child.signalCode === null) served.child.kill(signal);
  return served.exited;
}

export { tempDir as scratch };

/** The bundled client (perl). */
export const CLIENT = join(ROOT, 'scripts-examples/hosts/hermes-hooks-client');
/** The bundled client for machines without perl (bash + curl). */
export const CLIENT_BASH = join(ROOT, 'scripts-examples/hosts/hermes-hooks-client.bash');
/** Both clients, for `describe.each`: each must behave the same, message for message. */
export const CLIENTS = [
  { name: 'perl', path: CLIENT },
  { name: 'bash', path: CLIENT_BASH },
] as const;

export type Ran = { code: number | null; stdout: string; stderr: string };

/** Runs `file args` with `stdin` written and closed → exit code, stdout, stderr. */
export function runWithStdin(file: string, args: string[], stdin: string, env: NodeJS.ProcessEnv = baseEnv()): Promise<Ran> {
  return new Promise((resolve) => {
    const c = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.stderr.on('data', (d: Buffer) => (err += d));
    c.once('close', (code) => resolve({ code, stdout: out, stderr: err }));
    // A child that exits without reading (server down, client missing) closes its stdin: not an error here.
    c.stdin.on('error', () => {});
    c.stdin.end(stdin);
  });
}

/** Runs the bundled client (or the one at `client`) as an agent would: `args`, `stdin` → exit code, stdout, stderr. */
export const runClient = (args: string[], stdin: string, env: NodeJS.ProcessEnv = baseEnv(), client: string = CLIENT): Promise<Ran> =>
  runWithStdin(client, args, stdin, env);

/** `runClient` bound to the client at `client`. */
export const clientAt =
  (client: string) =>
  (args: string[], stdin: string, env: NodeJS.ProcessEnv = baseEnv()): Promise<Ran> =>
    runWithStdin(client, args, stdin, env);

/** Runs a printed hook command through /bin/sh, as an agent runs it. */
export const runShell = (command: string, stdin: string, env: NodeJS.ProcessEnv = baseEnv()): Promise<Ran> =>
  runWithStdin('/bin/sh', ['-c', command], stdin, env);

/** Pids of live `serve --home HOME` processes (our own bin). */
export function servesOf(home: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (argv.includes(BIN) && argv.includes('serve') && argv.includes(home)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

// Shared by the CLI tests: run main(argv, io) in-process on PassThrough streams, or the built
// executable as a real process, against throw-away profile homes (never the real ~/.hermes).

import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'dist/cli/bin.js');
export const FIX = join(ROOT, 'test/fixtures/cli');
export const HOOKS = join(FIX, 'hooks');

const temps: string[] = [];

/** A fresh directory, removed by cleanupTemps(). */
export function tempDir(prefix = 'hh-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

export function cleanupTemps(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A profile home holding `config.yaml` with the given text. */
export function makeHome(config?: string): string {
  const home = tempDir('hh-home-');
  if (config !== undefined) writeFileSync(join(home, 'config.yaml'), config);
  return home;
}

export function writeScript(file: string, body: string, mode = 0o755): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
  chmodSync(file, mode);
  return file;
}

/** `hooks:` YAML from `{event: [command | {command, matcher?, timeout?, fail_closed?}]}`. */
export function hooksYaml(hooks: Record<string, (string | Record<string, unknown>)[]>, tail = ''): string {
  const lines = ['hooks:'];
  for (const [event, entries] of Object.entries(hooks)) {
    lines.push(`  ${event}:`);
    for (const e of entries) {
      const entry = typeof e === 'string' ? { command: e } : e;
      let first = true;
      for (const [k, v] of Object.entries(entry)) {
        lines.push(`${first ? '    - ' : '      '}${k}: ${JSON.stringify(v)}`);
        first = false;
      }
    }
  }
  return `${lines.join('\n')}\n${tail}`;
}

/** A minimal environment: no HERMES_* leaking in from the test runner, HOME in a temp dir. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tempDir('hh-user-'), LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** Text written to stdin, then closed. Ignored when stdinTTY. Default '' (closed at once). */
  stdin?: string;
  /** stdin is a terminal: it is never written to nor closed, so reading it would hang the test. */
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** main(argv, io) in-process, with PassThrough streams for stdin, stdout and stderr. */
export async function runMain(argv: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (opts.stdinTTY) stdin.isTTY = true;
  if (opts.stdoutTTY) stdout.isTTY = true;
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  if (!opts.stdinTTY) stdin.end(opts.stdin ?? '');
  const code = await main(argv, { stdin, stdout, stderr, env: opts.env ?? baseEnv(), cwd: opts.cwd ?? ROOT });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out, stderr: err };
}

export interface BinOptions {
  /** Text for stdin, then closed; 'ignore' gives the child /dev/null; 'open' leaves a pipe open. */
  stdin?: string | 'ignore' | 'open';
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the child (SIGKILL) after this long; the test then fails on the result. Default 60 s. */
  killAfterMs?: number;
  onSpawn?: (pid: number) => void;
}

export interface BinResult extends Omit<CliResult, 'code'> {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** `node dist/cli/bin.js …` as a real process. */
export function runBin(argv: string[], opts: BinOptions = {}): Promise<BinResult> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'npm run build' first`);
  return new Promise((resolvePromise, reject) => {
    const stdinMode = opts.stdin === 'ignore' ? 'ignore' : 'pipe';
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? baseEnv(),
      stdio: [stdinMode, 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 60_000);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    if (child.stdin) {
      child.stdin.on('error', () => {});
      if (opts.stdin !== 'open') child.stdin.end(typeof opts.stdin === 'string' && opts.stdin !== 'ignore' ? opts.stdin : '');
    }
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
  });
}

/** Quote for a POSIX shell (for `script -c`). */
export function sh(text: string): string {
  return /^[A-Za-z0-9_\-./=:@%+,]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Run a shell command line under a real pseudo-terminal (util-linux `script`). `input` is typed
 * once `waitFor` shows up on the terminal (or at once); stdin is left open otherwise, so anything
 * that waits for terminal input would hang until killAfterMs.
 */
export function runUnderPty(
  commandLine: string,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; waitFor?: string; killAfterMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('script', ['-qfec', commandLine, '/dev/null'], {
      cwd: opts.cwd ?? ROOT,
      env: { ...(opts.env ?? baseEnv()), SHELL: '/bin/sh' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 60_000);
    let output = '';
    let typed = false;
    const type = (): void => {
      if (typed || opts.input === undefined) return;
      typed = true;
      child.stdin.write(opts.input);
    };
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString('utf8');
      if (opts.waitFor !== undefined && output.includes(opts.waitFor)) type();
    });
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolvePromise({ code, output: output.replace(/\r\n/g, '\n') });
    });
    if (opts.waitFor === undefined) type();
  });
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** A process that exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3 (after the parenthesised command name) is the state.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export const ANSI = /\u001b\[[0-9;]*m/;

/** This Node's own JSON.parse message for `text` (its wording differs between Node versions). */
export function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} parses`);
}

// A long-lived python3 helper process speaking line-delimited JSON on stdin/stdout (gateway hooks'
// handler.py and Python plugins, each run unchanged by its bootstrap). This is the spawn/ site for
// it: start, line framing, waiting for it to be ready, and a bounded stop. The protocol on top (ids,
// what the ready line carries) belongs to the caller.
// The worker stays in the host's process group (Ctrl-C reaches both) and exits by itself on stdin
// EOF, so it dies with the host; it holds the host's event loop open only while requests are out.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { errorText } from '../errors.js';

export interface PythonWorkerOptions {
  /** Interpreter, e.g. `python3` (looked up on PATH) or an absolute path. */
  python: string;
  /** The Python script to run, then its arguments. */
  script: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface WorkerExit {
  code: number | null;
  signal: string | null;
  /** Launch failure in words ("python3 not found", …); null when the process ran. */
  error: string | null;
}

export interface PythonWorker {
  readonly pid: number | null;
  /** Resolves once the process is gone (or never started). */
  readonly exited: Promise<WorkerExit>;
  isAlive(): boolean;
  /** Writes one JSON line; false when the worker is gone. */
  send(message: unknown): boolean;
  onMessage(listener: (message: unknown) => void): void;
  /** Lines the worker printed on stderr, and stdout lines that were not JSON. */
  onOutput(listener: OutputListener): void;
  /** Keep the host's event loop alive (true) while replies are awaited; false when idle. */
  setActive(active: boolean): void;
  /** Close stdin, then SIGTERM after `graceMs`, SIGKILL after another `graceMs`. */
  stop(graceMs?: number): Promise<WorkerExit>;
}

// One process 'exit' listener for all workers (a listener each would trip MaxListeners warnings):
// a host that exits without close() takes its workers with it.
const liveWorkers = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;
function killLiveWorkersOnExit(): void {
  for (const child of liveWorkers) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

type OutputListener = (line: string, stream: 'stdout' | 'stderr') => void;

export function startPythonWorker(opts: PythonWorkerOptions): PythonWorker {
  const messageListeners: ((m: unknown) => void)[] = [];
  const outputListeners: OutputListener[] = [];
  let alive = true;
  let child: ChildProcessWithoutNullStreams;

  let settle!: (e: WorkerExit) => void;
  const exited = new Promise<WorkerExit>((resolve) => {
    settle = (e) => {
      if (!alive) return;
      alive = false;
      liveWorkers.delete(child);
      resolve(e);
    };
  });

  try {
    child = spawn(opts.python, [opts.script, ...opts.args], {
      env: opts.env,
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (e) {
    // spawn() throws synchronously only on invalid arguments; report like a launch failure.
    settle({ code: null, signal: null, error: `cannot start ${opts.python}: ${errorText(e)}` });
    return deadWorker(exited);
  }
  killWithHost(child);
  watchChild(child, opts.python, settle);
  routeOutput(child, messageListeners, outputListeners);

  const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as { ref?: () => void; unref?: () => void }[];
  const setActive = (active: boolean): void => {
    for (const h of handles) (active ? h.ref : h.unref)?.call(h);
  };
  setActive(false);

  return {
    get pid() {
      return child.pid ?? null;
    },
    exited,
    isAlive: () => alive,
    send(message) {
      if (!alive || child.stdin.destroyed || !child.stdin.writable) return false;
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return true;
    },
    onMessage: (l) => void messageListeners.push(l),
    onOutput: (l) => void outputListeners.push(l),
    setActive,
    stop: (graceMs = 500) => (alive ? stopChild(child, exited, setActive, graceMs) : exited),
  };
}

/** A host that exits without close() takes its workers with it. */
function killWithHost(child: ChildProcessWithoutNullStreams): void {
  liveWorkers.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killLiveWorkersOnExit);
  }
}

/** Settle `exited` from the child's own events: a launch error, or its close. */
function watchChild(child: ChildProcessWithoutNullStreams, python: string, settle: (e: WorkerExit) => void): void {
  child.on('error', (e: NodeJS.ErrnoException) => {
    const error = e.code === 'ENOENT' ? `${python} not found` : e.code === 'EACCES' ? `${python} is not executable` : `${python}: ${e.message}`;
    settle({ code: null, signal: null, error });
  });
  child.on('close', (code, signal) => settle({ code, signal, error: null }));
  // 'close' waits for the pipes; a grandchild the handler left behind may hold them. Give the last
  // replies a moment to arrive after the worker itself exited, then stop waiting.
  child.on('exit', () => {
    setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, 1_000).unref();
  });
  child.stdin.on('error', () => {
    /* EPIPE after the worker died: reported through `exited` */
  });
}

/** JSON lines on stdout are messages; anything else, and every stderr line, is output. */
function routeOutput(child: ChildProcessWithoutNullStreams, messageListeners: ((m: unknown) => void)[], outputListeners: OutputListener[]): void {
  splitLines(child.stdout, (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      for (const l of outputListeners) l(line, 'stdout');
      return;
    }
    for (const l of messageListeners) l(parsed);
  });
  splitLines(child.stderr, (line) => {
    for (const l of outputListeners) l(line, 'stderr');
  });
}

/** Close stdin, then SIGTERM after `graceMs`, SIGKILL after another `graceMs`. */
async function stopChild(
  child: ChildProcessWithoutNullStreams,
  exited: Promise<WorkerExit>,
  setActive: (active: boolean) => void,
  graceMs: number,
): Promise<WorkerExit> {
  setActive(true);
  child.stdin.end();
  const step = async (signal: NodeJS.Signals): Promise<boolean> => {
    const gone = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!gone) {
      try {
        child.kill(signal);
      } catch {
        /* already gone */
      }
    }
    return gone;
  };
  if (!(await step('SIGTERM'))) await step('SIGKILL');
  // After SIGKILL the close event can still wait on pipes held by the worker's own children.
  const done = await Promise.race([exited, sleep(graceMs).then(() => null)]);
  if (done === null) {
    child.stdout.destroy();
    child.stderr.destroy();
  }
  setActive(false);
  return exited;
}

function deadWorker(exited: Promise<WorkerExit>): PythonWorker {
  return {
    pid: null,
    exited,
    isAlive: () => false,
    send: () => false,
    onMessage: () => {},
    onOutput: () => {},
    setActive: () => {},
    stop: () => exited,
  };
}

function splitLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line !== '') onLine(line);
    }
  });
  stream.on('end', () => {
    if (buffer !== '') onLine(buffer);
    buffer = '';
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Wait for the worker's ready message (read by the caller from its own protocol), its exit or the
 * deadline. Anything but a ready message stops the worker and says why, with its last stderr lines:
 * `needs` finishes "python3 is needed to run …", `timeout` and `notLoaded` are the caller's words.
 * The bound (`timeoutMs`, the user's import bound) runs from the bootstraps' `{"started": true}`
 * line, not from the spawn: python3's own start-up, slow on a loaded machine, is not the import's
 * time. Until that line the same bound waits for the interpreter, so one that never starts is not
 * waited for forever.
 */
export async function awaitReady<M extends { ready: boolean; error?: unknown }>(
  worker: PythonWorker,
  readyMessage: Promise<M>,
  opts: { timeoutMs: number; timeout: string; needs: string; notLoaded: string },
): Promise<M | { error: string }> {
  const recent: string[] = [];
  worker.onOutput((line) => {
    recent.push(line);
    if (recent.length > 3) recent.shift();
  });
  let started!: () => void;
  const up = new Promise<'started'>((r) => (started = () => r('started')));
  worker.onMessage((m) => {
    if (typeof m === 'object' && m !== null && (m as { started?: unknown }).started === true) started();
  });
  worker.setActive(true);
  const settled: Promise<M | WorkerExit>[] = [readyMessage, worker.exited];
  const beforeStart = await within<M | WorkerExit | 'started'>([...settled, up], opts.timeoutMs);
  const first = beforeStart === 'started' ? await within(settled, opts.timeoutMs) : beforeStart;
  worker.setActive(false);
  let error: string | null = null;
  if (first === 'timeout') error = `${opts.timeout} within ${opts.timeoutMs / 1000}s`;
  else if ('code' in first) {
    error = first.error
      ? `${first.error}: python3 is needed to run ${opts.needs} (install Python 3, or pass the \`python\` option)`
      : `python worker ${describeWorkerExit(first)} before it was ready${recent.length > 0 ? `: ${recent.join(' | ')}` : ''}`;
  } else if (!first.ready) error = typeof first.error === 'string' ? first.error : opts.notLoaded;
  if (error === null) return first as M;
  await worker.stop(200);
  return { error };
}

/** The first of `events` to settle, or 'timeout' after `ms`. */
async function within<T>(events: Promise<T>[], ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  try {
    return await Promise.race([...events, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** How a worker ended, for messages: "exited with code 3", "was killed by SIGKILL", "could not start (…)". */
export function describeWorkerExit(exit: WorkerExit): string {
  if (exit.error) return `could not start (${exit.error})`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}

/** "ValueError: boom" from a worker → an Error named ValueError, so logs read like Python's. */
export function pythonError(text: string): Error {
  const m = /^([A-Za-z_][\w.]*): ([\s\S]*)$/.exec(text);
  const err = new Error(m ? m[2] : text);
  if (m) err.name = m[1] as string;
  return err;
}

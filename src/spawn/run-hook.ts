// spawnHook: the ONE place that starts a hook process. Every outcome — exit, signal, timeout,
// output overflow, cancel, launch failure — becomes one flat HookRun; the promise never rejects.
//
// Lifecycle (DESIGN "The wire protocol"): no shell; the child leads its own process group
// (`detached`); stdin is the hook's own private copy of the payload, already unlinked, as fd 0.
// `beforeLaunch` runs synchronously right before the process starts, with no await in between
// (consent is checked there, so the check-to-exec window is as small as Node allows).
//
// A hook's answer is final at its exit: the run settles when its pipes close with nothing left
// in its group (the usual case, no wait), else EXIT_GRACE_MS after the exit. Whatever is left
// then — the rest of its process group, and any process outside it still holding its stdout or
// stderr (a `setsid` daemon, found by the socket it holds and the run id in its environment:
// _leftovers.ts) — gets SIGTERM, then SIGKILL `killGraceMs` later, and the run says how many
// (`left_processes`). A helper meant to outlive its hook leaves the group and the hook's output
// (`setsid cmd </dev/null >/dev/null 2>&1 &`) and is kept.
//
// A hook that does not exit: at the deadline the whole group gets SIGTERM, then SIGKILL
// `killGraceMs` later if any member is left, then the pipes are abandoned `drainMs` after that
// (and whoever outside the group still holds them is ended too) — so a run settles within
// timeout + ~1 s. The spawn itself is a plain child_process.spawn (_launch.ts): a runner's usual
// timeout, maxBuffer, forceKill and cleanup reach the direct child alone (and do not settle while
// a grandchild holds a pipe), so those are ours.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HookRun, HookStatus } from '../types.js';
import { splitCommand } from './argv.js';
import { wouldFailExecFormat } from './_exec-format.js';
import { type LaunchOutcome, type Launched, launch } from './_launch.js';
import { brokenShebangText, execFormatErrorText, launchErrorText } from './_launch-error.js';
import { findLeftovers, nextRunId, type OutputTrace, outputTrace, RUN_ID_VARIABLE, signalEach, stillHolding } from './_leftovers.js';
import { OutputCapture } from './_output-capture.js';
import { groupAlive, signalGroup } from './_process-group.js';
import { type LiveHook, registerLiveHook, unregisterLiveHook } from './live-hooks.js';
import { closeQuietly, openStdinCopy, openStdinCopySync, SYNC_WRITE_LIMIT, toStdinBytes } from './stdin-file.js';
import { errorText } from '../errors.js';

export interface SpawnHookOptions {
  /** The configured, trimmed command. */
  command: string;
  /** Payload text or bytes; the hook gets its own private copy (encode once and pass bytes to share the work). */
  stdin: string | Uint8Array;
  /**
   * Called synchronously immediately before the process is started, once everything else is
   * ready: nothing awaits between it and the spawn. A non-null return is a reason not to start it:
   * the run then ends `launch_failed` with that reason as its error, and no process is started.
   */
  beforeLaunch?: () => string | null;
  /**
   * Called synchronously right after the process started (its exec is done, before this tick
   * ends). A non-null return kills its process group at once (SIGKILL); the run then ends
   * `launch_failed` with that reason as its error.
   */
  afterLaunch?: () => string | null;
  timeoutMs: number;
  /** Base environment, default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Added on top of `env`, e.g. HERMES_HOME, HERMES_HOOK_EVENT. */
  extraEnv?: Record<string, string>;
  cwd?: string;
  /** Per stream; default 1 MiB. */
  maxOutputBytes?: number;
  /** SIGTERM → SIGKILL delay; default 500 ms. */
  killGraceMs?: number;
  /** After the SIGKILL step, abandon the pipes after this; default 500 ms. */
  drainMs?: number;
  /** Host cancel (engine close): kills the group like a timeout; the run ends `timeout` / `cancelled`. */
  signal?: AbortSignal;
  homedir?: string;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;
export const DEFAULT_KILL_GRACE_MS = 500;
export const DEFAULT_DRAIN_MS = 500;
/** Once the pipes are abandoned, how long the direct child's exit status may still take. */
const EXIT_STATUS_GRACE_MS = 100;
/** How often a killed group is checked for members during the TERM → KILL grace. */
const GROUP_POLL_MS = 20;
/** Pipe drain once the whole group is gone (only an escaped descendant can hold them then). */
const EMPTY_GROUP_DRAIN_MS = 100;
/**
 * How long a hook's output is still read after the hook itself exited, when something it left
 * behind keeps its pipes open. Long enough for what is already in the pipes: the hook's last
 * write is in the kernel buffer when it exits, and one poll of the event loop reads it (libuv
 * reads up to 32 × 64 KiB per wake-up) — under a millisecond idle, a few ms loaded; the settle
 * also waits for one more poll after this timer, so a loop blocked past the grace still reads it.
 * 100 ms also covers writers that finish with the hook (a `>(…)` process substitution, a last
 * `echo` from a background subshell). Short enough not to matter: only a hook that leaves
 * something holding its output pays it — one that leaves nothing settles when its pipes close,
 * at its exit — and it is a tenth of the smallest timeout (1 s), below what a user notices.
 */
export const EXIT_GRACE_MS = 100;

type StopReason = 'timeout' | 'cancelled' | 'output_limit' | 'refused';

/** How a launched run ended; `outcome` is null when the pipes were abandoned before any exit status. */
interface RunEnd {
  outcome: LaunchOutcome | null;
  via: 'close' | 'exit' | 'abandoned';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `{ ...base, ...extra, HERMES_HOOK_RUN_ID: runId }`, read as it is now, but cheaply. Spreading process.env asks its C++
 * interceptor for every key's descriptor and then its value (~0.28 ms for 35 variables, measured);
 * a for-in copy reads each value once (~0.08 ms), and child_process then builds the child's
 * environment from a plain object instead of process.env (~0.14 ms less than a bare spawn pays).
 * A null prototype keeps a variable named `__proto__` an ordinary key.
 */
function withOverrides(base: NodeJS.ProcessEnv, extra: Record<string, string> | undefined, runId: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.create(null) as NodeJS.ProcessEnv;
  for (const key in base) env[key] = base[key];
  if (extra !== undefined) for (const key of Object.keys(extra)) env[key] = extra[key];
  env[RUN_ID_VARIABLE] = runId;
  return env;
}


/** Runs one hook process to completion. Never rejects: every outcome is a HookRun. */
export async function spawnHook(options: SpawnHookOptions): Promise<HookRun> {
  try {
    return await runHook(options);
  } catch (err) {
    // Not expected; a bug here must still not surface as a rejected emit.
    return {
      command: options.command,
      argv: [],
      status: 'launch_failed',
      exit_code: null,
      signal: null,
      stdout: '',
      stderr: '',
      error: `internal error: ${errorText(err)}`,
      duration_ms: 0,
      started_at: performance.now(),
      pid: null,
      timeout: options.timeoutMs / 1000,
      left_processes: 0,
    };
  }
}

async function runHook(options: SpawnHookOptions): Promise<HookRun> {
  const { command, timeoutMs } = options;
  const startedAt = performance.now();
  const finish = (fields: Partial<HookRun> & { status: HookStatus; argv: string[] }): HookRun => ({
    command,
    exit_code: null,
    signal: null,
    stdout: '',
    stderr: '',
    error: null,
    pid: null,
    started_at: startedAt,
    timeout: timeoutMs / 1000,
    left_processes: 0,
    ...fields,
    duration_ms: performance.now() - (fields.started_at ?? startedAt),
  });

  const split = splitCommand(command, options.homedir === undefined ? undefined : { homedir: options.homedir });
  if (!split.ok) return finish({ status: 'launch_failed', argv: [], error: split.error });
  const argv = split.argv;
  const file = argv[0] as string;
  if (options.signal?.aborted) return finish({ status: 'timeout', argv, error: 'cancelled' });
  if (file === '') return finish({ status: 'launch_failed', argv, error: 'command not found' });
  if (wouldFailExecFormat(file, options.cwd)) {
    return finish({ status: 'launch_failed', argv, error: execFormatErrorText(options.cwd === undefined ? file : resolve(options.cwd, file)) });
  }

  // fd 0 for the child: its own copy of the payload, unlinked before it starts. Small payloads
  // are written synchronously (no await); large ones off the event loop.
  let stdinFd: number;
  try {
    const bytes = toStdinBytes(options.stdin);
    stdinFd = bytes.byteLength <= SYNC_WRITE_LIMIT ? openStdinCopySync(bytes) : await openStdinCopy(bytes);
  } catch (err) {
    return finish({ status: 'launch_failed', argv, error: `cannot prepare stdin: ${errorText(err)}` });
  }
  if (options.signal?.aborted) {
    closeQuietly(stdinFd);
    return finish({ status: 'timeout', argv, error: 'cancelled' });
  }

  const baseEnv = options.env ?? process.env;
  // Every run is marked, so what it leaves behind can be told from anything else (_leftovers.ts).
  const runId = nextRunId();
  const env = withOverrides(baseEnv, options.extraEnv, runId);
  // No await from here to launch(): what beforeLaunch checked is what the spawn starts from.
  let refused: string | null;
  try {
    refused = options.beforeLaunch?.() ?? null;
  } catch (err) {
    refused = `launch check failed: ${errorText(err)}`;
  }
  if (refused !== null) {
    closeQuietly(stdinFd);
    return finish({ status: 'launch_failed', argv, error: refused });
  }
  const spawnedAt = performance.now();
  let sub: Launched;
  try {
    sub = launch(file, argv.slice(1), { stdinFd, env, cwd: options.cwd });
  } catch (err) {
    return finish({ status: 'launch_failed', argv, error: errorText(err), started_at: spawnedAt });
  } finally {
    // The child has its own copy of fd 0 once spawn() returned (fork+exec is synchronous in libuv).
    closeQuietly(stdinFd);
  }

  const pid = sub.pid;
  if (pid === undefined) {
    const failed = await sub.exited;
    // ENOENT also means a missing working directory; say which, rather than "command not found".
    const error =
      failed.code === 'ENOENT' && options.cwd !== undefined && !isDirectory(options.cwd)
        ? `working directory not found: ${options.cwd}`
        : launchErrorText(failed.code, failed.message, argv, { path: env.PATH, cwd: options.cwd ?? process.cwd() });
    return finish({ status: 'launch_failed', argv, error, started_at: spawnedAt });
  }

  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;

  let stopReason: StopReason | null = null;
  let settled = false;
  let escalating = false;
  let escalation: NodeJS.Timeout | undefined;
  let abandonPipes: NodeJS.Timeout | undefined;
  let exitGrace: NodeJS.Timeout | undefined;
  /** Processes outside the group found holding the hook's output; signalled with the group. */
  let holders: number[] = [];
  let trace: OutputTrace | null = null;
  /** Finds them: the rest of the group, and the run's descendants outside it holding its output. */
  const leftovers = (pipesHeld: boolean): ReturnType<typeof findLeftovers> => {
    if (pipesHeld) trace = outputTrace([sub.stdout, sub.stderr], runId);
    return findLeftovers(pid, pipesHeld ? trace : null);
  };

  // How the run ended: the pipes closed after the exit ('close'), the exit grace ran out with the
  // pipes still held ('exit'), or the pipes were abandoned after a kill. The first one counts.
  let settle!: (end: RunEnd) => void;
  const ended = new Promise<RunEnd>((resolve) => {
    settle = resolve;
  });
  let closed = false;
  void sub.exited.then((outcome) => {
    closed = true;
    // Something the hook left is still in its group: it gets the rest of the exit grace (a
    // `setsid helper &` may be a moment from leaving the group), then is killed and counted.
    if (exitGrace !== undefined && stopReason === null && groupAlive(pid)) return;
    settle({ outcome, via: 'close' });
  });

  const anyLeft = (): boolean => {
    if (holders.length > 0) holders = stillHolding(holders, trace);
    return groupAlive(pid) || holders.length > 0;
  };

  // TERM (or the given signal) now; KILL after the grace if any member is left; then stop waiting
  // for EOF on pipes a stray descendant may hold. The group is polled during the grace, so a group
  // that died of the TERM does not cost the rest of it. Escalation outlives the settle on purpose
  // (a TERM-ignoring member must not survive just because the answer is in), but unref'd then:
  // the hook stays registered as live, so the exit cleanup still kills it if the host exits first.
  const escalate = (first: NodeJS.Signals): boolean => {
    const existed = signalGroup(pid, first);
    signalEach(holders, first);
    if (escalating) return existed;
    escalating = true;
    registerLiveHook(liveHook);
    const graceEnds = performance.now() + (first === 'SIGKILL' ? 0 : killGraceMs);
    const tick = (): void => {
      const alive = anyLeft();
      if (alive && performance.now() < graceEnds) {
        escalation = setTimeout(tick, GROUP_POLL_MS);
        if (settled) escalation.unref();
        return;
      }
      if (alive) {
        signalGroup(pid, 'SIGKILL');
        signalEach(holders, 'SIGKILL');
      }
      escalating = false;
      escalation = undefined;
      unregisterLiveHook(liveHook);
      if (settled) return;
      // Nobody left in the group: only an escaped (setsid) descendant can still hold the pipes,
      // and nothing more will come from the hook itself — a short drain is enough. Whoever holds
      // them then is ended too (by the socket it holds, see _leftovers.ts).
      abandonPipes = setTimeout(
        () => {
          const found = leftovers(true).holders;
          if (found.length > 0) {
            holders = found;
            escalate('SIGTERM');
          }
          sub.stdout?.destroy();
          sub.stderr?.destroy();
          setTimeout(() => settle({ outcome: null, via: 'abandoned' }), EXIT_STATUS_GRACE_MS);
        },
        alive ? drainMs : Math.min(drainMs, EMPTY_GROUP_DRAIN_MS),
      );
    };
    escalation = setTimeout(tick, first === 'SIGKILL' ? 0 : Math.min(GROUP_POLL_MS, killGraceMs));
    return existed;
  };
  const stop = (reason: StopReason, first: NodeJS.Signals = 'SIGTERM'): boolean => {
    if (stopReason === null && !settled) stopReason = reason;
    return escalate(first);
  };

  const liveHook: LiveHook = { pgid: pid, cancel: (signal) => stop('cancelled', signal) };
  registerLiveHook(liveHook);
  let refusedAfter: string | null = null;
  try {
    refusedAfter = options.afterLaunch?.() ?? null;
  } catch (err) {
    refusedAfter = `launch check failed: ${errorText(err)}`;
  }
  if (refusedAfter !== null) stop('refused', 'SIGKILL');

  const stdout = new OutputCapture(maxOutputBytes, () => stop('output_limit'));
  const stderr = new OutputCapture(maxOutputBytes, () => stop('output_limit'));
  sub.stdout?.on('data', stdout.push);
  sub.stderr?.on('data', stderr.push);
  // An abandoned or broken pipe is not a hook outcome.
  sub.stdout?.on('error', () => {});
  sub.stderr?.on('error', () => {});

  const deadline = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = (): void => {
    stop('cancelled');
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // The hook's answer is final at its exit plus EXIT_GRACE_MS: what it wrote is read by then, and
  // nothing it left running (a background child, a setsid daemon holding stdout) is waited for.
  void sub.processExited.then((outcome) => {
    if (settled || stopReason !== null) return;
    clearTimeout(deadline);
    // setImmediate: a poll phase (which reads what is in the pipes) runs between this timer and
    // the settle, even when the event loop was blocked past the grace.
    exitGrace = setTimeout(() => setImmediate(() => settle({ outcome, via: 'exit' })), EXIT_GRACE_MS);
  });

  const end = await ended;
  settled = true;
  clearTimeout(deadline);
  clearTimeout(exitGrace);
  if (abandonPipes !== undefined) clearTimeout(abandonPipes);
  options.signal?.removeEventListener('abort', onAbort);

  // The hook exited on its own and the exit grace ran out with something left: the rest of its
  // group, and whoever outside it still holds its output, is killed now (a helper meant to
  // outlive the hook leaves the group: setsid, with its output redirected). A run that settled
  // at 'close' found its group empty then (one kill(-pgid, 0), the usual case).
  let left = 0;
  if (stopReason === null && end.via === 'exit') {
    const found = leftovers(!closed);
    holders = found.holders;
    // Without /proc the members cannot be counted: a live group is at least one.
    left = Math.max(found.members, groupAlive(pid) ? 1 : 0) + found.holders.length;
    if (left > 0) escalate('SIGTERM');
  }
  // Pipes still open now are held by something we do not wait for.
  if (!closed) {
    sub.stdout?.destroy();
    sub.stderr?.destroy();
  }
  if (escalating) escalation?.unref();
  else unregisterLiveHook(liveHook);

  const outcome = end.outcome;
  const exitCode = outcome?.exitCode;
  const signal = outcome?.signal ?? null;
  const common = { argv, pid, started_at: spawnedAt, stdout: stdout.text(), stderr: stderr.text() };
  if (stopReason === 'output_limit') return finish({ ...common, status: 'output_limit', signal });
  if (stopReason === 'refused') return finish({ ...common, status: 'launch_failed', signal, error: refusedAfter });
  if (stopReason !== null) {
    return finish({ ...common, status: 'timeout', signal, error: stopReason === 'cancelled' ? 'cancelled' : null });
  }
  if (exitCode === undefined && signal === null) {
    // Neither an exit code nor a signal: the launch failed around the process.
    const error = launchErrorText(outcome?.code, outcome?.message, argv, { path: env.PATH, cwd: options.cwd ?? process.cwd() });
    return finish({ ...common, status: 'nonzero_exit', error });
  }
  if (exitCode === 126 || exitCode === 127) {
    // env's "cannot run" codes: when the script's own #! line is what failed (CRLF's `bash\r`, an
    // interpreter not on PATH), the hook never ran — a launch failure, said with its fix.
    const broken = brokenShebangText(file, { path: env.PATH, cwd: options.cwd ?? process.cwd() });
    if (broken !== null) return finish({ ...common, status: 'launch_failed', exit_code: exitCode, error: broken });
  }
  const leftFields = { left_processes: left };
  if (signal !== null) return finish({ ...common, ...leftFields, status: 'nonzero_exit', signal });
  return finish({ ...common, ...leftFields, status: exitCode === 0 ? 'ok' : 'nonzero_exit', exit_code: exitCode ?? null });
}

// What a caller tells spawnHook, and the defaults it falls back on. Its own module so that each
// stage of a run (_start.ts, _supervisor.ts, _run-result.ts) can read the options without
// importing run-hook.ts, which imports them.

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
export { DEFAULT_KILL_GRACE_MS } from '../deadlines.js';
export const DEFAULT_DRAIN_MS = 500;

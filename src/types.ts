// Public types: the contract between config/, spawn/, directives/, resolve/, engine/ and hosts.
// Field names are snake_case where they appear on the wire or in `--json` output, so the same
// object can be printed as-is.

import type { ConsentState } from './consent-states.js';
import type { EventName } from './events.js';

export type { EventName } from './events.js';

/**
 * The agents' dialect names. Empty here: the ground floor knows no agent, so the registry
 * (dialects/agents/index.ts) adds one key per agent record by declaration merging.
 */
export interface AgentDialectNames {}

/** Which agent's protocol a hook speaks (issue: dialects). `hermes` is the native wire. */
export type Dialect = 'hermes' | keyof AgentDialectNames;

/** How bad a Diagnostic is. */
export type DiagnosticLevel = 'error' | 'warning' | 'info';

/** One problem found in a config file. `path` is the config path (`hooks.pre_tool_call[1].timeout`). */
export interface Diagnostic {
  level: DiagnosticLevel;
  path: string;
  line: number | null;
  column: number | null;
  message: string;
  /** The file the diagnostic is about, when known. */
  file?: string;
}

/** A validated shell hook entry from `hooks:` in config.yaml. */
export interface HookSpec {
  event: EventName;
  /** Trimmed command string: the identity used by consent, dedupe, revoke and messages. */
  command: string;
  /** Trimmed matcher regex source, or null (always matches). Only kept on tool-scoped events. */
  matcher: string | null;
  /** Seconds, already defaulted and clamped (1..300). */
  timeout: number;
  /** Only ever true on pre_tool_call. */
  fail_closed: boolean;
  dialect: Dialect;
  /** Position of the entry in `hooks.<event>` (before dedupe). */
  index: number;
  /** Config path of the entry, e.g. `hooks.pre_tool_call[1]`. */
  path: string;
  line: number | null;
  column: number | null;
}

/** How one hook process ended. */
export type HookStatus = 'ok' | 'nonzero_exit' | 'timeout' | 'launch_failed' | 'output_limit';

/**
 * One flat record for every outcome of running a hook process (modelled on execa's result):
 * the same keys whether it exited, timed out, overflowed or never launched.
 */
export interface HookRun {
  command: string;
  argv: string[];
  status: HookStatus;
  /** Exit code when the process exited on its own; null when killed by a signal or never launched. */
  exit_code: number | null;
  /** Signal name when the process was killed by a signal (ours or anyone's). */
  signal: string | null;
  /** Decoded UTF-8 (invalid bytes → U+FFFD), at most the output cap. */
  stdout: string;
  stderr: string;
  /**
   * Bytes written past the output cap, drained and discarded (0: nothing was cut). A cut stdout is
   * not a directive: its JSON cannot be trusted.
   */
  stdout_dropped_bytes: number;
  stderr_dropped_bytes: number;
  /** Launch failure or internal error text ("command not found", …); null otherwise. */
  error: string | null;
  duration_ms: number;
  /** performance.now() at spawn, for timelines. */
  started_at: number;
  pid: number | null;
  /** Configured timeout in seconds. */
  timeout: number;
  /**
   * Processes the hook left running when it exited — the rest of its process group, and any
   * process outside it still holding its stdout/stderr — all killed when its answer was taken
   * ("exited 0; left N processes, killed"). 0 when it left none, and for runs that did not exit.
   */
  left_processes: number;
}

/** The subset of a run that directive evaluation reads; pure code takes this, not a process. */
export type RunRecord = Pick<HookRun, 'status' | 'exit_code' | 'signal' | 'stdout' | 'stderr' | 'error' | 'duration_ms'> & {
  timeout?: number;
  /** Processes left running at the exit and killed (HookRun.left_processes); absent = 0. */
  left_processes?: number;
  /** Bytes of stdout past the cap (HookRun.stdout_dropped_bytes); absent = 0. */
  stdout_dropped_bytes?: number;
};

/** A JSON object (string keys, any values). */
export type JsonObject = { [key: string]: unknown };

/** What one hook said, normalised. */
export type Directive =
  | { action: 'block'; message: string }
  | { action: 'modify'; args: JsonObject }
  | { action: 'approve'; message?: string; rule_key?: string }
  | { action: 'continue'; message: string }
  | { action: 'context'; context: string }
  | { action: 'notify'; message: string }
  | { action: 'handled'; reply?: string }
  /** A replacement string: transform_* results, pre_gateway_dispatch rewrite, pre_tts_synthesis script. */
  | { action: 'rewrite'; text: string }
  /** pre_gateway_dispatch: drop the message. */
  | { action: 'skip'; reason: string | null }
  /** pre_gateway_dispatch: an explicit "dispatch normally" (it counts as the first recognised answer). */
  | { action: 'allow' }
  /** transform_api_error_classification: a valid, sanitised classification (`reason` + hints). */
  | { action: 'classify'; classification: JsonObject }
  /** pre_transcription: prompt / language / model overrides. */
  | { action: 'override'; overrides: JsonObject };

/**
 * `rewrite`: the transform/rewrite events' answer — use `Decision.result` instead of the original.
 * `skip`: pre_gateway_dispatch said drop the message.
 */
export type DecisionAction = 'block' | 'approve' | 'allow' | 'continue' | 'handled' | 'rewrite' | 'skip';

/** The resolved answer for one emit, with provenance. Indices point into the emit's hook list. */
export interface Decision {
  event: EventName;
  action: DecisionAction;
  message: string | null;
  /** Merged tool arguments when at least one modify applied (pre_tool_call), else null. */
  args: JsonObject | null;
  /** pre_llm_call: contexts joined with a blank line. Other events: null. */
  context: string | null;
  /** Index of the hook whose directive decided (block / approve / continue / handled), or null. */
  decided_by: number | null;
  /** Indices of hooks whose modify was applied, in order. */
  modified_by: number[];
  /** Argument keys that two modifies set to different values. */
  conflicts: string[];
  /** approve: the rule key for the host's approval gate. */
  rule_key?: string | null;
  /** on_session_finalize: messages for the user, in hook order. */
  notifications?: string[];
  /** on_session_finalize through the engine: the same messages, each with the session it belongs to. */
  notices?: FinalizeNotice[];
  /** post_gateway_admission: the reply to send when handled. */
  reply?: string | null;
  /** Tool-loop guardrail hard stop: the host should end the turn. */
  stop_turn?: boolean;
  /**
   * Transform and rewrite events: what the host uses instead of the original — the replaced text
   * (transform_tool_result / transform_terminal_output / transform_llm_output, pre_gateway_dispatch
   * rewrite, pre_tts_synthesis), the classification (transform_api_error_classification) or the
   * merged overrides (pre_transcription). Set (and `action` is `rewrite`) only when a hook answered.
   */
  result?: string | JsonObject | null;
}

/** Where a hook came from, for reports. */
export type HookKind = 'plugin' | 'shell' | 'builtin';

/** Consent state of a shell hook: the one union, in consent-states.ts. */
export type { ConsentState } from './consent-states.js';

/** Status of one hook in an emit: a process outcome, or why it did not run. */
export type HookOutcomeStatus =
  | HookStatus
  /** A tool-scoped hook whose matcher did not match the tool. */
  | 'not_matched'
  /** In-process callback threw. */
  | 'error'
  /** In-process callback skipped: suppressed after timing out. */
  | 'suppressed'
  /** Not run: its dialect has no counterpart for this event. */
  | 'skipped'
  /** Not run: fail_closed hook awaiting (re-)approval; it blocks instead. */
  | 'awaiting_approval'
  /** Not run: HERMES_SAFE_MODE is set (the dry run lists what it would have run). */
  | 'safe_mode'
  /** Not run: written in another agent's format under `hooks:`; a tool gate blocks what it would have checked. */
  | 'not_converted'
  /** Not run: strict mode's blocker for a tool-gate guard the config meant but that cannot be registered. */
  | 'refused';

/** One hook's part in an emit, in registration order. `index` is what Decision indices point at. */
export interface HookOutcome {
  index: number;
  kind: HookKind;
  /** Shell: the configured command. Plugin/builtin: `plugin:<name>` / `builtin:<name>`. */
  command: string;
  matcher: string | null;
  /** Seconds (shell: the configured timeout; in-process: the callback timeout or null). */
  timeout: number | null;
  fail_closed: boolean;
  dialect: Dialect;
  consent: ConsentState | null;
  status: HookOutcomeStatus;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  /** Start relative to the emit's start, ms (for timelines). */
  started_ms: number;
  stdout: string;
  stderr: string;
  error: string | null;
  /** A problem with a run that otherwise ended normally: stdout that is not a JSON object (ignored). */
  warning: string | null;
  directive: Directive | null;
  /** Shell: processes the hook left running at its exit, killed when its answer was taken (HookRun.left_processes). */
  left_processes: number;
  /** Shell: bytes written past the output cap, drained and discarded (HookRun.stdout_dropped_bytes). */
  stdout_dropped_bytes: number;
  stderr_dropped_bytes: number;
}

/** Everything one emit produced: the stdin hooks saw, each hook's outcome, and the resolved decision. */
export interface Emission {
  event: EventName;
  payload: JsonObject;
  hooks: HookOutcome[];
  decision: Decision;
  /**
   * How the payload was read: keys that did not land where a sender would expect (a stdin key in a
   * kwargs payload, a kwarg the event does not take), another agent's stdin. Empty when all is well.
   */
  diagnostics: Diagnostic[];
}

/** One on_session_finalize notification, with the session it belongs to (so a host can route it to the right chat). */
export interface FinalizeNotice {
  session_id: string | null;
  /** The gateway's session key when the session's emits carried one. */
  session_key: string | null;
  message: string;
}

/** A finalize the engine fired on its own: a session idle past the timeout, evicted, or open at shutdown. */
export interface SessionFinalized {
  session_id: string;
  session_key: string | null;
  reason: 'idle' | 'evicted' | 'shutdown';
  notices: FinalizeNotice[];
}

/**
 * Where the engine and the hook systems under it report: a host-supplied logger, or stderr by
 * default (engine/logger.ts), because a skipped or failing hook must never be silent.
 */
export interface Logger {
  warn(message: string): void;
  info?(message: string): void;
  debug?(message: string): void;
  /**
   * What a plugin printed (`print()`, `logging.warning()`: its stderr), a line at a time, prefixed
   * `[plugins] <name>: `. Shown by default, as Hermes' terminal shows it; a logger without it gets
   * these lines on `info`.
   */
  output?(message: string): void;
}

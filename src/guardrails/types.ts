// Public types of the tool-loop guardrails (`tool_loop_guardrails:` in config.yaml).

export const GUARDRAIL_DETECTORS = ['exact_failure', 'idempotent_no_progress', 'same_tool_failure', 'cycle'] as const;

/**
 * - exact_failure: the same tool with the same (canonical) arguments failing again.
 * - idempotent_no_progress: the same tool with the same arguments returning the same result again.
 * - same_tool_failure: one tool failing, whatever its arguments.
 * - cycle: a sequence of 2..6 calls (at least two different ones) repeating.
 */
export type GuardrailDetector = (typeof GUARDRAIL_DETECTORS)[number];

export type DetectorCounts = Record<GuardrailDetector, number>;

export interface GuardrailsConfig {
  /** Warnings reach the model as context. Default true. */
  warnings_enabled: boolean;
  /** Hard stops everywhere. Default false. */
  hard_stop_enabled: boolean;
  /** Hard stops on platforms other than cli/tui/desktop/acp. Default true. */
  non_interactive_hard_stop_enabled: boolean;
  /** Count at which the next repetition is warned. Defaults 2 / 2 / 3 / 3. */
  warn_after: DetectorCounts;
  /** Count at which the next repetition is stopped. Defaults 5 / 5 / 8 / 5. */
  hard_stop_after: DetectorCounts;
}

interface VerdictBase {
  /** Names the loop; for a stop it also tells the model to end the turn. */
  message: string;
  detector: GuardrailDetector;
  /** The tool whose call was judged. */
  tool_name: string;
  /** How many times the loop has already happened (failures, same results, or repetitions). */
  count: number;
  /** The threshold that was reached (warn_after or hard_stop_after of the detector). */
  threshold: number;
}

/** warn: let the call run, show the model `message`. stop: block the call and end the turn. */
export type GuardrailVerdict = (VerdictBase & { action: 'warn' }) | (VerdictBase & { action: 'stop' });

export interface ToolLoopGuardrails {
  /** pre_tool_call gate. kwargs: tool_name, args, session_id, platform. Null = nothing to say. */
  beforeToolCall(kwargs: Record<string, unknown>): GuardrailVerdict | null;
  /** post_tool_call observer. kwargs: tool_name, args, session_id, result, status, error_type, error_message. */
  afterToolCall(kwargs: Record<string, unknown>): void;
  /** Forget everything about one session (e.g. on /new or at the start of a fresh task). */
  resetSession(sessionId: string): void;
}

export interface ToolLoopGuardrailsOptions {
  /** Platform assumed when a call carries none and its session never said. Default: interactive. */
  defaultPlatform?: string | null;
  /** Sessions remembered at once (least recently used are forgotten). Default 1024. */
  maxSessions?: number;
  /** Longest cycle looked for, in calls. Default 6. */
  maxCyclePeriod?: number;
}

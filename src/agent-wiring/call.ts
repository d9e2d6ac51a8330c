// One call from another agent, answered in its protocol: their hook stdin → our event and kwargs →
// engine.emit → the exit code, stdout and stderr that agent acts on. Shared by
// `hermes-hooks run --dialect` (one process per call) and `serve`'s /v1/agent/<agent>/<event>, so
// both answer byte for byte alike — including the block they answer when they cannot decide.

import type { HookEngine } from '../engine/create-engine.js';
import type { EmitOptions } from '../engine/run-hooks.js';
import type { Decision, Emission, EventName } from '../types.js';
import { EVENT_NAMES, EVENTS } from '../events.js';
import { allowDecision } from '../resolve/resolve.js';
import { parseDialectInput, renderDialectAnswer, type DialectAnswer, type ParsedDialectInput } from '../dialects/translate-call.js';
import { DEFAULT_DIALECT_MAPS, toOurEvent, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { dropWarnings, ENFORCING_DROPS, type ProfileHook } from './drops.js';
import { agentPlatform } from './platform.js';
import { diagnosticLines, noticeText, outcomeLines } from './problems.js';
import { profileProblems, type HookPlace, type ProfileView } from './profile-problems.js';

export interface AgentCallOptions extends Pick<EmitOptions, 'signal' | 'received'> {
  /** The env the agent gave its hook command (run --dialect: ours); absent: no indicator (serve). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Which of this call's problems to tell the person (serve: those not yet told in this session
   * since the config last changed); absent: all of them (`run` has no memory between calls).
   */
  tell?: (sessionId: string, problems: readonly string[]) => readonly string[];
  /** Where and with what PATH the hooks run, for the session-start check of their programs (default: ours). */
  cwd?: string;
  hookEnv?: Readonly<Record<string, string | undefined>>;
}

export async function answerAgentCall(
  engine: Pick<HookEngine, 'emit' | 'config'> & ProfileView,
  dialect: AgentDialect,
  theirEvent: string | null,
  stdin: unknown,
  opts: AgentCallOptions = {},
): Promise<{ answer: DialectAnswer; event: EventName } | { error: string }> {
  const parsed = parseDialectInput(dialect, engine.config.dialects.maps, stdin, theirEvent ? { event: theirEvent } : {});
  if ('error' in parsed) return { error: parsed.error };
  const received = { dialect, event: parsed.theirEvent, input: stdin };
  return { answer: await answerParsedCall(engine, dialect, parsed, { received, ...opts }), event: parsed.event };
}

/** The same call, its stdin already read into our event and kwargs (run --dialect reads it once, to know the event). */
export async function answerParsedCall(
  engine: Pick<HookEngine, 'emit' | 'config'> & ProfileView,
  dialect: AgentDialect,
  parsed: ParsedDialectInput,
  opts: AgentCallOptions = {},
): Promise<DialectAnswer> {
  const maps = engine.config.dialects.maps;
  // Their `cwd` (Cursor: the first workspace root) is the agent's working directory: it is the
  // payload's cwd, so every hook, in every dialect, sees the agent's folder rather than ours.
  const { cwd, ...kwargs } = parsed.kwargs;
  const roots = kwargs['workspace_roots'];
  const agentCwd = typeof cwd === 'string' ? cwd : Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  if (cwd !== undefined && agentCwd !== cwd) kwargs['cwd'] = cwd;
  // The guardrails' hard stops depend on the platform: decided here, by one visible rule, when the payload names none.
  if (kwargs['platform'] === undefined) kwargs['platform'] = agentPlatform(dialect, engine.config.dialects.platforms?.[dialect], opts.env ?? {}).platform;
  const emission = await engine.emit(parsed.event, kwargs, {
    ...(agentCwd !== undefined ? { payloadCwd: agentCwd } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.received ? { received: opts.received } : {}),
  });
  const toolName = typeof parsed.kwargs.tool_name === 'string' ? parsed.kwargs.tool_name : null;
  const sessionId = typeof parsed.kwargs.session_id === 'string' ? parsed.kwargs.session_id : '';
  const problems = callProblems(engine, dialect, parsed.event, emission, { cwd: opts.cwd ?? process.cwd(), env: opts.hookEnv ?? process.env });
  const notice = noticeText(opts.tell ? opts.tell(sessionId, problems) : problems);
  return renderDialectAnswer(dialect, maps, parsed.theirEvent, emission.decision, toolName, notice);
}

/**
 * Everything the person must hear about this call: at a session's start the profile's problems
 * (told once, up front), elsewhere the config's problems with this event's hooks; then what went
 * wrong with the hooks that ran.
 */
function callProblems(engine: ProfileView, dialect: AgentDialect, event: EventName, emission: Emission, ctx: HookPlace): string[] {
  const profile =
    event === 'on_session_start'
      ? [...profileProblems(engine, ctx), ...dropWarnings(dialect, profileHooks(engine), ENFORCING_DROPS)]
      : diagnosticLines(engine.diagnostics, engine.configFile, event, engine.config.foreign);
  return [...profile, ...outcomeLines(event, emission.hooks, emission.decision)];
}

/** The hooks that answer (shell hooks that run, plugins' callbacks), for the agent's drops. */
function profileHooks(engine: ProfileView): ProfileHook[] {
  return EVENT_NAMES.flatMap((event) =>
    engine.hooksFor(event).flatMap((e): ProfileHook[] => {
      if (e.kind === 'shell') return e.action === 'run' ? [{ event, name: e.spec.command }] : [];
      return e.kind === 'plugin' ? [{ event, name: e.name }] : [];
    }),
  );
}

/** Events whose answer can stop what the agent is about to do: the tool gates. */
export function canBlock(dialect: AgentDialect, maps: DialectMaps, theirEvent: string): boolean {
  return (toOurEvent(maps, dialect, theirEvent) ?? toOurEvent(DEFAULT_DIALECT_MAPS, dialect, theirEvent)) === 'pre_tool_call';
}

/** The first of the events named for a call (command line, URL, stdin) that is this agent's tool gate. */
export function toolGateAmong(dialect: AgentDialect, maps: DialectMaps, events: readonly (string | undefined)[]): string | undefined {
  return events.find((e): e is string => e !== undefined && canBlock(dialect, maps, e));
}

/** A problem as one line for an agent's transcript: its first line (a usage hint after it is not for the agent), no final dot. */
export function oneLineProblem(text: string): string {
  return text.split('\n')[0]!.replace(/\.$/, '');
}

// The "cannot decide" rule, the one home every face calls (`run`, `run --dialect`, serve): what
// hermes-hooks itself could not decide on a tool gate is a block that says why — never an exit 1 or
// an HTTP error an agent or host takes for "go ahead"; on any other event nothing is enforced, and
// the face reports the problem as its error.

/** The rule itself: an event that can block is blocked with `message` saying why; elsewhere null (nothing is enforced). */
export function undecidedBlock(event: EventName, message: string): Decision | null {
  return EVENTS[event].canBlock ? { ...allowDecision(event), action: 'block', message } : null;
}

/** The words of that block (`problem`: one line; `remedy`: what else to do). */
function cannotDecideText(problem: string, remedy: string): string {
  return `hermes-hooks cannot decide, so it blocks this call: ${oneLineProblem(problem)} (${remedy})`;
}

/** A Hermes event that could not be decided: its block when it can block, else null (the face reports an error). */
export function undecidedHermesCall(event: EventName, problem: string): Decision | null {
  return undecidedBlock(event, cannotDecideText(problem, 'fix that'));
}

/**
 * Another agent's call that could not be decided, `events` being those named for it (command line or
 * URL, then stdin): on a tool gate the agent's own block saying why, else null (the face reports an error).
 */
export function undecidedAgentCall(dialect: AgentDialect, maps: DialectMaps, events: readonly (string | undefined)[], problem: string): DialectAnswer | null {
  const gate = toolGateAmong(dialect, maps, events);
  if (gate === undefined) return null;
  const remedy = 'fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide';
  return renderDialectAnswer(dialect, maps, gate, undecidedBlock('pre_tool_call', cannotDecideText(problem, remedy))!, null);
}

/** Agent hook input that is not JSON, worded alike by every face. */
export function unreadableInputProblem(dialect: string, detail: string): string {
  return `invalid ${dialect} hook input on stdin: ${detail}`;
}

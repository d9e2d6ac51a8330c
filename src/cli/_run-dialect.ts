// `hermes-hooks run [<their event>] --dialect AGENT`: be another agent's hook command. Read its
// stdin, run our profile's hooks (consent, timeouts, concurrency, fail_closed), answer in its protocol.
//
// A guard never fails open without saying so: when hermes-hooks itself cannot decide (config missing,
// unreadable or unparseable, a location that does not exist, unparseable agent stdin, an internal
// error) on an event that can block, the agent gets ITS block — its own format and exit code — with
// a message naming the problem. Every agent treats a plain exit 1 from a hook as a non-blocking error
// and goes ahead, so exiting 1 there would silently switch every guard off. `--fail-open` restores
// that (exit 1 + the message) for whoever prefers availability; events that cannot block always do.

import { parseDialectInput, type DialectAnswer } from '../dialects/translate-call.js';
import { answerParsedCall, oneLineProblem, undecidedAgentCall, unreadableInputProblem } from '../agent-wiring/call.js';
import { agentModule } from '../dialects/agents/index.js';
import { DEFAULT_DIALECT_MAPS, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { stderrLogger } from '../engine/logger.js';
import { parseCommandArgs } from './_args.js';
import { RUN_HELP } from './_help.js';
import { eventDiagnosticLines } from './_event-diagnostics.js';
import { CliError, readAllStdin, stdinTimeoutMs, type CliIO } from './_io.js';
import { withRunEngine } from './_run-engine.js';
import { HooksError, errorText } from '../errors.js';

const RUN_OPTIONS = {
  'accept-hooks': { type: 'boolean' },
  dialect: { type: 'string' },
  'fail-open': { type: 'boolean' },
  journal: { type: 'string' },
  'stdin-timeout': { type: 'string' },
} as const;

/** The event a dialect run was started for could not be answered: say why, in one line. */
class CannotDecide extends HooksError {
  constructor(message: string) {
    super('cannot_decide', message);
  }
}

/** What is known of the call so far, for the answer when it cannot be decided. */
interface CallState {
  maps: DialectMaps;
  /** Read before full parsing, so that a typo in an option still leaves the event known. */
  commandLineEvent: string | undefined;
  stdinEvent: string | undefined;
  failOpen: boolean;
}

/**
 * stderr held until the answer is known: an agent that takes ALL of stderr as the block reason
 * (exit 2; Codex) gets the reason alone; everywhere else the config's lines for this event and the
 * warnings follow on stderr as usual, first.
 */
class HeldStderr {
  readonly warnings: string[] = [];
  readonly configLines: string[] = [];
  readonly logger = { warn: (m: string): void => void this.warnings.push(m), info: (): void => {}, debug: (): void => {} };
  constructor(
    private readonly io: CliIO,
    readonly reasonOnly: boolean,
  ) {}

  flush(): void {
    for (const line of this.configLines.splice(0)) this.io.stderr.write(`${line}\n`);
    const log = stderrLogger({ stream: this.io.stderr });
    for (const w of this.warnings.splice(0)) log.warn(w);
  }

  write(answer: DialectAnswer): number {
    if (this.reasonOnly && answer.exitCode === 2) {
      this.warnings.length = 0;
      this.configLines.length = 0;
    }
    this.flush();
    const { io } = this;
    if (answer.stdout) io.stdout.write(answer.stdout.endsWith('\n') ? answer.stdout : `${answer.stdout}\n`);
    if (answer.stderr) io.stderr.write(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`);
    return answer.exitCode;
  }
}

export async function runDialect(agent: AgentDialect, args: string[], io: CliIO): Promise<number> {
  const held = new HeldStderr(io, agentModule(agent).stderrIsBlockReason === true);
  const call: CallState = {
    maps: DEFAULT_DIALECT_MAPS,
    commandLineEvent: firstPositional(args),
    stdinEvent: undefined,
    failOpen: args.includes('--fail-open'),
  };
  try {
    return await answerCall(agent, args, io, call, held);
  } catch (e) {
    return answerUndecided(agent, e, call, held, io);
  }
}

async function answerCall(agent: AgentDialect, args: string[], io: CliIO, call: CallState, held: HeldStderr): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', args, RUN_OPTIONS);
  if (values.help) {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  call.failOpen = values['fail-open'] === true;
  call.commandLineEvent = positionals[0];
  const commandLineEvent = call.commandLineEvent;
  // A stdin that never closes is a call not decided (StdinTimeout, a CliError): a tool gate blocks.
  const text = (await readAllStdin(io, stdinTimeoutMs(values['stdin-timeout'], io.env))) ?? '';
  let stdin: unknown = {};
  if (text.trim()) {
    try {
      stdin = JSON.parse(text);
    } catch (e) {
      throw new CannotDecide(unreadableInputProblem(agent, errorText(e)));
    }
  }
  const named = (stdin as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (typeof named === 'string') call.stdinEvent = named;

  // Parsed once, with the config's `dialects:` names, as soon as the config is read: the event it
  // names decides which hooks register, and the same reading is the call.
  let parsed: ReturnType<typeof parseDialectInput> | undefined;
  const parse = (maps: DialectMaps): ReturnType<typeof parseDialectInput> =>
    (parsed ??= parseDialectInput(agent, maps, stdin, commandLineEvent ? { event: commandLineEvent } : {}));
  return await withRunEngine(
    values,
    io,
    held.logger,
    async (engine) => {
      call.maps = engine.config.dialects.maps;
      const input = parse(call.maps);
      if ('error' in input) throw new CannotDecide(input.error);
      const received = { dialect: agent, event: input.theirEvent, input: stdin };
      const answer = await answerParsedCall(engine, agent, input, { env: io.env, cwd: io.cwd, hookEnv: io.env, received });
      held.configLines.push(...eventDiagnosticLines(engine.diagnostics, input.event, engine.config.foreign));
      return held.write(answer);
    },
    {
      // stderr carries only what concerns the event being run: consent is decided for its hooks
      // alone (the agent's event, mapped through this config's `dialects:` names).
      eventsFor: (config) => {
        const input = parse(config.dialects.maps);
        // Input that names no event of ours is answered with the problem alone: no hook registers.
        // A session's start tells the whole profile's problems (unapproved hooks of every event too).
        return 'error' in input ? [] : input.event === 'on_session_start' ? undefined : [input.event];
      },
    },
  );
}

/** hermes-hooks could not decide: on a tool gate the agent's own block saying why, else exit 1. */
function answerUndecided(agent: AgentDialect, e: unknown, call: CallState, held: HeldStderr, io: CliIO): number {
  const raw = e instanceof CannotDecide || e instanceof CliError ? e.message : `internal error: ${errorText(e)}`;
  const problem = oneLineProblem(raw);
  // Which event was this? The command line names it (print-config always does); stdin may too.
  const answer = undecidedAgentCall(agent, call.maps, [call.commandLineEvent, call.stdinEvent], problem);
  if (answer === null || call.failOpen) {
    held.flush();
    io.stderr.write(`hermes-hooks: ${problem}${answer !== null ? ' (--fail-open: the call goes ahead unguarded)' : ''}\n`);
    return 1;
  }
  if (answer.exitCode !== 2 || !held.reasonOnly) {
    // An agent that reads all of stderr as the reason gets only the answer there.
    held.flush();
    io.stderr.write(`hermes-hooks: ${problem}\n`);
  }
  return held.write(answer);
}

/** The first argument that is neither an option nor an option's value. */
function firstPositional(args: string[]): string | undefined {
  const takesValue = new Set(['--dialect', '--config', '-c', '--profile', '-p', '--home', '--stdin-timeout', '--journal']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return args[i + 1];
    if (takesValue.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

// `hermes-hooks run [<their event>] --dialect AGENT`: be another agent's hook command. Read its
// stdin, run our profile's hooks (consent, timeouts, concurrency, fail_closed), answer in its protocol.
//
// A guard never fails open without saying so: when hermes-hooks itself cannot decide (config missing,
// unreadable or unparseable, a location that does not exist, unparseable agent stdin, an internal
// error) on an event that can block, the agent gets ITS block — its own format and exit code — with
// a message naming the problem. Every agent treats a plain exit 1 from a hook as a non-blocking error
// and goes ahead, so exiting 1 there would silently switch every guard off. `--fail-open` restores
// that (exit 1 + the message) for whoever prefers availability; events that cannot block always do.

import { parseDialectInput, type DialectAnswer } from '../agent-wiring/answer.js';
import { answerAgentCall, cannotDecideAnswer, oneLineProblem, toolGateAmong } from '../agent-wiring/call.js';
import { DEFAULT_DIALECT_MAPS, type AgentDialect, type DialectMaps } from '../dialects/names.js';
import { stderrLogger } from '../engine/logger.js';
import type { Dialect } from '../types.js';
import { parseCommandArgs } from './_args.js';
import { RUN_HELP } from './_help.js';
import { eventDiagnosticLines } from './_event-diagnostics.js';
import { CliError, readAllStdin, type CliIO } from './_io.js';
import { withRunEngine } from './_run-engine.js';
import { HooksError, errorText } from '../errors.js';

const RUN_OPTIONS = {
  'accept-hooks': { type: 'boolean' },
  dialect: { type: 'string' },
  'fail-open': { type: 'boolean' },
} as const;

/** The event a dialect run was started for could not be answered: say why, in one line. */
class CannotDecide extends HooksError {
  constructor(message: string) {
    super('cannot_decide', message);
  }
}

export async function runDialect(dialect: Dialect, args: string[], io: CliIO): Promise<number> {
  const agent = dialect as AgentDialect;
  let maps: DialectMaps = DEFAULT_DIALECT_MAPS;
  // Read before full parsing, so that a typo in an option still leaves the event known.
  let commandLineEvent: string | undefined = firstPositional(args);
  let stdinEvent: string | undefined;
  let failOpen = args.includes('--fail-open');
  // Warnings are held until the answer is known: Codex takes ALL of stderr as the block reason
  // (exit 2), so there the reason goes alone; everywhere else they follow on stderr as usual.
  const warnings: string[] = [];
  // The config's problems with this event's hooks (formatted lines), held and flushed first.
  const configLines: string[] = [];
  const flushWarnings = (): void => {
    for (const line of configLines.splice(0)) io.stderr.write(`${line}\n`);
    const log = stderrLogger({ stream: io.stderr });
    for (const w of warnings.splice(0)) log.warn(w);
  };
  const holdWarnings = { warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} };

  try {
    const { values, positionals } = parseCommandArgs('run', args, RUN_OPTIONS);
    if (values.help) {
      io.stdout.write(RUN_HELP);
      return 0;
    }
    failOpen = values['fail-open'] === true;
    commandLineEvent = positionals[0];
    const text = (await readAllStdin(io)) ?? '';
    let stdin: unknown = {};
    if (text.trim()) {
      try {
        stdin = JSON.parse(text);
      } catch (e) {
        throw new CannotDecide(`invalid ${dialect} hook input on stdin: ${errorText(e)}`);
      }
    }
    const named = (stdin as { hook_event_name?: unknown } | null)?.hook_event_name;
    if (typeof named === 'string') stdinEvent = named;

    return await withRunEngine(values, io, holdWarnings, async (engine) => {
      maps = engine.config.dialects.maps;
      const call = await answerAgentCall(engine, agent, commandLineEvent ?? null, stdin);
      if ('error' in call) throw new CannotDecide(call.error);
      configLines.push(...eventDiagnosticLines(engine.diagnostics, call.event, engine.config.foreign));
      return write(call.answer);
    }, {
      // stderr carries only what concerns the event being run: consent is decided for its hooks
      // alone (the agent's event, mapped through this config's `dialects:` names).
      eventsFor: (config) => {
        const parsed = parseDialectInput(agent, config.dialects.maps, stdin, commandLineEvent ? { event: commandLineEvent } : {});
        // Input that names no event of ours is answered with the problem alone: no hook registers.
        return 'error' in parsed ? [] : [parsed.event];
      },
    });
  } catch (e) {
    const raw = e instanceof CannotDecide || e instanceof CliError ? e.message : `internal error: ${errorText(e)}`;
    const problem = oneLineProblem(raw);
    // Which event was this? The command line names it (print-config always does); stdin may too.
    const blocking = toolGateAmong(agent, maps, [commandLineEvent, stdinEvent]);
    if (blocking === undefined || failOpen) {
      flushWarnings();
      io.stderr.write(`hermes-hooks: ${problem}${blocking !== undefined ? ' (--fail-open: the call goes ahead unguarded)' : ''}\n`);
      return 1;
    }
    const answer = cannotDecideAnswer(agent, maps, blocking, problem);
    if (answer.exitCode !== 2 || dialect !== 'codex') {
      // Codex reads all of stderr as the reason: only the answer goes there.
      flushWarnings();
      io.stderr.write(`hermes-hooks: ${problem}\n`);
    }
    return write(answer);
  }

  function write(answer: DialectAnswer): number {
    if (dialect === 'codex' && answer.exitCode === 2) {
      warnings.length = 0;
      configLines.length = 0;
    }
    flushWarnings();
    if (answer.stdout) io.stdout.write(answer.stdout.endsWith('\n') ? answer.stdout : `${answer.stdout}\n`);
    if (answer.stderr) io.stderr.write(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`);
    return answer.exitCode;
  }
}

/** The first argument that is neither an option nor an option's value. */
function firstPositional(args: string[]): string | undefined {
  const takesValue = new Set(['--dialect', '--config', '-c', '--profile', '-p', '--home']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return args[i + 1];
    if (takesValue.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

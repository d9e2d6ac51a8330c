// `hermes-hooks run <event>`: the production path for hosts in any language. Consent and safe mode
// honoured, never prompts (stdin is the payload), prints only the Decision. Exit 2 when blocked.
// With --dialect, it speaks another agent's hook protocol on both ends.

import { stderrLogger } from '../engine/logger.js';
import { isEventName } from '../events.js';
import { AGENT_DIALECTS, isAgentDialect } from '../dialects/agents/index.js';
import type { ParsedArgs } from './_args.js';
import { unknownEventError } from './_events.js';
import { RUN_HELP } from './_help.js';
import { CliError, readAllStdin, writeLine, type CliIO } from './_io.js';
import { eventDiagnosticLines, payloadDiagnosticLines } from './_event-diagnostics.js';
import { payloadFromStdin } from './_payload.js';
import { withRunEngine } from './_run-engine.js';

/** `run --dialect AGENT`: it parses its own options, so that every mistake ends in AGENT's block. */
export async function runAsAgentCommand(dialect: string, args: string[], io: CliIO): Promise<number> {
  if (!isAgentDialect(dialect)) {
    throw new CliError(`run: unknown dialect '${dialect}' (one of: ${AGENT_DIALECTS.join(', ')})`);
  }
  const { runDialect } = await import('./_run-dialect.js');
  return runDialect(dialect, args, io);
}

export async function runCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const event = positionals[0];
  if (!event) throw new CliError(`run: missing <event>\n${RUN_HELP}`);
  if (!isEventName(event)) throw unknownEventError(event, 'run');
  const text = await readAllStdin(io);
  const input = payloadFromStdin(event, text ?? '', { synthetic: false });

  return withRunEngine(values, io, stderrLogger({ stream: io.stderr }), async (engine) => {
    for (const line of eventDiagnosticLines(engine.diagnostics, event, engine.config.foreign)) writeLine(io.stderr, line);
    const emission = await engine.emit(event, input.body);
    // How the payload was read (a kwarg the event does not take, another agent's stdin) is said, never dropped.
    for (const line of payloadDiagnosticLines(emission.diagnostics)) writeLine(io.stderr, line);
    writeLine(io.stdout, JSON.stringify(emission.decision));
    return emission.decision.action === 'block' ? 2 : 0;
  }, { events: [event] });
}

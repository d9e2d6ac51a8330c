// `hermes-hooks run <event>`: the production path for hosts in any language. Consent and safe mode
// honoured, never prompts (stdin is the payload), prints only the Decision. Exit 2 when blocked.
// With --dialect, it speaks another agent's hook protocol on both ends.

import { stderrLogger } from '../engine/logger.js';
import { isEventName } from '../events.js';
import { AGENT_DIALECTS, isAgentDialect } from '../dialects/agents/index.js';
import { parseCommandArgs } from './_args.js';
import { unknownEventError } from './_events.js';
import { RUN_HELP } from './_help.js';
import { CliError, readAllStdin, writeLine, type CliIO } from './_io.js';
import { eventDiagnosticLines, payloadDiagnosticLines } from './_event-diagnostics.js';
import { payloadFromStdin } from './_payload.js';
import { withRunEngine } from './_run-engine.js';

export async function runCommand(args: string[], io: CliIO): Promise<number> {
  // A dialect run parses its own options: whatever goes wrong from here on must still end in that
  // agent's block, never in an exit 1 the agent would treat as "go ahead".
  const dialect = dialectArg(args);
  if (dialect !== undefined && dialect !== 'hermes') {
    if (!isAgentDialect(dialect)) {
      throw new CliError(`run: unknown dialect '${dialect}' (one of: ${AGENT_DIALECTS.join(', ')})`);
    }
    const { runDialect } = await import('./_run-dialect.js');
    return runDialect(dialect, args, io);
  }
  const { values, positionals } = parseCommandArgs('run', args, {
    'accept-hooks': { type: 'boolean' },
    dialect: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(RUN_HELP);
    return 0;
  }
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

/** The value of `--dialect X` / `--dialect=X`, read before full parsing (which may fail). */
function dialectArg(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a === '--dialect') return args[i + 1];
    if (a.startsWith('--dialect=')) return a.slice('--dialect='.length);
  }
  return undefined;
}

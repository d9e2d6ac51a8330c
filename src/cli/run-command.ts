// `hermes-hooks run <event>`: the production path for hosts in any language. Consent and safe mode
// honoured, never prompts (stdin is the payload), prints only the Decision. Exit 2 when blocked.
// With --dialect, it speaks another agent's hook protocol on both ends.

import { undecidedHermesCall } from '../agent-wiring/call.js';
import { stderrLogger } from '../engine/logger.js';
import { isEventName } from '../events.js';
import { AGENT_DIALECTS, isAgentDialect } from '../dialects/agents/index.js';
import type { ParsedArgs } from './_args.js';
import { unknownEventError } from './_events.js';
import { RUN_HELP } from './_help.js';
import { CliError, readAllStdin, StdinTimeout, stdinTimeoutMs, writeLine, type CliIO } from './_io.js';
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

const UNPAIRED_RESOLVE =
  'run: on_human_input_resolved cannot be run on its own: it pairs with its on_human_input_request inside one engine ' +
  '(exactly one resolved per request), and each `hermes-hooks run` is a new engine. Send both events to one ' +
  '`hermes-hooks serve` (POST /v1/emit/<event> on its socket, or stdio emit), or emit them from one library engine; ' +
  '`hermes-hooks test on_human_input_resolved` dry-runs its hooks alone.';

export async function runCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const event = positionals[0];
  if (!event) throw new CliError(`run: missing <event>\n${RUN_HELP}`);
  if (!isEventName(event)) throw unknownEventError(event, 'run');
  // Each `run` is a new engine: the request this resolves went through another one, so exactly-once
  // pairing cannot hold here. Refused, not dropped in silence.
  if (event === 'on_human_input_resolved') throw new CliError(UNPAIRED_RESOLVE);
  let text: string | null;
  try {
    text = await readAllStdin(io, stdinTimeoutMs(values['stdin-timeout'], io.env));
  } catch (e) {
    // No payload, no decision: on the tool gate that is a block (as `run --dialect` and serve
    // answer it), never an exit 1 a host may take for "go ahead".
    const block = e instanceof StdinTimeout ? undecidedHermesCall(event, e.message) : null;
    if (block === null) throw e;
    writeLine(io.stderr, `hermes-hooks: ${(e as StdinTimeout).message}`);
    writeLine(io.stdout, JSON.stringify(block));
    return 2;
  }
  const input = payloadFromStdin(event, text ?? '', { synthetic: false });

  return withRunEngine(
    values,
    io,
    stderrLogger({ stream: io.stderr }),
    async (engine) => {
      for (const line of eventDiagnosticLines(engine.diagnostics, event, engine.config.foreign)) writeLine(io.stderr, line);
      const emission = await engine.emit(event, input.body);
      // How the payload was read (a kwarg the event does not take, another agent's stdin) is said, never dropped.
      for (const line of payloadDiagnosticLines(emission.diagnostics)) writeLine(io.stderr, line);
      if (event === 'on_human_input_request' && engine.specs.some((s) => s.event === 'on_human_input_resolved')) {
        writeLine(
          io.stderr,
          'hermes-hooks: note: the on_human_input_resolved hooks of this request cannot run through `run` (they pair inside one engine): send both ' +
            'events to one `hermes-hooks serve`',
        );
      }
      writeLine(io.stdout, JSON.stringify(emission.decision));
      return emission.decision.action === 'block' ? 2 : 0;
    },
    { events: [event] },
  );
}

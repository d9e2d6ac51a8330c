// `hermes-hooks validate [FILE]`: every config diagnostic with file:line:column. Exit 1 on any
// error or warning, so it works as a pre-commit check.

import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter } from './_color.js';
import { writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { formatDiagnostic } from './_report.js';

const HELP = `Usage: hermes-hooks validate [FILE] [--json] [discovery options]

Check a config.yaml: the hooks: block, hooks.outbound, tool_loop_guardrails, plugins and dialects,
and that the file and the profile home pass the trust rule (a warning when another user could have
written them: such a config grants nothing). Prints each problem as file:line:column: level: path:
message. Exit 1 on any error or warning.

Examples:
  hermes-hooks validate                          the profile's config.yaml
  hermes-hooks validate ./config.yaml            a file (e.g. in a pre-commit hook)
  hermes-hooks validate --profile work --json
`;

export async function validateCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const file = positionals[0];
  const profile = await openProfile(discoveryOf(values), io, { allowBroken: true, ...(file !== undefined ? { configFile: file } : {}) });
  const diagnostics = [...profile.diagnostics];
  if (!profile.config.exists) {
    diagnostics.unshift({ level: 'error', path: '', line: null, column: null, message: 'config file not found', file: profile.configFile });
  }
  const problems = diagnostics.filter((d) => d.level === 'error' || d.level === 'warning');
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ file: profile.configFile, valid: problems.length === 0, hooks: profile.config.specs.length, diagnostics }));
  } else {
    const paint = painter(io);
    for (const d of diagnostics) writeLine(io.stdout, formatDiagnostic(d, paint));
    writeLine(
      io.stdout,
      problems.length === 0
        ? `${profile.configFile}: ok (${profile.config.specs.length} shell hook(s), ${profile.outbound.length} outbound target(s))`
        : `${profile.configFile}: ${problems.length} problem(s)`,
    );
  }
  return problems.length === 0 ? 0 : 1;
}

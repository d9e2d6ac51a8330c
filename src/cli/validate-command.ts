// `hermes-hooks validate [FILE]`: every config diagnostic with file:line:column. Exit 1 on any
// error or warning, so it works as a pre-commit check.

import { diagnosticAt, type ConfigSource } from '../config/source.js';
import type { Diagnostic, HookSpec } from '../types.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { checkCommand, type CommandCheck } from './_command-check.js';
import { inspectScript } from '../consent/script-info.js';
import { unfollowableMessage } from '../consent/what-runs.js';
import { failsClosed } from '../directives/messages.js';
import { painter } from './_color.js';
import { writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { formatDiagnostic } from './_report.js';

export async function validateCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const file = positionals[0];
  const profile = await openProfile(discoveryOf(values), io, { allowBroken: true, ...(file !== undefined ? { configFile: file } : {}) });
  const diagnostics = [...profile.diagnostics];
  diagnostics.push(...(await commandDiagnostics(profile.config.specs, profile.config.source, diagnostics, io)));
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

/**
 * What would stop each hook from starting, read from the files now (relative paths from here), as
 * warnings with the fix.
 */
async function commandDiagnostics(specs: readonly HookSpec[], source: ConfigSource, known: readonly Diagnostic[], io: CliIO): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const checked = new Map<string, Promise<CommandCheck>>();
  for (const spec of specs) {
    const path = `${spec.path}.command`;
    // One problem at a time: a command the config check already faulted is not looked for on disk.
    if (known.some((d) => d.level !== 'info' && d.path === path)) continue;
    let check = checked.get(spec.command);
    if (check === undefined) {
      check = checkCommand(spec.command, { cwd: io.cwd, env: io.env, where: '' });
      checked.set(spec.command, check);
    }
    const c = await check;
    // What a guard that cannot start costs: a fail_closed one blocks every call it matches.
    const cost = failsClosed(spec) ? '; being fail_closed, until then it blocks every call it matches' : '';
    const at = ['hooks', spec.event, spec.index, 'command'];
    if (!c.ok) {
      out.push(diagnosticAt(source, 'warning', at, `${c.message}${cost}`));
      continue;
    }
    // What it runs, under the trust rule; and whether its approval could pin what runs.
    const script = await inspectScript(spec.command, { cwd: io.cwd, env: io.env, ...(io.env.HOME !== undefined ? { homedir: io.env.HOME } : {}) });
    if (script.untrusted !== null) out.push(diagnosticAt(source, 'warning', at, `not trusted, so it will not run: ${script.untrusted}${cost}`));
    else if (script.unfollowable !== null) {
      out.push(diagnosticAt(source, 'warning', at, `cannot be approved: ${unfollowableMessage(script.unfollowable)}${cost}`));
    }
  }
  return out;
}

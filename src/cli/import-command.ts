// `hermes-hooks import <file> [--write]` and `hermes-hooks print-config <agent>`: bring another
// agent's hook config over as a hooks: block, and wire another agent to call us.

import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { importAgentConfig, mergeIntoConfig } from '../dialects/import.js';
import { AGENT_DIALECTS, isAgentDialect, parseDialectsConfig, defaultDialectMaps } from '../dialects/names.js';
import { printDialectConfig } from '../dialects/print-config.js';
import type { Dialect } from '../types.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter } from './_color.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { formatDiagnostic } from './_report.js';

const IMPORT_HELP = `Usage: hermes-hooks import <file> [--dialect AGENT] [--write] [--json] [discovery options]

Convert a Claude Code settings.json (or .claude/settings.json), a Codex hooks.json, a Gemini CLI
settings.json or a Cursor hooks.json into a hooks: block with dialect: set on each entry. Matchers
and timeout units are converted; everything that cannot be carried over is listed, never dropped
silently.
  --dialect AGENT   force the source format (claude, codex, gemini, cursor)
  --write           merge into the profile's config.yaml (a backup is written first)
`;

const PRINT_HELP = `Usage: hermes-hooks print-config <claude|codex|gemini|cursor> [--command CMD]

Print the settings snippet that wires every event of that agent to 'hermes-hooks run --dialect AGENT'.
`;

export async function importCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('import', args, {
    dialect: { type: 'string' },
    write: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(IMPORT_HELP);
    return 0;
  }
  const file = positionals[0];
  if (!file) throw new CliError(`import: missing <file>\n${IMPORT_HELP}`);
  const dialect = values.dialect as string | undefined;
  if (dialect !== undefined && !isAgentDialect(dialect)) throw new CliError(`import: unknown dialect '${dialect}' (one of: ${AGENT_DIALECTS.join(', ')})`);
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CliError(`import: cannot read ${path}: ${(e as Error).message}`);
  }
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.exists && !profile.config.source.syntaxError ? parseDialectsConfig(profile.config.source).maps : defaultDialectMaps();
  const result = importAgentConfig(path, text, { maps, home: io.env.HOME ?? homedir(), ...(dialect ? { dialect: dialect as Dialect } : {}) });
  const errors = result.diagnostics.filter((d) => d.level === 'error');

  let wrote: string | null = null;
  let added = 0;
  if (values.write && result.hooks.length) {
    const existing = profile.config.exists ? profile.config.source.text : '';
    let merged: string;
    try {
      merged = mergeIntoConfig(existing, result.hooks);
    } catch (e) {
      throw new CliError(`import: cannot merge into ${profile.configFile}: ${(e as Error).message}`);
    }
    // Entries already present are skipped; when nothing is new the file is left as it is.
    added = hookEntryCount(merged) - hookEntryCount(existing);
    if (added > 0) {
      if (profile.config.exists) {
        const backup = `${profile.configFile}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await copyFile(profile.configFile, backup);
        wrote = backup;
      }
      await writeFile(profile.configFile, merged, { mode: 0o600 });
    }
  }

  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ ...result, config: values.write ? profile.configFile : null, added: values.write ? added : null, backup: wrote }));
  } else {
    io.stdout.write(result.yaml.endsWith('\n') ? result.yaml : `${result.yaml}\n`);
    const paint = painter(io, 'stderr');
    for (const d of result.diagnostics) writeLine(io.stderr, formatDiagnostic(d, paint));
    if (values.write) {
      writeLine(
        io.stderr,
        added > 0
          ? `Merged ${added} hook(s) into ${profile.configFile}${wrote ? ` (backup: ${wrote})` : ''}${added < result.hooks.length ? `; ${result.hooks.length - added} already there` : ''}. Approve them with 'hermes-hooks approve --all'.`
          : result.hooks.length
            ? `Nothing to merge: all ${result.hooks.length} hook(s) are already in ${profile.configFile}; it is unchanged.`
            : 'Nothing to merge.',
      );
    }
  }
  return errors.length ? 1 : 0;
}

/** How many entries the hooks: lists of a config text hold (0 when it does not parse). */
function hookEntryCount(text: string): number {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0) return 0;
  const hooks = (doc.toJSON() as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return 0;
  return Object.values(hooks).reduce<number>((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
}

export async function printConfigCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('print-config', args, { command: { type: 'string' } });
  if (values.help) {
    io.stdout.write(PRINT_HELP);
    return 0;
  }
  const agent = positionals[0];
  if (!agent || !isAgentDialect(agent)) throw new CliError(`print-config: give one of ${AGENT_DIALECTS.join(', ')}\n${PRINT_HELP}`);
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.exists && !profile.config.source.syntaxError ? parseDialectsConfig(profile.config.source).maps : defaultDialectMaps();
  const command = typeof values.command === 'string' ? values.command : 'npx --no hermes-hooks';
  io.stdout.write(printDialectConfig(agent, { command, maps }).replace(/\n?$/, '\n'));
  return 0;
}

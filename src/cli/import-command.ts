// `hermes-hooks import <file> [--write]`: bring another agent's hook config over as a hooks: block.
// (Wiring another agent to call us is print-config-command.ts.)

import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { importAgentConfig, mergeIntoConfig, type ImportResult } from '../import/import.js';
import { AGENT_DIALECTS, isAgentDialect } from '../dialects/agents/index.js';
import type { Dialect } from '../types.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter } from './_color.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { formatDiagnostic } from './_report.js';
import { errorText } from '../errors.js';

const IMPORT_HELP = `Usage: hermes-hooks import <file> [--dialect AGENT] [--write] [--json] [discovery options]

Convert a Claude Code settings.json (or .claude/settings.json), a Codex hooks.json, a Gemini CLI
settings.json or a Cursor hooks.json into a hooks: block with dialect: set on each entry. Matchers
and timeout units are converted; everything that cannot be carried over is listed, never dropped
silently. Given a Hermes config.yaml that holds such a block under hooks: (pasted from another
agent), it converts that block alone and leaves the Hermes events beside it as they are.
  --dialect AGENT   force the source format (${AGENT_DIALECTS.join(', ')})
  --write           merge into the profile's config.yaml (a backup is written first); for a
                    config.yaml, replace the agent's block in that same file

Examples:
  hermes-hooks import ~/.claude/settings.json
  hermes-hooks import .codex/hooks.json --write
  hermes-hooks import hooks.json --dialect cursor --json
  hermes-hooks import ~/.hermes/config.yaml --dialect claude --write
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
    throw new CliError(`import: cannot read ${path}: ${errorText(e)}`);
  }
  const profile = await openProfile(discoveryOf(values), io);
  const maps = profile.config.dialects.maps;
  const result = importAgentConfig(path, text, { maps, home: io.env.HOME ?? homedir(), ...(dialect ? { dialect: dialect as Dialect } : {}) });
  const errors = result.diagnostics.filter((d) => d.level === 'error');

  // A Hermes config holding another agent's block is converted in that same file; an agent's own
  // file is merged into the profile's config.
  const inPlace = result.foreignKeys !== null;
  const target = inPlace ? path : profile.configFile;
  const written = values.write ? await writeImport(result, { inPlace, target, text, profile }) : { wrote: null, added: 0 };
  report(result, written, { inPlace, target, write: values.write === true, json: values.json === true, configFile: profile.configFile }, io);
  return errors.length ? 1 : 0;
}

type Profile = Awaited<ReturnType<typeof openProfile>>;
interface Written {
  wrote: string | null;
  added: number;
}

/** `import --write`: merge (or, for a Hermes config, convert in place) with a backup first. */
async function writeImport(result: ImportResult, where: { inPlace: boolean; target: string; text: string; profile: Profile }): Promise<Written> {
  const { inPlace, target, text, profile } = where;
  let wrote: string | null = null;
  let added = 0;
  if (result.hooks.length > 0 || (inPlace && (result.foreignKeys ?? []).length > 0)) {
    const existing = inPlace ? text : profile.config.exists ? profile.config.source.text : '';
    let merged: string;
    try {
      merged = mergeIntoConfig(existing, result.hooks, inPlace ? { replaceKeys: result.foreignKeys ?? [] } : {});
    } catch (e) {
      throw new CliError(`import: cannot merge into ${target}: ${errorText(e)}`);
    }
    // Entries already present are skipped; when nothing is new the file is left as it is.
    added = inPlace ? result.hooks.length : hookEntryCount(merged) - hookEntryCount(existing);
    if (inPlace ? merged !== existing : added > 0) {
      if (inPlace || profile.config.exists) {
        const backup = `${target}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await copyFile(target, backup);
        wrote = backup;
      }
      // Only the implicit default ~/.hermes may be missing here (a given home was checked to exist).
      if (!inPlace && !profile.location.homeExists) await mkdir(profile.home, { recursive: true, mode: 0o700 });
      await writeFile(target, merged, { mode: 0o600 });
    }
  }
  return { wrote, added };
}

/** What import did: the JSON report, or the YAML on stdout and what it means on stderr. */
function report(
  result: ImportResult,
  written: Written,
  opts: { inPlace: boolean; target: string; write: boolean; json: boolean; configFile: string },
  io: CliIO,
): void {
  if (opts.json) {
    writeLine(
      io.stdout,
      JSON.stringify({ ...result, config: opts.write ? opts.target : null, added: opts.write ? written.added : null, backup: written.wrote }),
    );
  } else {
    io.stdout.write(result.yaml.endsWith('\n') ? result.yaml : `${result.yaml}\n`);
    const paint = painter(io, 'stderr');
    for (const d of result.diagnostics) writeLine(io.stderr, formatDiagnostic(d, paint));
    if (opts.write && opts.inPlace) {
      // A key none of whose entries could be carried over goes too (the config would never stop
      // failing otherwise): said, and kept in the backup.
      const converted = new Set(result.hooks.map((h) => /^hooks\.([^.[]+)/.exec(h.source)?.[1]));
      const dropped = result.foreignKeys!.filter((k) => !converted.has(k));
      const removed = dropped.length
        ? `; removed ${dropped.map((k) => `hooks.${k}`).join(', ')}, which could not be carried over (see above; the backup keeps it)`
        : '';
      writeLine(
        io.stderr,
        written.wrote
          ? `Converted ${[...converted].map((k) => `hooks.${k}`).join(', ') || 'nothing'} in ${opts.target} into ${result.hooks.length} Hermes hook ` +
              `entr${result.hooks.length === 1 ? 'y' : 'ies'} (backup: ${written.wrote})` +
              `${removed}. Approve them with 'hermes-hooks approve --all'.`
          : `Nothing to convert in ${opts.target}; it is unchanged.`,
      );
    } else if (opts.write) {
      const already = written.added < result.hooks.length ? `; ${result.hooks.length - written.added} already there` : '';
      writeLine(
        io.stderr,
        written.added > 0
          ? `Merged ${written.added} hook(s) into ` +
              `${opts.configFile}${written.wrote ? ` (backup: ${written.wrote})` : ''}` +
              `${already}. Approve them with 'hermes-hooks approve --all'.`
          : result.hooks.length
            ? `Nothing to merge: all ${result.hooks.length} hook(s) are already in ${opts.configFile}; it is unchanged.`
            : 'Nothing to merge.',
      );
    } else if (opts.inPlace && result.hooks.length) {
      writeLine(
        io.stderr,
        `To replace ${result.foreignKeys!.map((k) => `hooks.${k}`).join(', ')} with these entries in ${opts.target}, run this again with --write (a ` +
          `backup is kept).`,
      );
    }
  }
}

/** How many entries the hooks: lists of a config text hold (0 when it does not parse). */
function hookEntryCount(text: string): number {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0) return 0;
  const hooks = (doc.toJSON() as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return 0;
  return Object.values(hooks).reduce<number>((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
}

// `hermes-hooks approve [<command>] [--event E] [--all]` and `hermes-hooks revoke <command>`:
// record or remove approvals without a TTY (installers and CI need a programmatic path).

import { isEventName } from '../events.js';
import type { ConsentSubject } from '../consent/state.js';
import { ConsentPersistError } from '../consent/store.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { unknownEventError } from './_events.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile, openStore } from './_profile.js';

const APPROVE_HELP = `Usage: hermes-hooks approve [<command>] [--event EVENT] [--all] [--json] [discovery options]

Record approvals in <home>/shell-hooks-allowlist.json (with the script's sha256), without a prompt.
  approve <command>                 every configured hook with this exact command
  approve <command> --event E       that (event, command) pair, even if not configured yet
  approve --all [--event E]         every configured hook (of event E)
Idempotent: re-approving refreshes the recorded hash. Prints what it approved.
`;

const REVOKE_HELP = `Usage: hermes-hooks revoke <command> [discovery options]

Remove every approval of <command> (exact string, every event) and print how many were removed.
`;

export async function approveCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('approve', args, {
    event: { type: 'string', short: 'e' },
    all: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(APPROVE_HELP);
    return 0;
  }
  const event = values.event as string | undefined;
  if (event !== undefined && !isEventName(event)) throw unknownEventError(event);
  const command = positionals.length ? positionals.join(' ').trim() : undefined;
  if (!command && !values.all) throw new CliError(`approve: give a <command> or --all\n${APPROVE_HELP}`);

  const profile = await openProfile(discoveryOf(values), io);
  const specs = profile.config.specs.filter((s) => (event === undefined || s.event === event) && (command === undefined || s.command === command));
  const subjects: ConsentSubject[] = [];
  const seen = new Set<string>();
  for (const s of specs) {
    const key = `${s.event}\u0000${s.command}`;
    if (!seen.has(key)) subjects.push({ event: s.event, command: s.command }), seen.add(key);
  }
  if (subjects.length === 0) {
    if (command && event) subjects.push({ event, command });
    else {
      throw new CliError(
        command
          ? `approve: no configured hook has the command '${command}'${event ? ` on ${event}` : ''} in ${profile.configFile} (give --event to approve it anyway)`
          : `approve: no hooks configured${event ? ` for ${event}` : ''} in ${profile.configFile}`,
      );
    }
  }
  const store = await openStore(profile, io);
  const result = await store.approve(subjects);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ approved: result.approvals, persisted: result.persisted, warning: result.warning }));
  } else {
    for (const a of result.approvals) {
      writeLine(io.stdout, `Approved [${a.event}] ${a.command}${a.script_sha256 ? `  (sha256 ${a.script_sha256.slice(0, 12)}…)` : ''}`);
    }
    if (result.warning) writeLine(io.stderr, `hermes-hooks: warning: ${result.warning}`);
  }
  return result.persisted ? 0 : 1;
}

export async function revokeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('revoke', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(REVOKE_HELP);
    return 0;
  }
  const command = positionals.join(' ').trim();
  if (!command) throw new CliError(`revoke: missing <command>\n${REVOKE_HELP}`);
  const profile = await openProfile(discoveryOf(values), io);
  const store = await openStore(profile, io);
  let removed: number;
  try {
    removed = await store.revoke(command);
  } catch (e) {
    if (e instanceof ConsentPersistError) throw new CliError(e.message);
    throw e;
  }
  if (values.json) writeLine(io.stdout, JSON.stringify({ command, removed }));
  else if (removed === 0) writeLine(io.stdout, `No allowlist entry found for command: ${command}`);
  else {
    writeLine(io.stdout, `Removed ${removed} allowlist ${removed === 1 ? 'entry' : 'entries'} for: ${command}`);
    writeLine(io.stdout, 'Note: running hosts keep hooks they already registered until they restart.');
  }
  return 0;
}

// `hermes-hooks approve <command>... [--event E] | --all` and `hermes-hooks revoke <command>...`:
// record or remove approvals without a TTY (installers and CI need a programmatic path). Each
// argument is one command, matched to what the user means (consent/match-command.ts); a command
// that matches nothing is an error, never an approval of nothing.

import { isEventName } from '../events.js';
import { inert } from '../display.js';
import { resolveRelativeCommand } from '../config/relative-path.js';
import { closestCommands, matchCommand } from '../consent/match-command.js';
import type { InspectOptions } from '../consent/script-info.js';
import type { ConsentInfo, ConsentSubject } from '../consent/state.js';
import { ConsentApproveError, ConsentPersistError, type ApproveResult } from '../consent/store.js';
import type { HookSpec } from '../types.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { APPROVE_HELP, REVOKE_HELP } from './_help.js';
import { unknownEventError } from './_events.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { missingConfigNote, openProfile, openStore, type Profile } from './_profile.js';

export async function approveCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const event = values.event as string | undefined;
  if (event !== undefined && !isEventName(event)) throw unknownEventError(event, 'approve');
  const typed = positionals.map((p) => p.trim());
  if (values.all && typed.length > 0) throw new CliError(`approve: give either <command>... or --all, not both\n${APPROVE_HELP}`);
  if (!values.all && typed.length === 0) throw new CliError(`approve: give a <command> or --all\n${APPROVE_HELP}`);
  if (typed.some((t) => t === '')) throw new CliError('approve: an empty <command> matches no hook');

  const profile = await openProfile(discoveryOf(values), io);
  // No config file at all: say so (a named home without one is most likely the wrong path).
  const missing = missingConfigNote(profile);
  if (missing !== null) throw new CliError(`approve: ${missing}`);
  // An untrusted config grants nothing blindly: `--all` would approve whatever another user wrote
  // there. A command named on the command line is the user's own choice: approved, with a warning.
  const distrust = profile.untrusted.find((u) => u.subject.path === profile.configFile);
  if (distrust !== undefined) {
    const why = distrust.message !== '' ? distrust.message : (profile.untrusted[0]?.message ?? '');
    if (values.all) {
      throw new CliError(
        `approve: --all refused: ${inert(why)}\nFix that first, or review each hook and approve it by its command (hermes-hooks approve '<command>'). ` +
          `Nothing was approved.`,
      );
    }
    writeLine(io.stderr, `hermes-hooks: warning: ${inert(why)}`);
  }
  const subjects = subjectsOf(await chosenSpecs(profile, typed, event, values.all === true, io));
  const store = await openStore(profile, io);
  // Approving what is already approved, with the same script bytes, changes nothing: say so instead
  // of "Approved" again (an approval that pinned nothing, or a Hermes one without a hash, is redone).
  const already: Already = [];
  const todo: ConsentSubject[] = [];
  for (const subject of subjects) {
    const consent = await store.state(subject);
    if (consent.state === 'approved' && consent.pinned) already.push({ subject, consent });
    else todo.push(subject);
  }
  let result;
  try {
    result = todo.length > 0 ? await store.approve(todo) : { approvals: [], persisted: true, warning: null };
  } catch (e) {
    if (e instanceof ConsentApproveError) throw new CliError(`approve: ${inert(e.message)}`);
    throw e;
  }
  printApprovals(io, values.json === true, result, already, todo.length);
  return result.persisted ? 0 : 1;
}

/** The configured hooks the typed commands mean (every one with --all), under --event when given. */
async function chosenSpecs(profile: Profile, typed: readonly string[], event: string | undefined, all: boolean, io: CliIO): Promise<HookSpec[]> {
  const inScope = profile.config.specs.filter((s) => event === undefined || s.event === event);
  const where = `${inert(profile.configFile)}${event ? ` for ${event}` : ''}`;
  if (all) {
    if (inScope.length === 0) throw new CliError(`approve: no hooks configured in ${where}`);
    return inScope;
  }
  const configured = inScope.map((s) => s.command);
  const opts = matchOptions(io);
  const chosen = new Set<string>();
  const misses: string[] = [];
  for (const t of typed) {
    const hits = await matchAsConfigured(t, configured, profile.configFile, opts);
    if (hits.length === 0) misses.push(t);
    for (const h of hits) chosen.add(h);
  }
  if (misses.length > 0) throw new CliError(await noMatchMessage('approve', typed, misses, configured, where, opts));
  return inScope.filter((s) => chosen.has(s.command));
}

/** One subject per event and command (a command configured twice for an event is approved once). */
function subjectsOf(specs: readonly HookSpec[]): ConsentSubject[] {
  const subjects: ConsentSubject[] = [];
  const seen = new Set<string>();
  for (const s of specs) {
    const key = `${s.event}\u0000${s.command}`;
    if (!seen.has(key)) subjects.push({ event: s.event, command: s.command }), seen.add(key);
  }
  return subjects;
}

type Already = { subject: ConsentSubject; consent: ConsentInfo }[];

function printApprovals(io: CliIO, json: boolean, result: ApproveResult, already: Already, todo: number): void {
  if (json) {
    writeLine(
      io.stdout,
      JSON.stringify({
        approved: result.approvals,
        already_approved: already.map(({ subject, consent }) => ({
          event: subject.event,
          command: subject.command,
          approved_at: consent.approved_at,
          script_sha256: consent.approved_sha256,
        })),
        persisted: result.persisted,
        warning: result.warning,
      }),
    );
  } else {
    for (const { subject, consent } of already) {
      writeLine(
        io.stdout,
        `Already approved [${subject.event}] ${inert(subject.command)}  (${inert(consent.approved_at ?? '?')}, sha256 ` +
          `${consent.approved_sha256?.slice(0, 12)}… unchanged)`,
      );
    }
    for (const a of result.approvals) {
      // Name the pinned file when the command does not simply name it (`node -r ./a.js ./b.js`, `python3 -c …`).
      const pins = a.script_path !== null && a.script_path !== a.command ? `pins ${inert(a.script_path)}, ` : '';
      writeLine(io.stdout, `Approved [${a.event}] ${inert(a.command)}  (${pins}sha256 ${a.script_sha256?.slice(0, 12)}…)`);
    }
    if (todo === 0) writeLine(io.stdout, `Nothing to do: ${already.length === 1 ? 'it is' : `all ${already.length} are`} already approved and unchanged.`);
    if (result.warning) writeLine(io.stderr, `hermes-hooks: warning: ${inert(result.warning)}`);
  }
}

export async function revokeCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const typed = positionals.map((p) => p.trim());
  if (typed.length === 0 || typed.some((t) => t === '')) throw new CliError(`revoke: missing <command>\n${REVOKE_HELP}`);
  const profile = await openProfile(discoveryOf(values), io);
  const store = await openStore(profile, io);
  const opts = matchOptions(io);
  const listed = store.entries().flatMap((e) => (typeof e.command === 'string' ? [e.command] : []));
  const configured = profile.config.specs.map((s) => s.command);
  const targets = new Set<string>();
  const misses: string[] = [];
  for (const t of typed) {
    // An allowlist command as written wins; else what it means among configured and listed commands.
    const hits = listed.includes(t) ? [t] : await matchAsConfigured(t, [...configured, ...listed], profile.configFile, opts);
    if (hits.length === 0) misses.push(t);
    for (const h of hits) targets.add(h);
  }
  if (misses.length > 0) {
    throw new CliError(
      await noMatchMessage('revoke', typed, misses, [...new Set([...listed, ...configured])], `${inert(store.path)} or ${inert(profile.configFile)}`, opts),
    );
  }
  const removed: { command: string; removed: number }[] = [];
  try {
    for (const command of targets) removed.push({ command, removed: await store.revoke(command) });
  } catch (e) {
    if (e instanceof ConsentPersistError) throw new CliError(inert(e.message));
    throw e;
  }
  if (values.json) {
    const total = removed.reduce((n, r) => n + r.removed, 0);
    writeLine(io.stdout, JSON.stringify(removed.length === 1 ? { command: removed[0]!.command, removed: total } : { commands: removed, removed: total }));
    return 0;
  }
  let any = false;
  for (const r of removed) {
    if (r.removed === 0) writeLine(io.stdout, `No allowlist entry found for command: ${inert(r.command)}`);
    else {
      any = true;
      writeLine(io.stdout, `Removed ${r.removed} allowlist ${r.removed === 1 ? 'entry' : 'entries'} for: ${inert(r.command)}`);
    }
  }
  // Consent is re-checked at every launch, so a running host (or serve) stops at its next call.
  if (any) writeLine(io.stdout, 'Hosts already running see this at their next call: the hook stops running (a fail_closed guard blocks the calls it guards).');
  return 0;
}

/**
 * What `typed` means among `candidates`: as typed, else as the config reader resolves it — a relative
 * script in the config is resolved against the config file's directory, so `approve hooks/g.sh` (the
 * command as written there) must find the hook whose command became `/abs/hooks/g.sh`.
 */
async function matchAsConfigured(typed: string, candidates: readonly string[], configFile: string, opts: InspectOptions): Promise<string[]> {
  const hits = await matchCommand(typed, candidates, opts);
  if (hits.length > 0) return hits;
  const resolved = resolveRelativeCommand(typed, configFile)?.command;
  return resolved === undefined ? [] : matchCommand(resolved, candidates, opts);
}

function matchOptions(io: CliIO): InspectOptions {
  return { cwd: io.cwd, env: io.env, ...(io.env.HOME ? { homedir: io.env.HOME } : {}) };
}

/** Which commands matched nothing, the likely mistake (an unquoted command), and the closest candidates. */
async function noMatchMessage(
  verb: 'approve' | 'revoke',
  typed: readonly string[],
  misses: readonly string[],
  candidates: readonly string[],
  where: string,
  opts: InspectOptions,
): Promise<string> {
  const lines = [
    misses.length === 1
      ? `${verb}: no configured hook${verb === 'revoke' ? ' or allowlist entry' : ''} matches '${inert(misses[0] as string)}' in ${where}`
      : `${verb}: no configured hook${verb === 'revoke' ? ' or allowlist entry' : ''} matches ${misses.map((m) => `'${inert(m)}'`).join(', ')} in ${where}`,
  ];
  if (typed.length > 1) {
    // The shell split one command into several arguments: say so before anything else.
    const joined = typed.join(' ');
    const hit = (await matchCommand(joined, candidates, opts))[0];
    if (hit !== undefined) lines.push(`did you mean '${inert(hit)}'? (quote the command: each argument is one command)`);
  }
  if (candidates.length === 0) lines.push(verb === 'approve' ? 'no shell hooks are configured there' : 'nothing is configured or approved there');
  else {
    const closest = misses.flatMap((m) => closestCommands(m, candidates));
    lines.push(`closest ${verb === 'approve' ? 'configured' : 'known'} commands: ${[...new Set(closest)].map((c) => `'${inert(c)}'`).join(', ')}`);
  }
  lines.push(`Nothing was ${verb === 'approve' ? 'approved' : 'revoked'}.`);
  return lines.join('\n');
}

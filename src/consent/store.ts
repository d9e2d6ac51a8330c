// The allowlist of one profile home, on disk and in memory. Reads are tolerant of content (a
// broken file approves nothing, with a warning) but not of ownership: a file that fails the trust
// rule (trust.ts: not the user's own regular file, writable by others, or under a directory others
// can write) is refused and approves nothing. A symlinked allowlist is written through to its
// target (the link stays), never replaced by a regular file. Every write is a read-modify-write under a cross-process lock, written atomically with
// sorted keys, indent 2 and mode 0600, so concurrent approvals from many processes all survive.
// `state()` re-reads the file only when its identity changed, so asking before every launch is
// cheap and approvals or revocations from other processes take effect at once. An approval
// whose script cannot be pinned is refused; one that cannot be persisted still holds for this run.

import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  ALLOWLIST_FILENAME,
  emptyAllowlist,
  pairKey,
  serializeAllowlist,
  withApprovals,
  withoutCommand,
  type AllowlistDoc,
  type AllowlistEntry,
  type NewApproval,
} from './allowlist.js';
import { inert } from '../display.js';
import { writeFileAtomic } from './_atomic-write.js';
import { consentOf, type ConsentInfo, type ConsentSubject } from './state.js';
import { withFileLock, type FileLockOptions } from './_file-lock.js';
import { inspectScript, type InspectOptions, type ScriptInfo } from './script-info.js';
import { splitPathFix } from '../spawn/launch-problems.js';
import { identityOf, settledAt } from '../file-identity.js';
import { checkTrust } from './trust.js';
import { unfollowableMessage } from './what-runs.js';
import { FILE_MODE, fileIdentity, fileIdentitySync, isDirectory, readAllowlistFile, statWithIdentitySync, writeBackup } from './_allowlist-file.js';
import { isoFromDate } from './_timestamps.js';
import { HooksError, errorText } from '../errors.js';

/** Our lock, deliberately not Hermes' `shell-hooks-allowlist.json.lock` (see _file-lock.ts). */
export const LOCK_SUFFIX = '.hermes-hooks.lock';

export interface ConsentStoreOptions extends InspectOptions {
  /** Problems reading the file (invalid JSON, unreadable). Default: a line on stderr. */
  warn?: (message: string) => void;
  lock?: FileLockOptions;
  /**
   * Create the home directory on the first write when it is missing (only the implicit default
   * ~/.hermes should be: a profile directory is never created as a side effect). Default false.
   */
  createHome?: boolean;
  /** Clock for `approved_at`; tests pin it. */
  now?: () => Date;
}

export interface ApproveResult {
  /** The entries recorded, in order. */
  approvals: NewApproval[];
  /** False when the file could not be written: the approvals then hold in memory for this run. */
  persisted: boolean;
  /** The persist-failure warning to show the user; null when persisted. */
  warning: string | null;
}

export class ConsentPersistError extends HooksError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('consent_persist', message, options);
  }
}

/** An approval that cannot be made: a script that cannot be pinned, or a refused allowlist. Nothing was approved. */
export class ConsentApproveError extends HooksError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('consent_approve', message, options);
  }
}

class AllowlistRefusedError extends HooksError {
  constructor(message: string) {
    super('allowlist_refused', message);
  }
}

export class ConsentStore {
  readonly home: string;
  /** `<home>/shell-hooks-allowlist.json` */
  readonly path: string;
  readonly lockPath: string;
  private doc: AllowlistDoc = emptyAllowlist();
  /** Identity of the file as last read (see fileIdentity); undefined before the first read. */
  private identity: string | null | undefined;
  /** The file had been quiet for SETTLE_MS when it was last read (see file-identity.ts). */
  private readSettled = false;
  private refusal: string | null = null;
  private lastProblem: string | null = null;
  /** Approvals that failed to persist; they overlay the file for the life of this store. */
  private pending: NewApproval[] = [];
  private readonly opts: ConsentStoreOptions;
  private readonly warn: (message: string) => void;

  private constructor(home: string, opts: ConsentStoreOptions) {
    this.home = path.resolve(home);
    this.path = path.join(this.home, ALLOWLIST_FILENAME);
    this.lockPath = this.path + LOCK_SUFFIX;
    this.opts = opts;
    this.warn = opts.warn ?? ((m) => process.stderr.write(`hermes-hooks: warning: ${inert(m, { keepNewlines: true })}\n`));
  }

  static async open(home: string, opts: ConsentStoreOptions = {}): Promise<ConsentStore> {
    const store = new ConsentStore(home, opts);
    await store.reload();
    return store;
  }

  /** Re-read the file (approvals made by other processes since open). */
  async reload(): Promise<void> {
    // One stat for both what the file is and whether it had been quiet: with two, a write between
    // them would have a just-changed file's bytes counted as settled.
    const statAt = Date.now();
    const { identity, stats } = statWithIdentitySync(this.path);
    const read = readAllowlistFile(this.path);
    this.identity = identity;
    this.readSettled = stats === null || settledAt(identityOf(stats), statAt);
    this.refusal = read.refused === null ? null : `shell hook allowlist ${read.refused}`;
    const problem =
      this.refusal ??
      (read.error !== null
        ? `Could not read shell hook allowlist ${this.path}: ${read.error}; treating it as empty`
        : read.problem !== null
          ? `Shell hook allowlist ${this.path} ${read.problem}`
          : null);
    // Said once per distinct problem: a long-lived host re-reads often, and a stat error re-reads every time.
    if (problem !== null && problem !== this.lastProblem) this.warn(problem);
    this.lastProblem = problem;
    this.doc = read.doc;
  }

  /**
   * Re-read the file only when its identity (device, inode, size, mtime, ctime, mode, owner)
   * changed since the last read; true when it did. One stat when nothing changed.
   */
  async refresh(): Promise<boolean> {
    const identity = await fileIdentity(this.path);
    if (identity !== null && identity === this.identity) return false;
    await this.reload();
    return true;
  }

  /** Why the allowlist is refused (no approval in it counts), as of the last read; null when usable. */
  get refused(): string | null {
    return this.refusal;
  }

  /**
   * The file on disk is still the one last read: one synchronous stat, for the check right before a
   * hook starts. `settled` also asks that it had been quiet for SETTLE_MS when it was read.
   */
  matchesDisk(settled = false): boolean {
    if (this.identity === undefined || this.identity === null || (settled && !this.readSettled)) return false;
    return fileIdentitySync(this.path) === this.identity;
  }

  /** Every approval in effect: the file as last read, overlaid with this run's unpersisted ones. */
  entries(): AllowlistEntry[] {
    if (this.refusal !== null) return [];
    return withApprovals(this.doc, this.pending).approvals;
  }

  inspect(command: string): Promise<ScriptInfo> {
    return inspectScript(command, this.opts);
  }

  /** The consent of one hook now: the allowlist re-read if it changed, the script re-hashed if it changed. */
  async state(spec: ConsentSubject): Promise<ConsentInfo> {
    await this.refresh();
    return consentOf(spec, this.entries(), await this.inspect(spec.command), { allowlistError: this.refusal });
  }

  /**
   * Approve (event, command) pairs: each replaces any entry for the same pair and is appended
   * with `approved_at` now, the script's mtime and its sha256. All or nothing: when any script
   * cannot be pinned (missing, not a regular file, unreadable, not on PATH) or the allowlist is
   * refused, throws ConsentApproveError naming each and approves none. Otherwise never throws
   * for I/O: a failure to persist comes back as `warning` and the approvals hold in memory.
   */
  async approve(subjects: ConsentSubject | readonly ConsentSubject[]): Promise<ApproveResult> {
    const list = dedupe((Array.isArray(subjects) ? subjects : [subjects]) as readonly ConsentSubject[]);
    const scripts = await Promise.all(list.map((s) => this.inspect(s.command)));
    const unpinnable = list.flatMap((s, i) => {
      const script = scripts[i] as ScriptInfo;
      return script.sha256 === null ? [`[${s.event}] ${s.command}: ${unpinnableWhy(script, s.command, this.opts)}`] : [];
    });
    if (unpinnable.length > 0) {
      throw new ConsentApproveError(
        `cannot approve ${unpinnable.join('; ')} — an approval pins the file's sha256, and there is no file to pin. ` +
          `Create the script (or fix the command), then approve again. Nothing was approved.`,
      );
    }
    // What runs must be as safe as what was read, and every script it runs must be pinned.
    const refused = list.flatMap((s, i) => {
      const script = scripts[i] as ScriptInfo;
      if (script.untrusted !== null) return [`[${s.event}] ${s.command}: ${script.untrusted}`];
      if (script.unfollowable !== null) {
        return [`[${s.event}] ${s.command}: ${unfollowableMessage(script.unfollowable)}`];
      }
      const missing = script.named.filter((n) => n.sha256 === null);
      const gone = missing.map((n) => `${n.path} (${n.error ?? 'unreadable'})`).join(', ');
      return missing.length > 0 ? [`[${s.event}] ${s.command}: its -c code runs ${gone}, and there is no file to pin`] : [];
    });
    if (refused.length > 0) throw new ConsentApproveError(`cannot approve ${refused.join('; ')}. Nothing was approved.`);
    await this.refresh();
    if (this.refusal !== null) throw new ConsentApproveError(`${this.refusal}. Nothing was approved.`);
    const approvedAt = isoFromDate((this.opts.now ?? (() => new Date()))());
    const approvals: NewApproval[] = list.map((s, i) => {
      const script = scripts[i] as ScriptInfo;
      return {
        event: s.event,
        command: s.command,
        approved_at: approvedAt,
        script_mtime_at_approval: script.mtime,
        script_sha256: script.sha256,
        script_path: script.path,
        ...(script.named.length > 0 ? { named_scripts: Object.fromEntries(script.named.map((n) => [n.path, n.sha256 as string])) } : {}),
      };
    });
    const keys = new Set(approvals.map((a) => pairKey(a.event, a.command)));
    // Earlier unpersisted approvals ride along, so a later successful write saves them too.
    const toWrite = [...this.pending.filter((p) => !keys.has(pairKey(p.event, p.command))), ...approvals];
    try {
      await this.update((doc) => withApprovals(doc, toWrite));
      this.pending = [];
      return { approvals, persisted: true, warning: null };
    } catch (err) {
      if (err instanceof AllowlistRefusedError) throw new ConsentApproveError(`${err.message}. Nothing was approved.`);
      this.pending = toWrite;
      const warning =
        `Failed to persist shell hook allowlist to ${this.path}: ${errorText(err)}. ` +
        'The approval holds for this run, but the next start will ask again (or skip the hook where it ' +
        'cannot prompt, unless --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true).';
      return { approvals, persisted: false, warning };
    }
  }

  /**
   * Remove every approval of exactly `command`, under any event; returns how many were removed.
   * Throws ConsentPersistError when the file cannot be rewritten (nothing is revoked then).
   */
  async revoke(command: string): Promise<number> {
    let removed = 0;
    try {
      await this.update((doc) => {
        // Unpersisted approvals count as approvals: revoke them too, and flush the rest.
        const out = withoutCommand(withApprovals(doc, this.pending), command);
        removed = out.removed;
        return out.doc;
      });
    } catch (err) {
      if (err instanceof AllowlistRefusedError) throw new ConsentPersistError(`${err.message}. Nothing was revoked.`);
      throw new ConsentPersistError(`Failed to persist shell hook allowlist to ${this.path}: ${errorText(err)}. Nothing was revoked.`);
    }
    this.pending = [];
    return removed;
  }

  /** Read-modify-write under the cross-process lock; the fresh file content becomes our view. */
  private async update(change: (doc: AllowlistDoc) => AllowlistDoc): Promise<void> {
    if (this.opts.createHome) await mkdir(this.home, { recursive: true, mode: 0o700 });
    else if (!(await isDirectory(this.home))) throw new Error(`the profile home ${this.home} does not exist (it is not created as a side effect)`);
    await withFileLock(
      this.lockPath,
      async () => {
        const read = readAllowlistFile(this.path);
        // Never write through (or over) a file we refuse: the user must look at it first.
        if (read.refused !== null) {
          this.refusal = `shell hook allowlist ${read.refused}`;
          throw new AllowlistRefusedError(this.refusal);
        }
        // Never overwrite a file we could not even read: that would silently drop its approvals.
        if (read.error !== null) throw new Error(`cannot read the existing file: ${read.error}`);
        if (read.brokenRoot && read.text !== null && read.text.trim() !== '') {
          const backup = await writeBackup(this.path, read.text);
          this.warn(`Shell hook allowlist ${this.path} ${read.problem}; its old content was saved to ${backup} before rewriting it`);
        }
        const next = change(read.doc);
        // Through a symlink to its target, atomically in the target's directory: the link stays.
        await writeFileAtomic(await this.writeDestination(), serializeAllowlist(next), FILE_MODE);
        this.doc = next;
        this.refusal = null;
        this.identity = await fileIdentity(this.path);
        this.readSettled = false;
      },
      this.opts.lock,
    );
  }

  /**
   * Where a write goes: the file itself, or — when it is a symlink — its final target, which
   * readAllowlistFile has just judged with the directories on its way. A link to nothing is
   * refused: the user pointed it somewhere on purpose, and creating a file there (or replacing
   * the link) would second-guess that in silence.
   */
  private async writeDestination(): Promise<string> {
    let isLink = false;
    try {
      isLink = (await lstat(this.path)).isSymbolicLink();
    } catch {
      return this.path;
    }
    if (!isLink) return this.path;
    const verdict = checkTrust(this.path);
    if (verdict.target !== null) return verdict.target;
    this.refusal =
      `shell hook allowlist ${this.path} is a symlink to nothing (a missing file or directory on its way), so it is not written through ` +
      `— create its target, or remove the link, then approve again`;
    throw new AllowlistRefusedError(this.refusal);
  }
}

function dedupe(subjects: readonly ConsentSubject[]): ConsentSubject[] {
  const seen = new Set<string>();
  const out: ConsentSubject[] = [];
  for (const s of subjects) {
    // The identity is the trimmed command, as config produces it.
    const subject = { event: s.event, command: s.command.trim() };
    const key = pairKey(subject.event, subject.command);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(subject);
  }
  return out;
}

function unpinnableWhy(script: ScriptInfo, command: string, opts: ConsentStoreOptions): string {
  const where = script.path ?? script.token;
  if (script.error?.startsWith('ENOENT')) {
    // An unquoted path with spaces names a file that does not exist: say how to quote it.
    const fix = splitPathFix(command, opts.cwd ?? process.cwd(), opts.homedir);
    if (fix !== null) return `${where} does not exist — ${fix}`;
  }
  if (script.error === 'not found on PATH') return `${where} is not found on PATH`;
  if (script.error === 'not a regular file') return `${where} is not a regular file`;
  if (script.error?.startsWith('ENOENT')) return `${where} does not exist`;
  if (script.path === null) return `the command has no file to pin (${script.error ?? 'unknown'})`;
  return `${where} cannot be read (${script.error ?? 'unknown'})`;
}

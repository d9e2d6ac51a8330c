// The consent decision for one hook: approved, not approved, or modified since approval — and
// why, in words. Pure: it takes the allowlist entries and what is on disk now (ScriptInfo).
//
// Like Codex's trust pins (Untrusted / Trusted / Modified) but keyed the Hermes way, by
// (event, exact trimmed command), and always with a reason, so a skipped hook says why.

import type { ConsentState } from '../types.js';
import { matchingEntries, type AllowlistDoc, type AllowlistEntry } from './allowlist.js';
import { parseIsoMicros } from './_timestamps.js';
import { isPlainObject } from '../json.js';
import { UNFOLLOWABLE_FIX } from './_shell-code.js';
import type { ScriptInfo } from './script-info.js';

export interface ConsentSubject {
  event: string;
  command: string;
}

export interface ConsentInfo {
  state: ConsentState;
  /** `approved_at` of the entry that decided; null when not approved. */
  approved_at: string | null;
  /** The deciding approval recorded a script sha256 (ours); false for Hermes-written approvals. */
  pinned: boolean;
  /** The pinned file now (absolute), the bare name when it is not on PATH, null for an empty command. */
  script_path: string | null;
  /** Why that file stands for the command when it is not the obvious one (`python3 -c …` pins python3). */
  script_note: string | null;
  /** sha256 of the script now; null when missing or unreadable. */
  script_sha256: string | null;
  /** sha256 recorded at approval; null when none was recorded. */
  approved_sha256: string | null;
  /** The script's mtime now and at approval (UTC ISO `Z`), for drift reports. */
  script_mtime: string | null;
  approved_mtime: string | null;
  /** Hermes' drift verdict: mtime newer than at approval → true, equal → false, unknown/older → null. */
  mtime_drift: boolean | null;
  /** Why the allowlist file was refused (then no approval in it counts); null when it was usable. */
  allowlist_error: string | null;
  /**
   * Why a file the command runs fails the trust rule (what-runs.ts), with the fix; null when all
   * pass. Then no approval counts (state `not_approved`) and none can be made until it is fixed.
   */
  untrusted: string | null;
  reason: string;
}

/** Whether a state runs is the run rule's (run-rule.ts); re-exported where it was always imported from. */
export { consentAllowsRun } from './run-rule.js';

/** An entry this tool wrote: it carries our pin keys (even when null). Hermes never writes them. */
export function isOurEntry(entry: AllowlistEntry): boolean {
  return Object.hasOwn(entry, 'script_sha256') || Object.hasOwn(entry, 'script_path');
}

export function consentOf(
  spec: ConsentSubject,
  allowlist: AllowlistDoc | readonly AllowlistEntry[],
  script: ScriptInfo | null,
  opts: { allowlistError?: string | null } = {},
): ConsentInfo {
  const info = approvalOf(spec, allowlist, script, opts);
  if (script?.untrusted == null) return info;
  // Whoever can replace what runs decides what runs: no approval of its bytes means anything.
  return { ...info, state: 'not_approved', untrusted: script.untrusted, reason: `not trusted: ${script.untrusted}` };
}

function approvalOf(
  spec: ConsentSubject,
  allowlist: AllowlistDoc | readonly AllowlistEntry[],
  script: ScriptInfo | null,
  opts: { allowlistError?: string | null },
): ConsentInfo {
  const entries = Array.isArray(allowlist) ? allowlist : (allowlist as AllowlistDoc).approvals;
  const current = script?.sha256 ?? null;
  const info: ConsentInfo = {
    state: 'not_approved',
    approved_at: null,
    pinned: false,
    script_path: script ? (script.path ?? (script.token === '' ? null : script.token)) : null,
    script_note: script?.note ?? null,
    script_sha256: current,
    approved_sha256: null,
    script_mtime: script?.mtime ?? null,
    approved_mtime: null,
    mtime_drift: null,
    allowlist_error: opts.allowlistError ?? null,
    untrusted: null,
    reason: 'not approved: the allowlist has no entry for this event and command',
  };
  if (info.allowlist_error !== null) {
    info.reason = `not approved: ${info.allowlist_error}`;
    return info;
  }
  const matches = matchingEntries(entries, spec.event, spec.command);
  if (matches.length === 0) return info;

  const pinnedOf = (e: AllowlistEntry): string | null => (typeof e.script_sha256 === 'string' && e.script_sha256 !== '' ? e.script_sha256.toLowerCase() : null);
  // Several entries for one pair only happen by hand; any one that still holds approves.
  const entry =
    (current !== null ? matches.find((e) => pinnedOf(e) === current) : undefined) ??
    matches.filter((e) => !isOurEntry(e)).at(-1) ??
    (matches.at(-1) as AllowlistEntry);

  const approvedSha = pinnedOf(entry);
  const approvedAt = typeof entry.approved_at === 'string' ? entry.approved_at : null;
  const approvedMtime = typeof entry.script_mtime_at_approval === 'string' ? entry.script_mtime_at_approval : null;
  info.approved_at = approvedAt;
  info.pinned = approvedSha !== null;
  info.approved_sha256 = approvedSha;
  info.approved_mtime = approvedMtime;
  info.mtime_drift = mtimeDrift(approvedMtime, info.script_mtime);
  const when = approvedAt ?? '(date unknown)';
  const where = info.script_path ?? spec.command;

  if (approvedSha === null && !isOurEntry(entry)) {
    // Written by Hermes (or by hand): it runs, as Hermes would run it, but nothing pins its bytes.
    info.state = 'unpinned';
    const drift = info.mtime_drift ? `; ${formatDrift(info)}` : '';
    info.reason = `unpinned: approved ${when} without a script hash (by Hermes or by hand), so any content of ${where} runs — re-approve to pin it${drift}`;
    return info;
  }
  if (approvedSha === null) {
    // Ours, but nothing was pinned (an old approval of a missing script): whatever appeared there since is unknown.
    info.state = 'modified';
    info.reason =
      `modified since approval: the approval of ${when} pinned no file (the script was missing or unreadable then); ${where} ` +
      `${current === null ? `is still not a readable file (${script?.error ?? 'not inspected'})` : `is sha256 ${short(current)} now`}`;
    return info;
  }
  const named = approvedSha === current && script !== null ? namedDrift(entry, script) : null;
  if (named !== null) {
    info.state = 'modified';
    info.reason = `modified since approval: ${named}`;
    return info;
  }
  if (approvedSha === current) {
    info.state = 'approved';
    info.reason = `approved ${when}; ${where} still has the approved sha256 ${short(approvedSha)}`;
    return info;
  }
  info.state = 'modified';
  info.reason =
    current === null
      ? `modified since approval: ${where} is missing or unreadable now (${script?.error ?? 'not inspected'}); it was approved ${when} with sha256 ` +
        `${short(approvedSha)}`
      : `modified since approval: ${where} changed (sha256 ${short(approvedSha)} at approval ${when}, now ${short(current)})`;
  const approvedPath = typeof entry.script_path === 'string' ? entry.script_path : null;
  if (approvedPath !== null && approvedPath !== info.script_path) info.reason += `; it was ${approvedPath} when approved`;
  return info;
}

/**
 * What changed among the scripts a `bash -c` string names since the approval pinned them
 * (`named_scripts`: path → sha256), or why they cannot be pinned; null when all still match.
 */
function namedDrift(entry: AllowlistEntry, script: ScriptInfo): string | null {
  if (script.unfollowable !== null) {
    return `${script.path ?? script.token} runs -c code that cannot be followed (${script.unfollowable}), so what it runs is not pinned — ${UNFOLLOWABLE_FIX}`;
  }
  const recorded = isPlainObject(entry.named_scripts) ? entry.named_scripts : {};
  for (const n of script.named) {
    const was = recorded[n.path];
    if (typeof was !== 'string') return `${n.path}, which its -c code runs, was not pinned by the approval of ${String(entry.approved_at ?? '(date unknown)')}`;
    if (n.sha256 === null) return `${n.path}, which its -c code runs, is missing or unreadable now (${n.error ?? 'not inspected'})`;
    if (n.sha256 !== was.toLowerCase()) return `${n.path}, which its -c code runs, changed (sha256 ${short(was)} at approval, now ${short(n.sha256)})`;
  }
  return null;
}

/** Hermes' `list`/`doctor` wording for mtime drift, or null when there is none to report. */
export function formatDrift(info: Pick<ConsentInfo, 'mtime_drift' | 'approved_mtime' | 'script_mtime'>): string | null {
  if (info.mtime_drift !== true) return null;
  return `script modified since approval (was ${info.approved_mtime}, now ${info.script_mtime})`;
}

function mtimeDrift(approved: string | null, now: string | null): boolean | null {
  const a = parseIsoMicros(approved);
  const b = parseIsoMicros(now);
  if (a === null || b === null) return null;
  if (b > a) return true;
  return b === a ? false : null;
}

function short(sha: string): string {
  return `${sha.slice(0, 12)}…`;
}

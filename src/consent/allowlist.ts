// The allowlist file format, shared with Hermes: `{"approvals": [{event, command, approved_at,
// script_mtime_at_approval}]}` plus our `script_sha256` and `script_path`. Reading is as tolerant
// as Hermes (a broken file approves nothing) and everything we do not understand — unknown
// top-level keys, unknown entry keys — survives a rewrite. Pure.
//
// Decision on a UTF-8 BOM: we strip it and read the file. Hermes V4 reads plain UTF-8 and so sees
// a BOM-prefixed file as empty (re-prompting); a BOM is an editor artefact, not a different intent,
// and our rewrite drops it, after which Hermes reads the file too. Anything else that is not
// strict JSON (trailing commas, trailing junk, comments) is treated as empty, like Hermes.

import { isPlainObject } from '../json.js';

export const ALLOWLIST_FILENAME = 'shell-hooks-allowlist.json';

/** One approval, kept as the raw object so unknown keys survive. Known keys are typed loosely on read. */
export interface AllowlistEntry {
  [key: string]: unknown;
  event?: unknown;
  command?: unknown;
  approved_at?: unknown;
  script_mtime_at_approval?: unknown;
  script_sha256?: unknown;
  script_path?: unknown;
  named_scripts?: unknown;
}

/** An approval as we write it. */
export interface NewApproval {
  event: string;
  command: string;
  approved_at: string;
  script_mtime_at_approval: string | null;
  script_sha256: string | null;
  script_path: string | null;
  /** The scripts a `bash -c` string names, path → sha256 (ours; absent when there are none). */
  named_scripts?: Record<string, string>;
}

export interface AllowlistDoc {
  approvals: AllowlistEntry[];
  /** Top-level keys other than `approvals`, preserved verbatim. */
  extra: Record<string, unknown>;
}

export type AllowlistProblem = 'invalid_json' | 'not_an_object' | 'approvals_not_a_list';

export interface ParsedAllowlist {
  doc: AllowlistDoc;
  /** Why (part of) the file was ignored; null when it read cleanly. */
  problem: AllowlistProblem | null;
  /** Non-object entries that were dropped. */
  ignoredEntries: number;
}

export function emptyAllowlist(): AllowlistDoc {
  return { approvals: [], extra: {} };
}

export function parseAllowlist(text: string): ParsedAllowlist {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { doc: emptyAllowlist(), problem: 'invalid_json', ignoredEntries: 0 };
  }
  if (!isPlainObject(data)) return { doc: emptyAllowlist(), problem: 'not_an_object', ignoredEntries: 0 };
  const { approvals, ...extra } = data;
  if (!Array.isArray(approvals)) {
    // A missing key is simply "no approvals yet"; a wrong type is worth a warning.
    return { doc: { approvals: [], extra }, problem: approvals === undefined ? null : 'approvals_not_a_list', ignoredEntries: 0 };
  }
  const entries = approvals.filter(isPlainObject) as AllowlistEntry[];
  return { doc: { approvals: entries, extra }, problem: null, ignoredEntries: approvals.length - entries.length };
}

export function describeProblem(problem: AllowlistProblem): string {
  switch (problem) {
    case 'invalid_json':
      return 'is not valid JSON; treating it as empty (no hook is approved by it)';
    case 'not_an_object':
      return 'is not a JSON object; treating it as empty (no hook is approved by it)';
    case 'approvals_not_a_list':
      return 'has an "approvals" value that is not a list; treating it as empty';
  }
}

/**
 * The file text: indent 2, keys sorted at every level, non-ASCII escaped — byte-for-byte what
 * Python's `json.dumps(…, indent=2, sort_keys=True)` writes — plus a final newline.
 */
export function serializeAllowlist(doc: AllowlistDoc): string {
  const root = { ...doc.extra, approvals: doc.approvals };
  const json = JSON.stringify(sortKeys(root), null, 2);
  return `${json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** Entries that approve (event, command): exact string equality, nothing normalised. */
export function matchingEntries(entries: readonly AllowlistEntry[], event: string, command: string): AllowlistEntry[] {
  return entries.filter((e) => e.event === event && e.command === command);
}

/** Record approvals: drop every entry for each (event, command), append the new ones in order. */
export function withApprovals(doc: AllowlistDoc, approvals: readonly NewApproval[]): AllowlistDoc {
  const replaced = new Set(approvals.map((a) => pairKey(a.event, a.command)));
  const kept = doc.approvals.filter((e) => !(typeof e.event === 'string' && typeof e.command === 'string' && replaced.has(pairKey(e.event, e.command))));
  return { extra: doc.extra, approvals: [...kept, ...approvals.map((a) => ({ ...a }))] };
}

/** Revoke: drop every entry whose command is exactly `command`, whatever its event. */
export function withoutCommand(doc: AllowlistDoc, command: string): { doc: AllowlistDoc; removed: number } {
  const kept = doc.approvals.filter((e) => e.command !== command);
  return { doc: { extra: doc.extra, approvals: kept }, removed: doc.approvals.length - kept.length };
}

export function pairKey(event: string, command: string): string {
  return `${event}\u0000${command}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a `__proto__` key from the file must stay a plain key.
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(out, key, { value: sortKeys(value[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// The allowlist file of a ConsentStore as bytes on disk: its trusted read (refused when it fails
// the trust rule, trust.ts), its identity (one stat tells whether it changed since the last read),
// and the backup of a corrupt file kept before it is rewritten. No state: the store holds that.

import { statSync, type BigIntStats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { describeProblem, emptyAllowlist, parseAllowlist, type AllowlistDoc } from './allowlist.js';
import { describeFindings, describeFixes, readTrustedFile, type TrustVerdict } from './trust.js';

export const FILE_MODE = 0o600;

/** The allowlist file as read now. */
export interface AllowlistRead {
  doc: AllowlistDoc;
  text: string | null;
  problem: string | null;
  /** The whole file was unusable (invalid JSON or not an object). */
  brokenRoot: boolean;
  refused: string | null;
  error: string | null;
}

export function readAllowlistFile(file: string): AllowlistRead {
  const read = readTrustedFile(file);
  if (read.text === null) {
    const refused = read.refused === null ? null : refusalOf(read.refused);
    return { doc: emptyAllowlist(), text: null, problem: null, brokenRoot: false, refused, error: read.error };
  }
  const text = read.text;
  const parsed = parseAllowlist(text);
  const brokenRoot = parsed.problem === 'invalid_json' || parsed.problem === 'not_an_object';
  let problem = parsed.problem === null ? null : describeProblem(parsed.problem);
  if (problem === null && parsed.ignoredEntries > 0) problem = `has ${parsed.ignoredEntries} approval(s) that are not objects; ignoring them`;
  return { doc: parsed.doc, text, problem, brokenRoot, refused: null, error: null };
}

/** `X (a symlink to T) is refused: <why>, so no approval in it counts — <fix>`. */
function refusalOf(v: TrustVerdict): string {
  const what = v.target !== null && v.target !== v.path ? `${v.path} (a symlink to ${v.target})` : v.path;
  return `${what} is refused: ${describeFindings(v)}, so no approval in it counts — ${describeFixes(v)}`;
}

/**
 * The file's identity: device, inode, size, mtime, ctime (chmod/chown move it), mode and owner of
 * the final target; `missing` when absent; null when it cannot be stat'ed (then always re-read).
 */
export async function fileIdentity(file: string): Promise<string | null> {
  try {
    return identityKey(await stat(file, { bigint: true }));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null;
  }
}

/** fileIdentity, synchronously: for the last check right before a hook starts. */
export function fileIdentitySync(file: string): string | null {
  return statWithIdentitySync(file).identity;
}

/** One stat: the file's identity key and the stats it came from (null when absent or not stat'able). */
export function statWithIdentitySync(file: string): { identity: string | null; stats: BigIntStats | null } {
  try {
    const stats = statSync(file, { bigint: true });
    return { identity: identityKey(stats), stats };
  } catch (err) {
    return { identity: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null, stats: null };
  }
}

function identityKey(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}:${st.uid}`;
}

/** `<file>.invalid`, else `.invalid.1`, `.invalid.2` …: each corruption keeps its own copy. */
export async function writeBackup(file: string, text: string): Promise<string> {
  for (let n = 0; ; n++) {
    const backup = n === 0 ? `${file}.invalid` : `${file}.invalid.${n}`;
    let fh;
    try {
      fh = await open(backup, 'wx', FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 10_000) continue;
      throw err;
    }
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    return backup;
  }
}

export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

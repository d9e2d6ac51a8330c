// The current state of a hook's script on disk: where it is, its sha256 and its mtime. The file
// I/O half of consent; the decision itself (state.ts) stays pure.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { identityOf, sameIdentity, settledAt, type FileIdentity } from '../file-identity.js';
import { isoFromMtimeNs } from './_timestamps.js';
import { choosePinTarget, type PinKind, type PinTarget } from './script-path.js';
import { errorText } from '../errors.js';
import { findOnPath } from './_find-on-path.js';
import { judgeRuns, whatRuns, type RunFile } from './what-runs.js';

export interface ScriptInfo {
  command: string;
  /** The word chosen from the argv spawn execs (`~/` expanded), as the program receives it. */
  token: string;
  /** Absolute path of the file that was looked at; null when a bare name is not on PATH. */
  path: string | null;
  /** What the pinned file is to the command: its script, the program exec runs, or an interpreter. */
  kind: PinKind;
  /** Why this file was chosen when it is not the obvious one (e.g. `python3 -c …` pins python3). */
  note: string | null;
  /** A regular file exists at `path`. */
  found: boolean;
  /** sha256 (hex) of the file's bytes; null when missing or unreadable. */
  sha256: string | null;
  /** mtime as UTC ISO `Z` (Hermes' format); null when it cannot be stat'ed. */
  mtime: string | null;
  /** Why `sha256` is null (`not found on PATH`, `ENOENT: …`, `not a regular file`); null otherwise. */
  error: string | null;
  /** The file's identity, stat'ed just before its bytes were hashed; null when it was not stat'ed. */
  identity: FileIdentity | null;
  /**
   * The file had been quiet for SETTLE_MS when it was stat'ed, so `sha256` belongs to `identity`:
   * while a later stat shows the same identity, the file still holds the hashed bytes.
   */
  settled: boolean;
  /** Every file the command runs (programs, the pinned script, what a -c string names), for the trust rule. */
  runs: RunFile[];
  /** Why some file it runs fails the trust rule (what-runs.ts), with the fix; null when all pass. */
  untrusted: string | null;
  /** The scripts a `bash -c` string names, each pinned like the command's own file. */
  named: NamedPin[];
  /** Why a `-c` string cannot be followed (then it cannot be approved); null otherwise. */
  unfollowable: string | null;
}

/** One script a `-c` string names, as hashed now. */
export interface NamedPin {
  path: string;
  sha256: string | null;
  identity: FileIdentity | null;
  settled: boolean;
  error: string | null;
}

export interface InspectOptions {
  /** For `~` expansion; default os.homedir(). */
  homedir?: string;
  /** Base for relative paths, like the hook's own working directory; default process.cwd(). */
  cwd?: string;
  /** Where PATH comes from for bare command names; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Where the pinned file of `command` is, without reading it: the pin target and its absolute path. */
export async function locatePinned(command: string, opts: InspectOptions = {}): Promise<{ target: PinTarget; file: string | null; error: string | null }> {
  const cwd = opts.cwd ?? process.cwd();
  const target = choosePinTarget(command, opts.homedir === undefined ? {} : { homedir: opts.homedir });
  if (target.error !== null) return { target, file: null, error: target.error };
  if (target.lookup === 'path') {
    // A bare program name is looked up on PATH by exec (or by `env PATH=…`), so hash what would run.
    const env = opts.env ?? process.env;
    const onPath = await findOnPath(target.token, target.searchPath !== null ? { PATH: target.searchPath } : env, cwd);
    return onPath === null ? { target, file: null, error: 'not found on PATH' } : { target, file: onPath, error: null };
  }
  return { target, file: path.resolve(cwd, target.chdir ?? '.', target.token), error: null };
}

export async function inspectScript(command: string, opts: InspectOptions = {}): Promise<ScriptInfo> {
  const { target, file, error } = await locatePinned(command, opts);
  const runs = await whatRuns(target, file, { cwd: opts.cwd ?? process.cwd(), env: opts.env ?? process.env, homedir: opts.homedir ?? homedir() });
  const base: ScriptInfo = {
    command,
    token: target.token,
    path: null,
    kind: target.kind,
    note: target.note,
    found: false,
    sha256: null,
    mtime: null,
    error,
    identity: null,
    settled: false,
    runs: runs.files,
    untrusted: judgeRuns(runs.files),
    named: await Promise.all(
      runs.named.map(async (p) => {
        const h = await hashFile(p);
        return { path: p, sha256: h.sha256, identity: h.identity, settled: h.settled, error: h.error };
      }),
    ),
    unfollowable: runs.unfollowable,
  };
  if (file === null) return base;
  const h = await hashFile(file);
  return { ...base, path: file, found: h.sha256 !== null, sha256: h.sha256, mtime: h.mtime, identity: h.identity, settled: h.settled, error: h.error };
}

interface Hashed {
  sha256: string | null;
  mtime: string | null;
  identity: FileIdentity | null;
  settled: boolean;
  error: string | null;
}

/** A regular file's sha256 with the identity stat'ed just before it was read (cached by identity). */
async function hashFile(file: string): Promise<Hashed> {
  const none: Hashed = { sha256: null, mtime: null, identity: null, settled: false, error: null };
  try {
    const statAt = Date.now();
    const st = await stat(file, { bigint: true });
    const mtime = isoFromMtimeNs(st.mtimeNs);
    const identity = identityOf(st);
    if (!st.isFile()) return { ...none, mtime, error: 'not a regular file', identity };
    const settled = settledAt(identity, statAt);
    const known = hashCache.get(file);
    let sha256 = known !== undefined && sameIdentity(known.identity, identity) ? known.sha256 : undefined;
    if (sha256 === undefined) {
      sha256 = await sha256File(file);
      // Only a settled file's hash can be trusted for its identity (see file-identity.ts).
      if (settled) hashCache.set(file, { identity, sha256 });
    }
    return { sha256, mtime, identity, settled, error: null };
  } catch (err) {
    return { ...none, error: errorText(err) };
  }
}

// A big binary (a bare `my-binary`) is hashed once per process while its inode and times stay put.
// Every entry was settled when hashed (see above); a hit is the same identity, so the same bytes.
// One entry per file, replaced when the file changes: a long-lived server does not grow with edits.
const hashCache = new Map<string, { identity: FileIdentity; sha256: string }>();

/** Streamed sha256 of a file, hex. Rejects when the file cannot be read. */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(file);
    stream.on('error', reject);
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}

/** First executable regular file named `name` in PATH (_find-on-path.ts). */
export { findOnPath };

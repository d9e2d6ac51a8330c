// The journal's I/O: a file under the trust rule (consent/trust.ts, as hook scripts: refused in a
// directory another user can write, or owned by another uid, or readable by others), created 0600,
// appended one whole line per write(2) with O_APPEND (the kernel appends a regular file's single
// write as one piece, so concurrent `run` processes never interleave inside a line), and rotated
// past maxBytes (`journal` → `journal.1` → … → `journal.<keep>`, the oldest dropped) by whichever
// writer takes `<journal>.lock` first. Nothing here may change a verdict: a failure is warned
// about once and the journal stops for this process.

import { closeSync, constants, fstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { EmitRecord } from '../engine/options.js';
import { checkTrust, distrustMessage } from '../consent/trust.js';
import { errorText } from '../errors.js';
import type { Logger } from '../types.js';
import { journalLine } from './record.js';
import { DEFAULT_JOURNAL_KEEP, DEFAULT_JOURNAL_MAX_BYTES } from './setting.js';

/** A rotation lock older than this was left by a killed writer. */
const STALE_LOCK_MS = 10_000;

export interface JournalOptions {
  maxBytes?: number;
  keep?: number;
  logger: Logger;
  now?: () => Date;
}

export interface JournalWriter {
  readonly path: string;
  /** The engine observer: one line per emit. */
  observe: (record: EmitRecord) => void;
  close(): void;
}

/** Open (creating 0600) the journal at `file`; a path that fails the trust rule is an error saying why and how to fix it. */
export function openJournal(file: string, opts: JournalOptions): JournalWriter | { error: string } {
  const abs = path.resolve(file);
  let fd: number;
  try {
    fd = openChecked(abs);
  } catch (e) {
    return { error: e instanceof Refused ? e.message : `journal ${abs}: cannot open: ${errorText(e)}` };
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
  const keep = Math.max(1, opts.keep ?? DEFAULT_JOURNAL_KEEP);
  let broken = false;
  const fail = (e: unknown): void => {
    if (broken) return;
    broken = true;
    opts.logger.warn(`journal ${abs}: ${errorText(e)} — no further events are recorded by this process (verdicts are unaffected)`);
  };
  return {
    path: abs,
    observe(record) {
      if (broken) return;
      try {
        const line = Buffer.from(`${JSON.stringify(journalLine(record, opts.now?.() ?? new Date()))}\n`, 'utf8');
        const size = fstatSync(fd).size;
        if (size > 0 && size + line.length > maxBytes && rotate(abs, fd, keep)) {
          closeSync(fd);
          fd = openChecked(abs);
        }
        const n = writeSync(fd, line);
        if (n !== line.length) throw new Error(`short write (${n} of ${line.length} bytes)`);
      } catch (e) {
        fail(e);
      }
    },
    close() {
      try {
        closeSync(fd);
      } catch {
        // already closed: nothing to lose
      }
    },
  };
}

class Refused extends Error {}

/** Judged before it is opened (the directories), and the open descriptor judged after (the very file). */
function openChecked(abs: string): number {
  const before = checkTrust(abs, { secret: true });
  if (before.findings.length > 0) throw new Refused(distrustMessage('journal', before));
  const fd = openSync(abs, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Refused(`journal ${abs}: not a regular file (appends are whole lines only in a regular file)`);
    const after = checkTrust(abs, { secret: true });
    if (after.findings.length > 0) throw new Refused(distrustMessage('journal', after));
    // The file judged is the one open: a swap between the check and the open is refused.
    const now = statSync(abs);
    if (now.ino !== st.ino || now.dev !== st.dev) throw new Refused(`journal ${abs}: replaced while it was being opened`);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** Shift the generations and move the full file aside; false when another writer is doing it. */
function rotate(abs: string, fd: number, keep: number): boolean {
  const lock = `${abs}.lock`;
  if (!takeLock(lock)) return false;
  try {
    // Another writer may have rotated already: then our descriptor is an old generation.
    const mine = fstatSync(fd);
    let current: ReturnType<typeof statSync> | null = null;
    try {
      current = statSync(abs);
    } catch {
      current = null;
    }
    if (current === null || current.ino !== mine.ino) return true;
    for (let i = keep - 1; i >= 1; i--) {
      try {
        renameSync(`${abs}.${i}`, `${abs}.${i + 1}`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    renameSync(abs, `${abs}.1`);
    return true;
  } finally {
    unlinkSync(lock);
  }
}

function takeLock(lock: string): boolean {
  try {
    closeSync(openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
    } catch {
      // gone meanwhile: the next write tries again
    }
    return false;
  }
}

// The journal of a `run` or `serve`: `--journal FILE` (relative to the working directory), else
// `hooks_journal:` in the config (relative to the profile home). A journal that cannot be used is
// warned about and the hooks run as they would without it: recording never changes a verdict.
// The writer is imported only when a journal is asked for: a `run` without one loads nothing more.

import { homedir } from 'node:os';
import path from 'node:path';
import type { CheckedLocation } from '../config/check-location.js';
import type { LoadedConfig } from '../config/load.js';
import { diagnosticAt, locatedMessage } from '../config/source.js';
import type { JournalWriter } from '../journal/append.js';
import { JOURNAL_KEY, readJournalSetting } from '../journal/setting.js';
import type { Logger } from '../types.js';
import type { CliIO } from './_io.js';

/** The writer to observe the engine with, or null (none asked for, or it cannot be used: said). */
export async function openCliJournal(
  values: Record<string, unknown>,
  config: LoadedConfig,
  location: CheckedLocation,
  io: CliIO,
  logger: Logger,
): Promise<JournalWriter | null> {
  const given = values.journal;
  let setting: { path: string; maxBytes?: number; keep?: number } | null = null;
  if (typeof given === 'string' && given !== '') {
    setting = { path: path.resolve(io.cwd, given) };
  } else {
    const read = readJournalSetting(config.data[JOURNAL_KEY], location.home, io.env.HOME || homedir());
    if (read !== null && 'problem' in read) {
      logger.warn(locatedMessage(diagnosticAt(config.source, 'warning', read.field, read.problem), config.file));
      return null;
    }
    setting = read;
  }
  if (setting === null) return null;
  const { openJournal } = await import('../journal/append.js');
  const opened = openJournal(setting.path, {
    logger,
    ...(setting.maxBytes ? { maxBytes: setting.maxBytes } : {}),
    ...(setting.keep ? { keep: setting.keep } : {}),
  });
  if ('error' in opened) {
    logger.warn(`${opened.error}; no journal is written (verdicts are unaffected)`);
    return null;
  }
  return opened;
}

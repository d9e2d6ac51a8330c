// `hooks_journal:` at the top of config.yaml, read. Pure. Either a path, or a mapping
// `{path, max_bytes?, keep?}`; a relative path is relative to the profile home, `~/` is the home
// directory. A value that cannot be read is a problem naming the field; the journal is then off.

import path from 'node:path';
import { isPlainObject } from '../json.js';

export const JOURNAL_KEY = 'hooks_journal';
export const DEFAULT_JOURNAL_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_JOURNAL_KEEP = 3;

export interface JournalSetting {
  path: string;
  maxBytes: number;
  keep: number;
}

/** null: not configured. `field` is the config path of what is wrong. */
export function readJournalSetting(value: unknown, home: string, homeDir: string): JournalSetting | { field: (string | number)[]; problem: string } | null {
  if (value === undefined || value === null) return null;
  const at = (p: string): string => (p.startsWith('~/') ? path.join(homeDir, p.slice(2)) : path.resolve(home, p));
  if (typeof value === 'string' && value.trim() !== '') return { path: at(value.trim()), maxBytes: DEFAULT_JOURNAL_MAX_BYTES, keep: DEFAULT_JOURNAL_KEEP };
  if (!isPlainObject(value)) return { field: [JOURNAL_KEY], problem: 'must be a file path, or a mapping {path, max_bytes, keep}; the journal is off' };
  const p = value.path;
  if (typeof p !== 'string' || p.trim() === '') return { field: [JOURNAL_KEY, 'path'], problem: 'must be a file path; the journal is off' };
  const maxBytes = value.max_bytes ?? DEFAULT_JOURNAL_MAX_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isInteger(maxBytes) || maxBytes < 1024) {
    return { field: [JOURNAL_KEY, 'max_bytes'], problem: 'must be a whole number of bytes, at least 1024; the journal is off' };
  }
  const keep = value.keep ?? DEFAULT_JOURNAL_KEEP;
  if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 1 || keep > 100) {
    return { field: [JOURNAL_KEY, 'keep'], problem: 'must be a whole number from 1 to 100; the journal is off' };
  }
  return { path: at(p.trim()), maxBytes, keep };
}

// A journal's text → its lines, checked: a line that is not one, or lacks a field replay or audit
// needs, is an error naming the file, the line and the field. Pure. A last line cut short (a writer
// killed mid-write cannot happen with one write(), but a copy can be truncated) is an error too.

import { isPlainObject } from '../json.js';
import type { JournalLine } from './record.js';

export class JournalError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string | null,
    problem: string,
  ) {
    super(`${file}:${line}: ${field === null ? '' : `${field}: `}${problem}`);
    this.name = 'JournalError';
  }
}

type Check = [field: string, ok: (v: unknown) => boolean, want: string];
const str = (v: unknown): boolean => typeof v === 'string';
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const CHECKS: Check[] = [
  ['v', (v) => v === 1, 'must be 1 (the journal format this hermes-hooks reads)'],
  ['time', str, 'must be a string'],
  ['profile', str, 'must be a string'],
  ['dialect', (v) => str(v) && v !== '', 'must name the dialect the event was received in'],
  ['event', (v) => str(v) && v !== '', 'must name the event'],
  ['their_event', str, 'must be a string'],
  ['call_id', strOrNull, 'must be a string or null'],
  ['session_id', strOrNull, 'must be a string or null'],
  ['tool_name', strOrNull, 'must be a string or null'],
  ['input_sha256', strOrNull, 'must be a string or null'],
  ['hooks', Array.isArray, 'must be an array'],
  ['decision', isPlainObject, 'must be an object'],
];

/** Every non-blank line of `text`, parsed and checked; throws JournalError on the first bad one. */
export function readJournal(text: string, file: string): JournalLine[] {
  const out: JournalLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      throw new JournalError(file, i + 1, null, `not a JSON line (${(e as Error).message})`);
    }
    if (!isPlainObject(v)) throw new JournalError(file, i + 1, null, 'must be one JSON object');
    for (const [field, ok, want] of CHECKS) if (!ok(v[field])) throw new JournalError(file, i + 1, field, want);
    if (!('received' in v)) throw new JournalError(file, i + 1, 'received', 'is missing (the event as received)');
    const d = v.decision as Record<string, unknown>;
    if (!str(d.action)) throw new JournalError(file, i + 1, 'decision.action', 'must be a string');
    (v.hooks as unknown[]).forEach((h, j) => {
      if (!isPlainObject(h) || !str(h.command) || !str(h.status) || typeof h.duration_ms !== 'number') {
        throw new JournalError(file, i + 1, `hooks[${j}]`, 'must be an object with command, status and duration_ms');
      }
    });
    out.push(v as unknown as JournalLine);
  }
  return out;
}

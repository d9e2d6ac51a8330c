// One journal line: what an emit received, what each hook did, and what was decided by whom. Pure.
// The redaction rule (docs/journal.md says it): under a key that names a secret (SECRET_KEY) a
// string, object or array value becomes "[REDACTED]"; in every other string, what redactSecrets
// recognises (bearer/basic tokens, KEY=value secrets, URL credentials, AWS/GitHub/OpenAI/Slack key
// shapes, JWTs, PEM private keys) is masked in place, so a command stays readable and replayable.

import { createHash } from 'node:crypto';
import type { EmitRecord } from '../engine/options.js';
import { REDACTED, redactSecrets } from '../lifecycle/redact.js';
import { isPlainObject } from '../json.js';
import type { Directive, JsonObject } from '../types.js';

export const JOURNAL_VERSION = 1;

/** A key whose value is a secret whatever it looks like. */
export const SECRET_KEY = /token|secret|passw(or)?d|passphrase|api[_-]?key|authorization|cookie|credential|private[_-]?key/i;

/** The agent's own id of a tool call, by the names agents give it. */
const CALL_ID_KEYS = ['tool_use_id', 'tool_call_id', 'toolCallId', 'toolUseId', 'call_id', 'callId'];

export interface JournalHook {
  index: number;
  kind: string;
  /** The configured command (`plugin:<name>` / `builtin:<name>` for in-process hooks). */
  command: string;
  status: string;
  consent: string | null;
  exit_code: number | null;
  duration_ms: number;
  /** sha256 of the script that ran (the file consent pins); null for in-process hooks or no file. */
  script_sha256: string | null;
  directive: Directive | null;
}

export interface JournalDecision {
  action: string;
  message: string | null;
  /** Index of the deciding hook and its command; null when no hook decided. */
  decided_by: number | null;
  decided_by_hook: string | null;
  modified_by: number[];
}

export interface JournalLine {
  v: number;
  time: string;
  profile: string;
  /** `hermes`, or the agent whose stdin `received` is (claude, codex …). */
  dialect: string;
  /** Our event. */
  event: string;
  /** The event as the sender named it. */
  their_event: string;
  /** The agent's id of the tool call when it has one. */
  call_id: string | null;
  session_id: string | null;
  tool_name: string | null;
  /** sha256 of the tool input hooks saw (audit matches calls without an id on session, tool and this). */
  input_sha256: string | null;
  /** The event as received, redacted: replay reads it again in `dialect`. */
  received: unknown;
  hooks: JournalHook[];
  decision: JournalDecision;
}

/** The line for one observed emit (not yet serialised). */
export function journalLine(rec: EmitRecord, time: Date): JournalLine {
  const { emission, entries, received } = rec;
  const p = emission.payload;
  const extra = isPlainObject(p.extra) ? p.extra : {};
  // The built-in guardrail is listed only when it spoke (it is on every tool event).
  const spoke = emission.hooks.filter((h) => h.kind !== 'builtin' || h.directive !== null || h.error !== null);
  const hooks = spoke.map((h): JournalHook => {
    const entry = entries[h.index];
    return {
      index: h.index,
      kind: h.kind,
      command: h.command,
      status: h.status,
      consent: h.consent,
      exit_code: h.exit_code,
      duration_ms: Math.round(h.duration_ms * 100) / 100,
      script_sha256: entry?.kind === 'shell' ? (entry.consent?.script_sha256 ?? null) : null,
      directive: h.directive === null ? null : (redact(h.directive) as Directive),
    };
  });
  const d = emission.decision;
  const decider = d.decided_by === null ? null : (emission.hooks.find((h) => h.index === d.decided_by) ?? null);
  return {
    v: JOURNAL_VERSION,
    time: time.toISOString(),
    profile: rec.profile,
    dialect: received.dialect,
    event: emission.event,
    their_event: received.event,
    call_id: callIdOf(received.input) ?? callIdOf(extra) ?? callIdOf(p),
    session_id: typeof p.session_id === 'string' && p.session_id !== '' ? p.session_id : null,
    tool_name: typeof p.tool_name === 'string' && p.tool_name !== '' ? p.tool_name : null,
    input_sha256: p.tool_input === undefined || p.tool_input === null ? null : sha256(canonical(p.tool_input)),
    received: redact(received.input),
    hooks,
    decision: {
      action: d.action,
      message: d.message === null ? null : redactSecrets(d.message),
      decided_by: d.decided_by,
      decided_by_hook: decider?.command ?? null,
      modified_by: d.modified_by,
    },
  };
}

/** The redaction rule, over plain JSON data (copied). */
export function redact(value: unknown, key = ''): unknown {
  if (key !== '' && SECRET_KEY.test(key) && (typeof value === 'string' || typeof value === 'object') && value !== null) return REDACTED;
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

function callIdOf(value: unknown): string | null {
  if (!isPlainObject(value)) return null;
  for (const k of CALL_ID_KEYS) {
    const v = (value as JsonObject)[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/** JSON with object keys sorted, so one input hashes the same whatever order the agent wrote it in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as JsonObject)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// The fields of one `hooks.outbound[i]` entry, one validator each (reference §7). Each takes the
// entry's scope (its raw mapping, config path and warning sink) and returns the field's value;
// null from url/events means the entry is skipped. Pure (the environment is passed in).

import type { ConfigPath } from '../config/source.js';
import { compileMatcher } from '../config/matcher.js';
import { EVENTS, isEventName, SORTED_EVENT_NAMES, type EventName } from '../events.js';
import { didYouMean } from '../util/did-you-mean.js';
import { pyRepr, pyStrip, pythonInt, pyTypeName } from '../util/python.js';
import type { OutboundTarget } from './types.js';

export const OUTBOUND_DEFAULT_TIMEOUT = 10;
export const OUTBOUND_MIN_TIMEOUT = 1;
export const OUTBOUND_MAX_TIMEOUT = 60;

const KNOWN_KEYS = ['url', 'events', 'matcher', 'timeout', 'secret_env', 'secret', 'name'] as const;

/** One entry being validated: its mapping, where it sits, and where its warnings go. */
export interface EntryScope {
  raw: Record<string, unknown>;
  base: ConfigPath;
  /** `hooks.outbound[i]`, the start of every message. */
  prefix: string;
  warn(path: ConfigPath, message: string, key?: boolean): void;
}

type SecretFields = Pick<OutboundTarget, 'secret' | 'secret_source' | 'secret_env'>;

export function warnUnknownKeys({ raw, base, prefix, warn }: EntryScope): void {
  for (const key of Object.keys(raw)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key)) continue;
    const sugg = didYouMean(key, KNOWN_KEYS);
    warn(
      [...base, key],
      `${prefix}.${key} is not an outbound webhook field${sugg ? ` — did you mean '${sugg}'?` : ` (known: ${KNOWN_KEYS.join(', ')})`}; ignoring`,
      true,
    );
  }
}

/** Required, trimmed, http(s) only; plain http is kept with a warning. */
export function parseUrl({ raw, base, prefix, warn }: EntryScope): string | null {
  const rawUrl = raw['url'];
  if (typeof rawUrl !== 'string' || pyStrip(rawUrl) === '') {
    warn('url' in raw ? [...base, 'url'] : base, `${prefix} is missing a non-empty 'url' field; skipping`);
    return null;
  }
  const url = pyStrip(rawUrl);
  const scheme = /^(https?):\/\//i.exec(url);
  if (!scheme) {
    warn([...base, 'url'], `${prefix}.url must start with http:// or https:// (got ${pyRepr(url)}); skipping`);
    return null;
  }
  try {
    new URL(url);
  } catch {
    warn([...base, 'url'], `${prefix}.url is not a valid URL (${pyRepr(url)}); skipping`);
    return null;
  }
  if ((scheme[1] ?? '').toLowerCase() === 'http') {
    warn([...base, 'url'], `${prefix}.url uses plain http: deliveries (and their signatures) travel unencrypted`);
  }
  return url;
}

/** Required non-empty list; unknown names dropped, duplicates folded; none valid → null. */
export function parseEvents({ raw, base, prefix, warn }: EntryScope): EventName[] | null {
  const rawEvents = raw['events'];
  if (!Array.isArray(rawEvents) || rawEvents.length === 0) {
    warn(
      'events' in raw ? [...base, 'events'] : base,
      `${prefix}.events must be a non-empty list of event names; got ${Array.isArray(rawEvents) ? 'an empty list' : pyTypeName(rawEvents)}; skipping`,
    );
    return null;
  }
  const events: EventName[] = [];
  rawEvents.forEach((ev, j) => {
    const path: ConfigPath = [...base, 'events', j];
    if (isEventName(ev)) {
      if (!events.includes(ev)) events.push(ev);
      return;
    }
    const shown = typeof ev === 'string' ? ev : pyRepr(ev);
    const sugg = typeof ev === 'string' ? didYouMean(ev, SORTED_EVENT_NAMES) : null;
    warn(
      path,
      sugg
        ? `${prefix}.events[${j}]: unknown hook event '${shown}' dropped — did you mean '${sugg}'?`
        : `${prefix}.events[${j}]: unknown hook event '${shown}' dropped (valid: ${SORTED_EVENT_NAMES.join(', ')})`,
    );
  });
  if (events.length === 0) {
    warn([...base, 'events'], `${prefix} has no valid events; skipping`);
    return null;
  }
  return events;
}

/** A string regex, only honoured when a tool event is listed; an invalid one still loads (literal). */
export function parseMatcher({ raw, base, prefix, warn }: EntryScope, events: readonly EventName[]): string | null {
  const rawMatcher = raw['matcher'];
  if (rawMatcher === null || rawMatcher === undefined) return null;
  if (typeof rawMatcher !== 'string') {
    warn([...base, 'matcher'], `${prefix}.matcher must be a string regex; ignoring`);
    return null;
  }
  if (!events.some((ev) => EVENTS[ev].toolScoped)) {
    warn(
      [...base, 'matcher'],
      `${prefix}.matcher=${pyRepr(rawMatcher)} will be ignored — the matcher field is only honored for pre_tool_call / post_tool_call, and none is ` +
        `listed in events.`,
    );
    return null;
  }
  if (pyStrip(rawMatcher) === '') return null;
  const matcher = pyStrip(rawMatcher);
  const { error } = compileMatcher(matcher);
  if (error) {
    warn([...base, 'matcher'], `${prefix}.matcher ${pyRepr(matcher)} is invalid (${error}) — treating as literal equality`);
  }
  return matcher;
}

/** An int, default 10, clamped to [1, 60]. */
export function parseTimeout({ raw, base, prefix, warn }: EntryScope): number {
  if (!('timeout' in raw)) return OUTBOUND_DEFAULT_TIMEOUT;
  const n = pythonInt(raw['timeout']);
  if (n === null) {
    warn([...base, 'timeout'], `${prefix}.timeout must be an int (got ${pyRepr(raw['timeout'])}); using default ${OUTBOUND_DEFAULT_TIMEOUT}s`);
    return OUTBOUND_DEFAULT_TIMEOUT;
  }
  if (n < OUTBOUND_MIN_TIMEOUT) {
    warn([...base, 'timeout'], `${prefix}.timeout=${n}s is below the minimum ${OUTBOUND_MIN_TIMEOUT}s; clamping`);
    return OUTBOUND_MIN_TIMEOUT;
  }
  if (n > OUTBOUND_MAX_TIMEOUT) {
    warn([...base, 'timeout'], `${prefix}.timeout=${n}s exceeds max ${OUTBOUND_MAX_TIMEOUT}s; clamping`);
    return OUTBOUND_MAX_TIMEOUT;
  }
  return n;
}

function secretFromEnv({ base, prefix, warn }: EntryScope, rawSecretEnv: unknown, env: NodeJS.ProcessEnv): SecretFields {
  if (typeof rawSecretEnv !== 'string' || pyStrip(rawSecretEnv) === '') {
    warn([...base, 'secret_env'], `${prefix}.secret_env must name an environment variable (got ${pyRepr(rawSecretEnv)}); deliveries will be UNSIGNED`);
    return { secret: null, secret_source: null, secret_env: null };
  }
  const secretEnv = pyStrip(rawSecretEnv);
  const value = env[secretEnv];
  if (typeof value === 'string' && value !== '') return { secret: value, secret_source: 'secret_env', secret_env: secretEnv };
  warn(
    [...base, 'secret_env'],
    `${prefix}.secret_env: $${secretEnv} is ${value === undefined ? 'not set' : 'empty'}; deliveries will be UNSIGNED (no fallback to 'secret')`,
  );
  return { secret: null, secret_source: null, secret_env: secretEnv };
}

function inlineSecret({ base, prefix, warn }: EntryScope, rawSecret: unknown): SecretFields {
  const unsigned: SecretFields = { secret: null, secret_source: null, secret_env: null };
  if (typeof rawSecret !== 'string') {
    warn([...base, 'secret'], `${prefix}.secret must be a string (got ${pyTypeName(rawSecret)}); deliveries will be UNSIGNED`);
    return unsigned;
  }
  if (rawSecret === '') {
    warn([...base, 'secret'], `${prefix}.secret is empty; deliveries will be UNSIGNED`);
    return unsigned;
  }
  return { secret: rawSecret, secret_source: 'secret', secret_env: null };
}

/** secret_env wins over secret; a configured-but-empty secret_env never falls back to secret. */
export function parseSecret(scope: EntryScope, env: NodeJS.ProcessEnv): SecretFields {
  const rawSecretEnv = scope.raw['secret_env'];
  if (rawSecretEnv !== null && rawSecretEnv !== undefined) return secretFromEnv(scope, rawSecretEnv, env);
  const rawSecret = scope.raw['secret'];
  if (rawSecret !== null && rawSecret !== undefined) return inlineSecret(scope, rawSecret);
  return { secret: null, secret_source: null, secret_env: null };
}

/** An optional label: a trimmed string (empty → none) or a number. */
export function parseName({ raw, base, prefix, warn }: EntryScope): string | null {
  const rawName = raw['name'];
  if (rawName === null || rawName === undefined) return null;
  if (typeof rawName === 'string') return pyStrip(rawName) || null;
  if (typeof rawName === 'number') return String(rawName);
  warn([...base, 'name'], `${prefix}.name must be a string (got ${pyTypeName(rawName)}); ignoring`);
  return null;
}

// `hooks.outbound:` → OutboundTarget[] + diagnostics, with the semantics of reference §7.
// Pure (the environment is passed in for `secret_env`); never throws. A malformed entry is
// skipped with a diagnostic; the rest of the list still loads.

import { diagnosticAt, formatPath, positionOf, type ConfigPath, type ConfigSource } from '../config/source.js';
import { EVENTS, isEventName, SORTED_EVENT_NAMES, type EventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { pyRepr, pyStrip, pythonInt, pyTypeName } from '../util/python.js';
import { didYouMean } from '../util/did-you-mean.js';
import { compileMatcher } from '../config/matcher.js';
import type { OutboundTarget } from './types.js';
import { isPlainObject } from '../_json.js';
import { errorText } from '../errors.js';

export const OUTBOUND_DEFAULT_TIMEOUT = 10;
export const OUTBOUND_MIN_TIMEOUT = 1;
export const OUTBOUND_MAX_TIMEOUT = 60;

const KNOWN_KEYS = ['url', 'events', 'matcher', 'timeout', 'secret_env', 'secret', 'name'] as const;


export function parseOutboundConfig(
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
): { targets: OutboundTarget[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const targets: OutboundTarget[] = [];
  try {
    const data = source.data;
    if (!isPlainObject(data)) return { targets, diagnostics };
    const hooks = data['hooks'];
    if (!isPlainObject(hooks)) return { targets, diagnostics };
    const raw = hooks['outbound'];
    if (raw === null || raw === undefined) return { targets, diagnostics };
    const listPath: ConfigPath = ['hooks', 'outbound'];
    if (!Array.isArray(raw)) {
      diagnostics.push(
        diagnosticAt(source, 'warning', listPath, `hooks.outbound must be a list of webhook targets; got ${pyTypeName(raw)}`),
      );
      return { targets, diagnostics };
    }
    // Dedupe key (event, url): a later entry never registers a second delivery for the same pair.
    const owner = new Map<string, string>();
    raw.forEach((entry, index) => {
      const target = parseEntry(source, env, entry, index, diagnostics);
      if (!target) return;
      const kept: EventName[] = [];
      for (const event of target.events) {
        const key = `${event}\u0000${target.url}`;
        const first = owner.get(key);
        if (first !== undefined) {
          diagnostics.push(
            diagnosticAt(
              source,
              'warning',
              [...listPath, index],
              `${target.path}: event '${event}' is already delivered to this url by ${first}; skipping the duplicate`,
            ),
          );
          continue;
        }
        owner.set(key, target.path);
        kept.push(event);
      }
      if (kept.length === 0) return;
      targets.push({ ...target, events: kept });
    });
  } catch (e) {
    // Defensive: validation must never take the host down.
    diagnostics.push({
      level: 'error',
      path: 'hooks.outbound',
      line: null,
      column: null,
      message: `hooks.outbound could not be read: ${errorText(e)}`,
      file: source.file,
    });
  }
  return { targets, diagnostics };
}

function parseEntry(
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
  raw: unknown,
  index: number,
  diagnostics: Diagnostic[],
): OutboundTarget | null {
  const base: ConfigPath = ['hooks', 'outbound', index];
  const prefix = formatPath(base);
  const warn = (path: ConfigPath, message: string, key = false): void => {
    diagnostics.push(diagnosticAt(source, 'warning', path, message, { key }));
  };

  if (!isPlainObject(raw)) {
    warn(base, `${prefix} must be a mapping with 'url' and 'events' keys; got ${pyTypeName(raw)}`);
    return null;
  }

  for (const key of Object.keys(raw)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key)) continue;
    const sugg = didYouMean(key, KNOWN_KEYS);
    warn(
      [...base, key],
      `${prefix}.${key} is not an outbound webhook field${sugg ? ` — did you mean '${sugg}'?` : ` (known: ${KNOWN_KEYS.join(', ')})`}; ignoring`,
      true,
    );
  }

  // url: required, trimmed, http(s) only.
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

  // events: required non-empty list; unknown names dropped; none valid → skip.
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

  // matcher: string regex, only honoured on tool events.
  let matcher: string | null = null;
  const rawMatcher = raw['matcher'];
  if (rawMatcher !== null && rawMatcher !== undefined) {
    if (typeof rawMatcher !== 'string') {
      warn([...base, 'matcher'], `${prefix}.matcher must be a string regex; ignoring`);
    } else if (!events.some((ev) => EVENTS[ev].toolScoped)) {
      warn(
        [...base, 'matcher'],
        `${prefix}.matcher=${pyRepr(rawMatcher)} will be ignored — the matcher field is only honored for pre_tool_call / post_tool_call, and none is listed in events.`,
      );
    } else if (pyStrip(rawMatcher) !== '') {
      matcher = pyStrip(rawMatcher);
      const { error } = compileMatcher(matcher);
      if (error) {
        warn([...base, 'matcher'], `${prefix}.matcher ${pyRepr(matcher)} is invalid (${error}) — treating as literal equality`);
      }
    }
  }

  // timeout: int, default 10, clamped to [1, 60].
  let timeout = OUTBOUND_DEFAULT_TIMEOUT;
  if ('timeout' in raw) {
    const n = pythonInt(raw['timeout']);
    if (n === null) {
      warn([...base, 'timeout'], `${prefix}.timeout must be an int (got ${pyRepr(raw['timeout'])}); using default ${OUTBOUND_DEFAULT_TIMEOUT}s`);
    } else if (n < OUTBOUND_MIN_TIMEOUT) {
      warn([...base, 'timeout'], `${prefix}.timeout=${n}s is below the minimum ${OUTBOUND_MIN_TIMEOUT}s; clamping`);
      timeout = OUTBOUND_MIN_TIMEOUT;
    } else if (n > OUTBOUND_MAX_TIMEOUT) {
      warn([...base, 'timeout'], `${prefix}.timeout=${n}s exceeds max ${OUTBOUND_MAX_TIMEOUT}s; clamping`);
      timeout = OUTBOUND_MAX_TIMEOUT;
    } else {
      timeout = n;
    }
  }

  // secret_env wins over secret; a configured-but-empty secret_env never falls back to secret.
  let secret: string | null = null;
  let secretSource: OutboundTarget['secret_source'] = null;
  let secretEnv: string | null = null;
  const rawSecretEnv = raw['secret_env'];
  const rawSecret = raw['secret'];
  if (rawSecretEnv !== null && rawSecretEnv !== undefined) {
    if (typeof rawSecretEnv !== 'string' || pyStrip(rawSecretEnv) === '') {
      warn(
        [...base, 'secret_env'],
        `${prefix}.secret_env must name an environment variable (got ${pyRepr(rawSecretEnv)}); deliveries will be UNSIGNED`,
      );
    } else {
      secretEnv = pyStrip(rawSecretEnv);
      const value = env[secretEnv];
      if (typeof value === 'string' && value !== '') {
        secret = value;
        secretSource = 'secret_env';
      } else {
        warn(
          [...base, 'secret_env'],
          `${prefix}.secret_env: $${secretEnv} is ${value === undefined ? 'not set' : 'empty'}; deliveries will be UNSIGNED (no fallback to 'secret')`,
        );
      }
    }
  } else if (rawSecret !== null && rawSecret !== undefined) {
    if (typeof rawSecret !== 'string') {
      warn([...base, 'secret'], `${prefix}.secret must be a string (got ${pyTypeName(rawSecret)}); deliveries will be UNSIGNED`);
    } else if (rawSecret === '') {
      warn([...base, 'secret'], `${prefix}.secret is empty; deliveries will be UNSIGNED`);
    } else {
      secret = rawSecret;
      secretSource = 'secret';
    }
  }

  // name: optional label.
  let name: string | null = null;
  const rawName = raw['name'];
  if (rawName !== null && rawName !== undefined) {
    if (typeof rawName === 'string') name = pyStrip(rawName) || null;
    else if (typeof rawName === 'number') name = String(rawName);
    else warn([...base, 'name'], `${prefix}.name must be a string (got ${pyTypeName(rawName)}); ignoring`);
  }

  const pos = positionOf(source, base);
  return {
    name,
    url,
    events,
    matcher,
    timeout,
    secret,
    secret_source: secretSource,
    secret_env: secretEnv,
    index,
    path: prefix,
    line: pos.line,
    column: pos.column,
  };
}

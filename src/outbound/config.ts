// `hooks.outbound:` → OutboundTarget[] + diagnostics, with the semantics of reference §7.
// Pure (the environment is passed in for `secret_env`); never throws. A malformed entry is
// skipped with a diagnostic; the rest of the list still loads. Each field's rules are in _fields.ts.

import { diagnosticAt, formatPath, positionOf, type ConfigPath, type ConfigSource } from '../config/source.js';
import type { EventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { pyTypeName } from '../util/python.js';
import type { OutboundTarget } from './types.js';
import { parseEvents, parseMatcher, parseName, parseSecret, parseTimeout, parseUrl, warnUnknownKeys, type EntryScope } from './_fields.js';
import { isPlainObject } from '../json.js';
import { errorText } from '../errors.js';

export { OUTBOUND_DEFAULT_TIMEOUT, OUTBOUND_MAX_TIMEOUT, OUTBOUND_MIN_TIMEOUT } from './_fields.js';

export function parseOutboundConfig(source: ConfigSource, env: NodeJS.ProcessEnv): { targets: OutboundTarget[]; diagnostics: Diagnostic[] } {
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
      diagnostics.push(diagnosticAt(source, 'warning', listPath, `hooks.outbound must be a list of webhook targets; got ${pyTypeName(raw)}`));
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

/** One entry → a target, or null (with a diagnostic) when it has no usable url or events. */
function parseEntry(source: ConfigSource, env: NodeJS.ProcessEnv, raw: unknown, index: number, diagnostics: Diagnostic[]): OutboundTarget | null {
  const base: ConfigPath = ['hooks', 'outbound', index];
  const prefix = formatPath(base);
  const warn = (path: ConfigPath, message: string, key = false): void => {
    diagnostics.push(diagnosticAt(source, 'warning', path, message, { key }));
  };

  if (!isPlainObject(raw)) {
    warn(base, `${prefix} must be a mapping with 'url' and 'events' keys; got ${pyTypeName(raw)}`);
    return null;
  }
  const scope: EntryScope = { raw, base, prefix, warn };
  warnUnknownKeys(scope);
  const url = parseUrl(scope);
  if (url === null) return null;
  const events = parseEvents(scope);
  if (events === null) return null;
  const matcher = parseMatcher(scope, events);
  const timeout = parseTimeout(scope);
  const secret = parseSecret(scope, env);
  const name = parseName(scope);

  const pos = positionOf(source, base);
  return { name, url, events, matcher, timeout, ...secret, index, path: prefix, line: pos.line, column: pos.column };
}

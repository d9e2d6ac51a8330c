// What `run <event>` says on stderr about the config: the problems (not infos) of the hooks of the
// event being run, once per process. A host log then shows why a guard did not guard as written,
// without the noise of every other event's entries.

import { concernsEvent } from '../config/hook-lint.js';
import type { EventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { formatDiagnostic } from './_report.js';

const plain = (_style: string, text: string): string => text;

export function eventDiagnosticLines(diagnostics: readonly Diagnostic[], event: EventName, foreign: readonly { key: string }[] = []): string[] {
  // Another agent's block under hooks: concerns every call: its guards are not guarding any of them.
  const foreignPaths = new Set(foreign.map((f) => `hooks.${f.key}`));
  return diagnostics
    .filter((d) => d.level !== 'info' && (concernsEvent(d, event) || foreignPaths.has(d.path)))
    .map((d) => `hermes-hooks: ${formatDiagnostic(d, plain)}`);
}

/** The payload's problems (warnings and errors) as `run` prints them on stderr. */
export function payloadDiagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.level !== 'info').map((d) => `hermes-hooks: ${formatDiagnostic({ ...d, file: d.file ?? '<stdin>' }, plain)}`);
}

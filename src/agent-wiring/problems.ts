// What the person must hear about one call, as short lines, each with its fix (issue 30): an agent
// hides a hook command's stderr when it exits 0, so every warning that concerns the call — a guard
// that could not start, failed, timed out, answered something unreadable, was skipped as unapproved
// or untrusted, a config mistake that leaves a guard of this event inactive — is also put where the
// agent shows it to the person (each agent's record renders `notice`). The verdict is not changed.
// Pure: the emission and the config's diagnostics in, lines out.

import { concernsEvent } from '../config/hook-lint.js';
import { locatedMessage } from '../config/source.js';
import { exitIsAnswer } from '../engine/run-hooks.js';
import { leftProcessesText } from '../directives/messages.js';
import { exitCodeAdvice } from '../dialects/advice.js';
import type { Decision, Diagnostic, EventName, HookOutcome } from '../types.js';

/** At most this many lines are told; the rest are counted (`+N more`). */
const MAX_LINES = 5;
/** One line is cut at this many characters: the fix is said first, the detail after. */
const MAX_LINE = 300;

/** The config's problems (not infos), one line each, with where they are written. */
export function diagnosticLines(
  diagnostics: readonly Diagnostic[],
  configFile: string,
  event: EventName | null,
  foreign: readonly { key: string }[] = [],
): string[] {
  // Another agent's block under hooks: concerns every call: its guards are not guarding any of them.
  const foreignPaths = new Set(foreign.map((f) => `hooks.${f.key}`));
  return diagnostics
    .filter((d) => d.level !== 'info' && (event === null || concernsEvent(d, event) || foreignPaths.has(d.path)))
    .map((d) => locatedMessage({ ...d, message: withPath(d) }, configFile));
}

/** `path: message`, unless a Hermes-worded message already starts with its path. */
function withPath(d: Diagnostic): string {
  const head = /^[^\s=:]+/.exec(d.message)?.[0] ?? '';
  const said = head !== '' && (d.path === head || d.path.startsWith(`${head}.`) || d.path.startsWith(`${head}[`));
  return d.path && !said ? `${d.path}: ${d.message}` : d.message;
}

/** What went wrong with the hooks of one emit, one line per hook that did not do its part. */
export function outcomeLines(event: EventName, hooks: readonly HookOutcome[], decision: Decision): string[] {
  const lines: string[] = [];
  for (const h of hooks) {
    // The hook whose block decided is shown to the person as the reason (a fail_closed guard's says why it failed): said once.
    if (decision.action === 'block' && decision.decided_by === h.index) continue;
    const line = outcomeLine(event, h);
    if (line !== null) lines.push(line);
    if (h.kind === 'shell') {
      const left = leftProcessesText(h);
      if (left !== null) lines.push(`hook ${h.command} ${left} — detach a helper fully (setsid cmd </dev/null >/dev/null 2>&1 &)`);
    }
  }
  return lines;
}

function outcomeLine(event: EventName, h: HookOutcome): string | null {
  const who = h.kind === 'shell' ? `hook ${h.command}` : `${h.command}`;
  switch (h.status) {
    case 'launch_failed':
      return `${who} could not start: ${h.error ?? 'launch failed'}`;
    case 'timeout':
      if (h.error !== null && h.error !== 'cancelled') return `${who}: ${h.error}`;
      return `${who} timed out after ${h.timeout ?? '?'}s, so its answer was not read — make it faster or raise its timeout: in config.yaml`;
    case 'output_limit':
      return `${who} printed more than the output limit and was killed, so its answer was not read — print less (one JSON object)`;
    case 'nonzero_exit': {
      if (exitIsAnswer(event, h)) break;
      const advice = exitCodeAdvice(event, h);
      // A traceback's last line says what failed (`ValueError: boom`).
      const last = h.stderr.trim().split('\n').pop()?.trim() ?? '';
      return `${who} exited ${h.exit_code ?? h.signal}${advice ? `: ${advice}` : ''}${last ? ` (stderr: ${last})` : ''}`;
    }
    case 'skipped':
    case 'awaiting_approval':
    case 'not_converted':
      return h.error !== null ? h.error : null;
    case 'error':
      return `${who} failed: ${h.error ?? 'error'}`;
    default:
      break;
  }
  return h.warning !== null ? `${who}: ${h.warning}` : null;
}

/**
 * The lines as one short message for the person, or null when there is nothing to say (a healthy
 * call says nothing). Repeated lines are said once; past MAX_LINES they are counted.
 */
export function noticeText(lines: readonly string[]): string | null {
  const unique = [...new Set(lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== ''))];
  if (unique.length === 0) return null;
  const cut = (l: string): string => (l.length <= MAX_LINE ? l : `${l.slice(0, MAX_LINE - 1)}…`);
  const shown = unique.slice(0, MAX_LINES).map(cut);
  const more = unique.length - shown.length;
  const tail = more > 0 ? [`+${more} more — run: hermes-hooks doctor`] : [];
  if (shown.length === 1 && more === 0) return `hermes-hooks: ${shown[0]}`;
  return [`hermes-hooks found ${unique.length} problems:`, ...[...shown, ...tail].map((l) => `- ${l}`)].join('\n');
}

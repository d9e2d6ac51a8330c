// Replay: every recorded event through the current hooks, by a function the caller gives (the CLI's
// engine, on the same path production takes), and the events whose verdict changed. No I/O here.
// A verdict is the decision's action (block / approve / allow / continue …): a reworded block
// message is not a change, a block that became an allow is.

import type { Emission } from '../types.js';
import type { JournalLine } from './record.js';

export interface Verdict {
  action: string;
  message: string | null;
  /** The deciding hook's command; null when no hook decided. */
  decided_by: string | null;
}

export interface VerdictChange {
  /** 1-based line of the journal. */
  line: number;
  time: string;
  dialect: string;
  event: string;
  their_event: string;
  tool_name: string | null;
  call_id: string | null;
  session_id: string | null;
  before: Verdict;
  after: Verdict;
}

export interface ReplayReport {
  events: number;
  changed: VerdictChange[];
  /** Hooks that did not run in the replay because consent stops them, as in production: `command` → why. */
  not_run: { command: string; why: string }[];
}

/** The current hooks' emission for one recorded line. */
export type ReplayOne = (line: JournalLine, no: number) => Promise<Emission>;

export async function replayJournal(lines: readonly { no: number; line: JournalLine }[], emitOne: ReplayOne): Promise<ReplayReport> {
  const changed: VerdictChange[] = [];
  const notRun = new Map<string, string>();
  for (const { no, line } of lines) {
    const emission = await emitOne(line, no);
    for (const h of emission.hooks) {
      const held = h.status === 'skipped' || h.status === 'awaiting_approval' || h.status === 'safe_mode';
      if (h.kind === 'shell' && held && !notRun.has(h.command)) notRun.set(h.command, h.status === 'safe_mode' ? 'HERMES_SAFE_MODE' : (h.consent ?? h.status));
    }
    const before: Verdict = { action: line.decision.action, message: line.decision.message, decided_by: line.decision.decided_by_hook };
    const after = verdictOf(emission);
    if (before.action !== after.action) {
      const { time, dialect, event, their_event, tool_name, call_id, session_id } = line;
      changed.push({ line: no, time, dialect, event, their_event, tool_name, call_id, session_id, before, after });
    }
  }
  return { events: lines.length, changed, not_run: [...notRun].map(([command, why]) => ({ command, why })) };
}

function verdictOf(e: Emission): Verdict {
  const d = e.decision;
  const decider = d.decided_by === null ? null : (e.hooks.find((h) => h.index === d.decided_by)?.command ?? null);
  return { action: d.action, message: d.message, decided_by: decider };
}

/** `block → allow` with who decided, on one line. */
export function changeLine(c: VerdictChange): string {
  const what = [c.dialect === 'hermes' ? c.event : `${c.dialect} ${c.their_event}`, c.tool_name, c.call_id ? `call ${c.call_id}` : null]
    .filter((x) => x !== null)
    .join(' ');
  const head = `line ${c.line} (${c.time}) ${what}: ${c.before.action.toUpperCase()} → ${c.after.action.toUpperCase()}`;
  return `${head}\n    before: ${side(c.before)}\n    after:  ${side(c.after)}`;
}

function side(v: Verdict): string {
  if (v.decided_by === null) return 'no hook decided';
  return `${v.decided_by}${v.message ? ` — ${v.message}` : ''}`;
}

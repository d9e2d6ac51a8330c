// Coverage and health from a journal's lines. Pure.
// - A tool call that ran (post_tool_call) is gated when a pre_tool_call was recorded for the same
//   call: the same agent call id, else the same session, tool and input (input_sha256).
// - A guard (a pre_tool_call hook) never fired when, over the whole journal, it gave no directive.
// - A hook keeps failing when it failed (timed out, could not launch, overflowed, threw, exited
//   non-zero other than a gate's exit 2) at least twice, or every time it ran.
// - Slowest: per hook that ran, p50 and p99 of its duration (nearest rank).

import type { JournalHook, JournalLine } from './record.js';

export interface UnguardedCall {
  line: number;
  time: string;
  dialect: string;
  tool_name: string | null;
  call_id: string | null;
  session_id: string | null;
}

export interface HookHealth {
  command: string;
  runs: number;
  failures: number;
  /** status → count, of the failed runs. */
  by_status: Record<string, number>;
}

export interface AuditReport {
  events: number;
  tool_calls: number;
  unguarded_calls: UnguardedCall[];
  never_fired: { command: string; listed: number; ran: number }[];
  failing: HookHealth[];
  slowest: { command: string; runs: number; p50_ms: number; p99_ms: number }[];
}

const NOT_RUN = new Set(['not_matched', 'skipped', 'awaiting_approval', 'safe_mode', 'not_converted', 'refused']);
const SLOWEST_SHOWN = 10;

export function auditJournal(lines: readonly { no: number; line: JournalLine }[]): AuditReport {
  const gated = new Set<string>();
  for (const { line } of lines) if (line.event === 'pre_tool_call') for (const k of gateKeys(line)) gated.add(k);
  const unguarded: UnguardedCall[] = [];
  let toolCalls = 0;
  const guards = new Map<string, { listed: number; ran: number; fired: number }>();
  const health = new Map<string, HookHealth & { durations: number[] }>();
  for (const { no, line } of lines) {
    if (line.event === 'post_tool_call') {
      toolCalls++;
      if (!postKeys(line).some((k) => gated.has(k))) {
        unguarded.push({ line: no, time: line.time, dialect: line.dialect, tool_name: line.tool_name, call_id: line.call_id, session_id: line.session_id });
      }
    }
    for (const h of line.hooks) {
      const ran = !NOT_RUN.has(h.status);
      if (line.event === 'pre_tool_call' && h.kind !== 'builtin') {
        const g = guards.get(h.command) ?? { listed: 0, ran: 0, fired: 0 };
        g.listed++;
        if (ran) g.ran++;
        if (h.directive !== null) g.fired++;
        guards.set(h.command, g);
      }
      if (!ran) continue;
      const s = health.get(h.command) ?? { command: h.command, runs: 0, failures: 0, by_status: {}, durations: [] };
      s.runs++;
      s.durations.push(h.duration_ms);
      if (failed(h)) {
        s.failures++;
        s.by_status[h.status] = (s.by_status[h.status] ?? 0) + 1;
      }
      health.set(h.command, s);
    }
  }
  const all = [...health.values()];
  return {
    events: lines.length,
    tool_calls: toolCalls,
    unguarded_calls: unguarded,
    never_fired: [...guards].filter(([, g]) => g.fired === 0).map(([command, g]) => ({ command, listed: g.listed, ran: g.ran })),
    failing: all
      .filter((s) => s.failures >= 2 || (s.failures > 0 && s.failures === s.runs))
      .map(({ command, runs, failures, by_status }) => ({ command, runs, failures, by_status })),
    slowest: all
      .map((s) => ({ command: s.command, runs: s.runs, p50_ms: percentile(s.durations, 50), p99_ms: percentile(s.durations, 99) }))
      .sort((a, b) => b.p99_ms - a.p99_ms)
      .slice(0, SLOWEST_SHOWN),
  };
}

const inputKey = (line: JournalLine): string => `${line.session_id ?? ''}|${line.tool_name ?? ''}|${line.input_sha256 ?? ''}`;

/** What a gate verdict covers: its call id; session + tool + input (`any:`); and `noid:` when it had no id. */
function gateKeys(line: JournalLine): string[] {
  const keys = [`any:${inputKey(line)}`];
  keys.push(line.call_id !== null ? `id:${line.call_id}` : `noid:${inputKey(line)}`);
  return keys;
}

/** A call with an id is matched by it (or by a verdict that had no id to match); one without, by session, tool and input. */
function postKeys(line: JournalLine): string[] {
  return line.call_id !== null ? [`id:${line.call_id}`, `noid:${inputKey(line)}`] : [`any:${inputKey(line)}`];
}

function failed(h: JournalHook): boolean {
  if (h.status === 'nonzero_exit') return h.exit_code !== 2;
  return h.status !== 'ok';
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

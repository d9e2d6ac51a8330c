// `hermes-hooks audit JOURNAL`: coverage and health from a journal (journal/audit.ts). Exit 1 when a
// tool call ran with no gate verdict recorded — the failure nobody sees, since nothing failed — 0
// when healthy, 2 on an unreadable or bad journal.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorText } from '../errors.js';
import { auditJournal, type AuditReport } from '../journal/audit.js';
import { JournalError, readJournal } from '../journal/read.js';
import type { ParsedArgs } from './_args.js';
import { AUDIT_HELP } from './_help.js';
import { CliError, writeLine, type CliIO } from './_io.js';

export async function auditCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const file = positionals[0];
  if (!file) throw new CliError(`audit: missing JOURNAL\n${AUDIT_HELP}`, 2);
  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new CliError(`audit: cannot read journal ${file}: ${errorText(e)}`, 2);
  }
  let report: AuditReport;
  try {
    const lines = readJournal(text, file);
    const nos = text.split('\n').flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
    report = auditJournal(lines.map((line, i) => ({ no: nos[i]!, line })));
  } catch (e) {
    if (e instanceof JournalError) throw new CliError(`audit: ${e.message}`, 2);
    throw e;
  }
  if (values.json) writeLine(io.stdout, JSON.stringify(report));
  else for (const l of reportLines(report, file)) writeLine(io.stdout, l);
  return report.unguarded_calls.length > 0 ? 1 : 0;
}

function reportLines(r: AuditReport, file: string): string[] {
  const out = [`${file}: ${r.events} event(s), ${r.tool_calls} tool call(s) that ran`];
  if (r.unguarded_calls.length === 0) out.push('Every tool call that ran had a gate verdict recorded.');
  else {
    out.push(`${r.unguarded_calls.length} tool call(s) ran with NO gate verdict recorded (the tool gate was never asked):`);
    for (const c of r.unguarded_calls) {
      const id = c.call_id !== null ? `call ${c.call_id}` : `session ${c.session_id ?? '?'}`;
      out.push(`  line ${c.line} (${c.time}) ${c.dialect} ${c.tool_name ?? '?'} ${id}`);
    }
  }
  if (r.never_fired.length > 0) {
    out.push('Guards that never fired (no directive in the whole journal):');
    for (const g of r.never_fired) out.push(`  ${g.command} — listed on ${g.listed} call(s), ran ${g.ran}`);
  }
  if (r.failing.length > 0) {
    out.push('Hooks that keep failing:');
    for (const h of r.failing) {
      const how = Object.entries(h.by_status)
        .map(([s, n]) => `${s} ×${n}`)
        .join(', ');
      out.push(`  ${h.command} — ${h.failures} of ${h.runs} run(s) failed (${how})`);
    }
  }
  if (r.slowest.length > 0) {
    out.push('Slowest hooks (p50 / p99):');
    for (const s of r.slowest) out.push(`  ${s.p50_ms} ms / ${s.p99_ms} ms  ${s.command} (${s.runs} run(s))`);
  }
  return out;
}

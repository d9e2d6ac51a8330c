// The human-readable dry-run report: each hook with status, exit, duration, a timeline bar that
// makes concurrency visible at a glance, trimmed output and directive; then the decision and diagnostics.
// Commands, hook output and messages are shown inert (control characters escaped) before colouring.

import { inert } from '../display.js';
import { KEEP_A_HELPER, leftProcessesText } from '../directives/messages.js';
import { exitCodeAdvice } from '../dialects/advice.js';
import { isJsonObjectText } from '../directives/parse-stdout.js';
import type { Decision, Diagnostic, Emission, HookOutcome } from '../types.js';
import type { Paint } from './_color.js';
import type { ProductionView } from './_production.js';

const BAR_WIDTH = 24;
const OUTPUT_PREVIEW = 400;

export function renderReport(
  emission: Emission & { production: ProductionView },
  diagnostics: readonly Diagnostic[],
  paint: Paint,
  header: { configFile: string; profile: string; synthetic: boolean; ignoredSafeMode?: boolean; configPaths?: readonly (string | null)[] },
): string {
  const lines: string[] = [];
  const { event, hooks, decision } = emission;
  lines.push(paint('bold', `hermes-hooks test ${event}`) + paint('dim', `  config ${inert(header.configFile)} (profile ${inert(header.profile)})`));
  const p = emission.payload;
  const bits = [`tool_name=${JSON.stringify(p.tool_name)}`, `session_id=${JSON.stringify(p.session_id)}`];
  if (header.synthetic) bits.push('(synthetic payload)');
  lines.push(paint('dim', `payload: ${inert(bits.join('  '))}`));
  const held = hooks.filter((h) => h.status === 'safe_mode').length;
  if (emission.production.safe_mode && !header.ignoredSafeMode) {
    lines.push(paint('yellow', `HERMES_SAFE_MODE is set: nothing was run — ${held} hook(s) would run without it; --ignore-safe-mode runs them.`));
  } else if (header.ignoredSafeMode) {
    lines.push(paint('yellow', 'HERMES_SAFE_MODE is set but ignored (--ignore-safe-mode): the hooks below ran; in production none would.'));
  }
  lines.push('');
  // Built-ins (the tool-loop guardrail) are listed only when they had something to say.
  const shown = hooks.filter((h) => h.kind !== 'builtin' || h.directive || h.error);
  if (shown.length === 0) {
    lines.push(`No hooks configured for event: ${event}`);
  } else {
    const span = Math.max(1, ...hooks.map((h) => h.started_ms + h.duration_ms));
    for (const h of shown) lines.push(...renderHook(h, span, paint, header.configPaths?.[h.index] ?? null, event));
  }
  lines.push(renderDecision(decision, hooks, paint));
  const prod = emission.production;
  if (prod.why !== null && !(prod.safe_mode && held > 0)) {
    // One line: what `run` would do differently with the same payload.
    const why = inert(prod.why, { keepNewlines: true });
    lines.push(prod.differs ? paint('red', `Production: ${why}`) : paint('dim', `Production: ${why}`));
  }
  if (diagnostics.length) {
    lines.push('', paint('bold', 'Diagnostics:'));
    for (const d of diagnostics) lines.push(`  ${formatDiagnostic(d, paint)}`);
  }
  return lines.join('\n') + '\n';
}

function renderHook(h: HookOutcome, span: number, paint: Paint, configPath: string | null, event: string): string[] {
  const out: string[] = [];
  // `#n` is the position in resolution order; when a shell hook's config path has another number
  // (plugins run first), the row names the path its diagnostics use.
  const where = configPath !== null && configPath !== `hooks.${event}[${h.index}]` ? paint('dim', ` (${configPath})`) : '';
  const status = statusLabel(h, paint);
  const exit = h.exit_code !== null ? `exit ${h.exit_code}` : h.signal ? h.signal : '';
  const notRun = ['not_matched', 'awaiting_approval', 'safe_mode', 'not_converted', 'refused'].includes(h.status);
  const dur = notRun ? '' : `${h.duration_ms.toFixed(1)} ms`;
  const consent = h.consent ? paint(h.consent === 'approved' ? 'dim' : 'yellow', `[${h.consent.replace('_', ' ')}]`) : '';
  out.push(
    `  #${h.index} ${pad(status, 22, paint)} ${pad(exit, 8)} ${pad(dur, 10)} ${timeline(h, span, paint)}  ${inert(h.command)} ${consent}`.trimEnd() + where,
  );
  if (h.matcher !== null && h.status === 'not_matched') out.push(paint('dim', `      matcher '${inert(h.matcher)}' did not match`));
  if (h.error) out.push(`      error: ${inert(h.error)}`);
  const left = leftProcessesText(h);
  if (left !== null) out.push(paint('yellow', `      ${left} when its answer was taken — ${KEEP_A_HELPER}`));
  if (h.warning) out.push(paint('yellow', `      warning: ${inert(h.warning, { keepNewlines: true })}`));
  const stdout = preview(h.stdout);
  const stderr = preview(h.stderr);
  if (stdout) out.push(`      stdout: ${stdout}`);
  if (stderr) out.push(`      stderr: ${stderr}`);
  if (h.directive) out.push(`      directive: ${inert(JSON.stringify(h.directive))}`);
  else if (h.status !== 'not_matched' && h.status !== 'skipped' && h.status !== 'safe_mode')
    out.push(paint('dim', '      directive: none — contributed nothing'));
  const advice = h.kind === 'shell' ? exitCodeAdvice(event, h) : null;
  if (advice !== null) out.push(paint('yellow', `      exited ${h.exit_code}: ${advice}`));
  return out;
}

function statusLabel(h: HookOutcome, paint: Paint): string {
  switch (h.status) {
    case 'ok':
      // A run that ended well but said something unreadable is not a clean ✓.
      // A JSON object that decided nothing it meant to (`deny`, `Block`) is an ignored answer.
      return h.warning ? paint('yellow', isJsonObjectText(h.stdout) ? '! ignored answer' : '! unreadable stdout') : paint('green', '✓ ok');
    case 'not_matched':
      return paint('dim', '· not matched');
    case 'nonzero_exit':
      return paint('yellow', '! nonzero exit');
    case 'safe_mode':
      return paint('yellow', '· safe mode, not run');
    case 'awaiting_approval':
      return paint('red', '✗ awaiting approval');
    case 'skipped':
    case 'suppressed':
      return paint('dim', `· ${h.status}`);
    default:
      return paint('red', `✗ ${h.status.replace('_', ' ')}`);
  }
}

function timeline(h: HookOutcome, span: number, paint: Paint): string {
  if (['not_matched', 'awaiting_approval', 'skipped', 'safe_mode', 'not_converted', 'refused'].includes(h.status)) {
    return ' '.repeat(BAR_WIDTH + 2);
  }
  const from = Math.min(BAR_WIDTH - 1, Math.floor((h.started_ms / span) * BAR_WIDTH));
  const to = Math.max(from + 1, Math.min(BAR_WIDTH, Math.ceil(((h.started_ms + h.duration_ms) / span) * BAR_WIDTH)));
  return `|${' '.repeat(from)}${paint('cyan', '█'.repeat(to - from))}${' '.repeat(BAR_WIDTH - to)}|`;
}

function renderDecision(d: Decision, hooks: HookOutcome[], paint: Paint): string {
  const by = d.decided_by !== null ? ` by #${d.decided_by} (${inert(hooks[d.decided_by]?.command ?? '?')})` : '';
  const lines = [''];
  const action = d.action.toUpperCase();
  const colour = d.action === 'block' ? 'red' : d.action === 'allow' ? 'green' : 'yellow';
  lines.push(`${paint('bold', 'Decision:')} ${paint(colour, action)}${by}`);
  if (d.message) lines.push(`  message: ${inert(d.message, { keepNewlines: true })}`);
  if (d.rule_key) lines.push(`  rule_key: ${inert(d.rule_key)}`);
  if (d.args) lines.push(`  args: ${inert(JSON.stringify(d.args))}${d.modified_by.length ? `  (modified by #${d.modified_by.join(', #')})` : ''}`);
  if (d.conflicts.length) lines.push(paint('yellow', `  conflicting modifies on: ${inert(d.conflicts.join(', '))} (later hook wins)`));
  if (d.context) lines.push(`  context: ${preview(d.context)}`);
  if (d.notifications?.length) lines.push(`  notifications: ${inert(d.notifications.map((n) => JSON.stringify(n)).join(', '))}`);
  if (d.reply) lines.push(`  reply: ${inert(d.reply, { keepNewlines: true })}`);
  // JSON-quoted so "" (an emptied tool result) is visible, and control bytes stay inert.
  if (d.result !== undefined && d.result !== null) {
    lines.push(`  result: ${inert(JSON.stringify(d.result))}${d.modified_by.length > 1 ? `  (from #${d.modified_by.join(', #')})` : ''}`);
  }
  if (d.stop_turn) lines.push(paint('red', '  stop_turn: the host should end the turn'));
  return lines.join('\n');
}

export function formatDiagnostic(d: Diagnostic, paint: Paint): string {
  const where = [d.file, d.line, d.column].filter((x) => x !== undefined && x !== null).join(':');
  const level = paint(d.level === 'error' ? 'red' : d.level === 'warning' ? 'yellow' : 'dim', d.level);
  // Hermes-worded messages already start with their config path (or the entry's, for a field of
  // it: `hooks.pre_tool_call[0] is missing … 'command'`); do not print a path twice in one line.
  const head = /^[^\s=:]+/.exec(d.message)?.[0] ?? '';
  const said = head !== '' && (d.path === head || d.path.startsWith(`${head}.`) || d.path.startsWith(`${head}[`));
  const path = d.path && !said ? `${d.path}: ` : '';
  return `${inert(where ? `${where}: ` : '')}${level}: ${inert(path + d.message, { keepNewlines: true })}`;
}

function preview(text: string): string {
  const t = text.trim();
  const cut = t.length <= OUTPUT_PREVIEW ? t : `${t.slice(0, OUTPUT_PREVIEW - 3)}...`;
  return inert(cut, { keepNewlines: true });
}

// Pad by visible width (ANSI codes take no columns).
function pad(text: string, width: number, _paint?: Paint): string {
  // eslint-disable-next-line no-control-regex
  const visible = text.replace(/\u001b\[[0-9;]*m/g, '').length;
  return visible >= width ? text : text + ' '.repeat(width - visible);
}

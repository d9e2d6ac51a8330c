// Secret-free views of outbound targets for `list`, `doctor` and `--json` output. Pure.

import type { OutboundTarget } from './types.js';

export interface OutboundTargetSummary {
  name: string | null;
  url: string;
  events: string[];
  matcher: string | null;
  timeout: number;
  signed: boolean;
  /** `secret_env`, `secret`, or null when unsigned. The secret itself is never included. */
  secret_source: OutboundTarget['secret_source'];
  secret_env: string | null;
  path: string;
  line: number | null;
  column: number | null;
}

export function describeOutboundTarget(t: OutboundTarget): OutboundTargetSummary {
  return {
    name: t.name,
    url: t.url,
    events: [...t.events],
    matcher: t.matcher,
    timeout: t.timeout,
    signed: t.secret !== null,
    secret_source: t.secret_source,
    secret_env: t.secret_env,
    path: t.path,
    line: t.line,
    column: t.column,
  };
}

/**
 * The outbound section of `hermes hooks list` (reference §6):
 *   Configured outbound webhooks (<N> total):
 *
 *     - <name or url>
 *         url:     <url>
 *         events:  <e1, e2>[ matcher='<m>'] (timeout=<t>s, signed|UNSIGNED)
 * followed by a blank line. Empty string when there are no targets.
 */
export function formatOutboundList(targets: readonly OutboundTarget[]): string {
  if (targets.length === 0) return '';
  const lines = [`Configured outbound webhooks (${targets.length} total):`, ''];
  for (const t of targets) {
    lines.push(`  - ${t.name ?? t.url}`);
    lines.push(`      url:     ${t.url}`);
    const matcher = t.matcher !== null ? ` matcher='${t.matcher}'` : '';
    lines.push(`      events:  ${t.events.join(', ')}${matcher} (timeout=${t.timeout}s, ${t.secret !== null ? 'signed' : 'UNSIGNED'})`);
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

// `hermes-hooks list`: hooks per event in config order with matcher, timeout, fail_closed and
// consent (approved at, hash pinned or not, modified since approval); outbound targets too.
// Everything read from the config or the disk is printed inert (control characters escaped).

import { inert } from '../display.js';
import { formatDrift, type ConsentInfo } from '../consent/state.js';
import { describeOutboundTarget, formatOutboundList } from '../outbound/describe.js';
import type { HookSpec } from '../types.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { painter, type Paint } from './_color.js';
import { writeLine, type CliIO } from './_io.js';
import { missingConfigNote, openProfile, openStore, type Profile } from './_profile.js';
import type { ConsentStore } from '../consent/store.js';
import { formatDiagnostic } from './_report.js';

type Row = { spec: HookSpec; consent: ConsentInfo };

export async function listCommand({ values }: ParsedArgs, io: CliIO): Promise<number> {
  const profile = await openProfile(discoveryOf(values), io);
  const store = await openStore(profile, io);
  const rows: Row[] = [];
  for (const spec of profile.config.specs) rows.push({ spec, consent: await store.state(spec) });

  if (values.json) {
    writeLine(io.stdout, JSON.stringify(listJson(profile, store, rows)));
    return 0;
  }

  const paint = painter(io);
  const configFile = inert(profile.configFile);
  const refused = store.refused !== null ? paint('red', `✗ ${inert(store.refused)}`) : null;
  if (rows.length === 0 && refused !== null) writeLine(io.stdout, refused);
  const missing = missingConfigNote(profile);
  if (missing) {
    writeLine(io.stdout, inert(missing));
    return 0;
  }
  // Another agent's block under hooks: is never "no hooks": its guards are there, and not guarding.
  const foreignPaths = new Set(profile.config.foreign.map((f) => `hooks.${f.key}`));
  const foreign = profile.diagnostics.filter((d) => d.level === 'error' && foreignPaths.has(d.path));
  const sayForeign = (): number => {
    for (const d of foreign) writeLine(io.stdout, paint('red', `✗ ${formatDiagnostic(d, paint)}`));
    return foreign.length > 0 ? 1 : 0;
  };
  if (rows.length === 0 && profile.outbound.length === 0) {
    writeLine(
      io.stdout,
      foreign.length > 0
        ? `No Hermes shell hooks in ${configFile}: its hooks: block is another agent's.`
        : `No shell hooks or outbound webhooks configured in ${configFile}.`,
    );
    return sayForeign();
  }
  if (rows.length === 0) writeLine(io.stdout, `No shell hooks configured in ${configFile}.`);
  else {
    writeLine(io.stdout, `Configured shell hooks (${rows.length} total) in ${configFile}:`);
    if (refused !== null) writeLine(io.stdout, `  ${refused}`);
    writeLine(io.stdout);
    printRows(io, rows, paint);
  }
  if (profile.outbound.length) io.stdout.write(formatOutboundList(profile.outbound));
  return sayForeign();
}

function listJson(profile: Profile, store: ConsentStore, rows: readonly Row[]): Record<string, unknown> {
  return {
    config: profile.configFile,
    config_exists: profile.config.exists,
    home: profile.home,
    profile: profile.profile,
    allowlist: { path: store.path, refused: store.refused },
    hooks: rows.map(({ spec, consent }) => ({
      event: spec.event,
      index: spec.index,
      command: spec.command,
      matcher: spec.matcher,
      timeout: spec.timeout,
      fail_closed: spec.fail_closed,
      dialect: spec.dialect,
      consent,
    })),
    outbound: profile.outbound.map(describeOutboundTarget),
    diagnostics: profile.diagnostics,
  };
}

/** Each hook with its consent, under its event: events in the order the config first names them, hooks in config order within each. */
function printRows(io: CliIO, rows: readonly Row[], paint: Paint): void {
  const events = [...new Set(rows.map((r) => r.spec.event))];
  for (const event of events) {
    writeLine(io.stdout, `  [${event}]`);
    for (const { spec, consent } of rows.filter((r) => r.spec.event === event)) {
      const bits = [`timeout=${spec.timeout}s`];
      if (spec.fail_closed) bits.push('fail_closed');
      if (spec.dialect !== 'hermes') bits.push(`dialect=${spec.dialect}`);
      bits.push(consentLabel(consent, paint));
      writeLine(io.stdout, `    - ${inert(spec.command)}${spec.matcher !== null ? ` matcher='${inert(spec.matcher)}'` : ''} (${bits.join(', ')})`);
      if (consent.approved_at) {
        const pin = consent.pinned
          ? `  sha256 ${consent.approved_sha256?.slice(0, 12)}…`
          : consent.state === 'unpinned'
            ? '  (no hash: approved by Hermes or by hand — re-approve to pin)'
            : '';
        writeLine(io.stdout, `      approved_at: ${inert(consent.approved_at)}${pin}`);
      }
      if (consent.script_note) writeLine(io.stdout, paint('dim', `      pins: ${inert(consent.script_path ?? '?')} (${inert(consent.script_note)})`));
      if (consent.untrusted !== null) writeLine(io.stdout, paint('red', `      ⚠ ${inert(consent.untrusted)}`));
      if (consent.state === 'modified')
        writeLine(io.stdout, paint('yellow', `      ⚠ ${inert(consent.reason)} — review it, then 'hermes-hooks approve' it again`));
      else {
        const drift = formatDrift(consent);
        if (drift && consent.mtime_drift) writeLine(io.stdout, paint('yellow', `      ⚠ ${inert(drift)}`));
      }
    }
    writeLine(io.stdout);
  }
}

function consentLabel(c: ConsentInfo, paint: Paint): string {
  if (c.untrusted !== null) return paint('red', '✗ not trusted (it will not run)');
  switch (c.state) {
    case 'approved':
      return paint('green', '✓ approved');
    case 'unpinned':
      return paint('yellow', 'unpinned');
    case 'modified':
      return paint('red', '✗ modified since approval');
    case 'not_approved':
      return paint('yellow', c.allowlist_error !== null ? '✗ not approved (allowlist refused)' : '✗ not approved');
    default: {
      // Every consent state has its label: a new one in consent-states.ts fails to compile here.
      const unlabelled: never = c.state;
      return unlabelled;
    }
  }
}

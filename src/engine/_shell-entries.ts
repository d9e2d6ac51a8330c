// The shell-hook entries of one generation: each configured spec with the consent start-up decided
// for it (or, in the dry run, the consent it would meet), and another agent's entries that are
// registered not to run.

import type { LoadedConfig } from '../config/load.js';
import { compileMatcher } from '../config/matcher.js';
import { LaunchGate } from '../consent/launch.js';
import { applyConsentPolicy } from '../consent/policy.js';
import type { ConsentStore } from '../consent/store.js';
import type { DialectMaps } from '../dialects/names.js';
import { AGENT_LABELS, isAgentDialect } from '../dialects/names.js';
import { importCommandFor } from '../dialects/recognise.js';
import { EVENTS } from '../events.js';
import type { HookSpec } from '../types.js';
import type { ResolvedEngineOptions } from './options.js';
import type { ShellEntry } from './registry.js';

/**
 * Consent enforced: decided now (prompting when `interactive`, approving under blanket acceptance
 * `accept`, which run-rule.ts decides),
 * and again at each launch by the returned gate (null under safe mode, where nothing is
 * registered). The dry run (enforceConsent false): every spec registered with its consent as it
 * is, listed but never run under safe mode.
 */
export async function consentedEntries(
  opts: ResolvedEngineOptions,
  store: ConsentStore,
  specs: readonly HookSpec[],
  how: { accept: boolean; configTrusted: boolean; interactive: boolean; previous: LaunchGate | null },
): Promise<{ entries: ShellEntry[]; gate: LaunchGate | null }> {
  const entries: ShellEntry[] = [];
  if (!opts.enforceConsent) {
    // The dry run: consent reported, not enforced. Safe mode still holds: listed, never run.
    for (const spec of specs) {
      const matcher = compileMatcher(spec.matcher);
      entries.push({ kind: 'shell', event: spec.event, spec, matcher, consent: await store.state(spec), action: opts.safeMode ? 'safe_mode' : 'run' });
    }
    return { entries, gate: null };
  }
  const warn = (m: string): void => opts.logger.warn(m);
  const { accept } = how;
  const outcomes = await applyConsentPolicy(specs, {
    store,
    accept,
    safeMode: opts.safeMode,
    interactive: how.interactive,
    // A host that said "never prompt" is never told to approve at a prompt.
    promptable: opts.promptable,
    prompt: opts.prompt,
    warn,
    blanketAccept: how.configTrusted,
  });
  if (opts.safeMode) return { entries, gate: null };
  // A rebuild (serve reloads on every allowlist change) keeps which hooks the previous gate let run,
  // so a revoke is said as 'revoked' whether the reload or the next call comes first.
  const gate = new LaunchGate({ store, accept, warn, promptable: opts.promptable, blanketAccept: how.configTrusted, previous: how.previous });
  for (const o of outcomes) {
    gate.noteStartup(o);
    entries.push({ kind: 'shell', event: o.spec.event, spec: o.spec, matcher: compileMatcher(o.spec.matcher), consent: o.consent, action: 'run' });
  }
  return { entries, gate };
}

/** Strict mode's blockers: each tool-gate guard the config meant but that cannot be registered (config/strict.ts). */
export function refusedEntries(config: LoadedConfig): ShellEntry[] {
  return config.refused.map((r, index): ShellEntry => {
    const spec: HookSpec = {
      event: 'pre_tool_call',
      command: r.path,
      matcher: r.matcher,
      timeout: 60,
      fail_closed: true,
      dialect: 'hermes',
      index,
      path: r.path,
      line: null,
      column: null,
    };
    return { kind: 'shell', event: 'pre_tool_call', spec, matcher: compileMatcher(r.matcher), consent: null, action: 'refused', note: r.message };
  });
}

/**
 * The entries of another agent's block under `hooks:`, as they would be once converted (the same
 * conversion `hermes-hooks import` writes), registered not to run: each says how to convert it,
 * and on a tool gate blocks the calls its matcher selects. Loaded only when such a block exists.
 */
export async function unconvertedEntries(config: LoadedConfig, maps: DialectMaps): Promise<ShellEntry[]> {
  const { importAgentConfig } = await import('../import/import.js');
  const imported = importAgentConfig(config.file, config.source.text, { maps, hermesConfig: true });
  if (!isAgentDialect(imported.dialect)) return [];
  const agent = imported.dialect;
  const fix = importCommandFor(config.file, agent);
  return imported.hooks.map((h, index): ShellEntry => {
    const spec: HookSpec = {
      event: h.event,
      command: h.command,
      matcher: h.matcher,
      timeout: h.timeout ?? 60,
      fail_closed: h.fail_closed,
      dialect: h.dialect,
      index,
      path: h.source,
      line: null,
      column: null,
    };
    const note =
      `${h.source} in ${config.file} is written in ${AGENT_LABELS[agent]}'s format, which Hermes does not read, so it did not run` +
      `${EVENTS[h.event].canBlock ? ' and this call it would have checked is blocked' : ''} — convert it with: ${fix}`;
    return { kind: 'shell', event: h.event, spec, matcher: compileMatcher(h.matcher), consent: null, action: 'not_converted', note };
  });
}

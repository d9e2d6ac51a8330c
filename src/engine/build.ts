// The per-config build: from one config.yaml as read, everything it decides — consent for its shell
// hooks, its plugins, guardrails and webhooks — as one Generation, which reload() swaps in whole.
// A rebuild reuses from the previous generation whatever did not change (plugin workers,
// guardrail counts, the webhook dispatcher). Plugin and outbound code is imported only when the
// config uses it: `hermes-hooks run` starts once per event and should load no more than it runs.

import { join } from 'node:path';
import { canonicalJson } from '../json.js';
import type { CheckedLocation } from '../config/check-location.js';
import { foreignAutoAcceptDiagnostic, type LoadedConfig } from '../config/load.js';
import { CONFIG_FILE_NAME } from '../config/locate.js';
import { acceptsUnapproved, blanketAcceptSources } from '../consent/run-rule.js';
import { ConsentStore } from '../consent/store.js';
import type { LaunchGate } from '../consent/launch.js';
import { judgeSubjects, passes, profileSubjects, trustWarnings, type JudgedSubject } from '../consent/trust.js';
import type { DialectMaps } from '../dialects/names.js';
import { createToolLoopGuardrails, parseGuardrailsConfig, type GuardrailsConfig, type ToolLoopGuardrails } from '../guardrails/guardrails.js';
import { parseOutboundConfig } from '../outbound/config.js';
import type { OutboundTarget } from '../outbound/types.js';
import type { OutboundDispatcher } from '../outbound/dispatcher.js';
import { parsePluginsConfig } from '../plugins/config.js';
import type { Diagnostic } from '../types.js';
import { consentedEntries, refusedEntries, unconvertedEntries } from './_shell-entries.js';
import type { ResolvedEngineOptions } from './options.js';
import type { CallbackEntry, ShellEntry } from './registry.js';

/** Everything the config decides; rebuilt by reload() and swapped in one assignment. */
export interface Generation {
  config: LoadedConfig;
  /** Consent re-checked right before every launch (null: dry run or safe mode). */
  gate: LaunchGate | null;
  diagnostics: Diagnostic[];
  untrusted: JudgedSubject[];
  shellEntries: ShellEntry[];
  callbackEntries: CallbackEntry[];
  dialectMaps: DialectMaps;
  guardrails: ToolLoopGuardrails | null;
  guardKey: string;
  dispatcher: OutboundDispatcher | null;
  outboundKey: string;
  pluginsKey: string;
  /** Stops the plugins' workers (threads / python3 processes) this generation started. */
  closePlugins: () => Promise<void>;
  callbackTimeoutMs: number | null;
}

/** What every build reads: where the profile is and the engine's resolved options. */
export interface BuildContext {
  location: CheckedLocation;
  opts: ResolvedEngineOptions;
}

/** Decide consent and load what `config` enables; `interactive`: the TTY prompt may be shown (start-up only). */
export async function buildGeneration(ctx: BuildContext, config: LoadedConfig, prev: Generation | null, interactive: boolean): Promise<Generation> {
  const { location, opts } = ctx;
  const source = config.source;
  const plugins = parsePluginsConfig(source);
  const guard = parseGuardrailsConfig(source);
  const outbound = parseOutboundConfig(source, opts.env);
  const diagnostics: Diagnostic[] = [
    ...config.diagnostics,
    ...plugins.diagnostics,
    ...config.dialects.diagnostics,
    ...guard.diagnostics,
    ...outbound.diagnostics,
  ];
  // The trust rule: a config (or a home) another user can write grants nothing (see trustOf).
  const asked = { acceptHooks: opts.acceptHooks, env: opts.env, autoAccept: config.autoAccept, ownConfig: location.ownConfig };
  const trust = trustOf(location, [...blanketAcceptSources(asked), ...grantsAsked(plugins.enabled, outbound.targets)]);
  diagnostics.push(...trust.diagnostics);
  noteForeignAutoAccept(ctx, config, diagnostics);

  // Consent: at load, like Hermes registration (prompts and --accept-hooks approvals happen here,
  // never on reload; safe mode drops every shell hook); then again right before every launch
  // (LaunchGate), so an edited script, a revoke or an approve from another process counts at the
  // next emit. Only the implicit default home may be created by a first approval; a given one exists already.
  const store = await ConsentStore.open(location.home, {
    warn: (m) => opts.logger.warn(m),
    cwd: opts.cwd,
    env: opts.env,
    createHome: location.homeFrom === 'default',
  });
  const wanted = opts.events;
  const specs = wanted ? config.specs.filter((s) => wanted.has(s.event)) : config.specs;
  const shell = await consentedEntries(opts, store, specs, {
    accept: acceptsUnapproved({ ...asked, configTrusted: trust.configTrusted }),
    configTrusted: trust.configTrusted,
    interactive,
    previous: prev?.gate ?? null,
  });
  // Another agent's block under hooks: (issue 20): its entries never run, and a guard among them
  // blocks the calls it would have checked until it is converted. Nothing runs in safe mode.
  if (config.foreign.length > 0 && !opts.safeMode) {
    for (const entry of await unconvertedEntries(config, config.dialects.maps)) if (!wanted || wanted.has(entry.event)) shell.entries.push(entry);
  }
  // Strict mode: a tool-gate guard the config meant but cannot register blocks what it would have checked.
  if (config.strict && !opts.safeMode && (!wanted || wanted.has('pre_tool_call'))) shell.entries.push(...refusedEntries(config));

  const enabledPlugins = trust.configTrusted ? plugins.enabled : [];
  const loaded = await pluginsOf(ctx, enabledPlugins, prev);
  diagnostics.push(...loaded.diagnostics);
  const guardrails = guardrailsOf(ctx, guard.config, prev);
  const wantsOutbound = opts.outbound && !opts.safeMode && trust.configTrusted && outbound.targets.length > 0;
  const webhooks = await dispatcherOf(ctx, wantsOutbound ? outbound.targets : null, prev);
  return {
    config,
    gate: shell.gate,
    diagnostics,
    untrusted: trust.untrusted,
    shellEntries: shell.entries,
    callbackEntries: loaded.callbackEntries,
    dialectMaps: config.dialects.maps,
    ...guardrails,
    ...webhooks,
    pluginsKey: loaded.pluginsKey,
    closePlugins: loaded.closePlugins,
    callbackTimeoutMs: plugins.hookCallbackTimeoutMs,
  };
}

/** What an untrusted config would have granted besides blanket acceptance, in words for its diagnostic. */
function grantsAsked(plugins: readonly string[], targets: readonly unknown[]): string[] {
  return [
    ...(plugins.length > 0 ? [`plugins.enabled (${plugins.join(', ')})`] : []),
    ...(targets.length > 0 ? [`hooks.outbound (${targets.length} webhook target(s))`] : []),
  ];
}

/**
 * The profile home and the config file under the trust rule (consent/trust.ts), with what failing
 * it costs here: an untrusted config grants nothing — its hooks run only when already approved,
 * blanket acceptance (hooks_auto_accept, --accept-hooks, HERMES_ACCEPT_HOOKS) does not apply to
 * them, its plugins.enabled and hooks.outbound are not used — and an untrusted home's allowlist,
 * plugins/, hooks/ and BOOT.md are refused by their own readers under the same rule.
 * `ignored`: what the config asked for that it does not get when it is untrusted.
 */
function trustOf(location: CheckedLocation, ignored: readonly string[]): { configTrusted: boolean; untrusted: JudgedSubject[]; diagnostics: Diagnostic[] } {
  const configConsequence =
    'Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks)' +
    (ignored.length > 0 ? `; ignored: ${ignored.join(', ')}.` : '.');
  const untrusted = judgeSubjects(profileSubjects(location.home, location.configFile, { configConsequence }));
  const configTrusted = passes(untrusted, location.configFile);
  return { configTrusted, untrusted, diagnostics: trustWarnings(untrusted) };
}

/** hooks_auto_accept approves only from the profile's own config.yaml: one given elsewhere is said to be ignored. */
function noteForeignAutoAccept({ location, opts }: BuildContext, config: LoadedConfig, diagnostics: Diagnostic[]): void {
  const foreign = location.ownConfig ? null : foreignAutoAcceptDiagnostic(config, join(location.home, CONFIG_FILE_NAME));
  if (!foreign) return;
  diagnostics.push(foreign);
  opts.logger.warn(`${config.file}:${foreign.line ?? '?'}:${foreign.column ?? '?'}: hooks_auto_accept ${foreign.message}`);
}

/** The enabled plugins' callbacks: the previous generation's while the list is the same, else loaded now. */
async function pluginsOf(
  { location, opts }: BuildContext,
  enabled: readonly string[],
  prev: Generation | null,
): Promise<{ callbackEntries: CallbackEntry[]; closePlugins: () => Promise<void>; pluginsKey: string; diagnostics: Diagnostic[] }> {
  const pluginsKey = canonicalJson(enabled);
  if (prev && prev.pluginsKey === pluginsKey) return { callbackEntries: prev.callbackEntries, closePlugins: prev.closePlugins, pluginsKey, diagnostics: [] };
  const none = { callbackEntries: [], closePlugins: async (): Promise<void> => {}, pluginsKey, diagnostics: [] };
  if (!opts.plugins || opts.safeMode || enabled.length === 0) return none;
  const { loadPlugins } = await import('../plugins/load.js');
  const loaded = await loadPlugins({ home: location.home, enabled: [...enabled], safeMode: opts.safeMode, logger: opts.logger, env: opts.env });
  const callbackEntries = loaded.hooks.map((h): CallbackEntry => ({ kind: 'plugin', event: h.event, name: h.name, plugin: h.plugin, callback: h.callback }));
  return { callbackEntries, closePlugins: loaded.close, pluginsKey, diagnostics: loaded.diagnostics };
}

/** Guardrail counts are session state: kept unless the thresholds themselves changed. */
function guardrailsOf({ opts }: BuildContext, config: GuardrailsConfig, prev: Generation | null): { guardrails: ToolLoopGuardrails | null; guardKey: string } {
  const guardKey = canonicalJson(config);
  if (prev && prev.guardKey === guardKey) return { guardrails: prev.guardrails, guardKey };
  // Hermes' pre_tool_call kwargs carry no platform: a gateway host is unattended unless it says otherwise.
  const guardrails = createToolLoopGuardrails(config, { defaultPlatform: opts.surface === 'gateway' ? 'gateway' : null });
  if (prev) opts.logger.warn('tool-loop guardrail settings changed: their per-session counts start over');
  return { guardrails, guardKey };
}

/** The webhook dispatcher for `targets` (null: none wanted): the previous one while the targets are the same. */
async function dispatcherOf(
  { location, opts }: BuildContext,
  targets: OutboundTarget[] | null,
  prev: Generation | null,
): Promise<{ dispatcher: OutboundDispatcher | null; outboundKey: string }> {
  const outboundKey = targets ? canonicalJson(targets) : '';
  if (prev && prev.outboundKey === outboundKey) return { dispatcher: prev.dispatcher, outboundKey };
  if (!targets) return { dispatcher: null, outboundKey };
  const { createOutboundDispatcher } = await import('../outbound/dispatcher.js');
  return { dispatcher: createOutboundDispatcher(targets, { profile: location.profile, cwd: opts.cwd, logger: opts.logger }), outboundKey };
}

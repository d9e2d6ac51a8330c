// What every operator command starts from: the located profile, its loaded config with every
// section's diagnostics, and its consent store. No hooks run here.

import { inert } from '../_display.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { locateConfig } from '../config/locate.js';
import { ConsentStore } from '../consent/store.js';
import { parseDialectsConfig } from '../dialects/names.js';
import { parseGuardrailsConfig } from '../guardrails/guardrails.js';
import { parseOutboundConfig } from '../outbound/dispatcher.js';
import type { OutboundTarget } from '../outbound/types.js';
import { parsePluginsConfig } from '../plugins/config.js';
import type { Diagnostic } from '../types.js';
import type { Discovery } from './_args.js';
import { CliError, type CliIO } from './_io.js';

export interface Profile {
  home: string;
  profile: string;
  configFile: string;
  config: LoadedConfig;
  outbound: OutboundTarget[];
  /** hooks, outbound, guardrails, plugins and dialects diagnostics, in file order. */
  diagnostics: Diagnostic[];
}

export async function openProfile(discovery: Discovery, io: CliIO, opts: { configFile?: string } = {}): Promise<Profile> {
  let location;
  try {
    location = locateConfig({ ...discovery, ...(opts.configFile ? { config: opts.configFile } : {}), env: io.env });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const config = await loadConfig(location.configFile);
  const diagnostics = [...config.diagnostics];
  let outbound: OutboundTarget[] = [];
  if (config.exists && !config.source.syntaxError) {
    const out = parseOutboundConfig(config.source, io.env);
    outbound = out.targets;
    diagnostics.push(
      ...out.diagnostics,
      ...parseGuardrailsConfig(config.source).diagnostics,
      ...parsePluginsConfig(config.source).diagnostics,
      ...parseDialectsConfig(config.source).diagnostics,
    );
  }
  diagnostics.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { home: location.home, profile: location.profile, configFile: location.configFile, config, outbound, diagnostics };
}

export function openStore(profile: Profile, io: CliIO): Promise<ConsentStore> {
  return ConsentStore.open(profile.home, { warn: (m) => io.stderr.write(`hermes-hooks: warning: ${inert(m, { keepNewlines: true })}\n`), cwd: io.cwd, env: io.env });
}

// What every operator command starts from: the located profile, its loaded config with every
// section's diagnostics, and its consent store. No hooks run here.
//
// A location the user gave that does not exist, and a config that cannot be read or parsed, are
// errors naming the file (and line:column) for every command: a broken guard must never read as
// "no hooks". Only validate, whose job is to list the problems, sees a broken config.

import { inert } from '../display.js';
import { checkLocation, type CheckedLocation } from '../config/check-location.js';
import { configLoadError, foreignAutoAcceptDiagnostic, loadConfig, type LoadedConfig } from '../config/load.js';
import { CONFIG_FILE_NAME, ConfigLocationError, locateConfig } from '../config/locate.js';
import { ConsentStore } from '../consent/store.js';
import { judgeSubjects, passes, profileSubjects, trustWarnings, type JudgedSubject } from '../consent/trust.js';
import { TOKEN_FILE_NAME } from '../serve/auth.js';
import { parseGuardrailsConfig } from '../guardrails/guardrails.js';
import { parseOutboundConfig } from '../outbound/dispatcher.js';
import type { OutboundTarget } from '../outbound/types.js';
import { parsePluginsConfig } from '../plugins/config.js';
import type { Diagnostic } from '../types.js';
import type { Discovery } from './_args.js';
import { CliError, type CliIO } from './_io.js';
import { join } from 'node:path';

export interface Profile {
  home: string;
  profile: string;
  configFile: string;
  location: CheckedLocation;
  config: LoadedConfig;
  outbound: OutboundTarget[];
  /** hooks, outbound, guardrails, plugins and dialects diagnostics, in file order; then trust. */
  diagnostics: Diagnostic[];
  /** What fails the trust rule (consent/trust.ts), each with why and the fix. */
  untrusted: JudgedSubject[];
  /** The warnings saying so (one per subject with something new to say); also in `diagnostics`. */
  trustDiagnostics: Diagnostic[];
  /** The config file fails the trust rule: nothing in it is granted (no blanket approval, plugins, webhooks). */
  configTrusted: boolean;
}

/** Locate and check the profile; a ConfigLocationError becomes a CliError (exit 1). */
export async function locateProfile(discovery: Discovery, io: CliIO, opts: ProfileOptions = {}): Promise<CheckedLocation> {
  try {
    const location = locateConfig({ ...discovery, ...(opts.configFile !== undefined ? { config: opts.configFile } : {}), env: io.env });
    return await checkLocation(location, opts.configFile !== undefined ? { configGivenBy: 'given on the command line' } : {});
  } catch (e) {
    if (e instanceof ConfigLocationError) throw new CliError(e.message);
    throw e;
  }
}

export interface ProfileOptions {
  /** A config file given as an argument (`validate FILE`), instead of --config. */
  configFile?: string;
  /** Return a config that cannot be read or parsed (validate lists its problems) instead of failing. */
  allowBroken?: boolean;
  /**
   * Judge the whole profile under the trust rule — plugins/, hooks/, BOOT.md and serve's token file
   * too (doctor) — not only the home and the config file (every command).
   */
  wholeProfile?: boolean;
}

export async function openProfile(discovery: Discovery, io: CliIO, opts: ProfileOptions = {}): Promise<Profile> {
  const location = await locateProfile(discovery, io, opts);
  const config = await loadConfig(location.configFile);
  if (!opts.allowBroken) {
    const broken = configLoadError(config);
    if (broken) throw new CliError(`cannot use config: ${broken}`);
  }
  const diagnostics = [...config.diagnostics];
  const foreign = location.ownConfig ? null : foreignAutoAcceptDiagnostic(config, join(location.home, CONFIG_FILE_NAME));
  if (foreign) diagnostics.push(foreign);
  let outbound: OutboundTarget[] = [];
  if (config.exists && !config.source.syntaxError) {
    const out = parseOutboundConfig(config.source, io.env);
    outbound = out.targets;
    diagnostics.push(
      ...out.diagnostics,
      ...parseGuardrailsConfig(config.source).diagnostics,
      ...parsePluginsConfig(config.source).diagnostics,
      ...config.dialects.diagnostics,
    );
  }
  diagnostics.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const subjects = profileSubjects(location.home, location.configFile, { layout: opts.wholeProfile === true });
  if (opts.wholeProfile) {
    const token = { what: 'serve token file', path: join(location.home, TOKEN_FILE_NAME), kind: 'file' as const, secret: true };
    subjects.push({ ...token, consequence: 'serve --http refuses to start with it.' });
  }
  const untrusted = judgeSubjects(subjects);
  const trustDiagnostics = trustWarnings(untrusted);
  diagnostics.push(...trustDiagnostics);
  const configTrusted = passes(untrusted, location.configFile);
  return {
    home: location.home,
    profile: location.profile,
    configFile: location.configFile,
    location,
    config,
    outbound,
    diagnostics,
    untrusted,
    trustDiagnostics,
    configTrusted,
  };
}

/**
 * What to say when there is no config file: the implicit default without one is simply "no hooks
 * yet"; a home the user named without one is most likely a mistake, so it is said as such.
 */
export function missingConfigNote({ location, config }: { location: CheckedLocation; config: LoadedConfig }): string | null {
  if (config.exists) return null;
  return location.homeFrom === 'default'
    ? `No config file at ${location.configFile}: no hooks are configured.`
    : `No config file at ${location.configFile}: the profile home ${location.home} (given by ${givenBy(location)}) has no ${CONFIG_FILE_NAME}, so no ` +
        `hooks are configured there.`;
}

function givenBy(location: CheckedLocation): string {
  return location.homeFrom === 'HERMES_HOME' ? '$HERMES_HOME' : `--${location.homeFrom}`;
}

export function openStore(profile: Profile, io: CliIO): Promise<ConsentStore> {
  return ConsentStore.open(profile.home, {
    warn: (m) => io.stderr.write(`hermes-hooks: warning: ${inert(m, { keepNewlines: true })}\n`),
    cwd: io.cwd,
    env: io.env,
    // Only the implicit default ~/.hermes may be created by a first approval.
    createHome: profile.location.homeFrom === 'default',
  });
}

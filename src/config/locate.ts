// Find the profile home and the config file to read (DESIGN "CLI contract"). Pure path arithmetic:
// no file is read here (check-location.ts does the looking).
//
// The profile home — where the user's allowlist, plugins and gateway hooks live, and the
// HERMES_HOME hooks see — is --profile NAME (<root>/profiles/NAME), else --home DIR, else
// $HERMES_HOME, else ~/.hermes; <root> is $HERMES_HOME or ~/.hermes. --config FILE only says which
// config file to read: a config never chooses the allowlist that approves it (issue 15 item 5).

import { homedir as osHomedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { HooksError } from '../errors.js';

/** Where to look for the profile: the options of createHookEngine and the CLI flags. */
export interface LocateOptions {
  /** --config FILE: the config file to read (the profile home is found as without it). */
  config?: string;
  /** --profile NAME: <root>/profiles/NAME. */
  profile?: string;
  /** --home DIR. */
  home?: string;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Defaults to env.HOME, else os.homedir(). */
  homedir?: string;
  /** How errors name the options: as CLI flags (default) or as library option names. */
  naming?: 'cli' | 'library';
}

/** What chose a path: an explicit option or variable, or the implicit default (~/.hermes). */
export type LocationSource = 'config' | 'profile' | 'home' | 'HERMES_HOME' | 'default';

/** The profile home, the config file and the profile name found by locateConfig. */
export interface ConfigLocation {
  /** The profile home (allowlist, plugins, gateway hooks and HERMES_HOME for hooks live here). */
  home: string;
  configFile: string;
  /** The profile name hooks see on stdin: NAME for --profile, `<x>/profiles/NAME` → NAME, else "default". */
  profile: string;
  /** $HERMES_HOME or ~/.hermes: where `profiles/` lives. */
  root: string;
  /** What chose the profile home. */
  homeFrom: Exclude<LocationSource, 'config'>;
  /** What chose the config file: 'config' for --config, else the home's source. */
  configFrom: LocationSource;
  /** The config file is the profile's own `<home>/config.yaml` (by path; check-location also compares files). */
  ownConfig: boolean;
}

export const CONFIG_FILE_NAME = 'config.yaml';

/** Thrown when a location was given but is empty, malformed, or (check-location) does not exist. */
export class ConfigLocationError extends HooksError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config_location', message, options);
  }
}

/** Find the profile home and config file as the CLI does (profile › home › $HERMES_HOME › ~/.hermes). */
export function locateConfig(opts: LocateOptions = {}): ConfigLocation {
  const env = opts.env ?? process.env;
  // $HOME of the given env first (as os.homedir() does for process.env), so a caller's env is honoured.
  const userHome = opts.homedir ?? (env.HOME && env.HOME.trim() !== '' ? env.HOME : osHomedir());
  const expand = (p: string): string => resolve(expandTilde(p, userHome));

  // An empty value given on purpose is a mistake, not "use the default" (`--config "$UNSET_VAR"`).
  for (const key of ['config', 'profile', 'home'] as const) {
    const value = opts[key];
    if (value !== undefined && value.trim() === '') {
      throw new ConfigLocationError(`${optionName(key, opts.naming)} is empty: ${EMPTY_HINT[key]}`);
    }
  }
  if (opts.profile !== undefined) validateProfileName(opts.profile);
  const hermesHome = env.HERMES_HOME && env.HERMES_HOME.trim() !== '' ? expand(env.HERMES_HOME) : null;
  const root = hermesHome ?? join(resolve(userHome), '.hermes');

  let home: string;
  let homeFrom: ConfigLocation['homeFrom'];
  if (opts.profile !== undefined) [home, homeFrom] = [join(root, 'profiles', opts.profile), 'profile'];
  else if (opts.home !== undefined) [home, homeFrom] = [expand(opts.home), 'home'];
  else if (hermesHome !== null) [home, homeFrom] = [hermesHome, 'HERMES_HOME'];
  else [home, homeFrom] = [root, 'default'];

  const ownFile = join(home, CONFIG_FILE_NAME);
  const configFile = opts.config !== undefined ? expand(opts.config) : ownFile;
  const configFrom: LocationSource = opts.config !== undefined ? 'config' : homeFrom;
  const profile = opts.profile ?? profileNameOf(home);
  return { home, configFile, profile, root, homeFrom, configFrom, ownConfig: configFile === ownFile };
}

const EMPTY_HINT = {
  config: 'give the path of a config file, or leave the option out to use the profile home',
  profile: 'give a profile name (a directory under <root>/profiles), or leave the option out',
  home: 'give a profile home directory, or leave the option out',
} as const;

/** How messages name an option or variable. */
export function optionName(source: LocationSource, naming: LocateOptions['naming'] = 'cli'): string {
  if (source === 'HERMES_HOME') return '$HERMES_HOME';
  if (source === 'default') return 'the default';
  return naming === 'library' ? `the \`${source}\` option` : `--${source}`;
}

/** `<anything>/profiles/<name>` → name; every other home is the "default" profile. */
export function profileNameOf(home: string): string {
  const name = basename(home);
  return basename(dirname(home)) === 'profiles' && name !== '' ? name : 'default';
}

/** A profile name becomes one path segment; refuse anything that could escape `profiles/`. */
export function validateProfileName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\') || name.includes('\0')) {
    throw new ConfigLocationError(
      `invalid profile name ${JSON.stringify(name)}: a profile name must be non-empty, must not be '.' or '..', ` + `and must not contain '/', '\\' or NUL`,
    );
  }
}

/** `~` and `~/…` → the user's home directory (as Python's expanduser does for the current user). */
export function expandTilde(p: string, userHome: string): string {
  if (p === '~') return userHome;
  if (p.startsWith('~/')) return join(userHome, p.slice(2));
  return p;
}

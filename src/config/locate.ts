// Find the profile home and its config.yaml (DESIGN "CLI contract"):
// --config FILE, else --profile NAME (<root>/profiles/NAME), else --home DIR, else $HERMES_HOME,
// else ~/.hermes; <root> is $HERMES_HOME or ~/.hermes. Pure path arithmetic: no file is read.

import { homedir as osHomedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export interface LocateOptions {
  /** --config FILE: the config file itself; its directory is the home. */
  config?: string;
  /** --profile NAME: <root>/profiles/NAME. */
  profile?: string;
  /** --home DIR. */
  home?: string;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Defaults to env.HOME, else os.homedir(). */
  homedir?: string;
}

export interface ConfigLocation {
  /** The profile home (allowlist, gateway hooks and HERMES_HOME for hooks live here). */
  home: string;
  configFile: string;
  /** The profile name hooks see on stdin: NAME for --profile, `<x>/profiles/NAME` → NAME, else "default". */
  profile: string;
  /** $HERMES_HOME or ~/.hermes: where `profiles/` lives. */
  root: string;
}

export const CONFIG_FILE_NAME = 'config.yaml';

export function locateConfig(opts: LocateOptions = {}): ConfigLocation {
  const env = opts.env ?? process.env;
  // $HOME of the given env first (as os.homedir() does for process.env), so a caller's env is honoured.
  const userHome = opts.homedir ?? (env.HOME && env.HOME.trim() !== '' ? env.HOME : osHomedir());
  const expand = (p: string): string => resolve(expandTilde(p, userHome));

  if (opts.profile !== undefined) validateProfileName(opts.profile);
  const hermesHome = env.HERMES_HOME && env.HERMES_HOME.trim() !== '' ? expand(env.HERMES_HOME) : null;
  const root = hermesHome ?? join(resolve(userHome), '.hermes');

  let home: string;
  let configFile: string;
  if (opts.config !== undefined && opts.config !== '') {
    configFile = expand(opts.config);
    home = dirname(configFile);
  } else {
    if (opts.profile !== undefined) home = join(root, 'profiles', opts.profile);
    else if (opts.home !== undefined && opts.home !== '') home = expand(opts.home);
    else home = root;
    configFile = join(home, CONFIG_FILE_NAME);
  }
  // An explicit --profile names the profile even alongside --config; otherwise the home says it.
  const profile = opts.profile ?? profileNameOf(home);
  return { home, configFile, profile, root };
}

/** `<anything>/profiles/<name>` → name; every other home is the "default" profile. */
export function profileNameOf(home: string): string {
  const name = basename(home);
  return basename(dirname(home)) === 'profiles' && name !== '' ? name : 'default';
}

/** A profile name becomes one path segment; refuse anything that could escape `profiles/`. */
export function validateProfileName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\') || name.includes('\0')) {
    throw new Error(
      `invalid profile name ${JSON.stringify(name)}: a profile name must be non-empty, must not be '.' or '..', ` +
        `and must not contain '/', '\\' or NUL`,
    );
  }
}

/** `~` and `~/…` → the user's home directory (as Python's expanduser does for the current user). */
export function expandTilde(p: string, userHome: string): string {
  if (p === '~') return userHome;
  if (p.startsWith('~/')) return join(userHome, p.slice(2));
  return p;
}

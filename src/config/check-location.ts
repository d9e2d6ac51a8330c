// Look at a located profile home and config file before anything is read from them. A location the
// user gave (--config, --profile, --home, $HERMES_HOME) that does not exist is an error naming the
// path and what was looked for; only the implicit default (~/.hermes) may be absent and mean
// "no hooks". A guard must never stop guarding because of a typo in a path.

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigLocationError, optionName, type ConfigLocation, type LocateOptions } from './locate.js';

export interface CheckedLocation extends ConfigLocation {
  /** The profile home exists as a directory (false only for an absent implicit default). */
  homeExists: boolean;
}

export interface CheckOptions {
  naming?: LocateOptions['naming'];
  /** How to say where the config path came from, when not --config (`validate FILE`: "on the command line"). */
  configGivenBy?: string;
}

export async function checkLocation(location: ConfigLocation, opts: CheckOptions = {}): Promise<CheckedLocation> {
  const naming = opts.naming ?? 'cli';
  const home = await kindOf(location.home);
  if (location.homeFrom !== 'default' && (home === 'missing' || home === 'file')) {
    throw new ConfigLocationError(await homeMissingMessage(location, home, naming));
  }
  let ownConfig = location.ownConfig;
  if (location.configFrom === 'config') {
    const file = await kindOf(location.configFile);
    if (file === 'missing') {
      throw new ConfigLocationError(`config file not found: ${location.configFile} (${opts.configGivenBy ?? `given by ${optionName('config', naming)}`})`);
    }
    // A directory or an unreadable file is reported by loadConfig, with what is wrong with it.
    // The same file reached by another path (a symlink) is still the profile's own config.
    if (!ownConfig) ownConfig = await sameFile(location.configFile, join(location.home, 'config.yaml'));
  }
  return { ...location, ownConfig, homeExists: home !== 'missing' };
}

/** 'unknown': stat failed for another reason (EACCES on a parent…); the read then says exactly what. */
type Kind = 'missing' | 'directory' | 'file' | 'unknown';

async function kindOf(path: string): Promise<Kind> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
  }
}

async function homeMissingMessage(location: ConfigLocation, kind: Kind, naming: LocateOptions['naming']): Promise<string> {
  const what = kind === 'missing' ? 'does not exist' : 'is not a directory';
  if (location.homeFrom === 'profile') {
    const dir = join(location.root, 'profiles');
    let names: string[] = [];
    try {
      names = (await readdir(dir, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
    } catch {
      // No profiles directory at all: said below.
    }
    const here = names.length ? `profiles here: ${names.join(', ')}` : `there are no profiles in ${dir}`;
    return `profile '${location.profile}' not found: ${location.home} ${what} (${here})`;
  }
  return `profile home not found: ${location.home} ${what} (given by ${optionName(location.homeFrom, naming)})`;
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

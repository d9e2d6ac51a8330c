// Reads the `.env` files that decide a routed profile's hook environment (serve --profiles): its
// own (its secret scope) and every other profile's, the default's first (their names are kept out).
// The rule itself is spawn/profile-env.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDotEnv, scopeEnvToProfile } from '../spawn/profile-env.js';

export interface RoutedEnvInput {
  /** serve's own environment (the default profile's). */
  base: NodeJS.ProcessEnv;
  /** The routed profile's home. */
  home: string;
  /** Every other profile's home, the default profile's included. */
  otherHomes: readonly string[];
}

/** The environment the routed profile's hooks, plugins and gateway handlers start from. */
export function routedProfileEnv({ base, home, otherHomes }: RoutedEnvInput): NodeJS.ProcessEnv {
  const foreignNames = otherHomes.flatMap((h) => Object.keys(readDotEnv(h)));
  return scopeEnvToProfile(base, { home, secrets: readDotEnv(home), foreignNames });
}

/** `<home>/.env` parsed; absent or unreadable = no secrets. */
function readDotEnv(home: string): Record<string, string> {
  try {
    return parseDotEnv(readFileSync(join(home, '.env'), 'utf8'));
  } catch {
    return {};
  }
}

// exec's PATH look-up, as consent sees it: the file a bare program name runs. I/O.

import { accessSync, constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** First executable regular file named `name` in PATH (empty entries mean the cwd), or null. */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.resolve(cwd, dir === '' ? '.' : dir, name);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * findOnPath, synchronously: the trust rule's look-up of every program a command runs, made at each
 * launch — a stat per PATH entry, without a thread-pool round trip for each.
 */
export function findOnPathSync(name: string, env: NodeJS.ProcessEnv, cwd: string): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.resolve(cwd, dir === '' ? '.' : dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

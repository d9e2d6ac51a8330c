// Temp "user homes" for gateway hook tests: <tmp>/.hermes is the profile home, and <tmp> is HOME
// for python workers, so the seed's handlers (which write under Path.home() / ".hermes") run unchanged.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_HOOKS = fileURLToPath(new URL('../fixtures/gateway/hooks/', import.meta.url));
export const EXAMPLE_HOOKS = fileURLToPath(new URL('../../scripts-examples/gateway-hooks/', import.meta.url));

export interface TempHome {
  user: string;
  home: string;
  hooks: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function tempHome(): Promise<TempHome> {
  const user = await mkdtemp(path.join(tmpdir(), 'hh-gateway-'));
  const home = path.join(user, '.hermes');
  const hooks = path.join(home, 'hooks');
  await mkdir(hooks, { recursive: true });
  return {
    user,
    home,
    hooks,
    env: { ...process.env, HOME: user },
    cleanup: () => rm(user, { recursive: true, force: true }),
  };
}

/** Copy hook folders (from the fixtures or the examples) into the home's hooks/. */
export async function addHooks(t: TempHome, from: string, names: string[], rename: Record<string, string> = {}): Promise<void> {
  for (const n of names) await cp(path.join(from, n), path.join(t.hooks, rename[n] ?? n), { recursive: true });
}

export async function waitFor<T>(probe: () => Promise<T | null> | T | null, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error('waitFor: condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The built library as it is, and optionally a baseline: the same library built from another
// checkout (HH_BENCH_BASELINE=<root of a built checkout>, e.g. the commit before a change), loaded
// into the same process so before and after are measured interleaved, in one run.
import { pathToFileURL } from 'node:url';
import { DIST_INDEX_URL } from './paths.mjs';

/** Root of a built checkout to compare against, or null. */
export const BASELINE = process.env.HH_BENCH_BASELINE || null;

// The public index exports the engine only; the benchmarks also time some internals, from their modules.
const INTERNALS = {
  serializePayload: 'protocol/serialize.js',
  buildPayload: 'protocol/build-payload.js',
  evaluateRun: 'directives/evaluate-run.js',
  resolve: 'resolve/resolve.js',
  spawnHook: 'spawn/run-hook.js',
};

async function loadBuild(distIndexUrl) {
  const lib = { ...(await import(distIndexUrl)) };
  for (const [name, file] of Object.entries(INTERNALS)) lib[name] ??= (await import(new URL(file, distIndexUrl).href))[name];
  return lib;
}

export async function loadEngines() {
  const lib = await loadBuild(DIST_INDEX_URL);
  const base = BASELINE ? await loadBuild(pathToFileURL(`${BASELINE}/dist/index.js`).href) : null;
  if (base && base.createHookEngine === lib.createHookEngine) throw new Error('the baseline is the same module as the library');
  return { lib, base };
}

/**
 * The engine as built, and the baseline's (null without HH_BENCH_BASELINE), on the same home, with
 * the options every in-process benchmark uses (no exit cleanup: the runner process owns its children).
 */
export async function createEnginePair(home, extra = {}) {
  const { lib, base } = await loadEngines();
  const common = { home, acceptHooks: true, interactive: false, exitCleanup: false, ...extra };
  const engine = await lib.createHookEngine({ ...common, logger: lib.silentLogger });
  const engineBase = base ? await base.createHookEngine({ ...common, logger: base.silentLogger }) : null;
  return { lib, base, engine, engineBase };
}

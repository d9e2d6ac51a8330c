// The built library twice: as shipped (execa launch) and with the child_process launch variant.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BENCH, DIST, DIST_INDEX_URL } from './paths.mjs';

let registered = false;

export async function loadEngines() {
  if (!registered) {
    register(pathToFileURL(`${BENCH}/lib/variant-hooks.mjs`).href, {
      data: {
        distPrefix: pathToFileURL(`${DIST}/`).href,
        cpLaunchUrl: pathToFileURL(`${BENCH}/lib/launch-child-process.mjs`).href,
      },
    });
    registered = true;
  }
  const execa = await import(DIST_INDEX_URL);
  const cp = await import(`${DIST_INDEX_URL}?launch=cp`);
  if (execa.createHookEngine === cp.createHookEngine) throw new Error('variant loader did not isolate the engine copy');
  return { execa, cp };
}

/**
 * The engine as shipped and the child_process-launch copy on the same home, with the options every
 * in-process benchmark uses (no exit cleanup: the runner process owns its children).
 */
export async function createEnginePair(home, extra = {}) {
  const { execa: lib, cp: libCp } = await loadEngines();
  const common = { home, acceptHooks: true, interactive: false, exitCleanup: false, ...extra };
  const engine = await lib.createHookEngine({ ...common, logger: lib.silentLogger });
  const engineCp = await libCp.createHookEngine({ ...common, logger: libCp.silentLogger });
  return { lib, engine, engineCp };
}

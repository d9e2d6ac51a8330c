// vitest globalSetup: refuse to test a stale build. Many tests run dist/ (the real binary, the
// bundle); when any file under src/ is newer than the build, they would silently test old code.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
/** Files the build writes last (tsc output, then the CLI bundle and its code cache). */
const BUILD_OUTPUTS = ['dist/index.js', 'dist/cli/bin.js', 'dist/cli/_main.cjs', 'dist/cli/_main.cjs.cache'];

function newestUnder(dir: string): { file: string; mtimeMs: number } {
  let newest = { file: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

export default function checkBuildIsFresh(): void {
  const source = newestUnder(join(ROOT, 'src'));
  for (const out of BUILD_OUTPUTS) {
    let built: number;
    try {
      built = statSync(join(ROOT, out)).mtimeMs;
    } catch {
      throw new Error(`${out} is missing: run \`npm run build\` (npm test builds first).`);
    }
    if (built < source.mtimeMs) {
      throw new Error(
        `${out} is older than ${source.file.slice(ROOT.length + 1)}: the tests would run a stale build. ` + 'Run `npm run build` (npm test builds first).',
      );
    }
  }
}

import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const DIST = `${ROOT}/dist`;
export const BIN = `${DIST}/cli/bin.js`;
export const DIST_INDEX_URL = pathToFileURL(`${DIST}/index.js`).href;
export const BENCH = `${ROOT}/bench`;
export const RESULTS = `${BENCH}/results`;
export const EXIT_USAGE = `${BENCH}/lib/exit-usage.cjs`;

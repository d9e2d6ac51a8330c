// The CLI's start-up path. `npm run build` bundles the whole CLI (main.ts and everything it loads,
// yaml included) into one CommonJS script, dist/cli/_main.cjs, and records V8's compiled
// code for it, after a real `run` and `test`, in _main.cjs.cache. bin.js compiles the bundle with
// that cache, so a `hermes-hooks run` — started once per event by hosts — neither resolves and
// reads ~150 module files nor parses and compiles the code it runs. Node 20 has no code cache for
// ES modules (module.enableCompileCache() arrived in Node 22), hence a script. bench/README.md has
// the numbers. Without a bundle, or with one older than tsc's main.js (a tsc-only rebuild), bin.js
// imports ./main.js as before.
//
// A cache that does not fit — another Node/V8 version or flags (V8 checks), or a bundle that
// changed since (the SHA-1 in the header) — is ignored and the bundle compiles from source. So is
// a damaged one (the SHA-256 of V8's data, the header's second line): release builds of V8 do not
// checksum a code cache (--verify-snapshot-checksum is off), and deserialising damaged data aborts
// the process ("Fatal error … unreachable code") or, worse, runs what it decoded.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import type { CliIO } from './_io.js';

export type MainFn = (argv: string[], io?: CliIO) => Promise<number>;

export const BUNDLE_FILE = '_main.cjs';
export const CACHE_FILE = '_main.cjs.cache';
const CACHE_MAGIC = 'hermes-hooks code cache v2 ';

export interface LoadedBundle {
  main: MainFn;
  script: Script;
  /** 'none': no cache file (or unusable); 'rejected': V8 refused it. */
  cache: 'used' | 'rejected' | 'none';
  /** First header line of a cache of this exact source (the second is the data's SHA-256). */
  cacheHeader: string;
}

/**
 * The bundle wrapped like a CommonJS module, plus two names the build maps onto: the bundle's
 * `import.meta.url` (bin.js's URL, so relative URLs resolve in dist/cli as in tsc's output) and
 * `import()` of user plugin and gateway-hook files (a script compiled from a code cache cannot
 * import() itself, so this module's real import() is passed in).
 */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname, __hhImportMetaUrl, __hhImport) {${source}\n})`;
}

function readCache(file: string, header: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const head = Buffer.byteLength(header);
  const digestEnd = head + DIGEST_HEX_LENGTH;
  if (data.length <= digestEnd + 1 || data.toString('latin1', 0, head) !== header || data[digestEnd] !== 0x0a) return undefined;
  const cachedData = data.subarray(digestEnd + 1);
  return data.toString('latin1', head, digestEnd) === digestOf(cachedData) ? cachedData : undefined;
}

const DIGEST_HEX_LENGTH = 64;

function digestOf(cachedData: Buffer): string {
  return createHash('sha256').update(cachedData).digest('hex');
}

/** True when `a` exists and is older than `b` (false when either is missing). */
function olderThan(a: string, b: string): boolean {
  try {
    return statSync(a).mtimeMs < statSync(b).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Loads dist/cli/_main.cjs from `dir`; null when there is no bundle there, or when tsc has
 * rebuilt main.js since the bundle was made (a tsc-only build: its output is the newer code).
 */
export function loadBundle(dir: string, opts: { useCache?: boolean } = {}): LoadedBundle | null {
  const file = join(dir, BUNDLE_FILE);
  if (olderThan(file, join(dir, 'main.js'))) return null;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const wrapped = wrap(source);
  const cacheHeader = `${CACHE_MAGIC}${createHash('sha1').update(wrapped).digest('hex')}\n`;
  const cachedData = opts.useCache === false ? undefined : readCache(join(dir, CACHE_FILE), cacheHeader);
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as { main?: MainFn } };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const importFile = (specifier: string): Promise<unknown> => import(specifier);
  run(module.exports, createRequire(file), module, file, dir, pathToFileURL(join(dir, 'bin.js')).href, importFile);
  if (typeof module.exports.main !== 'function') throw new Error(`${file} does not export main()`);
  return {
    main: module.exports.main,
    script,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used',
    cacheHeader,
  };
}

/** The cache file's content for a loaded bundle, taken after it has run (so it holds the code it ran). */
export function codeCacheOf(bundle: LoadedBundle): Buffer {
  const cachedData = bundle.script.createCachedData();
  return Buffer.concat([Buffer.from(`${bundle.cacheHeader}${digestOf(cachedData)}\n`, 'latin1'), cachedData]);
}

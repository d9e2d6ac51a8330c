// After tsc: bundle the CLI and record its code cache, make bin.js executable (tsc does not set
// the bit) and ship the Python gateway bootstrap next to the compiled code that starts it.
//
// Why: every host that calls `hermes-hooks run` pays the CLI's start-up once per event. Unbundled,
// that start-up is mostly module loading (execa alone was ~100 files; yaml is the one dependency left on it) and then parsing and
// compiling the code that runs. dist/cli/_main.cjs is the whole CLI in one script and
// _main.cjs.cache is V8's code for it after a real `run` and `test` (src/cli/_bundle.ts loads
// both). The library (dist/index.js and what it imports) stays tsc's unbundled output.
// Numbers: bench/README.md.
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';

const CLI_DIR = 'dist/cli';

/**
 * Rewrites the `import()` of user files (gateway hooks; a plugin is imported by its worker thread) to the `__hhImport` the
 * loader passes in: a script compiled from a code cache cannot import() by itself.
 */
const userImports = {
  name: 'hermes-hooks-user-imports',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import(/* @vite-ignore */')) return undefined;
      return { contents: text.replaceAll('import(/* @vite-ignore */', '__hhImport('), loader: 'ts' };
    });
  },
};

/** esbuild options for the CLI bundle (bench/ builds a variant with the same options). */
export function cliBundleOptions(outdir = CLI_DIR, plugins = []) {
  return {
    entryPoints: ['src/cli/main.ts'],
    outfile: join(outdir, '_main.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    // Everything else the bundle imports lazily becomes an in-bundle call, not an import().
    supported: { 'dynamic-import': false },
    // Loaded only when the OTEL variables turn telemetry on (src/telemetry/index.ts): a plain require() of the installed
    // package at that moment, never part of the script every `run` parses.
    external: ['@opentelemetry/*'],
    define: { 'import.meta.url': '__hhImportMetaUrl' },
    plugins: [...plugins, userImports],
    metafile: true,
    logLevel: 'warning',
  };
}

export async function buildCliBundle(outdir = CLI_DIR, plugins = []) {
  const esbuild = await import('esbuild');
  const options = cliBundleOptions(outdir, plugins);
  await esbuild.build(options);
  const text = readFileSync(options.outfile, 'utf8');
  // A require() of a computed name would be an import() of a user file that escaped the rewrite.
  const computed = text.match(/\brequire\(\s*[^"'\s)][^)]{0,60}/);
  if (computed) throw new Error(`${options.outfile}: require() of a computed name: ${computed[0]}`);
  // Every `new URL(…, import.meta.url)` must name a file that exists relative to dist/cli.
  for (const m of text.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*__hhImportMetaUrl\s*\)/g)) {
    if (!existsSync(join(CLI_DIR, m[1]))) throw new Error(`${options.outfile}: ${m[0]} would not resolve from ${CLI_DIR}`);
  }
}

function trainingIO(stdin) {
  const input = new PassThrough();
  input.end(stdin);
  const sink = new PassThrough();
  sink.resume();
  return { stdin: input, stdout: sink, stderr: sink, env: { ...process.env, HERMES_ACCEPT_HOOKS: '' }, cwd: process.cwd() };
}

/**
 * Runs the bundle in `dir` the way hosts do — `run` (approving, then approved) and `test --json`
 * with one trivial hook in a throw-away home — and writes V8's code for it to _main.cjs.cache.
 */
export async function writeCodeCache(dir = CLI_DIR) {
  const { loadBundle, codeCacheOf, CACHE_FILE } = await import(pathToFileURL(resolve(CLI_DIR, '_bundle.js')).href);
  rmSync(join(dir, CACHE_FILE), { force: true });
  const bundle = loadBundle(resolve(dir), { useCache: false });
  const home = mkdtempSync(join(tmpdir(), 'hermes-hooks-build-'));
  try {
    const hook = join(home, 'hook.sh');
    writeFileSync(hook, "#!/bin/sh\nread -r _payload || :\necho '{}'\n", { mode: 0o755 });
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(hook)}\n`);
    const payload = '{"tool_name":"terminal","tool_input":{"command":"ls"},"session_id":"build"}';
    const argv = (cmd, ...more) => [cmd, 'pre_tool_call', '--home', home, ...more];
    const codes = [
      await bundle.main(argv('run', '--accept-hooks'), trainingIO(payload)),
      await bundle.main(argv('run'), trainingIO(payload)),
      await bundle.main(argv('test', '--json'), trainingIO(payload)),
    ];
    if (codes.some((c) => c !== 0)) throw new Error(`training runs exited ${codes.join(', ')}`);
    writeFileSync(join(dir, CACHE_FILE), codeCacheOf(bundle));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function main() {
  if (existsSync('src/gateway/gateway_bootstrap.py')) {
    copyFileSync('src/gateway/gateway_bootstrap.py', 'dist/gateway/gateway_bootstrap.py');
    // The bundled CLI resolves the bootstrap next to bin.js.
    copyFileSync('src/gateway/gateway_bootstrap.py', join(CLI_DIR, 'gateway_bootstrap.py'));
  }
  // What both Python bootstraps share: they import it from ../spawn (dist/cli's copies find dist/spawn too).
  copyFileSync('src/spawn/hermes_hooks_worker.py', 'dist/spawn/hermes_hooks_worker.py');
  // Plugin runners: the worker thread of JS plugins and the python3 bootstrap of Python plugins.
  for (const f of ['_plugin-worker.mjs', 'plugin_bootstrap.py']) {
    copyFileSync(join('src/plugins', f), join('dist/plugins', f));
    copyFileSync(join('src/plugins', f), join(CLI_DIR, f));
  }
  // Never leave a bundle from an earlier build next to a newer tsc output (nor chunks of an
  // earlier bundling layout).
  for (const f of readdirSync(CLI_DIR)) if (/^_bin-.*\.js$|^_main\.cjs/.test(f)) rmSync(join(CLI_DIR, f));
  chmodSync(join(CLI_DIR, 'bin.js'), 0o755);
  try {
    await import('esbuild');
  } catch {
    // bin.js then runs tsc's output: correct, only slower to start.
    console.warn('postbuild: esbuild is not installed; the CLI is not bundled');
    return;
  }
  await buildCliBundle();
  try {
    await writeCodeCache();
  } catch (e) {
    // Only slower without it: the bundle compiles from source.
    rmSync(join(CLI_DIR, '_main.cjs.cache'), { force: true });
    console.warn(`postbuild: no code cache for the CLI (${e?.message ?? e})`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

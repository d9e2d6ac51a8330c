// The CLI's start-up path as built: dist/cli/_main.cjs (the esbuild bundle) with its V8 code cache
// _main.cjs.cache, loaded by _bundle.ts for bin.js, and bin.js's fallback to tsc's main.js. Runs the
// real `dist/` (and copies of it in temp dirs, damaged on purpose) as real `node` processes: a
// cache is only accepted under the V8 flags of the process that made it, so nothing here loads the
// bundle inside the vitest worker.

import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, baseEnv, cleanupTemps, hooksYaml, makeHome, readJson, tempDir } from './_helpers.js';

const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli');
const BUNDLE = join(CLI, '_main.cjs');
const CACHE = join(CLI, '_main.cjs.cache');
const FIX = join(ROOT, 'test/fixtures/bundle');
const PROBE = join(FIX, 'probe.mjs');
const VERSION = readJson<{ version: string }>(join(ROOT, 'package.json')).version;
const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' }, session_id: 'bundle-test' });

afterAll(cleanupTemps);

interface Proc {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `node [...nodeFlags] <args>` as a real process, with a minimal environment. */
function node(args: string[], opts: { stdin?: string; nodeFlags?: string[] } = {}): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), ...args], {
      cwd: tempDir('hh-bundle-cwd-'),
      env: baseEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

interface Copy {
  cli: string;
  bin: string;
  bundle: string;
  cache: string;
  mainJs: string;
}

/**
 * The whole dist/ tree in a temp dir, mtimes kept (a plain copy can leave _main.cjs a few µs older
 * than main.js, which reads as a stale bundle), with package.json beside it (`--version` reads
 * ../../package.json, and it makes dist/*.js ES modules). node_modules only on request: without it,
 * only the self-contained bundle can run — tsc's main.js cannot even import yaml.
 */
function copyDist(opts: { nodeModules?: boolean } = {}): Copy {
  const root = tempDir('hh-bundle-dist-');
  cpSync(DIST, join(root, 'dist'), { recursive: true, preserveTimestamps: true });
  copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  if (opts.nodeModules) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const cli = join(root, 'dist/cli');
  return { cli, bin: join(cli, 'bin.js'), bundle: join(cli, '_main.cjs'), cache: join(cli, '_main.cjs.cache'), mainJs: join(cli, 'main.js') };
}

type ProbeResult = { cache: 'used' | 'rejected' | 'none'; main: string } | null;

/** What loadBundle(dir) reports, in a fresh `node`. */
async function probe(cli: string, nodeFlags: string[] = []): Promise<{ result: ProbeResult; stderr: string }> {
  const r = await node([PROBE, cli], { nodeFlags });
  expect(r.code, r.stderr).toBe(0);
  return { result: JSON.parse(r.stdout) as ProbeResult, stderr: r.stderr };
}

/** A home whose pre_tool_call hooks answer allow, block, and fail (exit 3). */
function hooksHome(): string {
  return makeHome(hooksYaml({ pre_tool_call: [`${FIX}/hooks/allow.sh`, `${FIX}/hooks/block.sh`, `${FIX}/hooks/fail.sh`] }));
}

interface ReportEssence {
  code: number | null;
  decision: unknown;
  hooks: unknown[];
}

/** `bin.js test pre_tool_call --json --home <fresh home>`: its exit code, decision and per-hook outcome. */
async function testReport(bin: string, nodeFlags: string[] = []): Promise<ReportEssence & { stderr: string }> {
  const r = await node([bin, 'test', 'pre_tool_call', '--json', '--home', hooksHome()], { stdin: PAYLOAD, nodeFlags });
  let report: { decision: unknown; hooks: Record<string, unknown>[] };
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(`${bin} test gave no JSON report (exit ${r.code}, signal ${r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  const hooks = report.hooks.map((h) => ({
    index: h.index,
    kind: h.kind,
    command: h.command,
    status: h.status,
    exit_code: h.exit_code,
    directive: h.directive,
  }));
  return { code: r.code, decision: report.decision, hooks, stderr: r.stderr };
}

let shipped: ReportEssence;
beforeAll(async () => {
  for (const f of [join(CLI, 'bin.js'), BUNDLE, CACHE]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run 'npm run build' (tsc, then scripts/postbuild.mjs) before these tests`);
  }
  const { code, decision, hooks } = await testReport(join(CLI, 'bin.js'));
  shipped = { code, decision, hooks };
});

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * The cache file as _bundle.ts writes it: `hermes-hooks code cache v2 <sha1 of the source>\n`,
 * `<sha256 of V8's data>\n`, then V8's data.
 */
function splitCache(file: string): { header: Buffer; digest: string; data: Buffer } {
  const all = readFileSync(file);
  const first = all.indexOf(0x0a) + 1;
  const second = all.indexOf(0x0a, first) + 1;
  return { header: all.subarray(0, first), digest: all.toString('latin1', first, second - 1), data: all.subarray(second) };
}

const MARK_BUNDLE = 'HH-MARK: the bundle ran';
const MARK_MAIN_JS = 'HH-MARK: main.js ran';
const mark = (text: string): string => `\n;process.stderr.write(${JSON.stringify(`${text}\n`)});\n`;

describe('the shipped build', () => {
  it('loads the bundle with its code cache accepted', async () => {
    const { result, stderr } = await probe(CLI);
    expect(result).toEqual({ cache: 'used', main: 'function' });
    expect(stderr).toBe('');
    const { header, digest, data } = splitCache(CACHE);
    expect(header.toString('latin1')).toMatch(/^hermes-hooks code cache v2 [0-9a-f]{40}\n$/);
    expect(digest).toBe(sha256(data));
  });

  it('bin.js --version prints the package.json version', async () => {
    expect(await node([join(CLI, 'bin.js'), '--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('test --json: the fixture report (block by #1, the failing hook reported)', () => {
    expect(shipped.code).toBe(2);
    expect(shipped.decision).toMatchObject({ action: 'block', message: 'blocked by the bundle fixture', decided_by: 1 });
    expect(shipped.hooks.slice(0, 3)).toMatchObject([
      { kind: 'shell', status: 'ok', exit_code: 0 },
      { kind: 'shell', status: 'ok', exit_code: 0 },
      { kind: 'shell', exit_code: 3 },
    ]);
  });

  it('dist/cli/gateway_bootstrap.py sits next to bin.js, and every URL the bundle resolves from bin.js exists', () => {
    const bootstrap = join(CLI, 'gateway_bootstrap.py');
    expect(existsSync(bootstrap)).toBe(true);
    expect(readFileSync(bootstrap, 'utf8')).toBe(readFileSync(join(ROOT, 'src/gateway/gateway_bootstrap.py'), 'utf8'));
    const text = readFileSync(BUNDLE, 'utf8');
    const urls = [...text.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*__hhImportMetaUrl\s*\)/g)].map((m) => m[1]!);
    expect(urls).toContain('./gateway_bootstrap.py');
    for (const u of urls) expect(existsSync(new URL(u, `file://${CLI}/bin.js`)), u).toBe(true);
  });
});

describe('a cache that does not fit is ignored: the CLI still works, from source', () => {
  const damages: [string, (file: string) => void][] = [
    [
      'bytes flipped in the middle of V8 data',
      (f) => {
        const d = readFileSync(f);
        const mid = d.length >> 1;
        for (let i = mid; i < mid + 64; i++) d[i] = d[i]! ^ 0xff;
        writeFileSync(f, d);
      },
    ],
    [
      'bytes flipped near the start of V8 data',
      (f) => {
        const d = readFileSync(f);
        const at = splitCache(f).header.length + 65 + 100;
        for (let i = at; i < at + 64; i++) d[i] = d[i]! ^ 0xff;
        writeFileSync(f, d);
      },
    ],
    ['truncated to half', (f) => writeFileSync(f, readFileSync(f).subarray(0, readFileSync(f).length >> 1))],
    ['one byte short', (f) => writeFileSync(f, readFileSync(f).subarray(0, readFileSync(f).length - 1))],
    ['the header only', (f) => writeFileSync(f, splitCache(f).header)],
    ['empty', (f) => writeFileSync(f, '')],
    [
      'a header for another bundle',
      (f) => {
        const { digest, data } = splitCache(f);
        writeFileSync(f, Buffer.concat([Buffer.from(`hermes-hooks code cache v2 ${'0'.repeat(40)}\n${digest}\n`), data]));
      },
    ],
    [
      'the v1 layout (no digest line)',
      (f) => {
        const { header, data } = splitCache(f);
        writeFileSync(f, Buffer.concat([Buffer.from(header.toString('latin1').replace(' v2 ', ' v1 ')), data]));
      },
    ],
    ['not a cache at all', (f) => writeFileSync(f, createHash('sha512').update('junk').digest().toString('hex').repeat(100))],
  ];

  it.each(damages)('%s → not used, same report as the shipped CLI', async (_name, damage) => {
    // No node_modules in this copy: a report proves the (self-contained) bundle ran, not main.js.
    const copy = copyDist();
    damage(copy.cache);
    const { result, stderr } = await probe(copy.cli);
    expect(result).toEqual({ cache: 'none', main: 'function' });
    expect(stderr).toBe('');
    const r = await testReport(copy.bin);
    expect(r.stderr).toBe('');
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });

  it('a cache from another V8 (its version hash changed, checksum line recomputed) → V8 rejects it', async () => {
    const copy = copyDist();
    const { header, data } = splitCache(copy.cache);
    const forged = Buffer.from(data);
    // V8's code cache header: magic number, then the V8 version hash at bytes 4..7.
    for (let i = 4; i < 8; i++) forged[i] = forged[i]! ^ 0x5a;
    writeFileSync(copy.cache, Buffer.concat([header, Buffer.from(`${sha256(forged)}\n`), forged]));
    expect((await probe(copy.cli)).result).toEqual({ cache: 'rejected', main: 'function' });
    const r = await testReport(copy.bin);
    expect(r.stderr).toBe('');
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });

  it('the shipped cache under other V8 flags (node --no-opt) → V8 rejects it', async () => {
    expect((await probe(CLI, ['--no-opt'])).result).toEqual({ cache: 'rejected', main: 'function' });
    const r = await testReport(join(CLI, 'bin.js'), ['--no-opt']);
    expect(r.stderr).toBe('');
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });

  it('a bundle changed since the cache was made (its SHA-1 differs) → not used, and the changed bundle runs', async () => {
    const copy = copyDist();
    appendFileSync(copy.bundle, mark(MARK_BUNDLE));
    const { result, stderr } = await probe(copy.cli);
    expect(result).toEqual({ cache: 'none', main: 'function' });
    expect(stderr).toBe(`${MARK_BUNDLE}\n`);
    const r = await testReport(copy.bin);
    expect(r.stderr).toBe(`${MARK_BUNDLE}\n`);
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });

  it('no cache file → not used, same report', async () => {
    const copy = copyDist();
    rmSync(copy.cache);
    expect((await probe(copy.cli)).result).toEqual({ cache: 'none', main: 'function' });
    const r = await testReport(copy.bin);
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });
});

describe("bin.js falls back to tsc's main.js", () => {
  it('no bundle → main.js runs: --version and the same report', async () => {
    const copy = copyDist({ nodeModules: true });
    rmSync(copy.bundle);
    rmSync(copy.cache);
    appendFileSync(copy.mainJs, mark(MARK_MAIN_JS));
    expect((await probe(copy.cli)).result).toBeNull();
    expect(await node([copy.bin, '--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: `${MARK_MAIN_JS}\n` });
    const r = await testReport(copy.bin);
    expect(r.stderr).toBe(`${MARK_MAIN_JS}\n`);
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);
  });

  it('a bundle older than main.js (a tsc-only rebuild) → loadBundle returns null and main.js runs, not the bundle', async () => {
    const copy = copyDist({ nodeModules: true });
    appendFileSync(copy.bundle, mark(MARK_BUNDLE));
    appendFileSync(copy.mainJs, mark(MARK_MAIN_JS));
    const now = Date.now() / 1000;
    utimesSync(copy.bundle, now - 120, now - 120);
    utimesSync(copy.mainJs, now - 60, now - 60);
    const { result, stderr } = await probe(copy.cli);
    expect(result).toBeNull();
    expect(stderr).not.toContain(MARK_BUNDLE);
    expect(await node([copy.bin, '--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: `${MARK_MAIN_JS}\n` });
    const r = await testReport(copy.bin);
    expect(r.stderr).toBe(`${MARK_MAIN_JS}\n`);
    expect({ code: r.code, decision: r.decision, hooks: r.hooks }).toEqual(shipped);

    // The control: the same marked bundle, newer than main.js again, is the one that runs.
    utimesSync(copy.bundle, now, now);
    const again = await node([copy.bin, '--version']);
    expect(again).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: `${MARK_BUNDLE}\n` });
  });
});

describe('the bundled CLI imports user ES modules (a gateway handler through the import() the build rewrites, a plugin in its worker thread)', () => {
  const variants: [string, () => string][] = [
    ['the shipped bundle, cache used', () => join(CLI, 'bin.js')],
    [
      'a copy without its cache',
      () => {
        const copy = copyDist();
        rmSync(copy.cache);
        return copy.bin;
      },
    ],
  ];

  it.each(variants)('%s: run pre_tool_call blocks through an ESM plugin', async (_name, binOf) => {
    const bin = binOf();
    const home = makeHome('plugins:\n  enabled: [guard]\n');
    cpSync(join(FIX, 'plugins/guard'), join(home, 'plugins/guard'), { recursive: true });
    const r = await node([bin, 'run', 'pre_tool_call', '--accept-hooks', '--home', home], { stdin: PAYLOAD });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      event: 'pre_tool_call',
      action: 'block',
      message: 'guard (ESM plugin) blocks terminal',
      decided_by: 0,
    });
    // Another tool: the plugin answers nothing, the call is allowed.
    const allowed = await node([bin, 'run', 'pre_tool_call', '--accept-hooks', '--home', home], {
      stdin: JSON.stringify({ tool_name: 'read_file', tool_input: { path: 'x' }, session_id: 'bundle-test' }),
    });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ action: 'allow' });
  });

  it.each(variants)('%s: run pre_tool_call blocks through an unchanged Hermes Python plugin', async (_name, binOf) => {
    const bin = binOf();
    const home = makeHome('plugins:\n  enabled: [py-guard]\n');
    cpSync(join(ROOT, 'scripts-examples/plugins/py-guard'), join(home, 'plugins/py-guard'), { recursive: true });
    const stdin = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /' }, session_id: 'bundle-test' });
    const r = await node([bin, 'run', 'pre_tool_call', '--accept-hooks', '--home', home], { stdin });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'py-guard: refusing a destructive command: rm -rf /', decided_by: 0 });
  });

  it('the bundle itself (the shipped one) goes through the loader for them: no import() is left in it', () => {
    const text = readFileSync(BUNDLE, 'utf8');
    // Gateway handlers: the one rewritten import(). Plugins are imported by their worker thread
    // (_plugin-worker.mjs, shipped next to the bundle, not bundled).
    expect(text.match(/__hhImport\(/g)).toHaveLength(1);
    expect(text).not.toMatch(/[^\w$.]import\(/);
    expect(text).toContain('_plugin-worker.mjs');
    expect(existsSync(join(CLI, '_plugin-worker.mjs'))).toBe(true);
  });
});

// The README's runnable commands still work (issue 16: "every command in the README works when
// pasted into a shell on a fresh clone").
//
// Convention — a fenced `sh` block is runnable when the line right before its fence is
//
//     <!-- runnable -->            the block must exit 0
//     <!-- runnable exit=2 -->     the block must exit 2 (a dry run that blocks, validate finding problems)
//     <!-- runnable install -->    an install line (issue 20): it runs on a bare copy of the tracked
//                                  files (no node_modules, no dist/, as a fresh clone), with npm's
//                                  global prefix in a temp folder and npm's own cache (offline
//                                  first), and afterwards `hermes-hooks --version`, run from another
//                                  folder, must be that global install printing package.json's version
//
// (an HTML comment: GitHub renders nothing for it). The block runs as one bash script with
// `set -eo pipefail`, so the first failing command ends it, and its exit status must be the one
// marked. A block that is a transcript (lines starting with `$ `) runs only its `$ ` lines and their
// `\` continuations; the rest is sample output and is not compared. Mark only blocks that are
// self-contained on a fresh clone — never `npm install` / `npm test` / `.ci/run` (this test is part
// of `npm test`); a leading `npm install && ` (the README's set-up line) is dropped, since the copy
// is already installed.
//
// Each block runs in a fresh temp copy of the repo: the tracked files (`git ls-files`), the built
// dist/, and a symlink to this checkout's node_modules — as after `npm install` on a new clone, but
// without installing anything. `hermes-hooks` is on PATH (a shim for the copy's dist/cli/bin.js, as
// after `npm install -g`), HOME is an empty temp folder (never the real ~/.hermes), and no HERMES_*
// variable leaks in from the test runner.

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const MARKER = /^<!--\s*runnable(?:\s+exit=(\d+))?(\s+install)?\s*-->\s*$/;

interface Block {
  /** 1-based README line of the opening fence. */
  line: number;
  exit: number;
  script: string;
  /** An install line: runs on a bare clone and must leave `hermes-hooks` installed (see the top). */
  install?: true;
}

/** Every runnable block of a README text; a marker not followed by an `sh` fence is an error. */
export function runnableBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i] as string);
    if (!m) continue;
    if (!/^```sh\s*$/.test(lines[i + 1] ?? '')) throw new Error(`README.md:${i + 1}: a runnable marker must be followed directly by a \`\`\`sh fence`);
    const body: string[] = [];
    let j = i + 2;
    for (; j < lines.length && !/^```\s*$/.test(lines[j] as string); j++) body.push(lines[j] as string);
    if (j >= lines.length) throw new Error(`README.md:${i + 2}: unterminated runnable block`);
    const exit = m[1] === undefined ? 0 : Number(m[1]);
    blocks.push(m[2] ? { line: i + 2, exit, script: commandsOf(body), install: true } : { line: i + 2, exit, script: withoutInstall(commandsOf(body)) });
    i = j;
  }
  return blocks;
}

/**
 * The set-up line `npm install && <demo>` runs its demo only: the copy is already as after
 * `npm install` (built dist/, node_modules), and installing inside `npm test` is not ours to do.
 */
function withoutInstall(script: string): string {
  return script.replace(/^npm (?:install|ci) && /, '');
}

/** A transcript's `$ ` commands (with their `\` continuations); any other block as it is. */
function commandsOf(body: string[]): string {
  if (!body.some((l) => l.startsWith('$ '))) return body.join('\n');
  const out: string[] = [];
  let continued = false;
  for (const l of body) {
    if (l.startsWith('$ ')) out.push(l.slice(2));
    else if (continued) out.push(l);
    else continue;
    continued = l.endsWith('\\');
  }
  return out.join('\n');
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TRACKED = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .stdout.split('\0')
  .filter((f) => f !== '');

/** A fresh copy of the repo as a new clone would have it after `npm install`. */
function freshCopy(): { repo: string; home: string; bin: string } {
  const base = mkdtempSync(join(tmpdir(), 'hh-readme-'));
  temps.push(base);
  const repo = join(base, 'hermes-hooks');
  copyTracked(repo);
  cpSync(join(ROOT, 'dist'), join(repo, 'dist'), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(repo, 'node_modules'));
  const home = join(base, 'home');
  const bin = join(base, 'bin');
  mkdirSync(home);
  mkdirSync(bin);
  writeFileSync(join(bin, 'hermes-hooks'), `#!/bin/sh\nexec '${process.execPath}' '${join(repo, 'dist/cli/bin.js')}' "$@"\n`, { mode: 0o755 });
  return { repo, home, bin };
}

/** The tracked files (as in the working tree), with their modes: what a clone has. */
function copyTracked(repo: string): void {
  for (const f of TRACKED) {
    const from = join(ROOT, f);
    let mode: number;
    try {
      mode = statSync(from).mode;
    } catch {
      continue; // deleted in the working tree
    }
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    cpSync(from, join(repo, f));
    chmodSync(join(repo, f), mode & 0o777);
  }
}

function cleanEnv(home: string, bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HERMES_') && !k.startsWith('npm_')) env[k] = v;
  return { ...env, HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCKS = runnableBlocks(README);

describe('README runnable blocks', () => {
  it('the README marks its self-contained commands (set-up demo, test, validate, bats)', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(4);
    expect(BLOCKS.some((b) => b.script.startsWith('npx --no hermes-hooks test pre_tool_call'))).toBe(true);
    for (const b of BLOCKS.filter((x) => !x.install)) expect(b.script, `README.md:${b.line} would recurse or install`).not.toMatch(/\bnpm (?:install|ci|test|run test)\b|\.ci\/run/);
    for (const b of BLOCKS) expect(b.script, `README.md:${b.line} would recurse`).not.toMatch(/\bnpm (?:test|run test)\b|\.ci\/run/);
    // Every install line the README gives is one of these blocks (issue 20: they must work as written).
    expect(BLOCKS.filter((b) => b.install).map((b) => b.script).join('\n')).toMatch(/npm ci && npm link[\s\S]*npm pack[\s\S]*npm install -g \.\/hermes-hooks-\d+\.\d+\.\d+\.tgz/);
  });

  it.each(BLOCKS.filter((b) => !b.install).map((b) => [`README.md:${b.line} (${b.script.split('\n')[0]!.slice(0, 60)})`, b] as const))(
    '%s works on a fresh copy',
    (_name, block) => {
      const r = runBlock(block);
      expect(r.status, r.report).toBe(block.exit);
    },
    120_000,
  );

  it.each(BLOCKS.filter((b) => b.install).map((b) => [`README.md:${b.line} (${b.script.split('\n').find((l) => !l.startsWith('#'))!.slice(0, 60)})`, b] as const))(
    '%s installs hermes-hooks from a bare clone',
    (_name, block) => {
      const r = runInstallBlock(block);
      expect(r.status, r.report).toBe(block.exit);
      expect(r.version, r.report).toBe(VERSION);
      // The global install answers, not a shim or the clone's own dist/.
      expect(r.which, r.report).toBe(join(r.prefix, 'bin', 'hermes-hooks'));
    },
    600_000,
  );
});

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** npm's cache, where `npm ci` of this checkout left every package: installs run offline first. */
const NPM_CACHE = spawnSync('npm', ['config', 'get', 'cache'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();

/**
 * An install block on a bare copy (tracked files only), npm's global prefix in the temp folder;
 * then `command -v hermes-hooks` and `hermes-hooks --version` from the (empty) home folder.
 */
function runInstallBlock(block: Block): { status: number | null; version: string; which: string; prefix: string; report: string } {
  const base = mkdtempSync(join(tmpdir(), 'hh-install-'));
  temps.push(base);
  const repo = join(base, 'hermes-hooks');
  copyTracked(repo);
  const home = join(base, 'home');
  const prefix = join(base, 'prefix');
  mkdirSync(home);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(home, join(prefix, 'bin')),
    npm_config_prefix: prefix,
    npm_config_cache: NPM_CACHE,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const check = `\ncd "$HOME"\necho "which: $(command -v hermes-hooks)"\necho "version: $(hermes-hooks --version)"`;
  const r = spawnSync('bash', ['-c', `set -eo pipefail\n${block.script}${check}`], { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 540_000 });
  const field = (name: string): string => new RegExp(`^${name}: (.*)$`, 'm').exec(r.stdout ?? '')?.[1] ?? '';
  const report = `README.md:${block.line} exited ${r.status ?? r.signal} (expected ${block.exit})\n--- script ---\n${block.script}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
  return { status: r.status, version: field('version'), which: field('which'), prefix, report };
}

/** Run one block on a fresh copy; `report` names the block and shows what it printed. */
function runBlock(block: Block): { status: number | null; report: string } {
  const { repo, home, bin } = freshCopy();
  const r = spawnSync('bash', ['-c', `set -eo pipefail\n${block.script}`], {
    cwd: repo,
    env: cleanEnv(home, bin),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 90_000,
  });
  const report = `README.md:${block.line} exited ${r.status ?? r.signal} (expected ${block.exit})\n--- script ---\n${block.script}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
  return { status: r.status, report };
}

describe('runnableBlocks (the convention itself)', () => {
  it('a block that stops working fails, naming the block and showing its output', () => {
    const r = runBlock({ line: 7, exit: 0, script: 'hermes-hooks validate scripts-examples/config.yaml\nhermes-hooks validate no-such.yaml' });
    expect(r.status).toBe(1);
    expect(r.report).toContain('README.md:7 exited 1 (expected 0)\n--- script ---\nhermes-hooks validate scripts-examples/config.yaml\n');
    expect(r.report).toMatch(/--- stdout ---\n.*\/scripts-examples\/config\.yaml: ok \(11 shell hook\(s\), 0 outbound target\(s\)\)\n/);
    expect(r.report).toContain('no-such.yaml');
  }, 60_000);

  it('reads exit codes, runs only the $ lines of a transcript, and refuses a stray marker', () => {
    const text = [
      'x',
      '<!-- runnable -->',
      '```sh',
      'echo a',
      'echo b',
      '```',
      '<!-- runnable exit=2 -->',
      '```sh',
      '$ printf x \\',
      '    | cat',
      'output line',
      '$ false',
      '```',
      '```sh',
      'not marked',
      '```',
    ].join('\n');
    expect(runnableBlocks(text)).toEqual([
      { line: 3, exit: 0, script: 'echo a\necho b' },
      { line: 8, exit: 2, script: 'printf x \\\n    | cat\nfalse' },
    ]);
    // An install block keeps its npm line (the others drop a leading `npm install && `).
    expect(runnableBlocks('<!-- runnable install -->\n```sh\nnpm ci && npm link\n```\n<!-- runnable -->\n```sh\nnpm install && ls\n```')).toEqual([
      { line: 2, exit: 0, script: 'npm ci && npm link', install: true },
      { line: 6, exit: 0, script: 'ls' },
    ]);
    expect(() => runnableBlocks('<!-- runnable -->\n\n```sh\nls\n```')).toThrow('README.md:1: a runnable marker must be followed directly by a ```sh fence');
  });
});

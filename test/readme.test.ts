// The commands of README.md and docs/*.md still work, and still print what the page shows (issue
// 16: "every command in the README works when pasted into a shell on a fresh clone"; issue 30:
// shown outputs had drifted from what the commands print).
//
// Convention — every fenced `sh` block has, on the line right before its fence, one of
//
//     <!-- runnable -->            the block must exit 0
//     <!-- runnable exit=2 -->     the block must exit 2 (a dry run that blocks, validate finding problems)
//     <!-- runnable output -->     a transcript whose shown output must be what its commands print
//                                  (rules below); combines with exit=N and group=NAME
//     <!-- runnable group=NAME --> blocks of one page with the same NAME run in page order in ONE fresh
//                                  copy and home (a walk-through: write a file, then use it)
//     <!-- runnable install -->    an install line (issue 20): it runs on a bare copy of the tracked
//                                  files (no node_modules, no dist/, as a fresh clone), with npm's
//                                  global prefix in a temp folder and npm's own cache (offline
//                                  first), and afterwards `hermes-hooks --version`, run from another
//                                  folder, must be that global install printing package.json's version
//     <!-- not-runnable: REASON -->  a block that cannot run self-contained on a fresh clone (it needs
//                                  a real agent, the network, a long-lived server, `npm install`);
//                                  the reason is required
//
// (an HTML comment: GitHub renders nothing for it). A `sh` (or `shell`, `console`) block with no
// marker fails the test, so no block is forgotten. A block runs as one bash script with `set -eo
// pipefail`, so the first failing command ends it, and its exit status must be the one marked; an
// output block runs without `-e` (every shown command runs) and its status is its last command's.
// A block that is a transcript (lines starting with `$ `) runs only its `$ ` lines and their `\`
// continuations; the rest is its output, compared only in an output block. Never mark runnable
// `npm install` / `npm test` / `.ci/run` (this test is part of `npm test`); a leading `npm install
// && ` (the README's set-up line) is dropped, since the copy is already installed.
//
// Output comparison (an output block): stdout and stderr together, in the order printed, against
// the shown lines, after these normalisations of both sides (test/_doc-blocks.ts):
//   - paths: the copy's folder is shown as /home/me/hermes-hooks and HOME as /home/me (printed only);
//   - an ISO date (2026-11-30T10:31:07.123Z) → <date>; a run of 12–64 hex digits → <hash>;
//     a duration `31.2 ms` / `12ms` → <ms>, `0.021s` → <s>; a timeline bar `|███   |` → |<bar>|;
//   - runs of spaces → one space, trailing spaces and trailing blank lines dropped;
//   - in the shown text `…` within a line stands for any text, and `…` alone on a line for any
//     number of lines (to leave out what does not matter to the reader).
//
// Each block (or group) runs in a fresh temp copy of the repo: the tracked files (`git ls-files`),
// the built dist/, and a symlink to this checkout's node_modules — as after `npm install` on a new
// clone, but without installing anything. `hermes-hooks` is on PATH (a shim for the copy's
// dist/cli/bin.js, as after `npm install -g`), HOME is an empty temp folder (never the real
// ~/.hermes), and no HERMES_* variable leaks in from the test runner.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Block, normalise, outputMatches, runnableBlocks } from './_doc-blocks.js';

const ROOT = resolve(import.meta.dirname, '..');

const temps: string[] = [];
afterAll(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}, 120_000);

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

/** README.md, then every page of docs/, by name. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const BLOCKS = PAGES.flatMap((f) => runnableBlocks(readFileSync(join(ROOT, f), 'utf8'), f));

/** Single blocks, and each group of blocks as one run (in page order). */
function runs(blocks: Block[]): Block[][] {
  const out: Block[][] = [];
  const groups = new Map<string, Block[]>();
  for (const b of blocks) {
    if (b.group === undefined) out.push([b]);
    else {
      const key = `${b.file}#${b.group}`;
      if (!groups.has(key)) out.push(groups.set(key, []).get(key)!);
      groups.get(key)!.push(b);
    }
  }
  return out;
}

const title = (b: Block): string =>
  `${b.file}:${b.line} (${b.script
    .split('\n')
    .find((l) => !l.startsWith('#'))!
    .slice(0, 60)})`;

describe('README and docs runnable blocks', () => {
  it('the pages mark their self-contained commands (set-up demo, first guard, test, validate, bats)', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(10);
    expect(BLOCKS.some((b) => b.file === 'README.md' && b.script.startsWith('npx --no hermes-hooks test pre_tool_call'))).toBe(true);
    expect(BLOCKS.filter((b) => b.output).length).toBeGreaterThanOrEqual(5);
    for (const b of BLOCKS.filter((x) => !x.install)) {
      expect(b.script, `${b.file}:${b.line} would recurse or install`).not.toMatch(/\bnpm (?:install|ci|test|run test)\b|\.ci\/run/);
    }
    for (const b of BLOCKS) expect(b.script, `${b.file}:${b.line} would recurse`).not.toMatch(/\bnpm (?:test|run test)\b|\.ci\/run/);
    // Every install line the README gives is one of these blocks (issue 20: they must work as written).
    const installs = BLOCKS.filter((b) => b.install)
      .map((b) => b.script)
      .join('\n');
    expect(installs).toMatch(/npm ci && npm link[\s\S]*npm pack[\s\S]*npm install -g \.\/hermes-hooks-\d+\.\d+\.\d+\.tgz/);
  });

  // Concurrent: each run has its own copy and home, and most of a run is waiting on hook processes.
  describe.concurrent('on a fresh copy', () => {
    it.each(runs(BLOCKS.filter((b) => !b.install)).map((r) => [r.map(title).join(' + '), r] as const))(
      '%s works and prints what is shown',
      async (_name, run) => {
        const copy = freshCopy();
        for (const block of run) {
          const r = await runBlock(block, copy);
          expect(r.status, r.report).toBe(block.exit);
          const shown = `${r.report}\n--- shown (normalised) ---\n${normalise((block.output ?? []).join('\n'))}`;
          if (block.output) expect(outputMatches(block.output, r.printed), shown).toBe(true);
        }
      },
      240_000,
    );
  });

  it.each(BLOCKS.filter((b) => b.install).map((b) => [title(b), b] as const))(
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
  const r = spawnSync('bash', ['-c', `set -eo pipefail\n${block.script}${check}`], {
    cwd: repo,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 540_000,
  });
  const field = (name: string): string => new RegExp(`^${name}: (.*)$`, 'm').exec(r.stdout ?? '')?.[1] ?? '';
  const report = reportOf(block, r.status ?? r.signal, r.stdout, r.stderr);
  return { status: r.status, version: field('version'), which: field('which'), prefix, report };
}

/**
 * Run one block in a copy (fresh, or the one its group shares); `printed` is stdout and stderr
 * together with the copy's paths as the pages show them, `report` names the block and shows it all.
 */
/** What a failed block says: where it is, how it ended, the script and all it printed. */
function reportOf(block: Block, ended: number | string | null, stdout: string, stderr: string): string {
  const head = `${block.file}:${block.line} exited ${ended} (expected ${block.exit})`;
  return `${head}\n--- script ---\n${block.script}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
}

type Copy = { repo: string; home: string; bin: string };

function runBlock(block: Block, { repo, home, bin }: Copy): Promise<{ status: number | null; printed: string; report: string }> {
  const prelude = block.output ? 'set -o pipefail\nexec 2>&1' : 'set -eo pipefail';
  return new Promise((done) => {
    const env = cleanEnv(home, bin);
    const child = spawn('bash', ['-c', `${prelude}\n${block.script}`], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status, signal) => {
      const printed = stdout.split(repo).join('/home/me/hermes-hooks').split(home).join('/home/me');
      done({ status, printed, report: reportOf(block, status ?? signal, printed, stderr) });
    });
  });
}

describe('runnableBlocks (the convention itself)', () => {
  it('a block that stops working fails, naming the block and showing its output', async () => {
    const script = 'hermes-hooks validate scripts-examples/config.yaml\nhermes-hooks validate no-such.yaml';
    const r = await runBlock({ file: 'docs/x.md', line: 7, exit: 0, script }, freshCopy());
    expect(r.status).toBe(1);
    expect(r.report).toContain('docs/x.md:7 exited 1 (expected 0)\n--- script ---\nhermes-hooks validate scripts-examples/config.yaml\n');
    expect(r.report).toMatch(/--- stdout ---\n\/home\/me\/hermes-hooks\/scripts-examples\/config\.yaml: ok \(11 shell hook\(s\), 0 outbound target\(s\)\)\n/);
    expect(r.report).toContain('no-such.yaml');
  }, 60_000);

  it('an output block compares what is printed, stdout and stderr in order, with the copy and home as /home/me', async () => {
    const script = 'hermes-hooks validate scripts-examples/config.yaml\necho "$HOME" >&2\nfalse';
    const r = await runBlock({ file: 'docs/x.md', line: 3, exit: 1, script, output: [] }, freshCopy());
    expect(r.status).toBe(1);
    expect(r.printed).toBe('/home/me/hermes-hooks/scripts-examples/config.yaml: ok (11 shell hook(s), 0 outbound target(s))\n/home/me\n');
    expect(outputMatches(['…/config.yaml: ok (11 shell hook(s), 0 outbound target(s))', '/home/me'], r.printed)).toBe(true);
    // A drifted line, a missing one, an extra one: each is a mismatch.
    expect(outputMatches(['…/config.yaml: ok (12 shell hook(s), 0 outbound target(s))', '/home/me'], r.printed)).toBe(false);
    expect(outputMatches(['…/config.yaml: ok (11 shell hook(s), 0 outbound target(s))'], r.printed)).toBe(false);
    expect(outputMatches(['…/config.yaml: ok (11 shell hook(s), 0 outbound target(s))', '/home/me', 'more'], r.printed)).toBe(false);
  }, 60_000);

  it('normalises timings, hashes, dates, bars and spacing on both sides; … stands for text or lines', () => {
    const printed = '  #0 ✓ ok     exit 0   959.3 ms   |█████   |  g.sh\nsha256 3f2a9c1e04b7aa… at 2026-11-30T10:31:07.123Z (0.021s)\nx\ny\nend\n';
    const shown = [' #0 ✓ ok exit 0 31.2 ms |██ | g.sh', 'sha256 000000000000… at 2020-01-01T00:00:00Z (1.5s)', '…', 'end'];
    expect(outputMatches(shown, printed)).toBe(true);
    expect(outputMatches(['#0 ✓ ok exit 0 31.2 ms |██ | g.sh', '…'], printed)).toBe(false); // leading spaces are kept
    expect(outputMatches(['  #0 … g.sh', '…'], printed)).toBe(true);
    expect(outputMatches(['  #0 … g.sh', 'x', '…'], printed)).toBe(false);
  });

  it('reads exit codes, runs only the $ lines of a transcript, and refuses a stray marker or an unmarked sh block', () => {
    const text = [
      'x',
      '<!-- runnable -->',
      '```sh',
      'echo a',
      'echo b',
      '```',
      '<!-- runnable exit=2 output group=g -->',
      '```sh',
      '$ printf x \\',
      '    | cat',
      'output line',
      '$ false',
      '```',
      '<!-- not-runnable: needs a real agent -->',
      '```sh',
      'claude -p hi',
      '```',
      '```bash',
      '#!/usr/bin/env bash',
      '```',
    ].join('\n');
    expect(runnableBlocks(text, 'docs/t.md')).toEqual([
      { file: 'docs/t.md', line: 3, exit: 0, script: 'echo a\necho b' },
      { file: 'docs/t.md', line: 8, exit: 2, script: 'printf x \\\n    | cat\nfalse', output: ['output line'], group: 'g' },
    ]);
    // An install block keeps its npm line (the others drop a leading `npm install && `).
    expect(runnableBlocks('<!-- runnable install -->\n```sh\nnpm ci && npm link\n```\n<!-- runnable -->\n```sh\nnpm install && ls\n```')).toEqual([
      { file: 'README.md', line: 2, exit: 0, script: 'npm ci && npm link', install: true },
      { file: 'README.md', line: 6, exit: 0, script: 'ls' },
    ]);
    expect(() => runnableBlocks('<!-- runnable -->\n\n```sh\nls\n```')).toThrow('README.md:1: a runnable marker must be followed directly by a ```sh fence');
    expect(() => runnableBlocks('text\n```sh\nls\n```', 'docs/a.md')).toThrow(
      'docs/a.md:2: a command block needs <!-- runnable … --> or <!-- not-runnable: reason -->',
    );
    expect(() => runnableBlocks('<!-- not-runnable: -->\n```sh\nls\n```')).toThrow('README.md:1: unreadable marker');
  });
});

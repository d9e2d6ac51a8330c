// `doctor --agent X` and the bundled client's settings file (<profile home>/hermes-hooks-client.env,
// issue 33): the built CLI, real files. A file the client refuses (another uid, group-writable), one
// that is missing, or one naming a node that is gone is ✗ (exit 1) — and the real client, run on the
// same file, indeed blocks the gate for that reason; what print-config wrote is ✓; a --run wiring,
// which needs no client, is not checked.

import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanupTemps, makeHome, runBin, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

const CLIENT = join(ROOT, 'scripts-examples/hosts/hermes-hooks-client');

interface Setup {
  home: string;
  project: string;
  hh: string;
  env: NodeJS.ProcessEnv;
  settings: string;
}

/** A user HOME with print-config claude's wiring (`extra`: --run …) in ~/.claude/settings.json, and its profile. */
async function setup(extra: string[] = []): Promise<Setup> {
  const root = tempDir('hh-ccs-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  const hh = makeHome('hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: 5\n');
  const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' };
  const printed = await runBin(['print-config', 'claude', '--home', hh, ...extra], { env });
  expect(printed.code).toBe(0);
  writeFileSync(join(home, '.claude/settings.json'), printed.stdout);
  return { home, project, hh, env, settings: join(hh, 'hermes-hooks-client.env') };
}

async function doctor(s: Setup) {
  const r = await runBin(['doctor', '--agent', 'claude', '--home', s.hh, '--project', s.project, '--json'], { env: s.env });
  const report = JSON.parse(r.stdout) as {
    general: { ok: boolean | null; message: string }[];
    entries: { checks: { ok: boolean | null; message: string }[] }[];
  };
  const all = [...report.general, ...report.entries.flatMap((e) => e.checks)];
  return { code: r.code, problems: all.filter((c) => c.ok === false).map((c) => c.message), about: all.filter((c) => c.message.includes(s.settings)) };
}

/** The real client on the gate, as the agent runs it, with no serve up: its exit code and message. */
function client(s: Setup): { code: number | null; stderr: string } {
  const r = spawnSync('perl', [CLIENT, 'claude', 'PreToolUse', '--gate', '1', '--home', s.hh], {
    input: '{}',
    env: { ...s.env, HERMES_HOOKS_START_WAIT: '5' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stderr: r.stderr };
}

const BLOCKS = "Claude Code's tool gate blocks every call";

describe('doctor --agent: the bundled client settings file', () => {
  it("what print-config wrote is ✓ (exit 0); missing it is ✗ (exit 1); a --run wiring is not about the client's file", async () => {
    const s = await setup();
    const ok = await doctor(s);
    expect(ok.code).toBe(0);
    expect(ok.about).toEqual([{ ok: true, message: `${s.settings}: the client starts serve with ${process.execPath} ${BIN} (there and executable)` }]);

    rmSync(s.settings);
    const missing = await doctor(s);
    expect(missing.code).toBe(1);
    expect(missing.problems).toEqual([
      `${s.settings} is missing: the client has no node or CLI to start serve with (it tries 'hermes-hooks' on the agent's PATH), so while serve ` +
        `is not running ${BLOCKS} — 'hermes-hooks print-config claude' writes it again`,
    ]);
    // The text report says it too, as a ✗ line.
    const text = await runBin(['doctor', '--agent', 'claude', '--home', s.hh, '--project', s.project], { env: s.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`  ✗ ${s.settings} is missing: `);

    // --run: the agent runs `hermes-hooks run` itself; no client, so its file is nobody's business.
    const run = await setup(['--run']);
    rmSync(run.settings, { force: true });
    const r = await doctor(run);
    expect(r.about).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('a file naming a node that does not exist, or is not executable, is ✗; the client blocks the gate on the same node', async () => {
    const s = await setup();
    const text = readFileSync(s.settings, 'utf8');
    writeFileSync(s.settings, text.replace(/^HERMES_HOOKS_NODE=.*$/m, 'HERMES_HOOKS_NODE=/nonexistent/node'));
    const gone = await doctor(s);
    expect(gone.code).toBe(1);
    expect(gone.problems).toEqual([
      `node /nonexistent/node (named in ${s.settings}) is not there (node moved or removed, e.g. by nvm): the client cannot start serve, so ` +
        `while serve is not running ${BLOCKS} — 'hermes-hooks print-config claude' writes it again`,
    ]);
    const c = client(s);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('/nonexistent/node (HERMES_HOOKS_NODE) is not there');

    const notExec = join(s.hh, 'node-copy');
    writeFileSync(notExec, '#!/bin/sh\n');
    chmodSync(notExec, 0o644);
    writeFileSync(s.settings, text.replace(/^HERMES_HOOKS_NODE=.*$/m, `HERMES_HOOKS_NODE=${notExec}`));
    expect((await doctor(s)).problems).toEqual([expect.stringMatching(new RegExp(`^node ${notExec} \\(named in .*\\) is not executable: `))]);

    // A stale CLI too; and an entry's own --bin (an older, longer print) wins over the file, as in the client.
    writeFileSync(s.settings, text.replace(/^HERMES_HOOKS_BIN=.*$/m, 'HERMES_HOOKS_BIN=/moved/dist/cli/bin.js'));
    expect((await doctor(s)).problems).toEqual([expect.stringMatching(/^the CLI \/moved\/dist\/cli\/bin\.js \(named in .*\) is not there /)]);
    const wiring = join(s.home, '.claude/settings.json');
    writeFileSync(wiring, readFileSync(wiring, 'utf8').replaceAll(' --home ', ` --bin ${BIN} --home `));
    expect((await doctor(s)).problems).toEqual([]);
  });

  it('a group-writable file is ✗ with the chmod that fixes it; the client refuses it the same way', async () => {
    const s = await setup();
    chmodSync(s.settings, 0o664);
    const r = await doctor(s);
    expect(r.code).toBe(1);
    expect(r.problems).toEqual([
      `${s.settings} is writable by other users (mode 664): the client refuses its settings, so ${BLOCKS} (other events go ahead without ` +
        `hermes-hooks) — run: chmod go-w ${s.settings}`,
    ]);
    const c = client(s);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${s.settings} is writable by other users (mode 664)`);
    chmodSync(s.settings, 0o644);
    expect((await doctor(s)).code).toBe(0);
  });

  it('a file owned by another uid, or a symlink, is ✗; the client refuses it the same way', async () => {
    const s = await setup();
    chownSync(s.settings, 65534, 65534);
    const r = await doctor(s);
    expect(r.code).toBe(1);
    const me = process.getuid!();
    expect(r.problems).toEqual([
      `${s.settings} belongs to uid 65534, not to you (uid ${me}) or root: the client refuses its settings, so ${BLOCKS} (other events go ` +
        "ahead without hermes-hooks) — remove it; 'hermes-hooks print-config claude' writes it again",
    ]);
    const c = client(s);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${s.settings} belongs to uid 65534, not to you`);
    // A symlink, even to a good file of ours, is not a plain file to the client (it looks with lstat).
    const good = join(s.hh, 'elsewhere.env');
    writeFileSync(good, readFileSync(s.settings), { mode: 0o644 });
    rmSync(s.settings);
    symlinkSync(good, s.settings);
    expect((await doctor(s)).problems).toEqual([expect.stringMatching(new RegExp(`^${s.settings} is not a plain file: the client refuses its settings`))]);
    expect(client(s).stderr).toContain(`${s.settings} is not a plain file`);
  });
});

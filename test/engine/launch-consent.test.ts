// Consent decided where the hook is launched, through a real long-lived engine: real scripts, the
// real allowlist, and approve/revoke from separate real CLI processes (dist/). An edited script
// stops running at the next emit, a revoke stops it, an approve starts it — no restart.

import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runBin, waitFor, writeScript } from '../cli/_helpers.js';
import type { HookOutcome } from '../../src/types.js';
import { capture, tempHome, testEngine } from './_helpers.js';

const CALL = { tool_name: 'terminal', args: { command: 'rm -rf /important' }, session_id: 's1' };
const AUTO = '--accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true';

interface Setup {
  home: string;
  hook: string;
  /** Lines the hook's versions appended, in order. */
  ran: () => string[];
  /** Rewrite the hook so that it appends `tag` (and answers `answer`). */
  write: (tag: string, answer?: string) => void;
  cli: (...args: string[]) => ReturnType<typeof runBin>;
}

function setup(opts: { failClosed?: boolean } = {}): Setup {
  const home = tempHome('hh-launch-');
  const hook = join(home, 'hook.sh');
  const log = join(home, 'ran.log');
  const write = (tag: string, answer = '{}'): void => {
    writeScript(hook, `#!/bin/bash\necho ${tag} >>"$HERMES_HOME/ran.log"\necho '${answer}'\n`);
  };
  write('v1');
  const entry = opts.failClosed ? `    - command: ${hook}\n      fail_closed: true\n` : `    - command: ${hook}\n`;
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n${entry}`);
  const env = baseEnv();
  return {
    home,
    hook,
    ran: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    write,
    cli: (...args: string[]) => runBin([...args, '--home', home], { env }),
  };
}

async function engineOn(s: Setup, opts: { acceptHooks?: boolean; concurrency?: number } = {}) {
  const logger = capture();
  const engine = await testEngine(s.home, { acceptHooks: false, logger, ...opts });
  return { engine, logger };
}

const shell = (hooks: HookOutcome[]): HookOutcome[] => hooks.filter((h) => h.kind === 'shell');
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const approvedAt = (home: string): string => JSON.parse(readFileSync(join(home, 'shell-hooks-allowlist.json'), 'utf8')).approvals[0].approved_at;

describe('consent at launch: an edited script', () => {
  it('stops running at the next emit of a running engine, is reported modified, and warns once', async () => {
    const s = setup();
    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const { engine, logger } = await engineOn(s);

    const first = await engine.emit('pre_tool_call', CALL);
    expect(shell(first.hooks).map((h) => [h.status, h.consent])).toEqual([['ok', 'approved']]);
    expect(s.ran()).toEqual(['v1']);

    const approvedSha = sha256(s.hook);
    s.write('v2');
    const nowSha = sha256(s.hook);
    for (let i = 0; i < 3; i++) {
      const { hooks, decision } = await engine.emit('pre_tool_call', CALL);
      const [h] = shell(hooks);
      expect([h!.status, h!.consent, h!.directive, decision.action]).toEqual(['skipped', 'modified', null, 'allow']);
      expect(h!.error).toBe(
        `shell hook for pre_tool_call (${s.hook}) was modified since approval — skipped: ${s.hook} changed ` +
          `(sha256 ${approvedSha.slice(0, 12)}… at approval ${approvedAt(s.home)}, now ${nowSha.slice(0, 12)}…). ` +
          `Review the script, then approve it again with \`hermes-hooks approve --event pre_tool_call ${s.hook}\` (or use ${AUTO}).`,
      );
    }
    expect(s.ran()).toEqual(['v1']); // v2 never ran
    expect(logger.lines).toHaveLength(1); // one warning for the hook, not one per emit
    expect(logger.lines[0]).toBe(shell((await engine.emit('pre_tool_call', CALL)).hooks)[0]!.error);

    // Back to the approved bytes: it runs again.
    s.write('v1');
    const back = await engine.emit('pre_tool_call', CALL);
    expect(shell(back.hooks).map((h) => [h.status, h.consent])).toEqual([['ok', 'approved']]);
    expect(s.ran()).toEqual(['v1', 'v1']);
  });

  it('makes a fail_closed guard block the call, saying why and how to re-approve', async () => {
    const s = setup({ failClosed: true });
    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const { engine } = await engineOn(s);
    expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');

    const approvedSha = sha256(s.hook);
    s.write('v2');
    const { hooks, decision } = await engine.emit('pre_tool_call', CALL);
    const [h] = shell(hooks);
    expect([h!.status, h!.consent]).toEqual(['awaiting_approval', 'modified']);
    expect(decision.action).toBe('block');
    expect(decision.decided_by).toBe(h!.index);
    expect(decision.message).toBe(
      `hook ${s.hook} awaits approval (modified since approval: ${s.hook} changed (sha256 ${approvedSha.slice(0, 12)}… ` +
        `at approval ${approvedAt(s.home)}, now ${sha256(s.hook).slice(0, 12)}…)): tool calls it guards are blocked until ` +
        `it is approved — run \`hermes-hooks approve --event pre_tool_call ${s.hook}\` (or use ${AUTO})`,
    );
    expect(h!.error).toBe(decision.message);
    expect(s.ran()).toEqual(['v1']);

    // Re-approving from another process lets the new version run, without a restart.
    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const again = await engine.emit('pre_tool_call', CALL);
    expect(shell(again.hooks).map((x) => [x.status, x.consent])).toEqual([['ok', 'approved']]);
    expect(again.decision.action).toBe('allow');
    expect(s.ran()).toEqual(['v1', 'v2']);
  });

  it('is checked when the hook is launched, not when the emit began', async () => {
    // With one hook at a time, the second hook launches after the first ran for 0.5 s; the script
    // is rewritten in between, and the second launch must see it.
    const home = tempHome('hh-launch-');
    const slow = writeScript(join(home, 'slow.sh'), '#!/bin/bash\nsleep 0.5\necho {}\n');
    const late = writeScript(join(home, 'late.sh'), '#!/bin/bash\necho v1 >>"$HERMES_HOME/ran.log"\necho {}\n');
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${slow}\n    - command: ${late}\n`);
    expect((await runBin(['approve', '--all', '--home', home], { env: baseEnv() })).code).toBe(0);
    const engine = await testEngine(home, { acceptHooks: false, concurrency: 1, logger: capture() });
    const pending = engine.emit('pre_tool_call', CALL);
    await new Promise((r) => setTimeout(r, 150));
    writeScript(late, '#!/bin/bash\necho v2 >>"$HERMES_HOME/ran.log"\necho {}\n');
    const { hooks } = await pending;
    expect(shell(hooks).map((h) => [h.status, h.consent])).toEqual([
      ['ok', 'approved'],
      ['skipped', 'modified'],
    ]);
    expect(existsSync(join(home, 'ran.log'))).toBe(false);
  });
});

describe('consent at launch: the allowlist as it is now', () => {
  it('a revoke from another process stops the hook at the next emit; an approve starts it again', async () => {
    const s = setup();
    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const { engine, logger } = await engineOn(s);
    expect(shell((await engine.emit('pre_tool_call', CALL)).hooks)[0]!.status).toBe('ok');

    const revoked = await s.cli('revoke', s.hook);
    expect(revoked.code).toBe(0);
    const message =
      `shell hook for pre_tool_call (${s.hook}) is no longer approved (its approval was revoked) — skipped. ` +
      `Approve it again with \`hermes-hooks approve --event pre_tool_call ${s.hook}\`, or use ${AUTO}.`;
    for (let i = 0; i < 2; i++) {
      const [h] = shell((await engine.emit('pre_tool_call', CALL)).hooks);
      expect([h!.status, h!.consent, h!.error]).toEqual(['skipped', 'not_approved', message]);
    }
    expect(logger.lines).toEqual([message]);
    expect(s.ran()).toEqual(['v1']);

    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const [h] = shell((await engine.emit('pre_tool_call', CALL)).hooks);
    expect([h!.status, h!.consent]).toEqual(['ok', 'approved']);
    expect(s.ran()).toEqual(['v1', 'v1']);
  });

  it('a revoked fail_closed guard blocks, naming the revoke', async () => {
    const s = setup({ failClosed: true });
    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const { engine } = await engineOn(s);
    expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');
    expect((await s.cli('revoke', s.hook)).code).toBe(0);
    const { decision, hooks } = await engine.emit('pre_tool_call', CALL);
    expect(shell(hooks).map((h) => [h.status, h.consent])).toEqual([['awaiting_approval', 'not_approved']]);
    expect(decision).toMatchObject({
      action: 'block',
      message:
        `hook ${s.hook} awaits approval (its approval was revoked): tool calls it guards are blocked until it is approved — ` +
        `run \`hermes-hooks approve --event pre_tool_call ${s.hook}\` (or use ${AUTO})`,
    });
    expect(s.ran()).toEqual(['v1']);
  });

  it('a hook unapproved at start runs once another process approves it', async () => {
    const s = setup({ failClosed: true });
    const { engine, logger } = await engineOn(s);
    const before = await engine.emit('pre_tool_call', CALL);
    expect(before.decision.action).toBe('block');
    expect(shell(before.hooks).map((h) => [h.status, h.consent])).toEqual([['awaiting_approval', 'not_approved']]);
    expect(logger.lines).toHaveLength(1); // start-up's warning; the emit adds none

    expect((await s.cli('approve', s.hook)).code).toBe(0);
    const after = await engine.emit('pre_tool_call', CALL);
    expect(shell(after.hooks).map((h) => [h.status, h.consent])).toEqual([['ok', 'approved']]);
    expect(after.decision.action).toBe('allow');
    expect(s.ran()).toEqual(['v1']);
  });
});

describe('consent at launch: accept and the dry run', () => {
  it('with acceptHooks a changed script is approved at launch, recorded with its new hash, and runs', async () => {
    const s = setup();
    const { engine } = await engineOn(s, { acceptHooks: true });
    expect(shell((await engine.emit('pre_tool_call', CALL)).hooks)[0]!.consent).toBe('approved');
    s.write('v2');
    const [h] = shell((await engine.emit('pre_tool_call', CALL)).hooks);
    expect([h!.status, h!.consent]).toEqual(['ok', 'approved']);
    expect(s.ran()).toEqual(['v1', 'v2']);
    const allowlist = JSON.parse(readFileSync(join(s.home, 'shell-hooks-allowlist.json'), 'utf8'));
    expect(allowlist.approvals.map((a: { command: string; script_sha256: string }) => [a.command, a.script_sha256])).toEqual([[s.hook, sha256(s.hook)]]);
  });

  it('enforceConsent: false checks nothing: an edited, unapproved script runs', async () => {
    const s = setup();
    const engine = await testEngine(s.home, { acceptHooks: false, enforceConsent: false, logger: capture() });
    s.write('v2');
    const [h] = shell((await engine.emit('pre_tool_call', CALL)).hooks);
    expect([h!.status, h!.consent]).toEqual(['ok', 'not_approved']);
    expect(s.ran()).toEqual(['v2']);
  });
});

describe('consent at launch: a script that changes while its hook runs', () => {
  it("a fail_closed guard's answer is not trusted: the call is blocked", async () => {
    const home = tempHome('hh-launch-');
    // The guard rewrites itself a moment after it started (as a concurrent writer would), then allows.
    const guard = writeScript(join(home, 'guard.sh'), '#!/bin/bash\nsleep 0.2\necho "# edited" >>"$0"\necho \'{"action":"approve","message":"fine"}\'\n');
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${guard}\n      fail_closed: true\n`);
    expect((await runBin(['approve', guard, '--home', home], { env: baseEnv() })).code).toBe(0);
    const logger = capture();
    const engine = await testEngine(home, { acceptHooks: false, logger });
    const { hooks, decision } = await engine.emit('pre_tool_call', CALL);
    const [h] = shell(hooks);
    const message =
      `hook ${guard} awaits approval (modified since approval: ${guard} keeps changing (rewritten while it ran; its answer is ignored)): ` +
      `tool calls it guards are blocked until it is approved — run \`hermes-hooks approve --event pre_tool_call ${guard}\` (or use ${AUTO})`;
    expect([h!.status, h!.exit_code, h!.consent, h!.error]).toEqual(['ok', 0, 'modified', message]);
    expect(h!.stdout).toBe('{"action":"approve","message":"fine"}\n');
    expect(decision).toMatchObject({ action: 'block', message, decided_by: h!.index });
    expect(logger.lines).toEqual([message]);
  });

  // The guard is not fail_closed, but it is on the tool gate: the answer thrown away might have been
  // a block, so it is never an allow. The guard says it started (marker), then waits for the test
  // (signal); the test rewrites it in between — by content, or only by utime (same bytes).
  it.each([
    ['rewritten', (f: string) => writeFileSync(f, `${readFileSync(f, 'utf8')}# edited\n`)],
    ['touched (utime, same bytes)', (f: string) => utimesSync(f, new Date(), new Date(Date.now() + 5_000))],
  ] as const)('a non-fail_closed guard %s while it runs blocks the call: its discarded answer is never an allow', async (_how, change) => {
    const home = tempHome('hh-launch-');
    const marker = join(home, 'started');
    const signal = join(home, 'go');
    const hook = writeScript(
      join(home, 'guard.sh'),
      `#!/bin/bash\ntouch '${marker}'\nwhile [ ! -e '${signal}' ]; do sleep 0.01; done\necho '{"action":"approve","message":"fine"}'\n`,
    );
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${hook}\n`);
    expect((await runBin(['approve', hook, '--home', home], { env: baseEnv() })).code).toBe(0);
    const engine = await testEngine(home, { acceptHooks: false, logger: capture() });
    const pending = engine.emit('pre_tool_call', CALL);
    expect(await waitFor(() => existsSync(marker), 20_000)).toBe(true);
    change(hook);
    writeFileSync(signal, '');
    const { hooks, decision } = await pending;
    const [h] = shell(hooks);
    const message = `hook ${hook} guards this tool call, but ${hook} was rewritten while it ran; its answer is ignored: the call is blocked, since what it would have answered is unknown`;
    expect([h!.status, h!.consent, h!.directive]).toEqual(['ok', 'modified', { action: 'block', message }]);
    expect(decision).toMatchObject({ action: 'block', message });
  });

  it("on any other event the hook's directive is dropped, with a warning", async () => {
    const home = tempHome('hh-launch-');
    const hook = writeScript(join(home, 'ctx.sh'), '#!/bin/bash\nsleep 0.2\necho "# edited" >>"$0"\necho \'{"context":"from the hook"}\'\n');
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_llm_call:\n    - command: ${hook}\n`);
    expect((await runBin(['approve', hook, '--home', home], { env: baseEnv() })).code).toBe(0);
    const logger = capture();
    const engine = await testEngine(home, { acceptHooks: false, logger });
    const { hooks, decision } = await engine.emit('pre_llm_call', { session_id: 's1' });
    const [h] = shell(hooks);
    expect([h!.status, h!.consent, h!.directive]).toEqual(['ok', 'modified', null]);
    const message =
      `shell hook for pre_llm_call (${hook}) was modified since approval — skipped: ${hook} keeps changing (rewritten while it ran; ` +
      `its answer is ignored). Review the script, then approve it again with \`hermes-hooks approve --event pre_llm_call ${hook}\` (or use ${AUTO}).`;
    expect(h!.error).toBe(message);
    expect(logger.lines).toEqual([message]);
    expect(decision.context ?? null).toBeNull();
  });
});

describe('consent at launch: the trust rule on what runs, judged at every launch', () => {
  it('a guard whose directory is made writable by others while the engine runs stops at the next call: a fail_closed guard blocks, saying the chmod', async () => {
    const home = tempHome('hh-launch-');
    const dir = join(tempHome('hh-launch-scripts-'), 'hooks');
    mkdirSync(dir, { mode: 0o755 });
    const log = join(home, 'ran.log');
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\necho ran >>'${log}'\necho '{}'\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${guard}\n      fail_closed: true\n`);
    expect((await runBin(['approve', guard, '--home', home], { env: baseEnv() })).code).toBe(0);
    const engine = await testEngine(home, { acceptHooks: false, logger: capture() });
    expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');
    expect(readFileSync(log, 'utf8')).toBe('ran\n');

    chmodSync(dir, 0o777);
    const { hooks, decision } = await engine.emit('pre_tool_call', CALL);
    const [h] = shell(hooks);
    expect([h!.status, h!.consent]).toEqual(['awaiting_approval', 'not_approved']);
    expect(decision.action).toBe('block');
    expect(decision.message).toContain(
      `hook ${guard} is not run (its hook script ${guard} is not trusted: the directory ${dir} on its path is writable by group and others (mode 0777)`,
    );
    expect(decision.message).toContain(`run chmod go-w '${dir}'`);
    expect(readFileSync(log, 'utf8')).toBe('ran\n');

    chmodSync(dir, 0o755);
    expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');
    expect(readFileSync(log, 'utf8')).toBe('ran\nran\n');
  });

  it('a guard that ran many times (its trust re-checked from the last judgement) still stops when a directory changes owner or the script its mode', async () => {
    const home = tempHome('hh-launch-');
    const dir = join(tempHome('hh-launch-scripts-'), 'hooks');
    mkdirSync(dir, { mode: 0o755 });
    const log = join(home, 'ran.log');
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/bash\necho ran >>'${log}'\necho '{}'\n`);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${guard}\n      fail_closed: true\n`);
    expect((await runBin(['approve', guard, '--home', home], { env: baseEnv() })).code).toBe(0);
    const engine = await testEngine(home, { acceptHooks: false, logger: capture() });
    // The first launches judge in full and keep what they read; the later ones only re-read it.
    for (let i = 0; i < 4; i++) expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');
    expect(readFileSync(log, 'utf8')).toBe('ran\n'.repeat(4));

    chownSync(dir, 4321, 4321);
    let { decision } = await engine.emit('pre_tool_call', CALL);
    expect(decision.action).toBe('block');
    expect(decision.message).toContain(`the directory ${dir} on its path is owned by uid 4321`);
    chownSync(dir, 0, 0);
    for (let i = 0; i < 3; i++) expect((await engine.emit('pre_tool_call', CALL)).decision.action).toBe('allow');

    chmodSync(guard, 0o775);
    ({ decision } = await engine.emit('pre_tool_call', CALL));
    expect(decision.action).toBe('block');
    expect(decision.message).toContain('is writable by group (mode 0775)');
    expect(readFileSync(log, 'utf8')).toBe('ran\n'.repeat(7));
  });
});

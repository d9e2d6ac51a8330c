import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsentPersistError, ConsentStore, LOCK_SUFFIX } from '../../src/consent/store.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/consent/hermes-allowlist.json');
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

let home: string;
let warnings: string[];
const cleanups: (() => void)[] = [];
const allowlistPath = (): string => path.join(home, 'shell-hooks-allowlist.json');
const readJson = (): any => JSON.parse(readFileSync(allowlistPath(), 'utf8'));
const open = (): Promise<ConsentStore> => ConsentStore.open(home, { warn: (m) => warnings.push(m) });
const script = (name: string, body: string): string => {
  const f = path.join(home, name);
  writeFileSync(f, body);
  chmodSync(f, 0o755);
  return f;
};

// Real scripts to approve (no pin, no approval): `/x.sh` in a test stands for `<scripts>/x.sh`.
let scripts: string;
const S = (name: string): string => {
  const f = path.join(scripts, name);
  if (!existsSync(f)) {
    writeFileSync(f, `#!/bin/sh\n# ${name}\n`);
    chmodSync(f, 0o755);
  }
  return f;
};

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'consent-store-'));
  scripts = mkdtempSync(path.join(os.tmpdir(), 'consent-scripts-'));
  cleanups.push(() => rmSync(scripts, { recursive: true, force: true }));
  warnings = [];
});
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  rmSync(home, { recursive: true, force: true });
});

/** Make a directory unwritable even for root (CI runs as root): chattr +i; else chmod 0555. */
function makeReadOnly(dir: string): void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', dir]);
    cleanups.push(() => execFileSync('chattr', ['-i', dir]));
  } else {
    chmodSync(dir, 0o555);
    cleanups.push(() => chmodSync(dir, 0o755));
  }
}

describe('ConsentStore: reading', () => {
  it('a missing file is an empty allowlist, without a warning', async () => {
    const store = await open();
    expect(store.path).toBe(allowlistPath());
    expect(store.entries()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('reads a Hermes-written allowlist: its approvals (no hash) are unpinned — they run, nothing is pinned', async () => {
    copyFileSync(FIXTURE, allowlistPath());
    const store = await open();
    const info = await store.state({ event: 'pre_tool_call', command: '/opt/hooks/guard.sh' });
    expect(info).toMatchObject({ state: 'unpinned', pinned: false, approved_at: '2025-05-01T12:00:00.123456Z', allowlist_error: null });
    expect((await store.state({ event: 'post_tool_call', command: '/opt/hooks/guard.sh' })).state).toBe('not_approved');
  });

  it('a BOM-prefixed file is read', async () => {
    writeFileSync(allowlistPath(), '\uFEFF{"approvals": [{"event": "pre_tool_call", "command": "/x.sh"}]}');
    const store = await open();
    expect((await store.state({ event: 'pre_tool_call', command: '/x.sh' })).state).toBe('unpinned');
    expect(warnings).toEqual([]);
  });

  it('a junk file approves nothing and says why', async () => {
    writeFileSync(allowlistPath(), '{"approvals": [{"event": "pre_tool_call", "command": "/x.sh"},]}');
    const store = await open();
    expect((await store.state({ event: 'pre_tool_call', command: '/x.sh' })).state).toBe('not_approved');
    expect(warnings).toEqual([`Shell hook allowlist ${allowlistPath()} is not valid JSON; treating it as empty (no hook is approved by it)`]);
  });

  it('an allowlist that is a directory is refused: nothing approved, and it says why', async () => {
    execFileSync('mkdir', [allowlistPath()]);
    const store = await open();
    expect(store.entries()).toEqual([]);
    const refusal = `shell hook allowlist ${allowlistPath()} is refused: it is a directory, not a regular file, so no approval in it counts — replace it with a regular file`;
    expect(warnings).toEqual([refusal]);
    expect(store.refused).toBe(refusal);
    expect((await store.state({ event: 'pre_tool_call', command: '/x.sh' })).allowlist_error).toBe(refusal);
  });
});

describe('ConsentStore: approve / state / revoke', () => {
  it('writes Hermes-compatible entries plus the sha256 pin, sorted, indent 2, mode 0600, no temp files left', async () => {
    const hook = script('guard.sh', '#!/bin/sh\nexit 0\n');
    utimesSync(hook, 1_700_000_000.25, 1_700_000_000.25);
    const store = await ConsentStore.open(home, { warn: (m) => warnings.push(m), now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 600)) });
    const result = await store.approve({ event: 'pre_tool_call', command: `  bash ${hook}  ` });
    expect(result).toEqual({
      persisted: true,
      warning: null,
      approvals: [
        {
          event: 'pre_tool_call',
          command: `bash ${hook}`,
          approved_at: '2026-01-02T03:04:05.600000Z',
          script_mtime_at_approval: '2023-11-14T22:13:20.250000Z',
          script_sha256: sha('#!/bin/sh\nexit 0\n'),
          script_path: hook,
        },
      ],
    });
    const text = readFileSync(allowlistPath(), 'utf8');
    expect(text).toBe(
      `{\n  "approvals": [\n    {\n      "approved_at": "2026-01-02T03:04:05.600000Z",\n      "command": "bash ${hook}",\n` +
        `      "event": "pre_tool_call",\n      "script_mtime_at_approval": "2023-11-14T22:13:20.250000Z",\n` +
        `      "script_path": "${hook}",\n      "script_sha256": "${sha('#!/bin/sh\nexit 0\n')}"\n    }\n  ]\n}\n`,
    );
    expect(statSync(allowlistPath()).mode & 0o777).toBe(0o600);
    expect(readdirSync(home).sort()).toEqual(['guard.sh', 'shell-hooks-allowlist.json']);
    expect((await store.state({ event: 'pre_tool_call', command: `bash ${hook}` })).state).toBe('approved');
    expect(warnings).toEqual([]);
  });

  it('rewrites an existing file to mode 0600', async () => {
    writeFileSync(allowlistPath(), '{"approvals": []}', { mode: 0o644 });
    chmodSync(allowlistPath(), 0o644);
    const store = await open();
    await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(statSync(allowlistPath()).mode & 0o777).toBe(0o600);
  });

  it('keeps a Hermes-written file intact (unknown keys, other entries) when approving', async () => {
    copyFileSync(FIXTURE, allowlistPath());
    const original = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const store = await open();
    await store.approve({ event: 'post_tool_call', command: S('new.sh') });
    const after = readJson();
    expect(after.meta).toEqual(original.meta);
    expect(after.version).toBe(1);
    expect(after.approvals.slice(0, 2)).toEqual(original.approvals);
    expect(after.approvals[2]).toMatchObject({ event: 'post_tool_call', command: S('new.sh'), script_sha256: sha('#!/bin/sh\n# new.sh\n') });
    // Hermes' own matching still finds its entries.
    expect(after.approvals.filter((e: any) => e.event === 'pre_tool_call' && e.command === '/opt/hooks/guard.sh')).toHaveLength(1);
  });

  it('re-approving replaces the entry for the pair, at the end', async () => {
    copyFileSync(FIXTURE, allowlistPath());
    const store = await open();
    // A hand edit pointing the fixture's command at a real script, which the approval then pins.
    writeFileSync(allowlistPath(), readFileSync(FIXTURE, 'utf8').replace('/opt/hooks/guard.sh', S('guard.sh')));
    await store.approve({ event: 'pre_tool_call', command: S('guard.sh') });
    const commands = readJson().approvals.map((e: any) => `${e.event} ${e.command}`);
    expect(commands).toEqual(['on_session_start python3 ~/hooks/start.py', `pre_tool_call ${S('guard.sh')}`]);
    expect(readJson().approvals[1].note).toBeUndefined();
  });

  it('approve → edit the script → modified → re-approve → approved', async () => {
    const hook = script('h.sh', '#!/bin/sh\necho v1\n');
    const spec = { event: 'pre_tool_call', command: hook };
    const store = await open();
    expect((await store.state(spec)).state).toBe('not_approved');
    await store.approve(spec);
    expect(await store.state(spec)).toMatchObject({ state: 'approved', pinned: true, approved_sha256: sha('#!/bin/sh\necho v1\n') });

    writeFileSync(hook, '#!/bin/sh\necho v2 evil\n');
    const modified = await store.state(spec);
    expect(modified).toMatchObject({ state: 'modified', approved_sha256: sha('#!/bin/sh\necho v1\n'), script_sha256: sha('#!/bin/sh\necho v2 evil\n') });
    expect(modified.reason).toContain(`${hook} changed (sha256 ${sha('#!/bin/sh\necho v1\n').slice(0, 12)}…`);
    // Another process sees the same.
    expect((await (await open()).state(spec)).state).toBe('modified');

    await store.approve(spec);
    expect(await store.state(spec)).toMatchObject({ state: 'approved', approved_sha256: sha('#!/bin/sh\necho v2 evil\n') });
    expect(readJson().approvals).toHaveLength(1);
  });

  it('a pinned script that goes missing is modified', async () => {
    const hook = script('gone.py', 'print(1)\n');
    const spec = { event: 'on_session_start', command: `python3 ${hook}` };
    const store = await open();
    await store.approve(spec);
    unlinkSync(hook);
    const info = await store.state(spec);
    expect(info.state).toBe('modified');
    expect(info.reason).toContain('is missing or unreadable now (ENOENT');
  });

  it('no pin, no approval: a missing script (or a directory) is an error naming the path; nothing of the batch is approved', async () => {
    const store = await open();
    const dir = path.join(scripts, 'adir.sh');
    execFileSync('mkdir', [dir]);
    await expect(
      store.approve([
        { event: 'pre_tool_call', command: S('ok.sh') },
        { event: 'pre_tool_call', command: path.join(scripts, 'later.sh') },
        { event: 'post_tool_call', command: `bash ${dir}` },
      ]),
    ).rejects.toThrow(
      `cannot approve [pre_tool_call] ${scripts}/later.sh: ${scripts}/later.sh does not exist; [post_tool_call] bash ${dir}: ${dir} is not a regular file — ` +
        "an approval pins the file's sha256, and there is no file to pin. Create the script (or fix the command), then approve again. Nothing was approved.",
    );
    expect(existsSync(allowlistPath())).toBe(false);
    expect((await store.state({ event: 'pre_tool_call', command: S('ok.sh') })).state).toBe('not_approved');
  });

  it('a null-hash entry written by this tool (it has our keys) is modified, never approved', async () => {
    writeFileSync(
      allowlistPath(),
      JSON.stringify({
        approvals: [
          {
            event: 'pre_tool_call',
            command: S('late.sh'),
            approved_at: '2026-01-01T00:00:00Z',
            script_mtime_at_approval: null,
            script_sha256: null,
            script_path: S('late.sh'),
          },
        ],
      }),
      { mode: 0o600 },
    );
    const store = await open();
    const info = await store.state({ event: 'pre_tool_call', command: S('late.sh') });
    expect(info.state).toBe('modified');
    expect(info.reason).toBe(
      `modified since approval: the approval of 2026-01-01T00:00:00Z pinned no file (the script was missing or unreadable then); ${S('late.sh')} is sha256 ${sha('#!/bin/sh\n# late.sh\n').slice(0, 12)}… now`,
    );
  });

  it('approves several pairs in one write, the same pair once', async () => {
    const store = await open();
    await store.approve([
      { event: 'pre_tool_call', command: S('a.sh') },
      { event: 'post_tool_call', command: S('a.sh') },
      { event: 'pre_tool_call', command: `${S('a.sh')} ` },
    ]);
    expect(readJson().approvals.map((e: any) => `${e.event} ${e.command}`)).toEqual([`pre_tool_call ${S('a.sh')}`, `post_tool_call ${S('a.sh')}`]);
  });

  it('revoke removes the command under every event and returns the count', async () => {
    copyFileSync(FIXTURE, allowlistPath());
    const store = await open();
    await store.approve([
      { event: 'pre_tool_call', command: S('x.sh') },
      { event: 'post_tool_call', command: S('x.sh') },
      { event: 'on_session_start', command: S('x.sh') },
      { event: 'pre_tool_call', command: S('y.sh') },
    ]);
    expect(await store.revoke(S('x.sh'))).toBe(3);
    expect(await store.revoke(S('x.sh'))).toBe(0);
    expect(await store.revoke(`${S('y.sh')} `)).toBe(0); // exact string
    const after = readJson();
    expect(after.approvals.map((e: any) => e.command)).toEqual(['/opt/hooks/guard.sh', 'python3 ~/hooks/start.py', S('y.sh')]);
    expect(after.meta).toBeDefined();
    expect((await store.state({ event: 'pre_tool_call', command: S('x.sh') })).state).toBe('not_approved');
  });

  it('a later write picks up approvals other processes made meanwhile', async () => {
    const a = await open();
    const b = await open();
    await a.approve({ event: 'pre_tool_call', command: S('a.sh') });
    await b.approve({ event: 'pre_tool_call', command: S('b.sh') });
    expect(readJson().approvals.map((e: any) => e.command)).toEqual([S('a.sh'), S('b.sh')]);
    expect(b.entries().map((e) => e.command)).toEqual([S('a.sh'), S('b.sh')]);
    expect(a.entries().map((e) => e.command)).toEqual([S('a.sh')]);
    await a.refresh();
    expect(a.entries().map((e) => e.command)).toEqual([S('a.sh'), S('b.sh')]);
  });

  it('many approvals at once in one process all land', async () => {
    const stores = await Promise.all(Array.from({ length: 8 }, () => open()));
    await Promise.all(
      stores.flatMap((s, i) => [s.approve({ event: 'pre_tool_call', command: S(`h${i}.sh`) }), s.approve({ event: 'post_tool_call', command: S(`h${i}.sh`) })]),
    );
    expect(readJson().approvals).toHaveLength(16);
    expect(readdirSync(home)).toEqual(['shell-hooks-allowlist.json']);
  });

  it('saves an unparsable file aside before rewriting it', async () => {
    writeFileSync(allowlistPath(), '{"approvals": [{"event": "pre_tool_call", "command": "/hand.sh"},]}');
    const store = await open();
    await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(readJson().approvals.map((e: any) => e.command)).toEqual([S('x.sh')]);
    expect(readFileSync(`${allowlistPath()}.invalid`, 'utf8')).toContain('/hand.sh');
    expect(warnings.at(-1)).toBe(
      `Shell hook allowlist ${allowlistPath()} is not valid JSON; treating it as empty (no hook is approved by it); its old content was saved to ${allowlistPath()}.invalid before rewriting it`,
    );
  });
});

describe('ConsentStore: locking', () => {
  it("uses its own lock file, never Hermes' flock file, and removes it after", async () => {
    // Hermes leaves `<allowlist>.lock` in place forever; its presence must not block us.
    writeFileSync(`${allowlistPath()}.lock`, '');
    const store = await open();
    expect(store.lockPath).toBe(`${allowlistPath()}${LOCK_SUFFIX}`);
    expect(LOCK_SUFFIX).toBe('.hermes-hooks.lock');
    await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(existsSync(store.lockPath)).toBe(false);
    expect(existsSync(`${allowlistPath()}.lock`)).toBe(true);
  });

  it('breaks a lock left by a process that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const store = await open();
    writeFileSync(store.lockPath, JSON.stringify({ pid: Number(dead.stdout), hostname: os.hostname(), token: 't', created_at: 'x' }));
    const r = await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(r.persisted).toBe(true);
    expect(existsSync(store.lockPath)).toBe(false);
  });

  it('breaks an abandoned lock by age, even one with no readable owner', async () => {
    const store = await ConsentStore.open(home, { warn: (m) => warnings.push(m), lock: { staleMs: 1_000 } });
    writeFileSync(store.lockPath, '');
    const old = Date.now() / 1000 - 60;
    utimesSync(store.lockPath, old, old);
    expect((await store.approve({ event: 'pre_tool_call', command: S('x.sh') })).persisted).toBe(true);
  });

  it('waits for a live holder, then gives up with a persist warning naming the holder', async () => {
    const store = await ConsentStore.open(home, { warn: (m) => warnings.push(m), lock: { timeoutMs: 300 } });
    // Held by another live process (one that never lets go).
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    cleanups.push(() => holder.kill('SIGKILL'));
    writeFileSync(store.lockPath, JSON.stringify({ pid: holder.pid, hostname: os.hostname(), token: 'other', created_at: 'then' }));
    const r = await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(r.persisted).toBe(false);
    expect(r.warning).toContain(`timed out after 0.3s waiting for the lock ${store.lockPath} (held by pid ${holder.pid}`);
    expect(existsSync(store.lockPath)).toBe(true); // not ours to remove
    expect((await store.state({ event: 'pre_tool_call', command: S('x.sh') })).state).toBe('approved');
  });
});

describe('ConsentStore: when the allowlist cannot be written', () => {
  it('a read-only home: warns, and the approval holds in memory for this run only', async () => {
    const hook = script('h.sh', '#!/bin/sh\n');
    makeReadOnly(home);
    const store = await open();
    const spec = { event: 'pre_tool_call', command: hook };
    const r = await store.approve(spec);
    expect(r.persisted).toBe(false);
    expect(r.warning).toMatch(
      new RegExp(
        `^Failed to persist shell hook allowlist to ${allowlistPath().replace(/[.]/g, '\\.')}: .*(EACCES|EPERM).*\\. The approval holds for this run, but the next start will ask again`,
      ),
    );
    expect(r.warning).toContain('--accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true');
    expect(await store.state(spec)).toMatchObject({ state: 'approved', pinned: true });
    expect(store.entries()).toHaveLength(1);
    expect(existsSync(allowlistPath())).toBe(false);
    expect((await (await open()).state(spec)).state).toBe('not_approved');
    await expect(store.revoke(hook)).rejects.toThrow(ConsentPersistError);
    expect((await store.state(spec)).state).toBe('approved'); // a failed revoke changes nothing
  });

  it('a home under a regular file (ENOTDIR) also just warns', async () => {
    writeFileSync(path.join(home, 'file'), '');
    const store = await ConsentStore.open(path.join(home, 'file', 'profile'), { warn: (m) => warnings.push(m) });
    const r = await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(r.persisted).toBe(false);
    expect(r.warning).toContain(`the profile home ${path.join(home, 'file', 'profile')} does not exist (it is not created as a side effect)`);
    expect((await store.state({ event: 'pre_tool_call', command: S('x.sh') })).state).toBe('approved');
  });

  it('in-memory approvals are written by the next successful write', async () => {
    makeReadOnly(home);
    const store = await open();
    expect((await store.approve({ event: 'pre_tool_call', command: S('a.sh') })).persisted).toBe(false);
    cleanups.pop()?.();
    expect((await store.approve({ event: 'pre_tool_call', command: S('b.sh') })).persisted).toBe(true);
    expect(readJson().approvals.map((e: any) => e.command)).toEqual([S('a.sh'), S('b.sh')]);
  });

  it('with createHome, creates a missing home directory (mode 0700) on the first approval', async () => {
    const fresh = path.join(home, '.hermes');
    const store = await ConsentStore.open(fresh, { warn: (m) => warnings.push(m), createHome: true });
    expect((await store.approve({ event: 'pre_tool_call', command: S('x.sh') })).persisted).toBe(true);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it('never creates a missing home (a profile directory) as a side effect otherwise', async () => {
    const ghost = path.join(home, 'profiles', 'ghost');
    const store = await ConsentStore.open(ghost, { warn: (m) => warnings.push(m) });
    const r = await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    expect(r.persisted).toBe(false);
    expect(r.warning).toContain(`the profile home ${ghost} does not exist (it is not created as a side effect)`);
    expect(existsSync(path.join(home, 'profiles'))).toBe(false);
    await expect(store.revoke(S('x.sh'))).rejects.toThrow(`the profile home ${ghost} does not exist`);
    expect(existsSync(path.join(home, 'profiles'))).toBe(false);
  });
});

describe("ConsentStore: the allowlist must be the user's own file (as ssh treats authorized_keys)", () => {
  const approvedBy = (command: string): string =>
    JSON.stringify({
      approvals: [{ event: 'pre_tool_call', command, approved_at: '2026-01-01T00:00:00Z', script_sha256: sha('#!/bin/sh\n# g.sh\n'), script_path: command }],
    });

  it('a symlink to a world-writable file is refused (the target is checked), and approve/revoke refuse to write through it', async () => {
    const elsewhere = path.join(scripts, 'planted.json');
    writeFileSync(elsewhere, approvedBy(S('g.sh')));
    chmodSync(elsewhere, 0o666);
    symlinkSync(elsewhere, allowlistPath());
    const store = await open();
    const info = await store.state({ event: 'pre_tool_call', command: S('g.sh') });
    const refusal = `shell hook allowlist ${allowlistPath()} (a symlink to ${elsewhere}) is refused: it is writable by group and others (mode 0666), so no approval in it counts — check what is there, then run chmod go-w '${elsewhere}'`;
    expect(info).toMatchObject({ state: 'not_approved', allowlist_error: refusal, reason: `not approved: ${refusal}` });
    expect(warnings).toEqual([refusal]);
    await expect(store.approve({ event: 'pre_tool_call', command: S('g.sh') })).rejects.toThrow(`${refusal}. Nothing was approved.`);
    await expect(store.revoke(S('g.sh'))).rejects.toThrow(`${refusal}. Nothing was revoked.`);
    expect(lstatSync(allowlistPath()).isSymbolicLink()).toBe(true);
    // Fixed by its owner: the same store sees it at the next state(), no restart.
    chmodSync(elsewhere, 0o600);
    expect((await store.state({ event: 'pre_tool_call', command: S('g.sh') })).state).toBe('approved');
  });

  it("a group-writable file is refused; a symlink to the user's own 0600 file is followed and used", async () => {
    writeFileSync(allowlistPath(), approvedBy(S('g.sh')));
    chmodSync(allowlistPath(), 0o620);
    expect((await (await open()).state({ event: 'pre_tool_call', command: S('g.sh') })).allowlist_error).toContain(
      'is refused: it is writable by group (mode 0620)',
    );
    rmSync(allowlistPath());
    const mine = path.join(scripts, 'mine.json');
    writeFileSync(mine, approvedBy(S('g.sh')), { mode: 0o600 });
    symlinkSync(mine, allowlistPath());
    expect((await (await open()).state({ event: 'pre_tool_call', command: S('g.sh') })).state).toBe('approved');
  });

  it('a symlinked allowlist is written through: approve, revoke and a new approval update the target, the link stays', async () => {
    const dotfiles = mkdtempSync(path.join(os.tmpdir(), 'consent-dotfiles-'));
    cleanups.push(() => rmSync(dotfiles, { recursive: true, force: true }));
    const target = path.join(dotfiles, 'allowlist.json');
    writeFileSync(target, approvedBy(S('g.sh')), { mode: 0o600 });
    symlinkSync(target, allowlistPath());
    const store = await open();
    await store.approve({ event: 'pre_tool_call', command: S('h.sh') });
    expect(lstatSync(allowlistPath()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).approvals.map((a: { command: string }) => a.command)).toEqual([S('g.sh'), S('h.sh')]);
    expect((statSync(target).mode & 0o777).toString(8)).toBe('600');
    expect(await store.revoke(S('g.sh'))).toBe(1);
    expect(lstatSync(allowlistPath()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).approvals.map((a: { command: string }) => a.command)).toEqual([S('h.sh')]);
    // No temp file is left beside the link or the target.
    expect(readdirSync(home).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(dotfiles)).toEqual(['allowlist.json']);
    expect((await (await open()).state({ event: 'pre_tool_call', command: S('h.sh') })).state).toBe('approved');
    expect(warnings).toEqual([]);
  });

  it('a symlink to a file in a directory others can write is refused, and approve/revoke do not write through it', async () => {
    const shared = mkdtempSync(path.join(os.tmpdir(), 'consent-shared-'));
    cleanups.push(() => rmSync(shared, { recursive: true, force: true }));
    chmodSync(shared, 0o775);
    const target = path.join(shared, 'allowlist.json');
    writeFileSync(target, approvedBy(S('g.sh')), { mode: 0o600 });
    symlinkSync(target, allowlistPath());
    const before = readFileSync(target, 'utf8');
    const store = await open();
    const refusal = `shell hook allowlist ${allowlistPath()} (a symlink to ${target}) is refused: the directory ${shared} on its path is writable by group (mode 0775), so no approval in it counts — check what is there, then run chmod go-w '${shared}'`;
    expect(await store.state({ event: 'pre_tool_call', command: S('g.sh') })).toMatchObject({ state: 'not_approved', allowlist_error: refusal });
    await expect(store.approve({ event: 'pre_tool_call', command: S('h.sh') })).rejects.toThrow(`${refusal}. Nothing was approved.`);
    await expect(store.revoke(S('g.sh'))).rejects.toThrow(`${refusal}. Nothing was revoked.`);
    expect(lstatSync(allowlistPath()).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(before);
  });

  it('a symlink to nothing is not replaced by a regular file: approve refuses, saying so', async () => {
    const gone = path.join(scripts, 'no-such-dir', 'allowlist.json');
    symlinkSync(gone, allowlistPath());
    const store = await open();
    await expect(store.approve({ event: 'pre_tool_call', command: S('g.sh') })).rejects.toThrow(
      `shell hook allowlist ${allowlistPath()} is a symlink to nothing (a missing file or directory on its way), so it is not written through — create its target, or remove the link, then approve again. Nothing was approved.`,
    );
    expect(lstatSync(allowlistPath()).isSymbolicLink()).toBe(true);
    expect(existsSync(gone)).toBe(false);
  });

  it('the home itself writable by others: the allowlist in it is refused', async () => {
    writeFileSync(allowlistPath(), approvedBy(S('g.sh')), { mode: 0o600 });
    chmodSync(home, 0o777);
    const info = await (await open()).state({ event: 'pre_tool_call', command: S('g.sh') });
    expect(info.allowlist_error).toBe(
      `shell hook allowlist ${allowlistPath()} is refused: the directory ${home} on its path is writable by group and others (mode 0777), so no approval in it counts — check what is there, then run chmod go-w '${home}'`,
    );
  });

  it('a file owned by another user is refused', async () => {
    // Only root can give a file away; as another user, a root-owned file is accepted like sshd does.
    if (process.geteuid?.() !== 0) {
      const { readTrustedFile } = await import('../../src/consent/trust.js');
      writeFileSync(allowlistPath(), '{}', { mode: 0o600 });
      const other = (process.geteuid?.() ?? 1000) + 1;
      const r = readTrustedFile(allowlistPath(), { euid: other });
      expect(r.refused?.findings).toContainEqual(
        expect.objectContaining({ path: allowlistPath(), self: true, problem: `is owned by uid ${process.geteuid?.()}, not by you (uid ${other})` }),
      );
      return;
    }
    writeFileSync(allowlistPath(), approvedBy(S('g.sh')), { mode: 0o600 });
    chownSync(allowlistPath(), 65534, 65534);
    const info = await (await open()).state({ event: 'pre_tool_call', command: S('g.sh') });
    expect(info.state).toBe('not_approved');
    expect(info.allowlist_error).toBe(
      `shell hook allowlist ${allowlistPath()} is refused: it is owned by uid 65534, not by you (uid 0), so no approval in it counts — check what is there, then run chown root '${allowlistPath()}'`,
    );
  });

  it('a FIFO at the path does not hang: it is refused at once', async () => {
    execFileSync('mkfifo', [allowlistPath()]);
    const started = Date.now();
    const store = await open();
    expect((await store.state({ event: 'pre_tool_call', command: S('g.sh') })).allowlist_error).toBe(
      `shell hook allowlist ${allowlistPath()} is refused: it is a FIFO, not a regular file, so no approval in it counts — replace it with a regular file`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it('state() re-reads the file only when its identity changed', async () => {
    writeFileSync(allowlistPath(), approvedBy(S('g.sh')), { mode: 0o600 });
    const store = await open();
    expect(await store.refresh()).toBe(false);
    expect((await store.state({ event: 'pre_tool_call', command: S('g.sh') })).state).toBe('approved');
    writeFileSync(allowlistPath(), '{"approvals": []}');
    expect(await store.refresh()).toBe(true);
    expect(await store.refresh()).toBe(false);
    expect((await store.state({ event: 'pre_tool_call', command: S('g.sh') })).state).toBe('not_approved');
  });

  it('each corruption keeps its own numbered backup: .invalid, .invalid.1', async () => {
    const store = await open();
    writeFileSync(allowlistPath(), '{first corruption', { mode: 0o600 });
    await store.approve({ event: 'pre_tool_call', command: S('a.sh') });
    writeFileSync(allowlistPath(), '["second corruption"]', { mode: 0o600 });
    await store.approve({ event: 'pre_tool_call', command: S('b.sh') });
    expect(readFileSync(`${allowlistPath()}.invalid`, 'utf8')).toBe('{first corruption');
    expect(readFileSync(`${allowlistPath()}.invalid.1`, 'utf8')).toBe('["second corruption"]');
    expect(warnings.at(-1)).toBe(
      `Shell hook allowlist ${allowlistPath()} is not a JSON object; treating it as empty (no hook is approved by it); its old content was saved to ${allowlistPath()}.invalid.1 before rewriting it`,
    );
  });

  it('a lock claiming pid 1 (always alive in a container) with a future mtime does not block revoke', async () => {
    const store = await ConsentStore.open(home, { warn: (m) => warnings.push(m), lock: { timeoutMs: 3_000 } });
    await store.approve({ event: 'pre_tool_call', command: S('x.sh') });
    writeFileSync(store.lockPath, JSON.stringify({ pid: 1, hostname: os.hostname(), token: 'forged', created_at: '2099-01-01T00:00:00Z' }));
    const future = Date.now() / 1000 + 3600;
    utimesSync(store.lockPath, future, future);
    expect(await store.revoke(S('x.sh'))).toBe(1);
    expect(existsSync(store.lockPath)).toBe(false);
  });

  it('a lock claiming a live pid that is not the process that took it (start time differs) is broken', async () => {
    const store = await ConsentStore.open(home, { warn: (m) => warnings.push(m), lock: { timeoutMs: 3_000 } });
    writeFileSync(store.lockPath, JSON.stringify({ pid: 1, start: '1', hostname: os.hostname(), token: 'recycled', created_at: 'now' }));
    // Start time 1 tick after boot is not pid 1's recorded start unless pid 1 really started then.
    const pid1 = readFileSync('/proc/1/stat', 'utf8');
    const real = pid1.slice(pid1.lastIndexOf(')') + 2).split(' ')[19];
    if (real === '1') writeFileSync(store.lockPath, JSON.stringify({ pid: 1, start: '2', hostname: os.hostname(), token: 'recycled', created_at: 'now' }));
    expect((await store.approve({ event: 'pre_tool_call', command: S('x.sh') })).persisted).toBe(true);
  });
});

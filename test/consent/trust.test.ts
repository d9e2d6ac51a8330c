// The one trust rule (src/consent/trust.ts), on real files and directories: the file and every
// directory on the way to it (symlink hops included) must be the user's or root's and not
// writable by group or others; a root-owned sticky directory (/tmp) is the one exception.
// Ownership by another user is made with chown as root (CI runs as root); run as another user,
// the same cases judge files owned by us as if we were uid+1.

import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTrust, distrustMessage, judgeSubjects, profileSubjects, readTrustedFile } from '../../src/consent/trust.js';
import { proofHolds, trustProof } from '../../src/consent/_trust-proof.js';

const ROOT = process.geteuid?.() === 0;
const ME = process.geteuid?.() ?? 0;
let base: string;

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'hh-trust-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function file(p: string, mode = 0o600, text = 'x'): string {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

function dir(p: string, mode = 0o700): string {
  mkdirSync(p, { recursive: true });
  chmodSync(p, mode);
  return p;
}

/**
 * `p` becomes another user's: chown to uid 12345 as root. Not root, we cannot give a file away:
 * the verdict is then asked as uid ME+1, to whom our files are another user's.
 */
function foreign(p: string): { euid?: number; other: number } {
  if (ROOT) {
    chownSync(p, 12345, 12345);
    return { other: 12345 };
  }
  return { euid: ME + 1, other: ME };
}

describe('checkTrust: the file itself', () => {
  it('the user’s own 0600 / 0644 file in a 0700 directory under /tmp is trusted (/tmp: root-owned and sticky)', () => {
    expect(checkTrust(file(path.join(base, 'a'), 0o600)).findings).toEqual([]);
    expect(checkTrust(file(path.join(base, 'b'), 0o644))).toMatchObject({ exists: true, target: path.join(base, 'b'), findings: [] });
  });

  it('a file writable by others, or by group: refused with chmod go-w', () => {
    const f = file(path.join(base, 'c.yaml'), 0o666);
    const v = checkTrust(f);
    expect(v.findings).toEqual([{ path: f, self: true, problem: 'is writable by group and others (mode 0666)', fix: `run chmod go-w '${f}'` }]);
    expect(distrustMessage('config file', v)).toBe(
      `config file ${f} is not trusted: it is writable by group and others (mode 0666) — check what is there, then run chmod go-w '${f}'`,
    );
    chmodSync(f, 0o620);
    expect(checkTrust(f).findings[0]?.problem).toBe('is writable by group (mode 0620)');
  });

  it('a file owned by another user: refused with the chown that takes it back', () => {
    const f = file(path.join(base, 'c.yaml'), 0o644);
    const { euid, other } = foreign(f);
    const v = checkTrust(f, euid !== undefined ? { euid } : {});
    const me = euid ?? ME;
    expect(v.findings).toContainEqual(expect.objectContaining({ path: f, self: true, problem: `is owned by uid ${other}, not by you (uid ${me})` }));
    expect(v.findings.find((x) => x.self)?.fix).toMatch(new RegExp(`^run (sudo )?chown \\S+ '${f}'$`));
  });

  it('a directory where a file is expected (and the reverse) is refused', () => {
    const d = dir(path.join(base, 'd'));
    expect(checkTrust(d).findings).toEqual([{ path: d, self: true, problem: 'is a directory, not a regular file', fix: 'replace it with a regular file' }]);
    const f = file(path.join(base, 'f'));
    expect(checkTrust(f, { kind: 'directory' }).findings[0]?.problem).toBe('is a regular file, not a directory');
  });

  it('a secret (serve’s token) must not be readable by group or others either', () => {
    const f = file(path.join(base, 'token'), 0o640);
    expect(checkTrust(f, { secret: true }).findings).toEqual([
      { path: f, self: true, problem: 'is readable by group (mode 0640)', fix: `run chmod 600 '${f}'` },
    ]);
    expect(checkTrust(f).findings).toEqual([]);
  });
});

describe('checkTrust: the directories on the way (as sshd StrictModes)', () => {
  it('a 0777 directory anywhere above the file is refused, named, with its own chmod', () => {
    const d = dir(path.join(base, 'home'), 0o777);
    const f = file(path.join(d, 'sub', 'config.yaml'));
    chmodSync(path.join(d, 'sub'), 0o755);
    expect(checkTrust(f).findings).toEqual([{ path: d, self: false, problem: 'is writable by group and others (mode 0777)', fix: `run chmod go-w '${d}'` }]);
  });

  it('a group-writable parent directory is refused', () => {
    const d = dir(path.join(base, 'home'), 0o775);
    const f = file(path.join(d, 'config.yaml'));
    expect(distrustMessage('config file', checkTrust(f))).toBe(
      `config file ${f} is not trusted: the directory ${d} on its path is writable by group (mode 0775) — check what is there, then run chmod go-w '${d}'`,
    );
  });

  it('a directory on the way owned by another user is refused', () => {
    const d = dir(path.join(base, 'theirs'), 0o755);
    const f = file(path.join(d, 'config.yaml'));
    const { euid, other } = foreign(d);
    const v = checkTrust(f, euid !== undefined ? { euid } : {});
    expect(v.findings).toContainEqual(expect.objectContaining({ path: d, self: false, problem: `is owned by uid ${other}, not by you (uid ${euid ?? ME})` }));
  });

  it('a root-owned sticky directory (like /tmp) is fine; a sticky directory owned by anyone else is not', () => {
    const sticky = dir(path.join(base, 'tmp'), 0o1777);
    const f = file(path.join(sticky, 'home', 'config.yaml'));
    chmodSync(path.join(sticky, 'home'), 0o700);
    if (ROOT) {
      expect(checkTrust(f).findings).toEqual([]);
      // The same directory owned by a user: its owner can replace entries in it — refused.
      chownSync(sticky, 12345, 12345);
      expect(checkTrust(f).findings).toEqual([
        { path: sticky, self: false, problem: 'is owned by uid 12345, not by you (uid 0)', fix: `run chown root '${sticky}'` },
        { path: sticky, self: false, problem: 'is writable by group and others (mode 1777)', fix: `run chmod go-w '${sticky}'` },
      ]);
    } else {
      // Ours and sticky: not the root-owned exception, so refused for being writable by others.
      expect(checkTrust(f).findings).toEqual([
        { path: sticky, self: false, problem: 'is writable by group and others (mode 1777)', fix: `run chmod go-w '${sticky}'` },
      ]);
    }
    expect(checkTrust('/tmp', { kind: 'directory' }).findings).toEqual([]);
  });

  it('a path that does not exist is judged by the directories that do (what would be created there)', () => {
    const d = dir(path.join(base, 'open'), 0o777);
    const v = checkTrust(path.join(d, 'missing', 'token'));
    expect(v).toMatchObject({ exists: false, target: null });
    expect(v.findings).toEqual([{ path: d, self: false, problem: 'is writable by group and others (mode 0777)', fix: `run chmod go-w '${d}'` }]);
    expect(checkTrust(path.join(base, 'nothing')).findings).toEqual([]);
  });
});

describe('checkTrust: symlinks are followed, and every directory a hop sits in counts', () => {
  it('a link in a trusted home to the user’s own file elsewhere is trusted; the target is reported', () => {
    const target = file(path.join(dir(path.join(base, 'dotfiles')), 'config.yaml'), 0o644);
    const link = path.join(dir(path.join(base, 'home')), 'config.yaml');
    symlinkSync(target, link);
    expect(checkTrust(link)).toEqual({ path: link, target, exists: true, findings: [] });
  });

  it('a link to a file in a 0777 directory: the target’s directory is refused', () => {
    const open = dir(path.join(base, 'open'), 0o777);
    const target = file(path.join(open, 'config.yaml'), 0o644);
    const link = path.join(dir(path.join(base, 'home')), 'config.yaml');
    symlinkSync(target, link);
    const v = checkTrust(link);
    expect(v.findings).toEqual([{ path: open, self: false, problem: 'is writable by group and others (mode 0777)', fix: `run chmod go-w '${open}'` }]);
    expect(distrustMessage('config file', v)).toBe(
      `config file ${link} (a symlink to ${target}) is not trusted: the directory ${open} on its path is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${open}'`,
    );
  });

  it('a chain of links: the directory of the middle hop counts too (relative links included)', () => {
    const middle = dir(path.join(base, 'middle'), 0o777);
    const target = file(path.join(dir(path.join(base, 'real')), 'config.yaml'), 0o644);
    symlinkSync('../real/config.yaml', path.join(middle, 'hop'));
    const link = path.join(dir(path.join(base, 'home')), 'config.yaml');
    symlinkSync(path.join(middle, 'hop'), link);
    const v = checkTrust(link);
    expect(v.target).toBe(target);
    expect(v.findings.map((f) => f.path)).toEqual([middle]);
  });

  it('a linked directory on the way: the directory holding the link and the target’s directories count', () => {
    const open = dir(path.join(base, 'open'), 0o777);
    const realHome = dir(path.join(open, 'realhome'));
    file(path.join(realHome, 'config.yaml'));
    symlinkSync(realHome, path.join(base, 'home'));
    expect(checkTrust(path.join(base, 'home', 'config.yaml')).findings.map((f) => f.path)).toEqual([open]);
  });

  it('a symlink loop is refused and does not hang', () => {
    const a = path.join(base, 'a');
    symlinkSync(path.join(base, 'b'), a);
    symlinkSync(a, path.join(base, 'b'));
    const v = checkTrust(a);
    expect(v.exists).toBe(true);
    expect(v.findings[0]?.problem).toBe('is a symlink loop (or a chain of more than 40 links)');
  });
});

describe('readTrustedFile', () => {
  it('reads a trusted file, refuses an untrusted one without reading it, and says nothing of a missing one', () => {
    const f = file(path.join(base, 'ok'), 0o600, 'hello');
    expect(readTrustedFile(f)).toEqual({ text: 'hello', refused: null, error: null });
    chmodSync(f, 0o606);
    expect(readTrustedFile(f)).toMatchObject({ text: null, refused: { findings: [{ problem: 'is writable by others (mode 0606)' }] } });
    expect(readTrustedFile(path.join(base, 'none'))).toEqual({ text: null, refused: null, error: null });
  });

  it('a FIFO is refused at once (never opened for a blocking read)', () => {
    const fifo = path.join(base, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(readTrustedFile(fifo).refused?.findings[0]?.problem).toBe('is a FIFO, not a regular file');
  });
});

describe('judgeSubjects: a profile judged once, each problem said once', () => {
  it('a 0777 home is said once, as the home; the files under it are untrusted with it but say nothing new', () => {
    const home = dir(path.join(base, 'home'), 0o777);
    const config = file(path.join(home, 'config.yaml'), 0o644);
    dir(path.join(home, 'plugins'), 0o755);
    const judged = judgeSubjects(profileSubjects(home, config, { layout: true }));
    expect(judged.map((j) => [j.subject.what, j.news.length])).toEqual([
      ['profile home', 1],
      ['config file', 0],
      ['plugins directory', 0],
    ]);
    expect(judged[0]?.message).toBe(
      `the profile home ${home} is not trusted: it is writable by group and others (mode 0777) — check what is there, then run chmod go-w '${home}'. ` +
        'Nothing under it is trusted either: its allowlist approves nothing (a fail_closed guard blocks), its plugins/, gateway hooks/ and BOOT.md are not loaded, and a config.yaml in it grants nothing.',
    );
  });

  it('what does not exist is not judged (no BOOT.md, no plugins/ → nothing to say)', () => {
    const home = dir(path.join(base, 'home'));
    file(path.join(home, 'config.yaml'), 0o644);
    expect(judgeSubjects(profileSubjects(home, path.join(home, 'config.yaml'), { layout: true }))).toEqual([]);
  });
});

describe('trustProof / proofHolds: the launch path re-reads what a passing verdict read', () => {
  it('holds while nothing on the way changes; fails when a directory on the way or the file changes mode, owner or type', () => {
    const d = dir(path.join(base, 'a', 'b'), 0o755);
    chmodSync(path.dirname(d), 0o755);
    const f = file(path.join(d, 'hook.sh'), 0o755);
    const proof = trustProof(f);
    expect(proof?.steps.map((s) => s.path)).toEqual([
      '/',
      ...path
        .dirname(base)
        .split('/')
        .slice(1)
        .map((_, i, a) => `/${a.slice(0, i + 1).join('/')}`),
      base,
      path.dirname(d),
      d,
      f,
    ]);
    expect(proofHolds(proof!)).toBe(true);
    chmodSync(path.dirname(d), 0o777);
    expect(proofHolds(proof!)).toBe(false);
    chmodSync(path.dirname(d), 0o755);
    expect(proofHolds(proof!)).toBe(true);
    if (ROOT) {
      // Another owner, same mode (only root can give a directory away).
      chownSync(path.dirname(d), 12345, 12345);
      expect(proofHolds(proof!)).toBe(false);
      chownSync(path.dirname(d), ME, ME);
      expect(proofHolds(proof!)).toBe(true);
    }
    chmodSync(f, 0o775);
    expect(proofHolds(proof!)).toBe(false);
    chmodSync(f, 0o755);
    rmSync(d, { recursive: true });
    symlinkSync(base, d); // the directory replaced by a link: its type differs
    expect(proofHolds(proof!)).toBe(false);
  });

  it('gives no proof for a file that fails the rule, does not exist, or has a symlink on the way (those are judged in full)', () => {
    const d = dir(path.join(base, 'real'), 0o755);
    const f = file(path.join(d, 'hook.sh'), 0o755);
    symlinkSync(d, path.join(base, 'link'));
    expect(trustProof(path.join(base, 'link', 'hook.sh'))).toBeNull();
    expect(trustProof(path.join(d, 'missing.sh'))).toBeNull();
    chmodSync(f, 0o777);
    expect(trustProof(f)).toBeNull();
  });
});

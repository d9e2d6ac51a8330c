// The one trust rule for every file that decides what runs as the user — config.yaml, the profile
// home, plugins/, gateway hooks/, BOOT.md, the allowlist, serve's token file — the way sshd's
// StrictModes judges authorized_keys: the file must be owned by the user or root and not writable
// by group or others, and so must every directory on the way to it, from / down, because whoever
// can write a directory can replace what is in it. Symlinks are followed, and every directory a
// link or its target sits in counts (the link's own mode means nothing; its directory's does).
//
// One exception, for homes under /tmp: a directory owned by root with the sticky bit (/tmp,
// /var/tmp) may be writable by all, since there only an entry's owner can rename or delete it.
// A sticky directory owned by anyone else is not excepted (its owner could replace entries).
//
// Nothing here decides what failing the rule does: the engine, the loaders and the faces do (an
// untrusted config grants nothing, an untrusted plugins/ loads nothing …). This module says
// whether, why, and the exact command that fixes it.

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { Diagnostic } from '../types.js';

/** One thing on the path that breaks the rule. */
export interface TrustFinding {
  /** The path at fault: the file itself (its final target) or a directory on the way to it. */
  path: string;
  /** True when `path` is the file (or directory) asked about, false for a directory on the way. */
  self: boolean;
  /** What is wrong, e.g. `is writable by group and others (mode 0777)`. */
  problem: string;
  /** How to fix it, starting with a verb: `run chmod go-w '/x'`. */
  fix: string;
}

export interface TrustVerdict {
  /** The path asked about, absolute. */
  path: string;
  /** Where it leads once every symlink is followed; null when it (or a directory on the way) does not exist. */
  target: string | null;
  exists: boolean;
  /** Empty: trusted. */
  findings: TrustFinding[];
}

export interface TrustOptions {
  /** Whose files these must be (default: the effective uid). Root's are always accepted. */
  euid?: number;
  /** What the path must be (default 'file'). */
  kind?: 'file' | 'directory';
  /** A secret (serve's token): also not readable by group or others. */
  secret?: boolean;
}

const MAX_LINKS = 40; // as the kernel's MAXSYMLINKS
/** The sticky bit (fs.constants has no S_ISVTX). */
const S_ISVTX = 0o1000;

/**
 * Judge `file` and every directory on the way to it. A path that does not exist is judged by the
 * directories that do (what would be created there is only as safe as they are).
 */
export function checkTrust(file: string, opts: TrustOptions = {}): TrustVerdict {
  return judgeWalk(file, opts).verdict;
}

/** checkTrust, with the lstats it judged (each directory on the way, then the target) and the uid it judged for. */
export function judgeWalk(file: string, opts: TrustOptions = {}): { verdict: TrustVerdict; judged: { path: string; st: Stats }[]; euid?: number } {
  const abs = path.resolve(file);
  const euid = opts.euid ?? process.geteuid?.();
  const walk = walkPath(abs);
  const judged = walk.target === null ? walk.dirs : [...walk.dirs, walk.target];
  // A loop exists (it is refused); only a missing entry on the way means "does not exist".
  const exists = walk.target !== null || walk.error !== null;
  if (euid === undefined) return { verdict: { path: abs, target: walk.target?.path ?? null, exists, findings: [] }, judged };
  const findings: TrustFinding[] = [];
  for (const dir of walk.dirs) findings.push(...judge(dir.path, dir.st, euid, { self: false, kind: 'directory' }));
  if (walk.error !== null) findings.push({ path: abs, self: true, problem: walk.error, fix: 'fix the path (or remove the link)' });
  if (walk.target !== null)
    findings.push(...judge(walk.target.path, walk.target.st, euid, { self: true, kind: opts.kind ?? 'file', secret: opts.secret === true }));
  return { verdict: { path: abs, target: walk.target?.path ?? null, exists, findings }, judged, euid };
}

export interface TrustedRead {
  /** The file's text; null when it does not exist, is refused, or could not be read. */
  text: string | null;
  /** Why it is refused (the verdict's findings); null otherwise. */
  refused: TrustVerdict | null;
  /** An I/O error other than "does not exist"; null otherwise. */
  error: string | null;
}

/**
 * Read a file only when it passes the rule. Opened with O_NONBLOCK before it is judged, so a FIFO
 * at the path cannot hang the caller; nothing is read unless the open descriptor is the very file
 * the walk judged (same device and inode), so a swap between the check and the read cannot slip in
 * another file.
 */
export function readTrustedFile(file: string, opts: Omit<TrustOptions, 'kind'> = {}): TrustedRead {
  // Another process of ours may replace the file (write a temp, rename over) between our open and
  // our walk: that is a new, complete file, so open it again; only a file that keeps changing is refused.
  let read = readTrustedOnce(file, opts);
  for (let attempt = 1; attempt < CHANGED_RETRIES && read.changed; attempt++) read = readTrustedOnce(file, opts);
  return { text: read.text, refused: read.refused, error: read.error };
}

/** How many times a file replaced during its check is opened again before it is refused. */
const CHANGED_RETRIES = 8;

function readTrustedOnce(file: string, opts: Omit<TrustOptions, 'kind'>): TrustedRead & { changed?: boolean } {
  const abs = path.resolve(file);
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT') return { text: null, refused: null, error: null };
    if (code === 'ELOOP') {
      return {
        text: null,
        refused: {
          path: abs,
          target: null,
          exists: true,
          findings: [{ path: abs, self: true, problem: 'is a symlink loop', fix: 'replace it with a regular file' }],
        },
        error: null,
      };
    }
    return { text: null, refused: null, error: messageOf(err) };
  }
  try {
    const st = fstatSync(fd);
    const verdict = checkTrust(abs, opts);
    if (verdict.findings.length > 0) return { text: null, refused: verdict, error: null };
    // The walk stat'ed by path; the descriptor is what gets read: it must be the file judged.
    if (verdict.target === null || !sameFile(lstatSafe(verdict.target), st)) {
      const changed: TrustFinding = { path: abs, self: true, problem: 'changed while it was being checked', fix: 'try again' };
      return { text: null, refused: { ...verdict, exists: true, findings: [changed] }, error: null, changed: true };
    }
    return { text: readFileSync(fd, 'utf8'), refused: null, error: null };
  } catch (err) {
    return { text: null, refused: null, error: messageOf(err) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Why, in one clause: `it is writable by group and others (mode 0666)`, `the directory /h on its
 * path is owned by uid 1002, not by you (uid 1001)` …, joined with "; ". "It" is the final target
 * (callers name a symlink's target in the head of their message).
 */
export function describeFindings(v: TrustVerdict): string {
  return v.findings.map((f) => (f.self ? `it ${f.problem}` : `the directory ${f.path} on its path ${f.problem}`)).join('; ');
}

/** The fixes, in order, once each: `check what is there, then run chmod go-w '/h'`. */
export function describeFixes(v: TrustVerdict): string {
  const fixes = [...new Set(v.findings.map((f) => f.fix))];
  const commands = fixes.some((f) => f.startsWith('run '));
  // Before changing modes or owners, look: someone else may have changed the content already.
  return `${commands ? 'check what is there, then ' : ''}${fixes.join(', and ')}`;
}

/** `<what> <path> is not trusted: <why> — <fix>`; the symlink target is named when there is one. */
export function distrustMessage(what: string, v: TrustVerdict, opts: { withPath?: boolean } = {}): string {
  const where = opts.withPath === false ? '' : ` ${v.path}`;
  const link = v.target !== null && v.target !== v.path && opts.withPath !== false ? ` (a symlink to ${v.target})` : '';
  return `${what}${where}${link} is not trusted: ${describeFindings(v)} — ${describeFixes(v)}`;
}

/** One file or directory of a profile to judge, and what failing the rule costs. */
export interface TrustSubject {
  /** How messages name it: `config file`, `profile home`, `plugins directory` … */
  what: string;
  path: string;
  kind: 'file' | 'directory';
  secret?: boolean;
  /** What happens because it is not trusted, as a sentence: `No plugin is loaded from it.` */
  consequence: string;
}

/** A file or folder checked against the trust rule, with its verdict (HookEngine.untrusted). */
export interface JudgedSubject {
  subject: TrustSubject;
  verdict: TrustVerdict;
  /** The findings not already said for an earlier subject (a 0777 home is said once, not under each file in it). */
  news: TrustFinding[];
  /** The subject's line: what, why, fix, consequence (only `news`). */
  message: string;
}

/**
 * Judge each subject that exists; return those that fail, in order. A finding shared with an
 * earlier subject (a directory both are under) is said with the first one only; a subject left
 * with nothing new to say is still returned (its verdict counts) but with an empty `news`.
 */
export function judgeSubjects(subjects: readonly TrustSubject[], opts: { euid?: number } = {}): JudgedSubject[] {
  const said = new Set<string>();
  const out: JudgedSubject[] = [];
  for (const subject of subjects) {
    const verdict = checkTrust(subject.path, {
      kind: subject.kind,
      ...(subject.secret ? { secret: true } : {}),
      ...(opts.euid !== undefined ? { euid: opts.euid } : {}),
    });
    if (!verdict.exists || verdict.findings.length === 0) continue;
    const news = verdict.findings.filter((f) => !said.has(`${f.path}\0${f.problem}`));
    for (const f of verdict.findings) said.add(`${f.path}\0${f.problem}`);
    const message = news.length === 0 ? '' : `the ${distrustMessage(subject.what, { ...verdict, findings: news })}. ${subject.consequence}`;
    out.push({ subject, verdict, news, message });
  }
  return out;
}

/** `path` (one of the judged subjects) passed the rule: it is not among those that failed. */
export function passes(judged: readonly JudgedSubject[], path: string): boolean {
  return !judged.some((u) => u.subject.path === path);
}

/** One warning diagnostic per judged subject with something new to say, about that file. */
export function trustWarnings(judged: readonly JudgedSubject[]): Diagnostic[] {
  return judged
    .filter((u) => u.message !== '')
    .map((u) => ({ level: 'warning', path: '', line: null, column: null, message: u.message, file: u.subject.path }));
}

/** What an untrusted profile home costs (its allowlist, plugins/, hooks/, BOOT.md are under the same rule). */
export const UNTRUSTED_HOME =
  'Nothing under it is trusted either: its allowlist approves nothing (a fail_closed guard blocks), its plugins/, gateway hooks/ and BOOT.md are not ' +
  'loaded, and a config.yaml in it grants nothing.';

/** What an untrusted config grants: nothing but what the allowlist already approved. */
export const UNTRUSTED_CONFIG =
  'Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks); hooks_auto_accept, ' +
  '--accept-hooks and HERMES_ACCEPT_HOOKS do not apply to its hooks, and its plugins.enabled and hooks.outbound are not used.';

/**
 * The profile's own subjects: the home, the config file, and with `layout` the folders and files
 * the home holds that run code without a per-command approval (plugins/, hooks/, BOOT.md).
 */
export function profileSubjects(home: string, configFile: string, opts: { layout?: boolean; configConsequence?: string } = {}): TrustSubject[] {
  const subjects: TrustSubject[] = [
    { what: 'profile home', path: home, kind: 'directory', consequence: UNTRUSTED_HOME },
    { what: 'config file', path: configFile, kind: 'file', consequence: opts.configConsequence ?? UNTRUSTED_CONFIG },
  ];
  if (opts.layout) {
    subjects.push(
      { what: 'plugins directory', path: path.join(home, 'plugins'), kind: 'directory', consequence: 'No plugin is loaded from it.' },
      { what: 'gateway hooks directory', path: path.join(home, 'hooks'), kind: 'directory', consequence: 'No gateway hook is loaded from it.' },
      { what: 'BOOT.md', path: path.join(home, 'BOOT.md'), kind: 'file', consequence: 'It is not run at gateway startup.' },
    );
  }
  return subjects;
}

// --- the walk -------------------------------------------------------------------------------

interface Walked {
  /** Every directory whose entries were looked up on the way, with its lstat (real paths). */
  dirs: { path: string; st: Stats }[];
  /** The final target and its lstat; null when something on the way does not exist. */
  target: { path: string; st: Stats } | null;
  /** A loop or an unexpected error on the way; null otherwise. */
  error: string | null;
}

/**
 * Resolve `abs` component by component, as the kernel does, following symlinks; collect every
 * directory an entry was looked up in. A link's target is walked from / (absolute) or from the
 * link's own directory (relative), so the directories of every hop are collected too.
 */
function walkPath(abs: string): Walked {
  const dirs = new Map<string, Stats>();
  const root = lstatSync('/');
  let pending = abs.split('/').filter((c) => c !== '' && c !== '.');
  let cur = '/';
  let curSt = root;
  let links = 0;
  const done = (target: Walked['target'], error: string | null): Walked => ({ dirs: [...dirs].map(([p, st]) => ({ path: p, st })), target, error });
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '..') {
      // cur is a real directory (links were resolved), so its parent is its lexical dirname.
      cur = path.dirname(cur);
      curSt = cur === '/' ? root : lstatSync(cur);
      continue;
    }
    if (!curSt.isDirectory()) return done(null, null);
    dirs.set(cur, curSt);
    const next = cur === '/' ? `/${name}` : `${cur}/${name}`;
    let st: Stats;
    try {
      st = lstatSync(next);
    } catch (err) {
      const code = codeOf(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return done(null, null);
      return done(null, `cannot be checked: ${messageOf(err)}`);
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return done(null, 'is a symlink loop (or a chain of more than 40 links)');
      let link: string;
      try {
        link = readlinkSync(next);
      } catch (err) {
        return done(null, `cannot be checked: ${messageOf(err)}`);
      }
      const parts = link.split('/').filter((c) => c !== '' && c !== '.');
      if (link.startsWith('/')) {
        cur = '/';
        curSt = root;
      }
      pending = [...parts, ...pending];
      continue;
    }
    cur = next;
    curSt = st;
  }
  return done({ path: cur, st: curSt }, null);
}

// --- the judgement --------------------------------------------------------------------------

function judge(where: string, st: Stats, euid: number, o: { self: boolean; kind: 'file' | 'directory'; secret?: boolean }): TrustFinding[] {
  const out: TrustFinding[] = [];
  const add = (problem: string, fix: string): void => void out.push({ path: where, self: o.self, problem, fix });
  if (o.kind === 'file' && !st.isFile()) add(`is ${kindOf(st)}, not a regular file`, 'replace it with a regular file');
  if (o.kind === 'directory' && !st.isDirectory()) add(`is ${kindOf(st)}, not a directory`, 'replace it with a directory');
  if (st.uid !== euid && st.uid !== 0)
    add(`is owned by uid ${st.uid}, not by you (uid ${euid})`, `run ${euid === 0 ? '' : 'sudo '}chown ${userName(euid)} ${quote(where)}`);
  const stickyRootDir = st.isDirectory() && st.uid === 0 && (st.mode & S_ISVTX) !== 0;
  if ((st.mode & 0o022) !== 0 && !stickyRootDir) add(`is writable by ${whoOf(st.mode, 0o020, 0o002)} (mode ${modeOf(st)})`, `run chmod go-w ${quote(where)}`);
  else if (o.secret && (st.mode & 0o077) !== 0) add(`is readable by ${whoOf(st.mode, 0o070, 0o007)} (mode ${modeOf(st)})`, `run chmod 600 ${quote(where)}`);
  return out;
}

function whoOf(mode: number, group: number, other: number): string {
  const g = (mode & group) !== 0;
  const o = (mode & other) !== 0;
  return g && o ? 'group and others' : g ? 'group' : 'others';
}

function modeOf(st: Stats): string {
  return (st.mode & 0o7777).toString(8).padStart(4, '0');
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFile()) return 'a regular file';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'another kind of file';
}

/** The user's name for chown, else the uid (a uid with no passwd entry). */
function userName(euid: number): string {
  try {
    const info = userInfo();
    return info.uid === euid && /^[A-Za-z0-9._-]+$/.test(info.username) ? info.username : String(euid);
  } catch {
    return String(euid);
  }
}

/** Quote for a POSIX shell, always in single quotes so the path reads the same in every message. */
function quote(p: string): string {
  return `'${p.replace(/'/g, `'\\''`)}'`;
}

function lstatSafe(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

function sameFile(a: Stats | null, b: Stats): boolean {
  return a !== null && a.dev === b.dev && a.ino === b.ino;
}

function codeOf(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err ? String(err.code) : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

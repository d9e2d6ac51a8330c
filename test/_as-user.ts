// Acting as another local user, for the tests where ownership is the point (a config another user
// wrote, a token file another user planted …): `setpriv --reuid N --regid N --clear-groups`, which
// needs root — CI runs as root. Uids need no passwd entry.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli/_helpers.js';

/** Running as root: files can be given away and commands run as other uids. */
export const ROOT = process.geteuid?.() === 0;

/** The victim and the attacker of the ownership tests. */
export const VICTIM = 1001;
export const ATTACKER = 1002;

/** argv run as `uid` (its own group, no supplementary groups). */
export function asUser(uid: number, argv: readonly string[]): string[] {
  return ['setpriv', '--reuid', String(uid), '--regid', String(uid), '--clear-groups', ...argv];
}

/** Run a short command as `uid` (e.g. the attacker writing a file); throws with its stderr when it fails. */
export function runAs(uid: number, argv: readonly string[], opts: { input?: string } = {}): string {
  const [cmd, ...args] = asUser(uid, argv);
  const r = spawnSync(cmd as string, args, { input: opts.input ?? '', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} as uid ${uid} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout;
}

/** `node dist/cli/bin.js …` as `uid`, with HOME set to a directory that uid owns. */
export function runBinAs(
  uid: number,
  argv: readonly string[],
  opts: { stdin?: string; env?: NodeJS.ProcessEnv; killAfterMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [cmd, ...args] = asUser(uid, [process.execPath, BIN, ...argv]);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd as string, args, {
      env: opts.env ?? { PATH: process.env.PATH, HOME: userHome(uid), LANG: 'C.UTF-8' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 60_000);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout: out, stderr: err });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.stdin ?? '');
  });
}

/**
 * A scratch directory every user can traverse (0755, root's), under a root-owned sticky /tmp: the
 * place to build other users' homes. The caller removes it.
 */
export function sharedScratch(prefix = 'hh-users-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  scratches.push(dir);
  return dir;
}

const scratches: string[] = [];

/** afterAll: remove every shared scratch directory (and the users' HOMEs in them). */
export function cleanupUsers(): void {
  for (const d of scratches.splice(0)) rmSync(d, { recursive: true, force: true });
  homes.clear();
}

/** A directory owned by `uid` (mode `mode`), created with its parents. */
export function ownedDir(path: string, uid: number, mode = 0o755): string {
  mkdirSync(path, { recursive: true });
  chownSync(path, uid, uid);
  chmodSync(path, mode);
  return path;
}

const homes = new Map<number, string>();

/** A HOME for `uid` (its own, 0700) in a shared scratch directory. */
function userHome(uid: number): string {
  let h = homes.get(uid);
  if (h === undefined) {
    h = ownedDir(join(sharedScratch('hh-userhome-'), String(uid)), uid, 0o700);
    homes.set(uid, h);
  }
  return h;
}

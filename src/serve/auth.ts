// Who may talk to the server. The Unix socket is guarded by its mode (0600: only our user can
// connect); loopback HTTP by a bearer token every request must carry, plus a refusal of anything a
// browser could send (an Origin header, or a Host that is not the address we bound: DNS rebinding).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkTrust, distrustMessage, readTrustedFile } from '../consent/trust.js';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { errorText } from '../errors.js';

export const TOKEN_FILE_NAME = 'hermes-hooks.token';

/**
 * The bearer token: from `env[tokenEnv]` when given, else `file` (created once, mode 0600, 32
 * random bytes in hex). The file is a key to every hook decision, so it is held to the trust rule
 * (consent/trust.ts) before it is created or read: it is never created in a directory another user
 * can write, and a token file that is not yours — in a 1777 home another user could have placed it,
 * and would know its content — or that others can read is refused, and serve does not start. It is
 * never replaced in silence either: a planted file means someone tried, and the user should know.
 */
export function loadToken(opts: { file: string; tokenEnv?: string; env: NodeJS.ProcessEnv }): string {
  if (opts.tokenEnv !== undefined) {
    const value = opts.env[opts.tokenEnv]?.trim() ?? '';
    if (value.length < 16) {
      throw new Error(
        `--token-env ${opts.tokenEnv}: the variable is ${value ? 'shorter than 16 characters' : 'unset or empty'}; set it to a long random secret ` +
          `(e.g. openssl rand -hex 32)`,
      );
    }
    return value;
  }
  const dir = checkTrust(dirname(opts.file), { kind: 'directory' });
  if (dir.findings.length > 0) {
    throw new Error(
      `token file ${opts.file} is not used: the ${distrustMessage('directory', dir)} (another user could replace the token there); or give the token ` +
        `with --token-env VAR`,
    );
  }
  try {
    const fd = openSync(opts.file, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`cannot create token file ${opts.file}: ${errorText(e)}`);
  }
  const read = readTrustedFile(opts.file);
  if (read.refused !== null) {
    throw new Error(
      `the ${distrustMessage('token file', read.refused)}; serve does not use a token file it does not own — ` +
        `if you did not put it there, someone else may know the token: delete it (rm '${opts.file}') and start serve again to get a new one`,
    );
  }
  if (read.error !== null || read.text === null) throw new Error(`cannot read token file ${opts.file}: ${read.error ?? 'it is gone'}`);
  // A secret others can read is refused, as ssh refuses such a key (the file is ours and in a
  // trusted directory now, so this stat sees the file just read).
  const mode = statSync(opts.file).mode;
  if ((mode & 0o077) !== 0) {
    throw new Error(`token file ${opts.file} is readable by others (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${opts.file}`);
  }
  const token = read.text.trim();
  if (token.length < 16) throw new Error(`token file ${opts.file} holds no usable token; delete it and a new one is generated`);
  return token;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

export interface AuthPolicy {
  /** Required bearer token, or null (the Unix socket). */
  token: string | null;
  /** Host header values accepted (lower case), or null to accept any (the socket, --allow-remote). */
  hosts: ReadonlySet<string> | null;
}

/** The Host values a browser would send for our own address, for the DNS-rebinding check. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set<string>();
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const forms = isLoopbackHost(bare) ? ['localhost', '127.0.0.1', '[::1]', isIP(bare) === 6 ? `[${bare}]` : bare] : [isIP(bare) === 6 ? `[${bare}]` : bare];
  for (const f of forms) names.add(`${f}:${port}`);
  return names;
}

/** null when the request may proceed; else the status and a message for the client. */
export function checkRequest(req: IncomingMessage, policy: AuthPolicy): { status: 401 | 403; message: string } | null {
  if (req.headers.origin !== undefined) {
    return { status: 403, message: 'requests from a browser (with an Origin header) are refused' };
  }
  if (policy.hosts) {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!policy.hosts.has(host)) return { status: 403, message: `Host '${req.headers.host ?? ''}' is not this server's address` };
  }
  if (policy.token !== null) {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m || !sameSecret(m[1]!, policy.token)) {
      return {
        status: 401,
        message: header ? 'wrong bearer token' : 'missing Authorization: Bearer <token> (the token is in the profile home, hermes-hooks.token)',
      };
    }
  }
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

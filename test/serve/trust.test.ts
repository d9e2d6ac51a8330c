// serve under the trust rule (src/consent/trust.ts): the token file must be the user's own 0600
// file in a directory only they (or root) can write — in a 1777 home another user could have put
// it there first and would know the token — and a config that fails the rule is said at start and
// in /v1/health. Real servers (the built binary), a second and third user through setpriv as root.

import { chmodSync, chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTACKER, cleanupUsers, ownedDir, ROOT, runAs, runBinAs, sharedScratch, VICTIM } from '../_as-user.js';
import { runBin, runMain } from '../cli/_helpers.js';
import { cleanupTemps, hooksYaml, http, makeHome, startServe, stopServe, tempDir, writeScript } from './_helpers.js';

afterAll(() => {
  cleanupTemps();
  cleanupUsers();
});

describe('serve: the token file', () => {
  it('pre-created by another user in a 1777 home: serve refuses to start, says why, and leaves the planted file alone', async () => {
    if (!ROOT) {
      // No second user: the same home, ours and 1777, is refused before any token is read or made.
      const home = makeHome('hooks: {}\n');
      chmodSync(home, 0o1777);
      const r = await runBin(['serve', '--home', home, '--http', '127.0.0.1:0'], { killAfterMs: 20_000 });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `token file ${join(home, 'hermes-hooks.token')} is not used: the directory ${home} is not trusted: it is writable by group and others (mode 1777)`,
      );
      expect(existsSync(join(home, 'hermes-hooks.token'))).toBe(false);
      return;
    }
    const base = sharedScratch();
    const home = ownedDir(join(base, 'home'), VICTIM, 0o1777);
    const token = join(home, 'hermes-hooks.token');
    const planted = 'a'.repeat(64);
    runAs(ATTACKER, ['sh', '-c', `umask 077; printf '%s\\n' ${planted} > '${token}'`]);
    const r = await runBinAs(VICTIM, ['serve', '--home', home, '--http', '127.0.0.1:0'], { killAfterMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `hermes-hooks: serve: token file ${token} is not used: the directory ${home} is not trusted: it is writable by group and others (mode 1777) — check what is there, then run chmod go-w '${home}' (another user could replace the token there); or give the token with --token-env VAR`,
    );
    expect(readFileSync(token, 'utf8')).toBe(`${planted}\n`);
  }, 60_000);

  it('a token file that is not ours in a home that is: refused — never used, never replaced in silence', async () => {
    const home = makeHome('hooks: {}\n');
    const token = join(home, 'hermes-hooks.token');
    writeFileSync(token, `${'b'.repeat(64)}\n`, { mode: 0o600 });
    let why = `it is writable by group (mode 0620) — check what is there, then run chmod go-w '${token}'`;
    if (ROOT) {
      chownSync(token, 12345, 12345);
      why = `it is owned by uid 12345, not by you (uid 0) — check what is there, then run chown root '${token}'`;
    } else {
      chmodSync(token, 0o620);
    }
    const r = await runBin(['serve', '--home', home, '--http', '127.0.0.1:0'], { killAfterMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `hermes-hooks: serve: the token file ${token} is not trusted: ${why}; serve does not use a token file it does not own — ` +
        `if you did not put it there, someone else may know the token: delete it (rm '${token}') and start serve again to get a new one\n`,
    );
    expect(readFileSync(token, 'utf8')).toBe(`${'b'.repeat(64)}\n`);
  });

  it('created by serve in a trusted home: ours, 0600, and it works', async () => {
    const home = makeHome('hooks: {}\n');
    const served = await startServe(home, ['--http', '127.0.0.1:0']);
    try {
      expect(served.token).toMatch(/^[0-9a-f]{64}$/);
      expect((await http({ port: served.port! }, 'GET', '/v1/health', { headers: { authorization: `Bearer ${served.token}` } })).status).toBe(200);
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });
});

describe('serve: an untrusted config', () => {
  it('is said at start and in /v1/health (degraded); its unapproved hooks do not run, its approved ones do', async () => {
    const home = makeHome();
    const log = join(tempDir(), 'ran.log');
    const hook = writeScript(join(tempDir(), 'h.sh'), `#!/bin/sh\necho ran >>'${log}'\necho '{}'\n`);
    const config = join(home, 'config.yaml');
    writeFileSync(config, hooksYaml({ pre_tool_call: [hook] }, 'hooks_auto_accept: true\n'));
    chmodSync(config, 0o666);
    const served = await startServe(home, []);
    try {
      const message =
        `the config file ${config} is not trusted: it is writable by group and others (mode 0666) — check what is there, then run chmod go-w '${config}'. ` +
        'Nothing in it is granted: only hooks already approved in your allowlist run (an unapproved fail_closed guard blocks); ignored: hooks_auto_accept: true.';
      expect(served.stderr()).toContain(`hermes-hooks: warning: ${config}: ${message}\n`);
      const health = JSON.parse((await http({ socketPath: served.socket! }, 'GET', '/v1/health')).body);
      expect(health).toMatchObject({ status: 'degraded', untrusted: [message] });
      expect(health.degraded_because).toContain(message);
      const emitted = await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', {
        body: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }),
      });
      expect(JSON.parse(emitted.body).decision ?? JSON.parse(emitted.body)).toMatchObject({ action: 'allow' });
      expect(existsSync(log)).toBe(false);
      expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
      // Approved by its command (the user's own choice): the running server runs it at the next call.
      expect((await runMain(['approve', hook, '--home', home])).code).toBe(0);
      await http({ socketPath: served.socket! }, 'POST', '/v1/emit/pre_tool_call', {
        body: JSON.stringify({ tool_name: 'terminal', args: { command: 'ls' } }),
      });
      expect(readFileSync(log, 'utf8')).toBe('ran\n');
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  });
});

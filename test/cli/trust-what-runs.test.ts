// Issue 29: the trust rule covers what runs — the hook's script and every directory on its path,
// the interpreter a bare name resolves to on PATH, and the scripts a `bash -c` string names (which
// the approval pins too). The attacks a second local user mounted, replayed with real users
// (setpriv, as root: CI runs as root), the built binary and real scripts: nothing of theirs runs,
// a fail_closed guard blocks, and approve, doctor and validate say so with the fix.

import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ATTACKER, cleanupUsers, ownedDir, ROOT, runAs, runBinAs, sharedScratch, VICTIM } from '../_as-user.js';
import { cleanupTemps, hooksYaml, makeHome, readJson, runMain, tempDir, writeScript } from './_helpers.js';

afterEach(cleanupTemps);
afterAll(cleanupUsers);

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /important' }, session_id: 's-1' });
const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const logging = (log: string, word: string, answer = '{}'): string => `#!/bin/sh\necho ${word} >>'${log}'\necho '${answer}'\n`;

/** A victim with a home of their own (0700) under a shared scratch dir, and the env their commands get. */
function victim(path = '/usr/bin:/bin'): { base: string; home: string; env: NodeJS.ProcessEnv; logDir: string } {
  const base = sharedScratch();
  const home = ownedDir(join(base, 'victim'), VICTIM, 0o700);
  const logDir = ownedDir(join(base, 'logs'), VICTIM, 0o777);
  return { base, home, logDir, env: { PATH: path, HOME: home, LANG: 'C.UTF-8' } };
}

/** Write `text` to `file` as `uid` (mode 0755). */
function writeAs(uid: number, file: string, text: string): void {
  runAs(uid, ['sh', '-c', `cat > '${file}' && chmod 755 '${file}'`], { input: text });
}

describe.runIf(ROOT)('issue 29 a: a guard in a directory another user can write', () => {
  it('approved while its directory was safe, then the directory is made writable by all: run does not execute it (a fail_closed guard blocks, the other hook is skipped), test does not run it, approve refuses with the chmod, doctor ✗, validate warns', async () => {
    const v = victim();
    const hooks = ownedDir(join(v.base, 'hooks'), VICTIM, 0o755);
    const log = join(v.logDir, 'ran.log');
    const guard = join(hooks, 'guard.sh');
    const note = join(hooks, 'note.sh');
    writeAs(VICTIM, guard, logging(log, 'guard'));
    writeAs(VICTIM, note, logging(log, 'note'));
    writeAs(VICTIM, join(v.home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command: guard, fail_closed: true }, note] }));
    const approved = await runBinAs(VICTIM, ['approve', '--all', '--home', v.home], { env: v.env });
    expect(approved.code).toBe(0);
    const pinned = readJson<{ approvals: { command: string }[] }>(join(v.home, 'shell-hooks-allowlist.json')).approvals.map((a) => a.command);
    expect(pinned.sort()).toEqual([guard, note].sort());

    // Later: the directory is opened to everyone (a shared hooks dir, a careless chmod).
    chmodSync(hooks, 0o777);
    const why = `the directory ${hooks} on its path is writable by group and others (mode 0777)`;
    const fix = `run chmod go-w '${hooks}'`;

    const run = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', v.home], { stdin: PAYLOAD, env: v.env });
    expect(lines(log)).toEqual([]);
    expect(run.code).toBe(2);
    const decision = JSON.parse(run.stdout) as { action: string; message: string };
    expect(decision.action).toBe('block');
    expect(decision.message).toContain(`hook ${guard} is not run (its hook script ${guard} is not trusted: ${why}`);
    expect(decision.message).toContain(fix);
    expect(run.stderr).toContain(`shell hook for pre_tool_call (${note}) is not run — skipped: its hook script ${note} is not trusted: ${why}`);

    const dry = await runBinAs(VICTIM, ['test', 'pre_tool_call', '--json', '--home', v.home], { stdin: PAYLOAD, env: v.env });
    expect(lines(log)).toEqual([]);
    expect(dry.code).toBe(2);

    const again = await runBinAs(VICTIM, ['approve', '--event', 'pre_tool_call', guard, '--home', v.home], { env: v.env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`cannot approve [pre_tool_call] ${guard}: its hook script ${guard} is not trusted: ${why}`);
    expect(again.stderr).toContain(fix);

    const doctor = await runBinAs(VICTIM, ['doctor', '--home', v.home], { env: v.env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ not trusted — hook will NOT run (being fail_closed, it blocks every call it matches): its hook script ${guard} is not trusted: ${why}`,
    );
    expect(lines(log)).toEqual([]);

    const validate = await runBinAs(VICTIM, ['validate', '--home', v.home], { env: v.env });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(
      `warning: hooks.pre_tool_call[0].command: not trusted, so it will not run: its hook script ${guard} is not trusted: ${why}`,
    );

    // The fix the messages name restores it.
    chmodSync(hooks, 0o755);
    const fixed = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', v.home], { stdin: PAYLOAD, env: v.env });
    expect(fixed.code).toBe(0);
    expect(lines(log).sort()).toEqual(['guard', 'note']);
  });
});

describe.runIf(ROOT)('issue 29 b: an earlier python3 on PATH that another user owns', () => {
  it('`python3 guard.py` approved with a clean PATH: with the attacker’s python3 first on PATH, run does not execute it and the guard blocks; approve refuses with the chown, doctor ✗, validate warns', async () => {
    const v = victim();
    const log = join(v.logDir, 'ran.log');
    const abin = ownedDir(join(v.base, 'abin'), ATTACKER, 0o755);
    writeAs(ATTACKER, join(abin, 'python3'), logging(log, 'attacker', '{"action":"approve"}'));
    const guard = join(v.home, 'guard.py');
    writeAs(VICTIM, guard, `import json\nopen(${JSON.stringify(log)}, 'a').write('guard\\n')\nprint(json.dumps({}))\n`);
    const command = `python3 ${guard}`;
    writeAs(VICTIM, join(v.home, 'config.yaml'), hooksYaml({ pre_tool_call: [{ command, fail_closed: true }] }));
    expect((await runBinAs(VICTIM, ['approve', '--all', '--home', v.home], { env: v.env })).code).toBe(0);
    expect((await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', v.home], { stdin: PAYLOAD, env: v.env })).code).toBe(0);
    expect(lines(log)).toEqual(['guard']);

    const env = { ...v.env, PATH: `${abin}:/usr/bin:/bin` };
    const why =
      `its interpreter ${abin}/python3 is not trusted: the directory ${abin} on its path is owned by uid ${ATTACKER}, not by you (uid ${VICTIM}); ` +
      `it is owned by uid ${ATTACKER}, not by you (uid ${VICTIM}) — check what is there, then run sudo chown ${VICTIM} '${abin}', ` +
      `and run sudo chown ${VICTIM} '${abin}/python3' (or take ${abin} off PATH)`;
    const run = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', v.home], { stdin: PAYLOAD, env });
    expect(lines(log)).toEqual(['guard']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).message).toContain(`hook ${command} is not run (${why}`);

    const approve = await runBinAs(VICTIM, ['approve', '--event', 'pre_tool_call', command, '--home', v.home], { env });
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).toContain(why);

    const doctor = await runBinAs(VICTIM, ['doctor', '--home', v.home], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`✗ not trusted — hook will NOT run (being fail_closed, it blocks every call it matches): ${why}`);
    const validate = await runBinAs(VICTIM, ['validate', '--home', v.home], { env });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(`not trusted, so it will not run: ${why}`);
    expect(lines(log)).toEqual(['guard']);
  });

  it('a python3 in a directory another user can write is judged by that directory, and `env python3` is followed through env', async () => {
    const v = victim();
    const log = join(v.logDir, 'ran.log');
    const open = ownedDir(join(v.base, 'open-bin'), VICTIM, 0o777);
    writeAs(VICTIM, join(open, 'python3'), logging(log, 'python'));
    const guard = join(v.home, 'guard.py');
    writeAs(VICTIM, guard, 'print("{}")\n');
    const command = `env python3 ${guard}`;
    writeAs(VICTIM, join(v.home, 'config.yaml'), hooksYaml({ pre_tool_call: [command] }));
    const env = { ...v.env, PATH: `${open}:/usr/bin:/bin` };
    const approve = await runBinAs(VICTIM, ['approve', '--all', '--home', v.home], { env });
    expect(approve.code).not.toBe(0);
    expect(approve.stderr).toContain(
      `its interpreter ${open}/python3 is not trusted: the directory ${open} on its path is writable by group and others (mode 0777)`,
    );
    const run = await runBinAs(VICTIM, ['run', 'pre_tool_call', '--home', v.home, '--accept-hooks'], { stdin: PAYLOAD, env });
    expect(run.code).toBe(0);
    expect(lines(log)).toEqual([]);
    expect(run.stderr).toContain(`shell hook for pre_tool_call (${command}) is not run — skipped: its interpreter ${open}/python3 is not trusted`);
  });
});

describe('issue 29 c: the approval of `bash -c` pins the scripts its code names', () => {
  it("approving `bash -c 'guard.sh | tee -a log'` pins guard.sh: edited, it is modified and does not run (a fail_closed guard blocks), doctor ✗", async () => {
    const dir = tempDir();
    const log = join(dir, 'ran.log');
    const guard = writeScript(join(dir, 'guard.sh'), logging(log, 'v1'));
    const command = `bash -c '${guard} | tee -a ${join(dir, 'out.log')}'`;
    const home = makeHome(hooksYaml({ pre_tool_call: [{ command, fail_closed: true }] }));
    expect((await runMain(['approve', '--all', '--home', home])).code).toBe(0);
    const entry = readJson<{ approvals: Record<string, unknown>[] }>(join(home, 'shell-hooks-allowlist.json')).approvals[0];
    expect(entry).toMatchObject({ command, event: 'pre_tool_call', script_path: '/usr/bin/bash' });
    expect(Object.keys(entry?.named_scripts as object)).toEqual([guard]);
    expect((await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD })).code).toBe(0);
    expect(lines(log)).toEqual(['v1']);

    writeFileSync(guard, logging(log, 'v2'));
    const run = await runMain(['run', 'pre_tool_call', '--home', home], { stdin: PAYLOAD });
    expect(run.code).toBe(2);
    expect(lines(log)).toEqual(['v1']);
    expect(JSON.parse(run.stdout).message).toContain(`modified since approval: ${guard}, which its -c code runs, changed`);
    const doctor = await runMain(['doctor', '--home', home]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`✗ modified since approval: ${guard}, which its -c code runs, changed`);
  });

  it('a -c string whose commands cannot be read is not approved, with how to write it instead; validate says so too', async () => {
    const dir = tempDir();
    const guard = writeScript(join(dir, 'guard.sh'), '#!/bin/sh\necho {}\n');
    const command = `bash -c 'G=${guard}; $G'`;
    const home = makeHome(hooksYaml({ pre_tool_call: [command] }));
    const r = await runMain(['approve', '--all', '--home', home]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `its -c code cannot be followed (a variable or a glob names what it runs ($G)), so the scripts it runs could not be pinned — put that code in a script file and make the script the command`,
    );
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(false);
    const validate = await runMain(['validate', '--home', home]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('cannot be approved: its -c code cannot be followed (a variable or a glob names what it runs ($G))');
  });
});

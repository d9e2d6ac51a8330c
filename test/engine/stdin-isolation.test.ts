// Each hook's stdin is its own: a hook that rewrites its stdin through /proc/self/fd/0 cannot
// change what a fail_closed guard reads, and no payload file outlives a host killed with SIGKILL.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, waitFor, writeScript } from '../cli/_helpers.js';
import { STDIN_FILE_PREFIX } from '../../src/spawn/stdin-file.js';
import { capture, tempHome, testEngine } from './_helpers.js';

const DIST_INDEX = pathToFileURL(resolve(import.meta.dirname, '../../dist/index.js')).href;
const DIST_STDIN_FILE = pathToFileURL(resolve(import.meta.dirname, '../../dist/spawn/stdin-file.js')).href;

// A guard that reads its stdin 0.3 s after it started and blocks any `rm -rf`.
const GUARD = `#!/bin/bash
sleep 0.3
if jq -e '.tool_input.command | test("rm -rf")' </dev/stdin >/dev/null; then
  echo '{"action":"block","message":"guard: no rm -rf"}'
else
  echo '{}'
fi
`;
// A hook that swaps its stdin for a harmless payload (it may; it is its own copy).
const SWAPPER = `#!/bin/bash
printf '%s' '{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"ls"}}' >/proc/self/fd/0
echo '{}'
`;

describe('stdin per hook', () => {
  it('a hook writing its /proc/self/fd/0 does not change what a fail_closed guard reads 0.3 s later', async () => {
    const home = tempHome('hh-stdin-');
    const swapper = writeScript(join(home, 'swapper.sh'), SWAPPER);
    const guard = writeScript(join(home, 'guard.sh'), GUARD);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${swapper}\n    - command: ${guard}\n      fail_closed: true\n`);
    const engine = await testEngine(home, { logger: capture() });
    const { hooks, decision } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'rm -rf /important' } });
    expect(hooks.filter((h) => h.kind === 'shell').map((h) => [h.status, h.stdout])).toEqual([
      ['ok', '{}\n'],
      ['ok', '{"action":"block","message":"guard: no rm -rf"}\n'],
    ]);
    expect(decision).toMatchObject({ action: 'block', message: 'guard: no rm -rf', decided_by: 1 });
    // The swapped call is allowed by the same guard: the guard really reads its stdin.
    const harmless = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
    expect(harmless.decision.action).toBe('allow');
  });
});

describe('no payload survives a SIGKILLed host', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  /** Runs an engine in a real child Node process whose hook sleeps; SIGKILLs the host once the hook runs. */
  async function killHostDuringHook(env: NodeJS.ProcessEnv, payloadBytes: number, named = false) {
    const home = tempHome('hh-stdin-');
    const hook = writeScript(join(home, 'slow.sh'), '#!/bin/bash\necho $$ >"$HERMES_HOME/hook.pid"\nexec sleep 30\n');
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  post_tool_call:\n    - command: ${hook}\n`);
    const script = `
      const { createHookEngine, silentLogger } = await import(${JSON.stringify(DIST_INDEX)});
      if (${named}) (await import(${JSON.stringify(DIST_STDIN_FILE)}))._forceNamedStdinFiles(true);
      const engine = await createHookEngine({ home: ${JSON.stringify(home)}, acceptHooks: true, interactive: false, logger: silentLogger });
      void engine.emit('post_tool_call', { tool_name: 'terminal', args: {}, result: 'x'.repeat(${payloadBytes}) });
      setInterval(() => {}, 1000);
    `;
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    host.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) => host.on('exit', (_code, signal) => r(signal)));
    const pidFile = join(home, 'hook.pid');
    let hookPid = 0;
    cleanups.push(() => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      if (hookPid > 0) {
        try {
          process.kill(-hookPid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    });
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 20_000), stderr).toBe(true);
    hookPid = Number(readFileSync(pidFile, 'utf8').trim());
    // What the running hook has as fd 0: a file in the payload directory, already unlinked.
    const fd0 = readlinkSync(`/proc/${hookPid}/fd/0`);
    host.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(isAlive(hookPid)).toBe(true); // the hook outlives its host: its stdin is still open
    return { hostPid: host.pid as number, fd0 };
  }

  /** fd 0 of the hook: nameless on Linux (O_TMPFILE shows as dir/#inode), else a name already unlinked. */
  const unlinkedIn = (dir: string, hostPid: number): RegExp =>
    new RegExp(`^${dir}/${process.platform === 'linux' ? '#[0-9]+' : `${STDIN_FILE_PREFIX}${hostPid}-[0-9a-f]{12}`} \\(deleted\\)$`);

  it.each([
    ['a small payload', 1_000],
    ['a large payload (written off the event loop)', 1_000_000],
  ])('leaves no hermes-hooks-stdin-* in $TMPDIR: %s', async (_label, bytes) => {
    const dir = mkdtempSync(join(tmpdir(), 'hh-tmpdir-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { hostPid, fd0 } = await killHostDuringHook({ ...process.env, TMPDIR: dir }, bytes);
    expect(fd0).toMatch(unlinkedIn(dir, hostPid));
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['a small payload', 1_000],
    ['a large payload (written off the event loop)', 1_000_000],
  ])('with named files (where O_TMPFILE is refused), unlinks the name before the hook starts: %s', async (_label, bytes) => {
    const dir = mkdtempSync(join(tmpdir(), 'hh-tmpdir-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { hostPid, fd0 } = await killHostDuringHook({ ...process.env, TMPDIR: dir }, bytes, true);
    expect(fd0).toMatch(new RegExp(`^${dir}/${STDIN_FILE_PREFIX}${hostPid}-[0-9a-f]{12} \\(deleted\\)$`));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no hermes-hooks-stdin-* of the host in /dev/shm', async () => {
    const env = { ...process.env };
    delete env.TMPDIR;
    const { hostPid, fd0 } = await killHostDuringHook(env, 1_000);
    expect(fd0).toMatch(unlinkedIn('/dev/shm', hostPid));
    expect(readdirSync('/dev/shm').filter((n) => n.startsWith(`${STDIN_FILE_PREFIX}${hostPid}-`))).toEqual([]);
  });
});

// serve's stderr says what `run`'s does (issue 20 item 4, issue 24 item 3): a hook that cannot
// start names the file and the fix, a guard that exits 1 hears that only exit 2 blocks, and a
// guard that leaves a setsid daemon holding its stdout is answered at its exit, its daemon killed.

import { writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Emission } from '../../src/types.js';
import { baseEnv, cleanupTemps, makeHome, rpcClient, startServe, stopServe, tempDir, waitFor } from './_helpers.js';
import { isAlive } from '../cli/_helpers.js';

afterAll(cleanupTemps);

describe('serve --stdio: launch mistakes and leftovers on stderr', () => {
  it('CRLF, exit 1 and a setsid daemon: each said with its fix; the daemon is killed and the block stands', async () => {
    const dir = tempDir('hh-serve-launch-');
    const crlf = join(dir, 'crlf.sh');
    writeFileSync(crlf, '#!/usr/bin/env bash\r\ncat >/dev/null\r\necho "{}"\r\n');
    chmodSync(crlf, 0o755);
    const exits1 = join(dir, 'exits1.sh');
    writeFileSync(exits1, '#!/bin/bash\ncat >/dev/null\nexit 1\n');
    chmodSync(exits1, 0o755);
    const daemon = join(dir, 'daemon.sh');
    writeFileSync(daemon, `#!/bin/bash\ncat >/dev/null\nsetsid sleep 30 &\necho $! > ${join(dir, 'daemon.pid')}\necho '{"action":"block","message":"no"}'\n`);
    chmodSync(daemon, 0o755);
    const home = makeHome(
      `hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: ${crlf}\n    - command: ${exits1}\n    - command: ${daemon}\n      timeout: 5\n`,
    );
    const served = await startServe(home, ['--stdio'], { env: baseEnv() });
    let pid = 0;
    try {
      const rpc = rpcClient(served);
      const started = performance.now();
      const e = await rpc.result<Emission>('emit', { event: 'pre_tool_call', kwargs: { tool_name: 'terminal', args: { command: 'rm -rf /' } } });
      expect(performance.now() - started).toBeLessThan(4000); // not the daemon hook's 5 s timeout
      pid = Number(readFileSync(join(dir, 'daemon.pid'), 'utf8'));
      expect(e.decision).toMatchObject({ action: 'block', message: 'no', decided_by: 2 });
      expect(e.hooks.filter((h) => h.kind === 'shell').map((h) => [h.status, h.left_processes])).toEqual([
        ['launch_failed', 0],
        ['nonzero_exit', 0],
        ['ok', 1],
      ]);
      const said = (text: string): Promise<boolean> => waitFor(() => served.stderr().includes(text), 5000, 20);
      expect(
        await said(
          `shell hook (event=pre_tool_call command=${crlf}) failed: CRLF line endings: ${crlf} (its #! line asks for 'bash\\r') — run: sed -i 's/\\r$//' ${crlf}`,
        ),
      ).toBe(true);
      expect(
        await said(
          `shell hook (event=pre_tool_call command=${exits1}) exited 1: on pre_tool_call only exit 2 blocks; exit 1 is a warning and the call went ahead — use exit 2 or print {"action":"block"}`,
        ),
      ).toBe(true);
      expect(await said(`shell hook (event=pre_tool_call command=${daemon}) exited 0; left 1 process, killed`)).toBe(true);
      expect(served.stderr()).not.toMatch(/timed out/);
      expect(await waitFor(() => !isAlive(pid), 3000, 20)).toBe(true);
    } finally {
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
      await stopServe(served);
    }
  });
});

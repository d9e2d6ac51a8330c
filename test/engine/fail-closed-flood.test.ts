// A real fail_closed pre_tool_call hook that floods stdout (or stderr) without end, through
// engine.emit: past the cap its output is only drained, and once it is far past it (the
// endless-writer bound, 16 × the cap) without the hook having exited, the run ends as
// output_limit, the call is blocked with the exact fail-closed message, the hook's whole process
// group (a grandchild holding the pipe included) is dead afterwards, all of it within the kill
// path's bound — long before the hook's timeout.

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failClosedMessage, FAIL_CLOSED_REASON } from '../../src/directives/messages.js';
import { DEFAULT_DRAIN_MS, DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from '../../src/spawn/run-hook.js';
import { groupMembers, isRunning, waitFor } from '../spawn/_helpers.js';
import { capture, tempHome, testEngine } from './_helpers.js';

/** Time to write 16 MiB through a pipe and for the kernel to finish exits under way, on a loaded 2-core machine. */
const FLOOD_MARGIN_MS = 3000;
const HOOK_TIMEOUT_S = 20;

// Leaves a grandchild holding the hook's pipes, records both pids, then prints without end.
const FLOOD = `#!/bin/bash
sleep 1000 &
echo "$$ $!" > "$HERMES_HOME/pids-$1.tmp"
mv "$HERMES_HOME/pids-$1.tmp" "$HERMES_HOME/pids-$1"
if [ "$1" = stderr ]; then exec yes 'flooding stderr' >&2; fi
exec yes 'flooding stdout'
`;

describe('a flooding fail_closed pre_tool_call hook', () => {
  it.each(['stdout', 'stderr'] as const)('flooding %s: output_limit, blocked with the fail-closed message, group dead, bounded', async (stream) => {
    const home = tempHome('hh-flood-');
    const script = join(home, 'flood.sh');
    writeFileSync(script, FLOOD);
    chmodSync(script, 0o755);
    const command = `${script} ${stream}`;
    writeFileSync(
      join(home, 'config.yaml'),
      `hooks:\n  pre_tool_call:\n    - command: ${command}\n      fail_closed: true\n      timeout: ${HOOK_TIMEOUT_S}\n`,
    );
    const logger = capture();
    const engine = await testEngine(home, { logger, cwd: home });

    const t0 = performance.now();
    const { hooks, decision } = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's' });
    const wall = performance.now() - t0;

    const message = `hook ${command} failed closed: kept writing far past the output cap and was killed before it exited`;
    expect(failClosedMessage(command, FAIL_CLOSED_REASON.outputLimit)).toBe(message);
    const [hook] = hooks;
    expect(hook).toMatchObject({ kind: 'shell', command, fail_closed: true, status: 'output_limit', exit_code: null });
    expect(hook!.directive).toEqual({ action: 'block', message });
    expect(hook!.signal).toBe('SIGTERM'); // `yes` dies of the group's TERM
    const flooded = stream === 'stdout' ? hook!.stdout : hook!.stderr;
    expect(flooded.length).toBe(DEFAULT_MAX_OUTPUT_BYTES);
    expect(flooded.startsWith(`flooding ${stream}\n`)).toBe(true);
    expect(stream === 'stdout' ? hook!.stderr : hook!.stdout).toBe('');
    expect(decision).toMatchObject({ action: 'block', message, decided_by: 0 });
    expect(logger.lines).toEqual([`shell hook (event=pre_tool_call command=${command}) kept writing far past the output cap and was killed before it exited`]);

    // The hook, its `yes` and the grandchild that held the pipe are all gone.
    const [pid, grandchild] = readFileSync(join(home, `pids-${stream}`), 'utf8')
      .trim()
      .split(' ')
      .map(Number);
    expect(await waitFor(() => groupMembers(pid!).length === 0 && !isRunning(pid!) && !isRunning(grandchild!), FLOOD_MARGIN_MS)).toBe(true);

    // Memory stayed bounded: the cap kept, the rest counted.
    expect(stream === 'stdout' ? hook!.stdout_dropped_bytes : hook!.stderr_dropped_bytes).toBeGreaterThan(15 * DEFAULT_MAX_OUTPUT_BYTES);
    // The endless writer's kill path: TERM, KILL after the grace, pipes abandoned after the drain — never the hook's timeout.
    const bound = DEFAULT_KILL_GRACE_MS + DEFAULT_DRAIN_MS + FLOOD_MARGIN_MS;
    expect(hook!.duration_ms, 'hook duration (ms)').toBeLessThan(bound);
    expect(wall, 'emit (ms)').toBeLessThan(bound);
  });
});

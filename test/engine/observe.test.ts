// The engine's one observer seam (options.observe): told of every emit once its decision is final,
// with the registry it ran on and what the sender sent; an observer that throws changes nothing.

import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmitRecord } from '../../src/engine/options.js';
import { capture, tempHome, testEngine } from './_helpers.js';

function blockingHome(): { home: string; guard: string } {
  const home = tempHome('hh-observe-');
  const guard = join(home, 'guard.sh');
  writeFileSync(guard, `#!/bin/sh\ncat >/dev/null\necho '{"action":"block","message":"no"}'\n`);
  chmodSync(guard, 0o755);
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${guard}\n`);
  return { home, guard };
}

describe('observe', () => {
  it('hears the final decision, the registry in the emission order, and the kwargs as received (or what the face says it received)', async () => {
    const { home, guard } = blockingHome();
    const seen: EmitRecord[] = [];
    const engine = await testEngine(home, { observe: (r) => seen.push(r) });
    const kwargs = { tool_name: 'terminal', args: { command: 'ls' }, session_id: 's' };
    const e = await engine.emit('pre_tool_call', kwargs);
    const stdin = { hook_event_name: 'PreToolUse', tool_name: 'Bash' };
    await engine.emit('pre_tool_call', kwargs, { received: { dialect: 'claude', event: 'PreToolUse', input: stdin } });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.emission).toBe(e);
    expect(seen[0]!.received).toEqual({ dialect: 'hermes', event: 'pre_tool_call', input: kwargs });
    expect(seen[0]!.profile).toBe('default');
    const entry = seen[0]!.entries[e.decision.decided_by!];
    expect(entry).toMatchObject({ kind: 'shell', spec: { command: guard } });
    expect(seen[1]!.received).toEqual({ dialect: 'claude', event: 'PreToolUse', input: stdin });
  });

  it('an observer that throws is warned about; the decision stands', async () => {
    const { home } = blockingHome();
    const logger = capture();
    const engine = await testEngine(home, {
      logger,
      observe: () => {
        throw new Error('disk full');
      },
    });
    const e = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: {}, session_id: 's' });
    expect(e.decision).toMatchObject({ action: 'block', message: 'no' });
    expect(logger.lines).toContain('hook observer failed: disk full');
  });
});

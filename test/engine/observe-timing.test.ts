// The observer seam (options.observe): told every emit after resolution, with the final decision
// and each hook's outcome; what it throws is a warning and the verdict stands.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmitRecord } from '../../src/engine/options.js';
import { capture, tempHome, testEngine } from './_helpers.js';

function guardedHome(): string {
  const home = tempHome('hh-observe-');
  const script = join(home, 'deny.sh');
  writeFileSync(script, '#!/bin/sh\ncat >/dev/null\necho \'{"action":"block","message":"no"}\'\n', { mode: 0o755 });
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${script}\n`);
  return home;
}

describe('observe', () => {
  it('hears each emit once, resolved, with when it ran', async () => {
    const seen: EmitRecord[] = [];
    const before = Date.now();
    const engine = await testEngine(guardedHome(), { acceptHooks: true, observe: (r) => seen.push(r) });
    const emission = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: {} });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.emission).toBe(emission);
    expect(seen[0]!.emission.decision).toMatchObject({ action: 'block', decided_by: 0 });
    expect(seen[0]!.startedAt).toBeGreaterThanOrEqual(before - 1);
    expect(seen[0]!.durationMs).toBeGreaterThanOrEqual(emission.hooks[0]!.duration_ms);
  });

  it('an observer that throws: one warning per emit, the verdict unchanged', async () => {
    const log = capture();
    const engine = await testEngine(guardedHome(), {
      acceptHooks: true,
      logger: log,
      observe: () => {
        throw new Error('exporter exploded');
      },
    });
    const emission = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: {} });
    expect(emission.decision).toMatchObject({ action: 'block', message: 'no' });
    expect(log.lines.filter((l) => l.includes('hook observer failed: exporter exploded'))).toHaveLength(1);
  });
});

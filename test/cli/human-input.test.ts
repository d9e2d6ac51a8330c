// Human input across the CLI: a request and its resolution pair inside one engine, so `run` (a new
// engine per event) refuses the resolution, saying where it pairs; `test` dry-runs the resolved
// hooks alone; the library says why a resolve ran nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/index.js';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, runBin, tempDir, writeScript } from './_helpers.js';

afterAll(cleanupTemps);

function loggingHome(): { home: string; log: string } {
  const dir = tempDir();
  const log = join(dir, 'log');
  const hook = writeScript(join(dir, 'log.sh'), `#!/bin/bash\ncat >> ${log}; echo >> ${log}\n`);
  return { home: makeHome(hooksYaml({ on_human_input_request: [hook], on_human_input_resolved: [hook] })), log };
}
const logged = (log: string): Record<string, unknown>[] =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('human input across the CLI', () => {
  it('run on_human_input_resolved is refused with where it pairs; nothing runs', async () => {
    const { home, log } = loggingHome();
    const r = await runBin(['run', 'on_human_input_resolved', '--home', home, '--accept-hooks'], { stdin: '{"request_id":"r1","outcome":"answered"}' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('on_human_input_resolved cannot be run on its own');
    expect(r.stderr).toContain('hermes-hooks serve');
    expect(() => readFileSync(log)).toThrow(/ENOENT/);
  });

  it('run on_human_input_request runs its hooks and notes that the resolution must go through serve', async () => {
    const { home, log } = loggingHome();
    const r = await runBin(['run', 'on_human_input_request', '--home', home, '--accept-hooks'], { stdin: '{"request_id":"r1","kind":"sudo","prompt":"pw?"}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('note: the on_human_input_resolved hooks of this request cannot run through `run`');
    expect(logged(log).map((p) => p.hook_event_name)).toEqual(['on_human_input_request']);
  });

  it('test on_human_input_resolved dry-runs the resolved hooks alone', async () => {
    const { home, log } = loggingHome();
    const r = await runBin(['test', 'on_human_input_resolved', '--home', home], { stdin: '{"request_id":"r9","outcome":"timeout","answer":"secret"}' });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('No hooks configured');
    const [seen] = logged(log);
    expect(seen).toMatchObject({ hook_event_name: 'on_human_input_resolved', extra: { request_id: 'r9', outcome: 'timeout' } });
    expect(JSON.stringify(seen)).not.toContain('secret');
  });

  it('the library says why a resolve ran nothing: unknown request (warning), duplicate (info)', async () => {
    const { home } = loggingHome();
    const engine = await createHookEngine({ home, env: baseEnv(), interactive: false, exitCleanup: false, enforceConsent: false });
    try {
      const unknown = await engine.emit('on_human_input_resolved', { request_id: 'nope', outcome: 'answered' });
      expect(unknown.hooks).toEqual([]);
      expect(unknown.diagnostics).toEqual([
        expect.objectContaining({
          level: 'warning',
          path: 'request_id',
          message: expect.stringContaining("no on_human_input_request with request_id 'nope' is pending in this engine"),
        }),
      ]);
      await engine.emit('on_human_input_request', { request_id: 'r1', kind: 'clarify', prompt: 'Which?' });
      expect((await engine.emit('on_human_input_resolved', { request_id: 'r1' })).hooks).toHaveLength(1);
      const again = await engine.emit('on_human_input_resolved', { request_id: 'r1' });
      expect(again.hooks).toEqual([]);
      expect(again.diagnostics).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining("request 'r1' was resolved already") })]);
    } finally {
      await engine.close({ finalize: false });
    }
  });
});

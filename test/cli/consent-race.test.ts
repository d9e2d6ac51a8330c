// The check-to-exec race through the real CLI: while a separate process flips an approved hook
// script between its approved version and an unapproved one every 20 ms, `hermes-hooks run` is
// started 40 times. The unapproved version must never run. (Checked once at start-up, as before,
// it ran in 7 of 40 runs.)

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, runBin, runMain, waitFor, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

const flippers: ChildProcess[] = [];
afterEach(() => {
  for (const f of flippers.splice(0)) if (f.exitCode === null) f.kill('SIGKILL');
});

const PAYLOAD = JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'ls' }, session_id: 's-1' });
// Same size on purpose: only the bytes differ, never the length.
const version = (tag: string): string => `#!/bin/bash\necho ${tag} >>"$HERMES_HOME/ran.log"\necho '{}'\n`;
const APPROVED = version('approved__');
const UNAPPROVED = version('UNAPPROVED');

/** A separate process that rewrites `file` in place every `periodMs`, alternating two texts. */
function startFlipper(file: string, a: string, b: string, periodMs: number): ChildProcess {
  const code =
    `const fs=require('fs');const [f,a,b,p]=process.argv.slice(1);let n=0;` +
    `process.on('SIGTERM',()=>{fs.writeFileSync(f,a);process.exit(0)});` +
    `setInterval(()=>{fs.writeFileSync(f,n++%2?a:b)},Number(p));console.log('flipping')`;
  const child = spawn(process.execPath, ['-e', code, file, a, b, String(periodMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  flippers.push(child);
  return child;
}

describe('run while the hook script is being flipped', () => {
  it('never runs the unapproved version (40 runs, flipped every 20 ms)', { timeout: 120_000 }, async () => {
    const home = makeHome();
    const hook = writeScript(join(home, 'hook.sh'), APPROVED);
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [hook] }));
    const env = baseEnv();
    const log = join(home, 'ran.log');
    const lines = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    expect((await runBin(['approve', hook, '--home', home], { env })).code).toBe(0);

    const flipper = startFlipper(hook, APPROVED, UNAPPROVED, 20);
    let started = false;
    flipper.stdout?.on('data', () => (started = true));
    expect(await waitFor(() => started, 10_000)).toBe(true);

    const results: Awaited<ReturnType<typeof runBin>>[] = [];
    const runOnce = async (): Promise<void> => {
      results.push(await runBin(['run', 'pre_tool_call', '--home', home], { env, stdin: PAYLOAD }));
    };
    // Four at a time: forty one-shot processes, each checking consent at its own launch.
    for (let i = 0; i < 40; i += 4) await Promise.all([runOnce(), runOnce(), runOnce(), runOnce()]);
    flipper.kill('SIGTERM');
    await new Promise((r) => flipper.once('exit', r));

    expect(lines().filter((l) => l === 'UNAPPROVED')).toEqual([]);
    expect(results).toHaveLength(40);
    for (const r of results) {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow' });
      // Every run either ran the approved bytes or refused what it could not vouch for, saying so.
      if (r.stderr !== '') expect(r.stderr).toContain(`shell hook for pre_tool_call (${hook}) was modified since approval — skipped: `);
    }

    // Quiet again on the approved version: it runs, so the check above was not vacuous.
    const settled = await runBin(['run', 'pre_tool_call', '--home', home], { env, stdin: PAYLOAD });
    expect([settled.code, settled.stderr]).toEqual([0, '']);
    expect(lines().at(-1)).toBe('approved__');
    expect(lines().filter((l) => l === 'UNAPPROVED')).toEqual([]);
  });
});

describe('doctor while the hook script is being flipped', () => {
  // doctor smoke-runs approved hooks. Checked once before the smoke run (as before), it ran the
  // unapproved version in 12 of 60 runs; consent is now checked again at the launch.
  it('never smoke-runs the unapproved version (40 runs, flipped every 20 ms)', { timeout: 120_000 }, async () => {
    const home = makeHome();
    const hook = writeScript(join(home, 'hook.sh'), APPROVED);
    writeFileSync(join(home, 'config.yaml'), hooksYaml({ pre_tool_call: [hook] }));
    const env = baseEnv({ HERMES_HOME: home });
    const log = join(home, 'ran.log');
    const lines = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    expect((await runMain(['approve', hook], { env })).code).toBe(0);

    const flipper = startFlipper(hook, APPROVED, UNAPPROVED, 20);
    let started = false;
    flipper.stdout?.on('data', () => (started = true));
    expect(await waitFor(() => started, 10_000)).toBe(true);
    const outputs: string[] = [];
    for (let i = 0; i < 40; i += 2) {
      const pair = await Promise.all([runMain(['doctor'], { env }), runMain(['doctor'], { env })]);
      for (const r of pair) outputs.push(r.stdout);
    }
    flipper.kill('SIGTERM');
    await new Promise((r) => flipper.once('exit', r));

    expect(lines().filter((l) => l === 'UNAPPROVED')).toEqual([]);
    // Each run smoke-ran the approved bytes, or said why it did not run them.
    for (const out of outputs) {
      const smoke = out.split('\n')[5]!;
      expect([
        '      ℹ produced a JSON object with no directive pre_tool_call reads',
        '      ℹ skipped smoke run — approve the hook first, then re-run doctor',
        // The flipper truncates before it writes: doctor may read the file empty ("no #! line").
        '      ℹ skipped smoke run — fix the problem above first, then re-run doctor',
        `      ✗ not run: shell hook for pre_tool_call (${hook}) was modified since approval — skipped: `,
      ]).toContain(smoke.startsWith('      ✗ not run: ') ? smoke.slice(0, smoke.indexOf('skipped: ') + 9) : smoke.replace(/ \(exit=.*$/, ''));
    }
    // Quiet again on the approved version: doctor runs it, so the check above was not vacuous.
    const settled = await runMain(['doctor'], { env });
    expect(settled.code).toBe(0);
    expect(lines().at(-1)).toBe('approved__');
  });
});

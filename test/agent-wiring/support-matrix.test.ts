// docs/agents.md's support matrix is what the records say: a record added or changed without
// `npm run gen:matrix` fails here. The matrix's events are those print-config really wires.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX_END, MATRIX_START, renderSupportMatrix, replaceSupportMatrix } from '../../src/agent-wiring/support-matrix.js';
import { AGENTS } from '../../src/dialects/agents/index.js';
import { eventsIn } from '../../src/dialects/agents/module.js';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, cleanupTemps, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

const ROOT = resolve(import.meta.dirname, '..', '..');
const PAGE = join(ROOT, 'docs', 'agents.md');

describe('the support matrix (docs/agents.md)', () => {
  it('the committed page holds exactly what the generator writes from the records', () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(replaceSupportMatrix(page, renderSupportMatrix()), 'docs/agents.md is stale: run npm run gen:matrix').toBe(page);
  });

  it('a changed record changes the section (so a stale page is caught), and every agent has its row', () => {
    const section = renderSupportMatrix();
    for (const a of AGENTS) expect(section).toContain(`| ${a.label} | \`${a.name}\` |`);
    const changed = AGENTS.map((a, i) => (i === 0 ? { ...a, support: { ...a.support, rewrite: 'ignored' as const } } : a));
    expect(renderSupportMatrix(changed)).not.toBe(section);
    expect(() => replaceSupportMatrix('# no markers\n', section)).toThrow('no support-matrix markers');
  });

  it('each row lists the events print-config wires for a profile with a hook on every event', async () => {
    const dir = tempDir('hh-matrix-');
    const hook = writeScript(join(dir, 'hook.sh'), '#!/bin/sh\nexit 0\n');
    // Every event any record maps, so print-config wires all it can.
    const events = new Set(AGENTS.flatMap((a) => Object.values(a.names.events)));
    const home = await approvedHome(Object.fromEntries([...events].map((e) => [e, [{ command: hook }]])));
    const section = renderSupportMatrix();
    for (const a of AGENTS) {
      const printed = await runMain(['print-config', a.name, '--home', home]);
      expect(printed.code, printed.stderr).toBe(0);
      // Under `hooks`, or at the top level of a file the agent reads that way (Droid's hooks.json).
      const file = a.doctor.files.find((f) => f.role === 'reads')!.path;
      const wired = Object.keys(eventsIn(a, file, JSON.parse(printed.stdout) as Record<string, unknown>) as Record<string, unknown>);
      const row = section.split('\n').find((l) => l.startsWith(`| ${a.label} | \``))!;
      const listed = [...row.split(' | ')[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect([a.name, [...listed].sort()]).toEqual([a.name, [...wired].sort()]);
    }
  });

  it('npm run gen:matrix leaves an up-to-date page as it is', () => {
    const r = spawnSync('npx', ['tsx', 'scripts/gen-support-matrix.ts'], { cwd: ROOT, encoding: 'utf8' });
    expect([r.status, r.stdout.trim()], r.stderr).toEqual([0, 'docs/agents.md: the support matrix is up to date']);
    const page = readFileSync(PAGE, 'utf8');
    expect(page.indexOf(MATRIX_START)).toBeLessThan(page.indexOf(MATRIX_END));
  });
});

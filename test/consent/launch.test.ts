// LaunchGate with a real allowlist and real scripts: what check() decides, and what the
// synchronous verify() (run right before the spawn) catches.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/file-identity.js';
import { LaunchGate, QUIET_WAIT_MS, type LaunchTicket } from '../../src/consent/launch.js';
import { ConsentStore } from '../../src/consent/store.js';

let dir: string;
let script: string;
const A = '#!/bin/bash\necho aaaa\n';
const B = '#!/bin/bash\necho bbbb\n'; // same size as A
const spec = () => ({ event: 'pre_tool_call', command: `bash ${script}` });

async function gate(opts: { accept?: boolean } = {}) {
  const warnings: string[] = [];
  const store = await ConsentStore.open(dir, { warn: (m) => warnings.push(m) });
  return { store, warnings, gate: new LaunchGate({ store, accept: opts.accept ?? false, warn: (m) => warnings.push(m) }) };
}

function go(t: LaunchTicket): Extract<LaunchTicket, { run: true }> {
  if (!t.run) throw new Error(`expected to run: ${t.message}`);
  return t;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hh-gate-'));
  script = join(dir, 'hook.sh');
  writeFileSync(script, A, { mode: 0o755 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LaunchGate.check', () => {
  it('waits until a just-written approved script has been quiet for SETTLE_MS, then lets it run', async () => {
    const { store, gate: g } = await gate();
    await store.approve(spec());
    const t = go(await g.check(spec()));
    const ctimeMs = Number(statSync(script, { bigint: true }).ctimeNs / 1_000_000n);
    expect(Date.now() - ctimeMs).toBeGreaterThanOrEqual(SETTLE_MS);
    expect(t.consent.state).toBe('approved');
    expect(t.verify()).toBe(true);
  });

  it('refuses a script that keeps being rewritten (even with its approved bytes), after QUIET_WAIT_MS, as modified', async () => {
    const { store, gate: g, warnings } = await gate();
    await store.approve(spec());
    // Two separate writer processes (a busy machine may stall one of them), each replacing the
    // script atomically every 5 ms, so its bytes are always the approved ones.
    const code =
      `const fs=require('fs');const [f,t,a]=process.argv.slice(1);const b=new Int32Array(new SharedArrayBuffer(4));` +
      `process.stdout.write('go');for(;;){fs.writeFileSync(t,a);fs.renameSync(t,f);Atomics.wait(b,0,0,5)}`;
    const writers = [0, 1].map((i) => spawn(process.execPath, ['-e', code, script, `${script}.tmp${i}`, A], { stdio: ['ignore', 'pipe', 'ignore'] }));
    try {
      await Promise.all(writers.map((w) => new Promise((r) => w.stdout!.once('data', r))));
      // A machine busy enough to stall both writers for SETTLE_MS lets the script be quiet for
      // that long, and then the gate rightly lets it run: try up to eight times.
      let t: LaunchTicket | null = null;
      let elapsed = 0;
      for (let attempt = 0; attempt < 8 && (t === null || t.run); attempt++) {
        const started = Date.now();
        t = await g.check({ ...spec(), fail_closed: true }, { fresh: true });
        elapsed = Date.now() - started;
      }
      expect(t).toMatchObject({ run: false, block: true, consent: { state: 'modified' } });
      expect(elapsed).toBeGreaterThanOrEqual(QUIET_WAIT_MS - SETTLE_MS);
      expect(t!.consent.reason).toBe(
        `modified since approval: ${script} keeps changing (rewritten less than ${SETTLE_MS} ms before every check for ${QUIET_WAIT_MS} ms)`,
      );
      expect(warnings).toEqual([(t as { message: string }).message]);
    } finally {
      for (const w of writers) w.kill('SIGKILL');
    }
  });

  it('with accept, approves (and records) an unapproved script at launch without waiting', async () => {
    const { store, gate: g } = await gate({ accept: true });
    const t = go(await g.check(spec()));
    expect(t.consent.state).toBe('approved');
    expect(store.entries().map((e) => [e.command, e.script_path])).toEqual([[`bash ${script}`, script]]);
  });
});

describe('LaunchTicket.verify: the last check before the spawn', () => {
  it('fails once the script is rewritten, even with bytes of the same size, and stays failed when they are put back', async () => {
    const { store, gate: g } = await gate();
    await store.approve(spec());
    const t = go(await g.check(spec()));
    writeFileSync(script, B);
    expect([t.verify(), t.scriptUnchanged()]).toEqual([false, false]);
    writeFileSync(script, A);
    expect([t.verify(), t.scriptUnchanged()]).toEqual([false, false]);
    // A fresh check vouches for the bytes now there.
    const again = go(await g.check(spec(), { fresh: true }));
    expect(again.verify()).toBe(true);
  });

  it('fails once another process rewrote the allowlist; the next check reads it again', async () => {
    const { store, gate: g } = await gate();
    await store.approve(spec());
    const t = go(await g.check(spec()));
    const other = await ConsentStore.open(dir);
    writeFileSync(join(dir, 'other.sh'), '#!/bin/sh\n');
    await other.approve({ event: 'post_tool_call', command: `bash ${join(dir, 'other.sh')}` });
    expect(t.verify()).toBe(false);
    expect(t.scriptUnchanged()).toBe(true);
    expect(go(await g.check(spec())).verify()).toBe(true);
    // And a revoke from there is seen at the next check.
    await other.revoke(`bash ${script}`);
    expect(await g.check(spec())).toMatchObject({ run: false, consent: { state: 'not_approved' } });
  });
});

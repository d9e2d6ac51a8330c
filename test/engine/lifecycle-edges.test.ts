// Lifecycle edges (issue 12): finalize fires once per session (no extra null-session finalize at
// close()), notices carry their session, human-input outcomes are the seed's five, and BOOT.md's
// [SILENT] answer sends nothing. Real shell hooks and real plugin folders in temp profile homes.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { normaliseOutcome } from '../../src/lifecycle/human-input.js';
import { tempHome, testEngine } from './_helpers.js';

const HOOKS = resolve(import.meta.dirname, '../fixtures/cli/hooks');

const jsonLines = (file: string): Record<string, unknown>[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

/** A home whose on_session_finalize shell hook logs its stdin and a plugin that leaves a notice per session. */
function finalizeHome(): string {
  const dir = tempHome('hh-edges-');
  mkdirSync(join(dir, 'plugins', 'bye'), { recursive: true });
  writeFileSync(join(dir, 'plugins', 'bye', 'plugin.yaml'), 'name: bye\n');
  writeFileSync(
    join(dir, 'plugins', 'bye', 'index.mjs'),
    `export function register(ctx) {
  ctx.registerHook('on_session_finalize', ({ session_id }) => session_id ? { message: 'bye from ' + session_id } : null);
}
`,
  );
  writeFileSync(join(dir, 'config.yaml'), `plugins:\n  enabled: [bye]\nhooks:\n  on_session_finalize:\n    - command: ${HOOKS}/log-stdin.sh\n`);
  return dir;
}

const finalizedIds = (dir: string): unknown[] => jsonLines(join(dir, 'on_session_finalize.jsonl')).map((p) => p.session_id);

describe('on_session_finalize: once per session, notices with their session', () => {
  it('close() after finalizeSession({session_id: "a"}) fires no second finalize (not even one with a null session)', async () => {
    const dir = finalizeHome();
    const engine = await testEngine(dir);
    const e = await engine.finalizeSession({ session_id: 'a', session_key: 'agent:main:telegram:dm:1' });
    expect(e.decision.notifications).toEqual(['bye from a']);
    expect(e.decision.notices).toEqual([{ session_id: 'a', session_key: 'agent:main:telegram:dm:1', message: 'bye from a' }]);
    const closed = await engine.close();
    expect(closed).toEqual({ notifications: [], notices: [] });
    expect(finalizedIds(dir)).toEqual(['a']);
  });

  it('a host finalize with no session is not repeated by close() either', async () => {
    const dir = finalizeHome();
    const engine = await testEngine(dir);
    await engine.finalizeSession();
    await engine.close();
    expect(finalizedIds(dir)).toEqual(['']);
  });

  it('close() finalizes each open session once, each notice naming its session; a repeated finalize runs nothing', async () => {
    const dir = finalizeHome();
    const engine = await testEngine(dir);
    await engine.emit('on_session_start', { session_id: 'b', session_key: 'k-b' });
    await engine.emit('on_session_start', { session_id: 'c' });
    await engine.finalizeSession({ session_id: 'b' });
    const again = await engine.finalizeSession({ session_id: 'b' });
    expect(again.hooks).toEqual([]);
    const closed = await engine.close();
    expect(closed.notices).toEqual([{ session_id: 'c', session_key: null, message: 'bye from c' }]);
    expect(finalizedIds(dir)).toEqual(['b', 'c']);
  });
});

describe('human-input outcomes: answered / skipped / timeout / withdrawn / failed', () => {
  it('normaliseOutcome keeps the five, maps cancelled to withdrawn, anything else to failed', () => {
    expect(api.HUMAN_INPUT_OUTCOMES).toEqual(['answered', 'skipped', 'timeout', 'withdrawn', 'failed']);
    for (const o of api.HUMAN_INPUT_OUTCOMES) expect(normaliseOutcome(o)).toBe(o);
    expect(normaliseOutcome(' Timeout ')).toBe('timeout');
    expect(normaliseOutcome('cancelled')).toBe('withdrawn');
    expect(normaliseOutcome(undefined)).toBe('answered');
    expect(normaliseOutcome('exploded')).toBe('failed');
    expect(normaliseOutcome(3)).toBe('failed');
  });

  it('a hook sees the normalised outcome; close() withdraws what is still pending', async () => {
    const dir = tempHome('hh-edges-');
    writeFileSync(join(dir, 'config.yaml'), `hooks:\n  on_human_input_resolved:\n    - command: ${HOOKS}/log-stdin.sh\n`);
    const engine = await testEngine(dir);
    for (const id of ['r1', 'r2', 'r3']) await engine.emit('on_human_input_request', { kind: 'clarify', request_id: id, prompt: 'which?' });
    await engine.emit('on_human_input_resolved', { request_id: 'r1', outcome: 'cancelled' });
    await engine.emit('on_human_input_resolved', { request_id: 'r2', outcome: 'skipped' });
    await engine.close({ finalize: false });
    const seen = jsonLines(join(dir, 'on_human_input_resolved.jsonl')).map((p) => {
      const extra = p.extra as Record<string, unknown>;
      return [extra.request_id, extra.outcome];
    });
    expect(seen).toEqual([
      ['r1', 'withdrawn'],
      ['r2', 'skipped'],
      ['r3', 'withdrawn'],
    ]);
  });
});

describe('BOOT.md: [SILENT] sends nothing; the prompt builder is public', () => {
  it('isSilentReply: the whole reply must be a silence token (case and whitespace normalised)', () => {
    for (const r of ['[SILENT]', ' [silent]\n', 'SILENT', 'no_reply', 'NO   REPLY']) expect(api.isSilentReply(r)).toBe(true);
    for (const r of ['Use [SILENT] when nothing changed', '', 'SILENTLY', null]) expect(api.isSilentReply(r)).toBe(false);
  });

  it('through the engine: onBoot gets the Hermes prompt; a [SILENT] reply is not delivered, another reply is', async () => {
    for (const [reply, delivered] of [
      ['[SILENT]', []],
      ['Gateway restarted, all systems go', ['Gateway restarted, all systems go']],
    ] as const) {
      const dir = tempHome('hh-boot-');
      writeFileSync(join(dir, 'config.yaml'), '{}\n');
      writeFileSync(join(dir, 'BOOT.md'), 'Check the deploy log\n');
      const prompts: string[] = [];
      const sent: string[] = [];
      const infos: string[] = [];
      const engine = await testEngine(dir, {
        surface: 'gateway',
        logger: { warn: () => {}, info: (m) => void infos.push(m), debug: () => {} },
        onBoot: async (_instructions, run) => {
          prompts.push(run.prompt);
          return reply;
        },
        onBootReply: (r) => void sent.push(r),
      });
      engine.emitGateway('gateway:startup', { platforms: ['telegram'] });
      const silentNote = '[hooks] boot-md: the boot session answered [SILENT]; nothing sent';
      const end = Date.now() + 10_000;
      while (sent.length === 0 && !infos.includes(silentNote)) {
        if (Date.now() > end) throw new Error('the boot reply was never handled');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(prompts).toEqual([api.buildBootPrompt('Check the deploy log')]);
      expect(sent).toEqual(delivered);
      expect(infos.includes(silentNote)).toBe(delivered.length === 0);
    }
  });
});

// Tool-loop guardrails crossed through engine.emit on real engines (config `tool_loop_guardrails`):
// real pre_tool_call / post_tool_call sequences, checked step by step against what the pure
// guardrails module says for the same sequence, plus the exact words the model is shown.

import { writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import type { HookEngine, HookEngineOptions } from '../../src/engine/create-engine.js';
import { createToolLoopGuardrails, parseGuardrailsConfig, type GuardrailVerdict } from '../../src/guardrails/guardrails.js';
import type { Emission } from '../../src/types.js';
import { tempHome, testEngine } from './_helpers.js';

const FIX = resolvePath(import.meta.dirname, '../fixtures/engine');

interface Rig {
  engine: HookEngine;
  /** The pure module on the same config and surface default, fed the same calls. */
  pure: ReturnType<typeof createToolLoopGuardrails>;
}

async function rig(yaml: string, opts: HookEngineOptions = {}): Promise<Rig> {
  const home = tempHome('hh-guardrails-');
  const file = join(home, 'config.yaml');
  writeFileSync(file, yaml);
  const engine = await testEngine(home, { cwd: home, ...opts });
  const { config, diagnostics } = parseGuardrailsConfig(parseConfigText(yaml, file));
  expect(diagnostics).toEqual([]);
  expect(engine.diagnostics).toEqual([]);
  const pure = createToolLoopGuardrails(config, { defaultPlatform: opts.surface === 'gateway' ? 'gateway' : null });
  return { engine, pure };
}

type Kwargs = Record<string, unknown>;
const call = (tool: string, args: Kwargs, session_id = 's1', extra: Kwargs = {}): Kwargs => ({ tool_name: tool, args, session_id, task_id: 't', ...extra });
const failed = (pre: Kwargs): Kwargs => ({ ...pre, result: '{"error":"boom"}', status: 'error' });
const blocked = (pre: Kwargs): Kwargs => ({ ...pre, result: null, status: 'blocked' });
const succeeded = (pre: Kwargs, result: string): Kwargs => ({ ...pre, result, status: 'ok' });

/** The decision a guardrail verdict must produce when no other hook has anything to say. */
function expectDecisionFor(e: Emission, verdict: GuardrailVerdict | null, label: string): void {
  const guard = e.hooks.findIndex((h) => h.command === 'builtin:tool_loop_guardrails');
  expect(guard, label).toBeGreaterThanOrEqual(0);
  expect(e.hooks[guard]!.status, label).toBe('ok');
  if (verdict === null) {
    expect(e.decision, label).toMatchObject({ action: 'allow', message: null, context: null, decided_by: null });
    expect(e.decision.stop_turn, label).toBeUndefined();
  } else if (verdict.action === 'warn') {
    expect(e.decision, label).toMatchObject({ action: 'allow', message: null, context: verdict.message, decided_by: null });
    expect(e.decision.stop_turn, label).toBeUndefined();
  } else {
    expect(e.decision, label).toMatchObject({ action: 'block', message: verdict.message, context: null, decided_by: guard, stop_turn: true });
    expect(e.hooks[guard]!.directive, label).toEqual({ action: 'block', message: verdict.message });
  }
}

/**
 * Runs the calls through the engine and the pure module: before each call, both judge it; a
 * stopped call is reported back as blocked (it never ran), any other with `outcome(pre)`.
 * Returns the pure verdicts, one per call.
 */
async function drive(r: Rig, calls: { pre: Kwargs; outcome: (pre: Kwargs) => Kwargs }[]): Promise<(GuardrailVerdict | null)[]> {
  const verdicts: (GuardrailVerdict | null)[] = [];
  for (const [i, { pre, outcome }] of calls.entries()) {
    const verdict = r.pure.beforeToolCall(pre);
    verdicts.push(verdict);
    const e = await r.engine.emit('pre_tool_call', pre);
    expectDecisionFor(e, verdict, `call ${i + 1} (${String(pre.tool_name)} in ${String(pre.session_id)})`);
    const post = e.decision.action === 'block' ? blocked(pre) : outcome(pre);
    r.pure.afterToolCall(post);
    await r.engine.emit('post_tool_call', post);
  }
  return verdicts;
}

const summary = (vs: (GuardrailVerdict | null)[]): string[] => vs.map((v) => (v ? `${v.action}:${v.detector}:${v.count}` : '-'));

const EXACT_WARN_2 =
  'Tool loop warning (exact_failure): terminal has failed 2 times with the same arguments. ' +
  'Do not repeat this exact call; change the arguments or try a different approach.';
const EXACT_STOP_4 =
  'Tool loop detected (exact_failure): terminal has failed 4 times with the same arguments. This call was not run. ' +
  'Stop and end the turn: tell the user what you tried and what is blocking you instead of retrying.';

describe('tool-loop guardrails through engine.emit', () => {
  const configured = `tool_loop_guardrails:
  hard_stop_enabled: true
  warn_after:
    exact_failure: 2
  hard_stop_after:
    exact_failure: 4
`;

  it('warns as decision.context after the configured failures, then blocks with stop_turn, as the pure module says', async () => {
    const r = await rig(configured);
    const ls = call('terminal', { command: 'ls /missing' });
    const verdicts = await drive(
      r,
      Array.from({ length: 6 }, () => ({ pre: ls, outcome: failed })),
    );
    expect(summary(verdicts)).toEqual([
      '-',
      '-',
      'warn:exact_failure:2',
      'warn:exact_failure:3',
      'stop:exact_failure:4',
      'stop:exact_failure:5', // the stopped call was reported blocked: the loop stays stopped
    ]);
    expect(verdicts[2]!.message).toBe(EXACT_WARN_2);
    expect(verdicts[4]!.message).toBe(EXACT_STOP_4);
  });

  it('a success with a new result is progress: the counters start over', async () => {
    const r = await rig(configured);
    const ls = call('terminal', { command: 'ls' });
    const verdicts = await drive(r, [
      { pre: ls, outcome: failed },
      { pre: ls, outcome: failed },
      { pre: ls, outcome: (p) => succeeded(p, '{"files":["a"]}') }, // warned, runs, makes progress
      { pre: ls, outcome: failed },
      { pre: ls, outcome: failed },
    ]);
    // Call 4 follows a first success (a streak of 1, below warn_after); the failures after it count from zero.
    expect(summary(verdicts)).toEqual(['-', '-', 'warn:exact_failure:2', '-', '-']);
  });

  it('a mixed sequence (cycle, no-progress repeats, failures of one tool) decides exactly as the pure module', async () => {
    const r = await rig(`tool_loop_guardrails:
  hard_stop_enabled: true
  warn_after: {cycle: 2, idempotent_no_progress: 2, same_tool_failure: 2}
  hard_stop_after: {cycle: 3, idempotent_no_progress: 3, same_tool_failure: 4}
`);
    const a = call('read_file', { path: 'a.txt' });
    const b = call('read_file', { path: 'b.txt' });
    const same = (p: Kwargs): Kwargs => succeeded(p, `{"content":"${String((p.args as Kwargs).path)}"}`);
    const calls = [
      ...Array.from({ length: 8 }, (_, i) => ({ pre: i % 2 ? b : a, outcome: same })),
      ...Array.from({ length: 5 }, (_, i) => ({ pre: call('web_search', { q: `q${i}` }), outcome: failed })),
    ];
    const verdicts = await drive(r, calls);
    // Guards the rig itself: the sequence really reached warnings and stops of several detectors.
    const kinds = new Set(verdicts.filter(Boolean).map((v) => `${v!.action}:${v!.detector}`));
    expect([...kinds].sort()).toEqual(['stop:cycle', 'stop:same_tool_failure', 'warn:cycle', 'warn:same_tool_failure']);
  });

  it('with the defaults, the CLI surface only warns past the stop threshold; the gateway surface stops (unattended)', async () => {
    const ls = call('terminal', { command: 'make' });
    const six = Array.from({ length: 6 }, () => ({ pre: ls, outcome: failed }));
    const cli = await drive(await rig('hooks: {}\n'), six);
    const gateway = await drive(await rig('hooks: {}\n', { surface: 'gateway' }), six);
    expect(summary(cli)).toEqual(['-', '-', 'warn:exact_failure:2', 'warn:exact_failure:3', 'warn:exact_failure:4', 'warn:exact_failure:5']);
    expect(summary(gateway)).toEqual(['-', '-', 'warn:exact_failure:2', 'warn:exact_failure:3', 'warn:exact_failure:4', 'stop:exact_failure:5']);
  });

  it('a platform the session reports wins over the surface default, either way', async () => {
    const six = (extra: Kwargs) => Array.from({ length: 6 }, () => ({ pre: call('terminal', { command: 'make' }, 's1', extra), outcome: failed }));
    const gatewayButCli = await drive(await rig('hooks: {}\n', { surface: 'gateway' }), six({ platform: 'cli' }));
    const cliButTelegram = await drive(await rig('hooks: {}\n'), six({ platform: 'telegram' }));
    expect(summary(gatewayButCli).at(-1)).toBe('warn:exact_failure:5');
    expect(summary(cliButTelegram).at(-1)).toBe('stop:exact_failure:5');
  });

  it("sessions are isolated: a second session is unaffected by the first one's loop", async () => {
    const r = await rig(configured);
    const inS1 = call('terminal', { command: 'ls /missing' }, 's1');
    const inS2 = call('terminal', { command: 'ls /missing' }, 's2');
    const verdicts = await drive(r, [
      ...Array.from({ length: 5 }, () => ({ pre: inS1, outcome: failed })),
      { pre: inS2, outcome: failed },
      { pre: inS1, outcome: failed },
      { pre: inS2, outcome: failed },
    ]);
    expect(summary(verdicts)).toEqual([
      '-',
      '-',
      'warn:exact_failure:2',
      'warn:exact_failure:3',
      'stop:exact_failure:4',
      '-', // s2's first call
      'stop:exact_failure:5', // s1 still stopped
      '-', // s2 has failed once: below warn_after
    ]);
  });

  it("a warning rides on an approve as context; a shell hook's block decides the message and the guardrail's stop still ends the turn", async () => {
    const approve = await rig(`hooks:\n  pre_tool_call:\n    - command: ${FIX}/approve.sh\n${configured}`);
    const ls = call('terminal', { command: 'ls /missing' });
    for (let i = 0; i < 2; i++) {
      await approve.engine.emit('pre_tool_call', ls);
      await approve.engine.emit('post_tool_call', failed(ls));
    }
    const warned = await approve.engine.emit('pre_tool_call', ls);
    expect(warned.decision).toMatchObject({ action: 'approve', message: 'needs a human', decided_by: 0, context: EXACT_WARN_2 });
    expect(warned.decision.stop_turn).toBeUndefined();

    const block = await rig(`hooks:\n  pre_tool_call:\n    - command: ${FIX}/block.sh\n${configured}`);
    for (let i = 0; i < 4; i++) await block.engine.emit('post_tool_call', failed(ls));
    const both = await block.engine.emit('pre_tool_call', ls);
    // The guardrail stops this call too (its own outcome says so); the first block in order gives
    // the message, and the host is still told to end the turn.
    expect(both.hooks[1]!.directive).toEqual({ action: 'block', message: EXACT_STOP_4 });
    expect(both.decision).toMatchObject({ action: 'block', message: 'blocked by fixture', decided_by: 0, context: null, stop_turn: true });
  });
});

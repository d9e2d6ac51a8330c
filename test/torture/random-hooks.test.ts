// Torture: 500 generated hooks (bash and python, seeded PRNG) with random exit codes, signal
// self-kills, random stdout — directives of every kind, `{}`, invalid JSON, non-objects, invalid
// UTF-8, lines of 100 KB+, output past the 1 MiB cap then an exit (it still counts), output without
// end (killed: output_limit), nothing — random stderr, random sleeps (a few past a 1 s timeout) and
// random fail_closed, run through the real engine over 30 concurrent emits.
//
// The oracle is the pure code, fed what each script was GENERATED to do (never the actual run):
// the expected RunRecord (status, exit code or signal, the bytes written, decoded as UTF-8) goes
// through evaluateRun, and the predicted directives through resolve(). The engine's outcome for
// every hook, and every emit's decision, must be exactly that.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateRun } from '../../src/directives/evaluate-run.js';
import type { EventName } from '../../src/events.js';
import { resolve } from '../../src/resolve/resolve.js';
import type { Decision, Directive, HookOutcomeStatus, JsonObject, RunRecord } from '../../src/types.js';
import { engineFor, killTagged, newTag, realPython, removeTemps, script, tempDir, waitNoneLeft } from './_helpers.js';

const SEED = Number(process.env.TORTURE_SEED ?? 0x5eed7);
const tag = newTag('random');

afterAll(() => {
  killTagged(tag);
  removeTemps();
});

// ---------------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32)

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** Weighted choice: [[weight, value], …]. */
  weighted<T>(table: readonly (readonly [number, T])[]): T {
    const total = table.reduce((a, [w]) => a + w, 0);
    let r = this.next() * total;
    for (const [w, v] of table) {
      if ((r -= w) < 0) return v;
    }
    return (table[table.length - 1] as readonly [number, T])[1];
  }
}

// ---------------------------------------------------------------------------------------------
// What a hook is generated to do

type End = { kind: 'exit'; code: number } | { kind: 'signal'; signal: 'SIGTERM' | 'SIGKILL' | 'SIGUSR1' };

interface Plan {
  id: number;
  lang: 'bash' | 'python';
  event: EventName;
  matcher: string | null;
  /** As configured; only effective on pre_tool_call. */
  failClosed: boolean;
  timeout: number;
  readsStdin: boolean;
  stdout: Buffer;
  stderr: Buffer;
  /** Prints 3 MiB on this stream after the rest: past the 1 MiB cap (then ends as planned). */
  overflow: null | 'stdout' | 'stderr';
  /** With overflow: prints without end instead, far past the cap (killed: output_limit). */
  flood: boolean;
  /** Sleeps 30 s at the end: past its 1 s timeout. */
  hang: boolean;
  sleepMs: number;
  end: End;
  command: string;
}

const CHARS = [
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'ABCXYZ0189',
  ' ',
  ' ',
  '"',
  '\\',
  '/',
  "'",
  '\n',
  '\t',
  '{',
  '}',
  ':',
  ',',
  'é',
  'ß',
  '中',
  '文',
  '😀',
  '🚀',
  '\u2028',
  '\u0000',
  '\u00a0',
  '\ud800',
  '$',
  '`',
];

function str(rng: Rng, max = 40): string {
  let s = '';
  const n = rng.int(0, max);
  for (let i = 0; i < n; i++) s += rng.pick(CHARS);
  return s;
}

function argsObj(rng: Rng): JsonObject {
  const out: JsonObject = {};
  const n = rng.int(0, 3);
  for (let i = 0; i < n; i++) {
    out[rng.pick(['command', 'a', 'b', 'c', 'timeout'])] = rng.pick<unknown>([str(rng, 8), rng.int(-5, 5), true, null, [1, 'x'], { k: 'v' }]);
  }
  return out;
}

function directive(rng: Rng, event: EventName): JsonObject {
  // pre_tool_call: mostly modifies and things that say nothing, so that groups of hooks end in
  // every kind of decision (a block anywhere in a group decides it).
  const preTool: (readonly [number, () => JsonObject])[] = [
    [3, () => ({ action: 'modify', args: argsObj(rng) })],
    [3, () => ({ decision: 'modify', tool_input: argsObj(rng) })],
    [2, () => ({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: argsObj(rng) } })],
    [1, () => ({ action: 'modify', args: 'not an object' })],
    [1, () => ({ decision: 'approve', reason: 'ignored on purpose' })],
    [1, () => ({ action: 'BLOCK', message: 'case matters' })],
    [1, () => ({ hookSpecificOutput: { permissionDecision: 'allow' } })],
    [0.3, () => ({ action: 'block', message: str(rng) })],
    [0.2, () => ({ action: 'block' })],
    [0.2, () => ({ decision: 'block', reason: str(rng) })],
    [0.2, () => ({ action: 'block', message: '', reason: str(rng) })],
    [0.3, () => ({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: str(rng) } })],
    [0.5, () => ({ action: 'approve', message: str(rng), rule_key: str(rng, 10) })],
    [0.3, () => ({ action: 'approve' })],
    [0.4, () => ({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: str(rng) } })],
  ];
  const others: (readonly [number, () => JsonObject])[] = [
    [3, () => ({ context: str(rng) })],
    [1, () => ({ context: '   ' })],
    [2, () => ({ hookSpecificOutput: { additionalContext: str(rng) } })],
    [2, () => ({ action: 'continue', message: str(rng) })],
    [1, () => ({ decision: 'Block', reason: str(rng) })],
    [1, () => ({ action: 'continue' })],
    [2, () => ({ message: str(rng) })],
    [2, () => ({ action: 'handled', reply: str(rng) })],
    [1, () => ({ action: 'handled' })],
    [1, () => ({ action: 'handled', reply: 7 })],
  ];
  // Mostly the event's own vocabulary, sometimes another event's (which must then mean nothing).
  if (event === 'pre_tool_call') return rng.weighted(rng.chance(0.85) ? preTool : others)();
  return rng.weighted(rng.chance(0.85) ? others : preTool)();
}

const INVALID_UTF8: readonly number[][] = [[0xff], [0xfe, 0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80, 0x80]];

const pad = (rng: Rng): string => rng.pick(['', '', '\n', '  \n', '\r\n', '\t', ' \n\n ']);
const b = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Serialises a directive with one string field replaced by `raw` bytes (e.g. invalid UTF-8). */
function withRawString(obj: JsonObject, raw: Buffer): Buffer {
  const MARK = 'QQMARKQQ';
  const text = JSON.stringify({ ...obj, note: MARK });
  const [head, tail] = text.split(MARK) as [string, string];
  return Buffer.concat([b(head), raw, b(tail)]);
}

function stdoutFor(rng: Rng, event: EventName): Buffer {
  const kind = rng.weighted<string>([
    [14, 'empty'],
    [4, 'blank'],
    [46, 'directive'],
    [4, 'empty_object'],
    [5, 'invalid_json'],
    [4, 'non_object'],
    [4, 'invalid_utf8_raw'],
    [5, 'invalid_utf8_in_directive'],
    [4, 'huge_directive'],
    [3, 'huge_garbage'],
    [3, 'two_objects'],
    [2, 'python_isms'],
    [2, 'unknown_keys'],
  ]);
  const d = (): JsonObject => directive(rng, event);
  switch (kind) {
    case 'empty':
      return Buffer.alloc(0);
    case 'blank':
      return b(rng.pick([' ', '\n', '\n\n  \t\n', '\r\n']));
    case 'directive':
      return b(pad(rng) + (rng.chance(0.3) ? JSON.stringify(d(), null, 2) : JSON.stringify(d())) + pad(rng));
    case 'empty_object':
      return b(pad(rng) + '{}' + pad(rng));
    case 'invalid_json':
      return b(rng.pick(['{"action": "block"', 'not json', "{'action': 'block'}", '{"action": "block",}', '}{', 'block']));
    case 'non_object':
      return b(rng.pick(['[1, 2]', '"block"', '42', 'null', 'true', '[{"action": "block"}]']) + pad(rng));
    case 'invalid_utf8_raw': {
      const parts: Buffer[] = [];
      for (let i = rng.int(1, 6); i > 0; i--) parts.push(rng.chance(0.5) ? Buffer.from(rng.pick(INVALID_UTF8)) : b(str(rng, 10)));
      return Buffer.concat(parts);
    }
    case 'invalid_utf8_in_directive':
      return withRawString(d(), Buffer.concat([b(str(rng, 5)), Buffer.from(rng.pick(INVALID_UTF8)), b(str(rng, 5))]));
    case 'huge_directive': {
      const huge = 'h'.repeat(rng.int(100_000, 400_000));
      const base = d();
      // The huge line goes where it matters when the directive has a text field, else beside it;
      // either way the whole stdout stays under the 1 MiB cap.
      const field = ['message', 'reason', 'context'].find((k) => typeof base[k] === 'string') ?? 'padding';
      return b(JSON.stringify({ ...base, [field]: huge }));
    }
    case 'huge_garbage':
      return b('g'.repeat(rng.int(100_000, 300_000)) + '\n' + JSON.stringify(d()));
    case 'two_objects':
      return b(`${JSON.stringify(d())}\n${JSON.stringify(d())}\n`);
    case 'python_isms':
      // Python's json.loads takes NaN/Infinity: still one object.
      return b(rng.pick(['{"action": "block", "message": "nan", "n": NaN}', '{"context": "inf", "x": -Infinity}', '{"action": "approve", "n": Infinity}']));
    default:
      return b(JSON.stringify({ foo: str(rng), action: 'nothing', decision: 'maybe' }));
  }
}

function stderrFor(rng: Rng): Buffer {
  return rng.weighted<() => Buffer>([
    [30, () => Buffer.alloc(0)],
    [40, () => b(pad(rng) + str(rng, 80) + pad(rng))],
    [10, () => b('  ' + str(rng, 30).repeat(30) + '\n')], // often more than 400 code points
    [8, () => Buffer.concat([b(str(rng, 10)), Buffer.from(rng.pick(INVALID_UTF8)), b(str(rng, 10))])],
    [4, () => b('e'.repeat(rng.int(100_000, 200_000)))],
    [8, () => b('😀'.repeat(rng.int(350, 450)))],
  ])();
}

function endFor(rng: Rng, event: EventName): End {
  return rng.weighted<End>([
    [72, { kind: 'exit', code: 0 }],
    [7, { kind: 'exit', code: 1 }],
    [event === 'pre_tool_call' ? 1.5 : 4, { kind: 'exit', code: 2 }],
    [4, { kind: 'exit', code: 3 }],
    [4, { kind: 'exit', code: 127 }],
    [3, { kind: 'signal', signal: 'SIGTERM' }],
    [3, { kind: 'signal', signal: 'SIGKILL' }],
    [3, { kind: 'signal', signal: 'SIGUSR1' }],
  ]);
}

function plan(rng: Rng, id: number, event: EventName, matcher: string | null): Omit<Plan, 'command'> {
  const oddity = rng.weighted<'none' | 'hang' | 'stdout' | 'stderr'>([
    [94, 'none'],
    [2, 'hang'],
    [2, 'stdout'],
    [2, 'stderr'],
  ]);
  return {
    id,
    lang: rng.chance(0.5) ? 'bash' : 'python',
    event,
    matcher,
    failClosed: rng.chance(event === 'pre_tool_call' ? 0.05 : 0.2),
    // Hooks that do not hang get a timeout they cannot reach even on a loaded machine.
    timeout: oddity === 'hang' ? 1 : rng.int(60, 300),
    readsStdin: rng.chance(0.4),
    stdout: stdoutFor(rng, event),
    stderr: stderrFor(rng),
    overflow: oddity === 'stdout' || oddity === 'stderr' ? oddity : null,
    // Half the overflowing hooks write without end (by id: the PRNG sequence stays as it was).
    flood: (oddity === 'stdout' || oddity === 'stderr') && id % 2 === 0,
    hang: oddity === 'hang',
    sleepMs: rng.chance(0.3) ? rng.int(1, 200) : 0,
    end: endFor(rng, event),
  };
}

const CAP = 1024 * 1024;
const CAP_PLUS = 3 * CAP;

function writeHook(dir: string, p: Omit<Plan, 'command'>, python: string): string {
  const out = join(dir, `h${p.id}.out`);
  const err = join(dir, `h${p.id}.err`);
  writeFileSync(out, p.stdout);
  writeFileSync(err, p.stderr);
  const file = join(dir, `h${p.id}.${p.lang === 'bash' ? 'sh' : 'py'}`);
  if (p.lang === 'bash') {
    const lines = ['#!/bin/bash'];
    if (p.readsStdin) lines.push('cat >/dev/null');
    lines.push(`cat '${out}'`, `cat '${err}' >&2`);
    if (p.overflow) lines.push(`${p.flood ? 'cat' : `head -c ${CAP_PLUS}`} /dev/zero${p.overflow === 'stderr' ? ' >&2' : ''}`);
    if (p.sleepMs) lines.push(`sleep ${(p.sleepMs / 1000).toFixed(3)}`);
    if (p.hang) lines.push('sleep 30');
    if (p.end.kind === 'exit') lines.push(`exit ${p.end.code}`);
    else lines.push(`kill -s ${p.end.signal.slice(3)} $$`, 'sleep 5', 'exit 99');
    script(file, lines.join('\n') + '\n');
  } else {
    const lines = [`#!${python}`, 'import os, signal, sys, time', 'def w(fd, data):', '    while data:', '        data = data[os.write(fd, data):]'];
    if (p.readsStdin) lines.push('sys.stdin.buffer.read()');
    lines.push(`w(1, open(${JSON.stringify(out)}, "rb").read())`, `w(2, open(${JSON.stringify(err)}, "rb").read())`);
    if (p.overflow && p.flood) lines.push(`while True: w(${p.overflow === 'stdout' ? 1 : 2}, b"x" * 65536)`);
    else if (p.overflow) lines.push(`w(${p.overflow === 'stdout' ? 1 : 2}, b"x" * ${CAP_PLUS})`);
    if (p.sleepMs) lines.push(`time.sleep(${p.sleepMs / 1000})`);
    if (p.hang) lines.push('time.sleep(30)');
    if (p.end.kind === 'exit') lines.push(`os._exit(${p.end.code})`);
    else lines.push(`os.kill(os.getpid(), signal.${p.end.signal})`, 'time.sleep(5)', 'os._exit(99)');
    script(file, lines.join('\n') + '\n');
  }
  return file;
}

// ---------------------------------------------------------------------------------------------
// The oracle: what the pure evaluator says about what the script was generated to do

function expectedStatus(p: Plan): HookOutcomeStatus {
  if (p.flood) return 'output_limit';
  if (p.hang) return 'timeout';
  if (p.end.kind === 'signal') return 'nonzero_exit';
  return p.end.code === 0 ? 'ok' : 'nonzero_exit';
}

/** What a stream of a hook that ran to its end wrote: its planned bytes, then 3 MiB of padding on the overflowing one. */
function written(p: Plan, stream: 'stdout' | 'stderr'): Buffer {
  if (p.overflow !== stream) return p[stream];
  return Buffer.concat([p[stream], Buffer.alloc(CAP_PLUS, p.lang === 'bash' ? 0 : 'x')]);
}

/** Kept: the first CAP bytes, decoded; dropped: the rest, counted. */
function captured(p: Plan, stream: 'stdout' | 'stderr'): { text: string; dropped: number } {
  const bytes = written(p, stream);
  return { text: bytes.subarray(0, CAP).toString('utf8'), dropped: Math.max(0, bytes.length - CAP) };
}

function expectedRecord(p: Plan): RunRecord {
  const status = expectedStatus(p);
  return {
    status: status as RunRecord['status'],
    exit_code: status === 'ok' || status === 'nonzero_exit' ? (p.end.kind === 'exit' ? p.end.code : null) : null,
    signal: status === 'nonzero_exit' && p.end.kind === 'signal' ? p.end.signal : null,
    stdout: p.flood ? '' : captured(p, 'stdout').text,
    stderr: p.flood ? '' : captured(p, 'stderr').text,
    stdout_dropped_bytes: p.flood ? 0 : captured(p, 'stdout').dropped,
    error: null,
    duration_ms: 0,
    timeout: p.timeout,
  };
}

function predictedDirective(p: Plan): Directive | null {
  return evaluateRun({ event: p.event, command: p.command, fail_closed: p.failClosed && p.event === 'pre_tool_call', timeout: p.timeout }, expectedRecord(p));
}

/** Python re.fullmatch of the few matchers used here. */
function matches(matcher: string | null, tool: string): boolean {
  return matcher === null || new RegExp(`^(?:${matcher})$`).test(tool);
}

// ---------------------------------------------------------------------------------------------

interface EmitPlan {
  event: EventName;
  kwargs: Record<string, unknown>;
  tool: string | null;
}

describe('500 random hooks through the engine', () => {
  it(`every outcome and decision equals what the pure evaluator predicts (seed ${SEED})`, async () => {
    const rng = new Rng(SEED);
    const python = realPython();
    const dir = tempDir('random');
    const plans: Plan[] = [];
    const add = (event: EventName, matcher: string | null): void => {
      const p = plan(rng, plans.length, event, matcher);
      plans.push({ ...p, command: writeHook(dir, p, python) });
    };
    // pre_tool_call: 25 groups of 4 to 26 hooks (300 in all), one emit per group via the matcher.
    const sizes = [...Array.from({ length: 24 }, (_, g) => [4, 6, 8, 10, 12, 14, 16, 26][g % 8] as number), 12];
    const GROUPS = sizes.length;
    sizes.forEach((size, g) => {
      for (let i = 0; i < size; i++) add('pre_tool_call', `tool_${g}`);
    });
    for (let i = 0; i < 40; i++) add('post_tool_call', rng.pick([null, 'term.*', 'other|nothing']));
    for (let i = 0; i < 50; i++) add('pre_llm_call', null);
    for (let i = 0; i < 40; i++) add('pre_verify', null);
    for (let i = 0; i < 35; i++) add('on_session_finalize', null);
    for (let i = 0; i < 35; i++) add('post_gateway_admission', null);
    expect(plans).toHaveLength(500);

    // Config in plan order; commands are distinct paths, so nothing is deduplicated.
    const byEvent = new Map<EventName, Plan[]>();
    for (const p of plans) byEvent.set(p.event, [...(byEvent.get(p.event) ?? []), p]);
    let yaml = 'hooks:\n';
    for (const [event, list] of byEvent) {
      yaml += `  ${event}:\n`;
      for (const p of list) {
        yaml += `    - command: ${JSON.stringify(p.command)}\n      timeout: ${p.timeout}\n`;
        if (p.matcher !== null) yaml += `      matcher: ${JSON.stringify(p.matcher)}\n`;
        if (p.failClosed) yaml += '      fail_closed: true\n';
      }
    }
    const { engine } = await engineFor(yaml, tag);
    expect(engine.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(engine.specs).toHaveLength(500);

    const emits: EmitPlan[] = [];
    for (let g = 0; g < GROUPS; g++) {
      emits.push({
        event: 'pre_tool_call',
        tool: `tool_${g}`,
        kwargs: { tool_name: `tool_${g}`, args: { command: `run ${g}`, a: g }, session_id: `s${g}`, task_id: 't' },
      });
    }
    emits.push({ event: 'post_tool_call', tool: 'terminal', kwargs: { tool_name: 'terminal', args: { command: 'ls' }, result: 'ok', session_id: 'p' } });
    emits.push({ event: 'pre_llm_call', tool: null, kwargs: { session_id: 'l', user_message: 'hi' } });
    emits.push({ event: 'pre_verify', tool: null, kwargs: { session_id: 'v' } });
    emits.push({ event: 'on_session_finalize', tool: null, kwargs: { session_id: 'f' } });
    emits.push({ event: 'post_gateway_admission', tool: null, kwargs: { session_id: 'g', message: 'hello' } });

    // All 30 emits at once: 500 processes through one pool of 16.
    const t0 = performance.now();
    const emissions = await Promise.all(emits.map((e) => engine.emit(e.event, e.kwargs)));
    const elapsed = performance.now() - t0;
    await engine.close({ finalize: false });

    const mismatches: string[] = [];
    const decisions: Decision[] = [];
    const statusCount = new Map<string, number>();
    emits.forEach((e, k) => {
      const emission = emissions[k]!;
      const list = byEvent.get(e.event)!;
      const shell = emission.hooks.filter((h) => h.kind === 'shell');
      if (shell.length !== list.length) {
        mismatches.push(`emit ${k} (${e.event}): ${shell.length} shell hooks, expected ${list.length}`);
        return;
      }
      const predicted: (Directive | null)[] = emission.hooks.map(() => null);
      list.forEach((p, i) => {
        const h = shell[i]!;
        const matched = e.tool === null || matches(p.matcher, e.tool);
        const status = matched ? expectedStatus(p) : 'not_matched';
        const directive = matched ? predictedDirective(p) : null;
        predicted[h.index] = directive;
        statusCount.set(status, (statusCount.get(status) ?? 0) + 1);
        const how = `end ${JSON.stringify(p.end)}, overflow ${p.overflow}, flood ${p.flood}, hang ${p.hang}`;
        const where = `h${p.id} (${p.lang}, ${e.event}${e.tool ? ` tool ${e.tool}` : ''}, ${how})`;
        if (h.command !== p.command) mismatches.push(`${where}: command ${h.command}`);
        if (h.status !== status) mismatches.push(`${where}: status ${h.status}, predicted ${status} (error ${h.error})`);
        if (!isDeepStrictEqual(h.directive, directive)) {
          mismatches.push(`${where}: directive ${short(h.directive)}, predicted ${short(directive)}`);
        }
        if (!matched) return;
        if (h.error !== null) mismatches.push(`${where}: error ${h.error}`);
        // A hook killed at its deadline may not have written everything yet on a starved machine.
        if (!p.flood && !p.hang) {
          // Past the cap: the first 1 MiB kept, the rest counted (issue 29).
          for (const stream of ['stdout', 'stderr'] as const) {
            const want = captured(p, stream);
            if (h[stream] !== want.text) mismatches.push(`${where}: ${stream} differs (${h[stream].length} vs ${want.text.length})`);
            const dropped = h[`${stream}_dropped_bytes`];
            if (dropped !== want.dropped) mismatches.push(`${where}: ${stream}_dropped_bytes ${dropped}, predicted ${want.dropped}`);
          }
        }
        if (status === 'ok' || status === 'nonzero_exit') {
          const rec = expectedRecord(p);
          if (h.exit_code !== rec.exit_code || h.signal !== rec.signal) {
            mismatches.push(`${where}: exit ${h.exit_code}/${h.signal}, predicted ${rec.exit_code}/${rec.signal}`);
          }
        }
      });
      const originalArgs = (e.kwargs.args as JsonObject | undefined) ?? null;
      const expected = resolve(e.event, predicted, originalArgs);
      // The engine (not the pure resolver) names the session of each finalize notification.
      if (e.event === 'on_session_finalize') {
        const session_id = typeof e.kwargs.session_id === 'string' ? e.kwargs.session_id : null;
        expected.notices = (expected.notifications ?? []).map((message) => ({ session_id, session_key: null, message }));
      }
      decisions.push(emission.decision);
      if (!isDeepStrictEqual(emission.decision, expected)) {
        mismatches.push(`emit ${k} (${e.event}${e.tool ? ` ${e.tool}` : ''}): decision ${short(emission.decision)}, predicted ${short(expected)}`);
      }
    });
    expect(mismatches, `seed ${SEED}`).toEqual([]);

    // The generated mix really exercised every outcome and every kind of decision.
    for (const s of ['ok', 'nonzero_exit', 'timeout', 'output_limit', 'not_matched']) expect(statusCount.get(s) ?? 0, s).toBeGreaterThan(0);
    const pre = decisions.slice(0, GROUPS);
    expect(pre.some((d) => d.action === 'block')).toBe(true);
    expect(pre.some((d) => d.action === 'approve')).toBe(true);
    expect(pre.some((d) => d.action === 'allow')).toBe(true);
    expect(pre.some((d) => d.modified_by.length > 1)).toBe(true);
    expect(decisions.some((d) => d.event === 'pre_llm_call' && d.context !== null)).toBe(true);
    // 500 short hooks and a few 1 s timeouts through 16 slots; minutes would mean a stuck pool.
    expect(elapsed).toBeLessThan(120_000);
    expect(await waitNoneLeft(tag, 15_000)).toEqual([]);
  }, 170_000);
});

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 300 ? `${s.slice(0, 300)}…(${s.length})` : s;
}

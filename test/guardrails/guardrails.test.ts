// Realistic tool-call sequences replayed through the guardrails exactly as the engine drives them:
// beforeToolCall at pre_tool_call, then afterToolCall at post_tool_call (status 'blocked' with the
// guardrail's message when it stopped the call).
import { describe, expect, it } from 'vitest';
import { defaultGuardrailsConfig } from '../../src/guardrails/config.js';
import { createToolLoopGuardrails, isFailedToolCall } from '../../src/guardrails/guardrails.js';
import type { GuardrailsConfig, GuardrailVerdict, ToolLoopGuardrails, ToolLoopGuardrailsOptions } from '../../src/guardrails/types.js';

interface Step {
  tool: string;
  args: unknown;
  /** The tool's result (serialised to a JSON string like Hermes does). */
  result?: unknown;
  status?: 'ok' | 'error';
}

function guard(over: Partial<GuardrailsConfig> = {}, opts: ToolLoopGuardrailsOptions = {}): ToolLoopGuardrails {
  return createToolLoopGuardrails({ ...defaultGuardrailsConfig(), ...over }, opts);
}

/** Replay steps in one session; returns each call's verdict (null = nothing said). */
function replay(g: ToolLoopGuardrails, steps: Step[], ctx: { platform?: string; session?: string } = {}): (GuardrailVerdict | null)[] {
  const session = ctx.session ?? 'sess-1';
  return steps.map((s, i) => {
    const pre: Record<string, unknown> = { tool_name: s.tool, args: s.args, task_id: 'task', session_id: session, tool_call_id: `call_${i}` };
    if (ctx.platform !== undefined) pre['platform'] = ctx.platform;
    const verdict = g.beforeToolCall(pre);
    if (verdict?.action === 'stop') {
      g.afterToolCall({
        ...pre,
        result: JSON.stringify({ error: verdict.message }),
        status: 'blocked',
        error_type: 'guardrail_block',
        error_message: verdict.message,
      });
    } else {
      const failed = s.status === 'error';
      g.afterToolCall({
        ...pre,
        result: typeof s.result === 'string' ? s.result : JSON.stringify(s.result ?? { ok: true }),
        status: s.status ?? 'ok',
        error_type: failed ? 'tool_error' : null,
        error_message: failed ? 'failed' : null,
        duration_ms: 12,
      });
    }
    return verdict;
  });
}

/** Compact view: `-` nothing, `w:<detector>:<count>`, `S:<detector>:<count>`. */
function view(vs: (GuardrailVerdict | null)[]): string[] {
  return vs.map((v) => (v === null ? '-' : `${v.action === 'stop' ? 'S' : 'w'}:${v.detector}:${v.count}`));
}

const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

// --- realistic sequences ---------------------------------------------------------------------

/** The model re-runs the same failing build command. */
const buildFails = (n: number): Step[] =>
  repeat(n, () => ({
    tool: 'terminal',
    args: { command: 'npm run build', timeout: 120 },
    result: { output: "src/app.ts(3,1): error TS2304: Cannot find name 'foo'.", exit_code: 2, error: 'command failed with exit code 2' },
    status: 'error',
  }));

/** The model keeps re-reading the same unchanged file. */
const rereads = (n: number): Step[] =>
  repeat(n, () => ({
    tool: 'read_file',
    args: { path: 'src/config.ts', offset: 1, limit: 200 },
    result: { content: 'export const port = 8080;\n', total_lines: 1 },
  }));

/** The model guesses paths that do not exist, a different one each time. */
const pathGuesses = (n: number): Step[] =>
  repeat(n, (i) => ({ tool: 'read_file', args: { path: `src/guess-${i}.ts` }, result: { error: `File not found: src/guess-${i}.ts` } }));

/** navigate → snapshot → navigate → … where the snapshot carries a fresh timestamp each time. */
const browserCycle = (rounds: number, from = 0): Step[] =>
  repeat(rounds, (j) => j + from).flatMap((i) => [
    { tool: 'browser_navigate', args: { url: 'https://shop.example/cart' }, result: { ok: true, title: 'Cart' } },
    { tool: 'browser_snapshot', args: {}, result: { ok: true, taken_at: `2026-05-01T10:00:${String(i).padStart(2, '0')}Z`, nodes: 412 } },
  ]);

describe('exact_failure', () => {
  it('interactive cli: warns from the 3rd identical failing attempt and never stops by default', () => {
    const v = replay(guard(), buildFails(8), { platform: 'cli' });
    expect(view(v)).toEqual([
      '-',
      '-',
      'w:exact_failure:2',
      'w:exact_failure:3',
      'w:exact_failure:4',
      'w:exact_failure:5',
      'w:exact_failure:6',
      'w:exact_failure:7',
    ]);
    expect(v[2]!.message).toBe(
      'Tool loop warning (exact_failure): terminal has failed 2 times with the same arguments. Do not repeat this exact call; change the arguments or try a different approach.',
    );
  });

  it('non-interactive telegram: the attempt after 5 identical failures is stopped, and stays stopped', () => {
    const v = replay(guard(), buildFails(7), { platform: 'telegram' });
    expect(view(v)).toEqual(['-', '-', 'w:exact_failure:2', 'w:exact_failure:3', 'w:exact_failure:4', 'S:exact_failure:5', 'S:exact_failure:6']);
    expect(v[5]).toMatchObject({ action: 'stop', detector: 'exact_failure', tool_name: 'terminal', count: 5, threshold: 5 });
    expect(v[5]!.message).toMatch(
      /^Tool loop detected \(exact_failure\): terminal has failed 5 times with the same arguments\. This call was not run\. Stop and end the turn/,
    );
  });

  it('hard_stop_enabled stops on cli too; non_interactive_hard_stop_enabled=false keeps telegram at warnings', () => {
    expect(view(replay(guard({ hard_stop_enabled: true }), buildFails(6), { platform: 'cli' }))[5]).toBe('S:exact_failure:5');
    const off = replay(guard({ non_interactive_hard_stop_enabled: false }), buildFails(7), { platform: 'telegram' });
    expect(off.every((v) => v === null || v.action === 'warn')).toBe(true);
    expect(view(off)[6]).toBe('w:exact_failure:6');
  });

  it('warnings_enabled=false: silence on cli, only the stop on telegram', () => {
    expect(view(replay(guard({ warnings_enabled: false }), buildFails(7), { platform: 'cli' }))).toEqual(repeat(7, () => '-'));
    expect(view(replay(guard({ warnings_enabled: false }), buildFails(7), { platform: 'telegram' }))).toEqual([
      '-',
      '-',
      '-',
      '-',
      '-',
      'S:exact_failure:5',
      'S:exact_failure:6',
    ]);
  });

  it('compares arguments as canonical JSON (key order does not matter)', () => {
    const g = guard();
    const steps: Step[] = [
      { tool: 'terminal', args: { command: 'make', env: { A: '1', B: '2' } }, result: { error: 'boom' } },
      { tool: 'terminal', args: { env: { B: '2', A: '1' }, command: 'make' }, result: { error: 'boom' } },
      { tool: 'terminal', args: { command: 'make', env: { A: '1', B: '2' } }, result: { error: 'boom' } },
    ];
    expect(view(replay(g, steps, { platform: 'cli' }))).toEqual(['-', '-', 'w:exact_failure:2']);
  });

  it('custom thresholds are honoured', () => {
    const g = guard({
      warn_after: { ...defaultGuardrailsConfig().warn_after, exact_failure: 1 },
      hard_stop_after: { ...defaultGuardrailsConfig().hard_stop_after, exact_failure: 2 },
    });
    expect(view(replay(g, buildFails(3), { platform: 'discord' }))).toEqual(['-', 'w:exact_failure:1', 'S:exact_failure:2']);
  });
});

describe('idempotent_no_progress', () => {
  it('warns once the same result came back twice; stops after 5 on telegram, only warns on tui', () => {
    expect(view(replay(guard(), rereads(7), { platform: 'telegram' }))).toEqual([
      '-',
      '-',
      'w:idempotent_no_progress:2',
      'w:idempotent_no_progress:3',
      'w:idempotent_no_progress:4',
      'S:idempotent_no_progress:5',
      'S:idempotent_no_progress:5', // the stopped call never ran: nothing new, still stopped
    ]);
    const tui = replay(guard(), rereads(7), { platform: 'tui' });
    expect(view(tui)[5]).toBe('w:idempotent_no_progress:5');
    expect(tui[5]!.message).toContain('read_file has returned the same result 5 times for the same arguments');
  });

  it('a different result for the same call is progress and restarts the count', () => {
    const steps: Step[] = [
      ...rereads(3),
      { tool: 'write_file', args: { path: 'src/config.ts', content: 'export const port = 9090;\n' }, result: { ok: true, bytes: 26 } },
      { tool: 'read_file', args: { path: 'src/config.ts', offset: 1, limit: 200 }, result: { content: 'export const port = 9090;\n', total_lines: 1 } },
      { tool: 'read_file', args: { path: 'src/config.ts', offset: 1, limit: 200 }, result: { content: 'export const port = 9090;\n', total_lines: 1 } },
    ];
    expect(view(replay(guard(), steps, { platform: 'telegram' }))).toEqual(['-', '-', 'w:idempotent_no_progress:2', '-', '-', '-']);
  });
});

describe('same_tool_failure', () => {
  it('one tool failing with different arguments: warned from the 4th call, stopped after 8 failures', () => {
    const v = replay(guard(), pathGuesses(10), { platform: 'slack' });
    expect(view(v)).toEqual([
      '-',
      '-',
      '-',
      'w:same_tool_failure:3',
      'w:same_tool_failure:4',
      'w:same_tool_failure:5',
      'w:same_tool_failure:6',
      'w:same_tool_failure:7',
      'S:same_tool_failure:8',
      'S:same_tool_failure:9',
    ]);
    expect(v[8]!.message).toContain('Tool loop detected (same_tool_failure): read_file has failed 8 times in a row (with any arguments)');
    expect(view(replay(guard(), pathGuesses(10), { platform: 'cli' }))[8]).toBe('w:same_tool_failure:8');
  });

  it('a success of that tool resets it; another tool failing does not add to it', () => {
    const steps: Step[] = [
      ...pathGuesses(3),
      { tool: 'search_files', args: { pattern: 'guess' }, result: { error: 'ripgrep missing' } },
      { tool: 'read_file', args: { path: 'README.md' }, result: { content: '# hi' } },
      ...pathGuesses(3).map((s) => ({ ...s, args: { path: `lib/${(s.args as { path: string }).path}` } })),
    ];
    // search_files is another tool (no verdict); the next read_file, whatever its path, is warned.
    expect(view(replay(guard(), steps, { platform: 'telegram' }))).toEqual(['-', '-', '-', '-', 'w:same_tool_failure:3', '-', '-', '-']);
  });
});

describe('cycle', () => {
  it('navigate/snapshot ping-pong with changing snapshots: warned after 3 rounds, stopped after 5 on telegram', () => {
    const v = replay(guard(), browserCycle(6), { platform: 'telegram' });
    expect(view(v)).toEqual(['-', '-', '-', '-', '-', '-', 'w:cycle:3', 'w:cycle:3', 'w:cycle:4', 'w:cycle:4', 'S:cycle:5', 'S:cycle:5']);
    expect(v[6]!.message).toBe(
      'Tool loop warning (cycle): the same sequence of 2 calls (browser_navigate → browser_snapshot) has repeated 3 times. Break the cycle: do something different or summarise what is blocking you.',
    );
    expect(v[10]!.message).toContain('Tool loop detected (cycle): the same sequence of 2 calls (browser_navigate → browser_snapshot) has repeated 5 times');
  });

  it('on cli the same cycle is only warned', () => {
    const v = replay(guard(), browserCycle(6), { platform: 'cli' });
    expect(v.filter((x) => x?.action === 'stop')).toEqual([]);
    expect(view(v)[10]).toBe('w:cycle:5');
  });

  it('finds longer periods (search → open → back)', () => {
    // Each result carries a request id, so no single call repeats its result.
    const steps: Step[] = repeat(6, (i) => [
      { tool: 'web_search', args: { q: 'hermes hooks' }, result: { results: 3, request_id: `s${i}` } },
      { tool: 'web_open', args: { url: 'https://a.example' }, result: { status: 403, request_id: `o${i}` } },
      { tool: 'browser_back', args: {}, result: { ok: true, request_id: `b${i}` } },
    ]).flat();
    const v = view(replay(guard(), steps, { platform: 'webhook' }));
    expect(v.slice(0, 9)).toEqual(repeat(9, () => '-'));
    expect(v[9]).toBe('w:cycle:3');
    expect(v[15]).toBe('S:cycle:5');
  });

  it('a new distinct call breaks the cycle and the count starts over', () => {
    const steps = [...browserCycle(3), { tool: 'browser_click', args: { ref: 'checkout' }, result: { ok: true } }, ...browserCycle(3, 10)];
    const v = view(replay(guard(), steps, { platform: 'telegram' }));
    expect(v.slice(0, 7)).toEqual(repeat(7, () => '-'));
    expect(v.slice(7, 13)).toEqual(['-', '-', '-', '-', '-', '-']);
  });
});

describe('progress never stops (telegram, hard_stop_enabled)', () => {
  const strict = (): ToolLoopGuardrails => guard({ hard_stop_enabled: true });

  it('edit → run tests → edit … with changing edits and changing failures', () => {
    const steps: Step[] = [];
    for (let i = 0; i < 12; i++) {
      steps.push({ tool: 'read_file', args: { path: 'src/parser.ts' }, result: { content: `v${i}` } });
      steps.push({ tool: 'patch', args: { path: 'src/parser.ts', old: `v${i}`, new: `v${i + 1}` }, result: { ok: true } });
      steps.push({
        tool: 'terminal',
        args: { command: 'npx vitest run test/parser.test.ts' },
        result: { output: `${12 - i} failed`, exit_code: 1, error: `${12 - i} tests failed` },
        status: 'error',
      });
    }
    const v = replay(strict(), steps, { platform: 'telegram' });
    expect(v.filter((x) => x?.action === 'stop')).toEqual([]);
    expect(v.filter((x) => x !== null)).toEqual([]);
  });

  it('a flaky call that fails twice and then succeeds: one warning, then a clean slate', () => {
    const curl = { command: 'curl -sf https://api.example/health' };
    const steps: Step[] = [
      { tool: 'terminal', args: curl, result: { error: 'curl: (7) Failed to connect' }, status: 'error' },
      { tool: 'terminal', args: curl, result: { error: 'curl: (7) Failed to connect' }, status: 'error' },
      { tool: 'terminal', args: curl, result: { output: '{"status":"up"}', exit_code: 0 } },
      { tool: 'terminal', args: { command: 'npm run deploy' }, result: { output: 'deployed v2' } },
      { tool: 'terminal', args: curl, result: { output: '{"status":"up","version":2}', exit_code: 0 } },
    ];
    expect(view(replay(strict(), steps, { platform: 'telegram' }))).toEqual(['-', '-', 'w:exact_failure:2', '-', '-']);
  });

  it('exploring a codebase: many distinct reads and searches', () => {
    const steps: Step[] = repeat(40, (i) =>
      i % 3 === 0
        ? { tool: 'search_files', args: { pattern: `symbol${i}` }, result: { matches: i } }
        : { tool: 'read_file', args: { path: `src/file${i}.ts` }, result: { content: `// ${i}` } },
    );
    expect(replay(strict(), steps, { platform: 'telegram' }).filter((x) => x !== null)).toEqual([]);
  });

  it('repeated status checks whose answers change (a build finishing)', () => {
    const steps: Step[] = repeat(8, (i) => ({ tool: 'terminal', args: { command: 'git status --short' }, result: { output: `M file${i}.ts` } }));
    expect(replay(strict(), steps, { platform: 'telegram' }).filter((x) => x !== null)).toEqual([]);
  });
});

describe('sessions, platforms and bounds', () => {
  it('counters are per session; resetSession forgets one', () => {
    const g = guard();
    replay(g, buildFails(5), { platform: 'telegram', session: 'a' });
    expect(view(replay(g, buildFails(1), { platform: 'telegram', session: 'b' }))).toEqual(['-']);
    expect(view(replay(g, buildFails(1), { platform: 'telegram', session: 'a' }))).toEqual(['S:exact_failure:5']);
    g.resetSession('a');
    expect(view(replay(g, buildFails(1), { platform: 'telegram', session: 'a' }))).toEqual(['-']);
  });

  it('a missing platform is interactive, unless the session reported one or a default is given', () => {
    expect(replay(guard(), buildFails(7)).some((v) => v?.action === 'stop')).toBe(false);
    expect(view(replay(guard({}, { defaultPlatform: 'telegram' }), buildFails(6)))[5]).toBe('S:exact_failure:5');
    const g = guard();
    replay(g, buildFails(1), { platform: 'Telegram' });
    expect(view(replay(g, buildFails(5)))[4]).toBe('S:exact_failure:5');
    for (const p of ['cli', 'tui', 'desktop', 'acp', 'CLI']) {
      expect(
        replay(guard(), buildFails(7), { platform: p }).some((v) => v?.action === 'stop'),
        p,
      ).toBe(false);
    }
  });

  it('failure = status error/blocked or a truthy "error" in the JSON result', () => {
    expect(isFailedToolCall({ status: 'error', result: '{}' })).toBe(true);
    expect(isFailedToolCall({ status: 'blocked', result: '{"error":"Blocked by shell hook."}' })).toBe(true);
    expect(isFailedToolCall({ status: 'ok', result: '{"error":"No such file"}' })).toBe(true);
    expect(isFailedToolCall({ status: 'ok', result: '{"error":null,"output":"x"}' })).toBe(false);
    expect(isFailedToolCall({ status: 'ok', result: '{"output":"error: appears in text"}' })).toBe(false);
    expect(isFailedToolCall({ status: 'ok', result: 'not json' })).toBe(false);
    expect(isFailedToolCall({ result: ['error'] })).toBe(false);
  });

  it('calls blocked by another hook count as failures of that exact call', () => {
    const g = guard();
    const pre = { tool_name: 'terminal', args: { command: 'rm -rf /' }, session_id: 's', platform: 'telegram' };
    for (let i = 0; i < 5; i++) {
      g.beforeToolCall(pre);
      g.afterToolCall({ ...pre, result: '{"error":"Blocked by shell hook."}', status: 'blocked' });
    }
    expect(g.beforeToolCall(pre)).toMatchObject({ action: 'stop', detector: 'exact_failure', count: 5 });
  });

  it('ignores calls without a tool name and odd kwargs without throwing', () => {
    const g = guard();
    expect(g.beforeToolCall({})).toBeNull();
    g.afterToolCall({ args: { a: 1 } });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => g.afterToolCall({ tool_name: 't', args: cyclic, result: undefined, session_id: 's' })).not.toThrow();
    expect(() => g.beforeToolCall({ tool_name: 't', args: cyclic, session_id: 's', platform: 42 })).not.toThrow();
  });

  it('memory is bounded: least recently used sessions are forgotten', () => {
    const g = guard({}, { maxSessions: 3 });
    replay(g, buildFails(5), { platform: 'telegram', session: 'old' });
    for (const s of ['s1', 's2', 's3']) replay(g, rereads(1), { platform: 'telegram', session: s });
    expect(view(replay(g, buildFails(1), { platform: 'telegram', session: 'old' }))).toEqual(['-']);
  });

  it('a long session stays cheap (history is bounded)', () => {
    const g = guard();
    const steps: Step[] = repeat(5000, (i) => ({ tool: 'read_file', args: { path: `f${i}` }, result: { content: String(i) } }));
    const started = performance.now();
    expect(replay(g, steps, { platform: 'telegram' }).filter((x) => x !== null)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(20_000); // generous: proves no quadratic blow-up
  });
});

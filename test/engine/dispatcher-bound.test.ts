// Hermes' dispatcher bound over shell hooks (reference §4.1, §10.11): on the events Hermes bounds,
// a shell hook still running at plugins.hook_callback_timeout is abandoned — pre_tool_call blocks
// with Hermes' message whatever the hook's own fail_closed, observers skip it — and it is then
// suppressed for 60 s (per tool). Real hook scripts (bash: see slow-for.sh), real timeouts.

import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { capture, tempHome, testEngine } from './_helpers.js';

const SLOW = resolve(import.meta.dirname, '../fixtures/cli/hooks/slow-for.sh');
const MESSAGE = 'pre_tool_call plugin callback timed out or is still running';

function home(config: string): string {
  const dir = tempHome('hh-bound-');
  writeFileSync(join(dir, 'config.yaml'), config);
  return dir;
}

describe("Hermes' dispatcher bound over shell hooks", () => {
  it("pre_tool_call: a hook with timeout 60 still running at the 1 s bound blocks with Hermes' message though not fail_closed, then is suppressed per tool", async () => {
    const dir = home(
      `plugins:\n  hook_callback_timeout: 1\nhooks:\n  pre_tool_call:\n    - command: ${SLOW} 5 slow\n      timeout: 60\n      fail_closed: false\n`,
    );
    const logger = capture();
    const engine = await testEngine(dir, { logger });
    const t0 = performance.now();
    const first = await engine.emit('pre_tool_call', { tool_name: 'slow', args: {} });
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(2500);
    expect(first.hooks[0]).toMatchObject({
      kind: 'shell',
      status: 'timeout',
      timeout: 60,
      fail_closed: false,
      error:
        "Hermes' dispatcher bound: still running after plugins.hook_callback_timeout 1s; abandoned (it runs on to its own timeout), the tool call is blocked (fail closed); suppressed for 60s",
      directive: { action: 'block', message: MESSAGE },
    });
    expect(first.decision).toMatchObject({ action: 'block', message: MESSAGE, decided_by: 0 });
    expect(logger.lines).toContain(`shell hook (event=pre_tool_call command=${SLOW} 5 slow): ${first.hooks[0]!.error}`);

    // Suppressed: blocks at once without running (its abandoned run is also still going).
    const t1 = performance.now();
    const again = await engine.emit('pre_tool_call', { tool_name: 'slow', args: {} });
    expect(performance.now() - t1).toBeLessThan(500);
    expect(again.hooks[0]).toMatchObject({ status: 'suppressed', directive: { action: 'block', message: MESSAGE } });
    expect(again.hooks[0]!.error).toBe(
      "Hermes' dispatcher bound: not run, its earlier run timed out and is still running; the tool call is blocked (fail closed)",
    );
    expect(again.decision).toMatchObject({ action: 'block', message: MESSAGE });

    // Another tool is not suppressed: the hook runs and answers.
    const other = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: {} });
    expect(other.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0 });
    expect(other.decision.action).toBe('allow');
  });

  it('a hook that answers within the bound is not affected; hook_callback_timeout: 0 lifts the bound', async () => {
    const within = await testEngine(
      home(`plugins:\n  hook_callback_timeout: 2\nhooks:\n  pre_tool_call:\n    - command: ${SLOW} 0.3 slow '{"action":"block","message":"own answer"}'\n`),
    );
    expect((await within.emit('pre_tool_call', { tool_name: 'slow', args: {} })).decision).toMatchObject({ action: 'block', message: 'own answer' });
    const unbounded = await testEngine(home(`plugins:\n  hook_callback_timeout: 0\nhooks:\n  pre_tool_call:\n    - command: ${SLOW} 1.3 slow\n`));
    const e = await unbounded.emit('pre_tool_call', { tool_name: 'slow', args: {} });
    expect(e.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0 });
    expect(e.decision.action).toBe('allow');
  });

  it('a bounded observer (post_tool_call) is skipped at the bound; an unbounded event (on_session_finalize) runs to the end', async () => {
    const dir = home(
      `plugins:\n  hook_callback_timeout: 1\nhooks:\n  post_tool_call:\n    - command: ${SLOW} 5 slow\n  on_session_finalize:\n    - command: ${SLOW} 1.5 on_session_finalize '{"message":"done after 1.5 s"}'\n`,
    );
    const engine = await testEngine(dir);
    const post = await engine.emit('post_tool_call', { tool_name: 'slow', args: {}, result: 'x' });
    expect(post.hooks[0]).toMatchObject({ status: 'timeout', directive: null });
    expect(post.hooks[0]!.error).toBe(
      "Hermes' dispatcher bound: still running after plugins.hook_callback_timeout 1s; abandoned (it runs on to its own timeout), its result is skipped; suppressed for 60s",
    );
    expect(post.decision.action).toBe('allow');
    const fin = await engine.finalizeSession({ session_id: 's' });
    expect(fin.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0 });
    expect(fin.decision.notifications).toEqual(['done after 1.5 s']);
  });

  it('test --json reports the bound: status timeout, the dispatcher error, and the block', async () => {
    const dir = home(`plugins:\n  hook_callback_timeout: 1\nhooks:\n  pre_tool_call:\n    - command: ${SLOW} 5 slow\n`);
    const r = await runMain(['test', 'pre_tool_call', '--home', dir, '--json'], { stdin: '{"tool_name":"slow","tool_input":{}}' });
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.hooks[0]).toMatchObject({ status: 'timeout', timeout: 60, fail_closed: false, directive: { action: 'block', message: MESSAGE } });
    expect(report.hooks[0].error).toMatch(/^Hermes' dispatcher bound: still running after plugins\.hook_callback_timeout 1s; /);
    expect(report.decision).toMatchObject({ action: 'block', message: MESSAGE, decided_by: 0 });
  });
});

// Issue 33: an event with no hook costs nothing, and a printed wiring stays safe when edited. Real
// CLI processes: print-config wires only the events the profile needs, doctor --agent says when a
// hook added later sits on an unwired event (with the re-wire command), every Claude gate carries
// onFailure: block, and a timeout lowered under the client's deadline is ✗.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUT_S } from '../../src/deadlines.js';
import { baseEnv, cleanupTemps, makeHome, runBin, tempDir } from '../cli/_helpers.js';

afterAll(cleanupTemps);

const GUARDRAILS_OFF = 'tool_loop_guardrails:\n  warnings_enabled: false\n  hard_stop_enabled: false\n  non_interactive_hard_stop_enabled: false\n';
const PRE_ONLY = `hooks:\n  pre_tool_call:\n    - command: /bin/true\n${GUARDRAILS_OFF}`;

type Hooks = Record<string, { hooks?: Record<string, unknown>[] }[]>;

async function printConfig(hh: string, ...args: string[]): Promise<{ hooks: Hooks; stderr: string }> {
  const r = await runBin(['print-config', ...args, '--home', hh]);
  expect(r.stderr).not.toMatch(/^Error/m);
  expect(r.code).toBe(0);
  return { hooks: (JSON.parse(r.stdout) as { hooks: Hooks }).hooks, stderr: r.stderr };
}

async function doctorClaude(hh: string, home: string, project: string) {
  const r = await runBin(['doctor', '--agent', 'claude', '--home', hh, '--project', project, '--json'], { env: baseEnv({ HOME: home }) });
  const report = JSON.parse(r.stdout) as {
    general: { ok: boolean | null; message: string }[];
    entries: { event: string; checks: { ok: boolean | null; message: string }[] }[];
  };
  return { code: r.code, general: report.general, entries: report.entries };
}

describe('print-config wires only what the profile needs', () => {
  it('a profile with only a pre_tool_call guard (guardrails off): no PostToolUse, and the notes say what is wired and why', async () => {
    const hh = makeHome(PRE_ONLY);
    for (const wiring of [[], ['--run'], ['--http']]) {
      const { hooks, stderr } = await printConfig(hh, 'claude', ...wiring);
      // --http: the prompt stays on the client, which starts serve again when none answers.
      const http = wiring[0] === '--http' ? ['UserPromptSubmit'] : [];
      expect([wiring, Object.keys(hooks)]).toEqual([wiring, ['PreToolUse', ...http, 'SessionStart']]);
      expect(stderr).toContain("pre_tool_call: the profile's pre_tool_call hooks");
      expect(stderr).toContain("on_session_start: the start-of-session summary of the profile's problems");
      expect(stderr).toContain(`Re-wire: hermes-hooks print-config claude --home ${hh}${wiring.length ? ` ${wiring[0]}` : ''}`);
    }
    for (const agent of ['codex', 'gemini', 'cursor']) {
      const { hooks } = await printConfig(hh, agent);
      expect([agent, Object.keys(hooks).some((e) => /^(PostToolUse|AfterTool|postToolUse)/.test(e))]).toEqual([agent, false]);
    }
  });

  it('the guardrails on (their default) wire post_tool_call too, said; a plugin wires every event', async () => {
    const on = await printConfig(makeHome('hooks:\n  pre_tool_call:\n    - command: /bin/true\n'), 'claude');
    expect(Object.keys(on.hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart']);
    expect(on.stderr).toContain("post_tool_call: the tool-loop guardrails, which count each call's result");
    const plugins = await printConfig(makeHome(`${PRE_ONLY}plugins:\n  enabled: [some-plugin]\n`), 'claude');
    expect(Object.keys(plugins.hooks)).toContain('SubagentStop');
    expect(plugins.stderr).toContain('Wired: every event (plugins some-plugin are enabled and their hooks are known only once loaded).');
  });

  it('every Claude gate entry carries onFailure: block (client, --run, --http); no other event does', async () => {
    const hh = makeHome('hooks:\n  pre_tool_call:\n    - command: /bin/true\n  pre_verify:\n    - command: /bin/true\n');
    for (const wiring of [[], ['--run'], ['--http']]) {
      const { hooks } = await printConfig(hh, 'claude', ...wiring);
      expect([wiring, hooks['PreToolUse']![0]!.hooks![0]!['onFailure']]).toEqual([wiring, 'block']);
      expect([wiring, hooks['Stop']![0]!.hooks![0]!['onFailure']]).toEqual([wiring, undefined]);
    }
  });
});

describe('doctor --agent after the profile changed', () => {
  function place(): { home: string; project: string } {
    const root = tempDir('hh-wire-');
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    mkdirSync(home);
    return { home, project };
  }

  it('a post_tool_call hook added after wiring is flagged with the re-wire command; re-wiring clears it', async () => {
    const hh = makeHome(PRE_ONLY);
    const { home, project } = place();
    const settings = join(project, '.claude/settings.json');
    writeFileSync(settings, (await runBin(['print-config', 'claude', '--home', hh])).stdout);
    const before = await doctorClaude(hh, home, project);
    expect(before.code).toBe(0);
    expect(before.general.filter((c) => /is not wired/.test(c.message))).toEqual([]);

    writeFileSync(
      join(hh, 'config.yaml'),
      `hooks:\n  pre_tool_call:\n    - command: /bin/true\n  post_tool_call:\n    - command: /bin/true\n${GUARDRAILS_OFF}`,
    );
    const after = await doctorClaude(hh, home, project);
    const rewire = `re-wire: hermes-hooks print-config claude --home ${hh}`;
    expect(after.general.filter((c) => /is not wired/.test(c.message))).toEqual([
      {
        ok: null,
        message: `PostToolUse is not wired (post_tool_call: the profile's post_tool_call hooks): Claude Code never sends it to hermes-hooks — ${rewire}`,
      },
      {
        ok: null,
        message: `PostToolUseFailure is not wired (post_tool_call: the profile's post_tool_call hooks): Claude Code never sends it to hermes-hooks — ${rewire}`,
      },
    ]);

    writeFileSync(settings, (await runBin(['print-config', 'claude', '--home', hh])).stdout);
    expect((await doctorClaude(hh, home, project)).general.filter((c) => /is not wired/.test(c.message))).toEqual([]);
  });

  it('a gate whose timeout is lowered under the client deadline is ✗; one without onFailure is warned', async () => {
    const hh = makeHome(PRE_ONLY);
    const { home, project } = place();
    const settings = join(project, '.claude/settings.json');
    const printed = (await runBin(['print-config', 'claude', '--home', hh])).stdout;
    const json = JSON.parse(printed) as { hooks: Hooks };
    const gate = json.hooks['PreToolUse']![0]!.hooks![0]!;
    gate['timeout'] = 100;
    writeFileSync(settings, JSON.stringify(json));
    const low = await doctorClaude(hh, home, project);
    expect(low.code).toBe(1);
    expect(low.entries.find((e) => e.event === 'PreToolUse')!.checks.filter((c) => c.ok === false)).toEqual([
      {
        ok: false,
        message:
          `Claude Code stops the hook after 100 s, before the client's own ${CLIENT_TIMEOUT_S} s deadline for serve: a frozen serve lets the call go ` +
          `ahead — set "timeout": ${(JSON.parse(printed) as { hooks: Hooks }).hooks['PreToolUse']![0]!.hooks![0]!['timeout']}`,
      },
    ]);

    delete gate['onFailure'];
    gate['timeout'] = (JSON.parse(printed) as { hooks: Hooks }).hooks['PreToolUse']![0]!.hooks![0]!['timeout'];
    writeFileSync(settings, JSON.stringify(json));
    const open = await doctorClaude(hh, home, project);
    expect(open.code).toBe(0);
    expect(open.entries.find((e) => e.event === 'PreToolUse')!.checks).toContainEqual({
      ok: null,
      message: 'no "onFailure": "block" — if the command cannot start or times out, Claude Code lets the call through (add it, or re-wire)',
    });
  });
});

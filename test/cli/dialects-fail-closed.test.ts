// Issue 16: `run --dialect X` fails closed when hermes-hooks itself cannot decide. On a tool-gate
// event every agent gets ITS block (format and exit code), read back by that agent's rules
// (dialects-helpers agentReads); `--fail-open` and events that cannot block exit 1 with the message.
// In-process main() for the table; one real binary round trip per agent.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanupTemps, jsonError, makeHome, runMain, tempDir } from './_helpers.js';
import { agentReads, agentStdin, assertBuilt, cliBin, removeTempDirs, type Agent, type Json } from './dialects-helpers.js';

vi.setConfig({ testTimeout: 60_000 });
afterAll(() => {
  cleanupTemps();
  removeTempDirs();
});

const AGENTS: Agent[] = ['claude', 'codex', 'gemini', 'cursor'];
const SAMPLE: Record<Agent, string> = {
  claude: 'claude-PreToolUse-Bash',
  codex: 'codex-PreToolUse',
  gemini: 'gemini-BeforeTool-shell',
  cursor: 'cursor-beforeShellExecution',
};
const eventOf = (agent: Agent): string => agentStdin(SAMPLE[agent])['hook_event_name'] as string;
const TAIL = ' (fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide)';
const reasonFor = (problem: string): string => `hermes-hooks cannot decide, so it blocks this call: ${problem}${TAIL}`;

let brokenHome: string;
let dirConfig: string;
beforeAll(() => {
  brokenHome = makeHome('hooks:\n  pre_tool_call: [\n');
  dirConfig = tempDir('hh-dirconfig-');
  mkdirSync(join(dirConfig, 'sub'));
});

const yamlProblem = (): string =>
  `cannot use config: ${join(brokenHome, 'config.yaml')}:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]`;

async function runAs(agent: Agent, extra: string[], stdin: string | Json = agentStdin(SAMPLE[agent])) {
  const event = eventOf(agent);
  const r = await runMain(['run', event, '--dialect', agent, ...extra], { stdin: typeof stdin === 'string' ? stdin : JSON.stringify(stdin) });
  return { r, verdict: agentReads(agent, event, r) };
}

describe.each(AGENTS)('%s: hermes-hooks cannot decide on a tool gate → the agent blocks', (agent) => {
  it('a config with a YAML syntax error', async () => {
    const { r, verdict } = await runAs(agent, ['--home', brokenHome]);
    expect(verdict).toEqual({ kind: 'block', reason: reasonFor(yamlProblem()) });
    expect(r.code).toBe(agent === 'codex' ? 2 : 0);
    // Codex reads all of stderr as the reason; the others get the problem on stderr too.
    expect(r.stderr).toBe(agent === 'codex' ? `${reasonFor(yamlProblem())}\n` : `hermes-hooks: ${yamlProblem()}\n`);
  });

  it('a directory given as the config file', async () => {
    const { verdict } = await runAs(agent, ['--config', dirConfig]);
    expect(verdict).toEqual({ kind: 'block', reason: reasonFor(`cannot use config: ${dirConfig}: cannot read config file: it is a directory`) });
  });

  it('agent stdin that is not JSON', async () => {
    const { verdict } = await runAs(agent, ['--home', makeHome('hooks: {}\n')], '{"hook_event_name": ');
    expect(verdict).toEqual({ kind: 'block', reason: reasonFor(`invalid ${agent} hook input on stdin: ${jsonError('{"hook_event_name": ')}`) });
  });

  it('a mistyped option in the hook command', async () => {
    const { verdict } = await runAs(agent, ['--hme', brokenHome]);
    expect(verdict).toEqual({ kind: 'block', reason: reasonFor("run: Unknown option '--hme'") });
  });

  it('--fail-open: exit 1 with the message, which the agent treats as "go ahead"', async () => {
    const { r, verdict } = await runAs(agent, ['--home', brokenHome, '--fail-open']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: ${yamlProblem()} (--fail-open: the call goes ahead unguarded)\n` });
    expect(verdict.kind).not.toBe('block');
  });
});

describe('events that cannot block', () => {
  it('exit 1 with the message (Stop, UserPromptSubmit, a PostToolUse)', async () => {
    for (const [agent, sample] of [
      ['claude', 'claude-Stop'],
      ['codex', 'codex-UserPromptSubmit'],
      ['claude', 'claude-PostToolUse-Write'],
    ] as const) {
      const stdin = agentStdin(sample);
      const r = await runMain(['run', stdin['hook_event_name'] as string, '--dialect', agent, '--home', brokenHome], { stdin: JSON.stringify(stdin) });
      expect(r, sample).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: ${yamlProblem()}\n` });
    }
  });

  it('an event with no Hermes counterpart is an error, not a block', async () => {
    const r = await runMain(['run', 'Notification', '--dialect', 'claude', '--home', makeHome('hooks: {}\n')], { stdin: '{"hook_event_name":"Notification"}' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^hermes-hooks: claude event 'Notification' has no Hermes counterpart \(mapped: PreToolUse, /);
  });

  it('stdin naming a tool gate the command line does not: blocks (either one can block)', async () => {
    const r = await runMain(['run', 'Stop', '--dialect', 'claude', '--home', makeHome('hooks: {}\n')], {
      stdin: JSON.stringify(agentStdin('claude-PreToolUse-Bash')),
    });
    expect(agentReads('claude', 'PreToolUse', r)).toEqual({
      kind: 'block',
      reason: reasonFor("stdin is a 'PreToolUse' event but the command line says 'Stop'"),
    });
  });
});

describe('the real binary, once per agent', () => {
  beforeAll(assertBuilt);
  it.each(AGENTS)('%s: broken config → its block', (agent) => {
    const event = eventOf(agent);
    const r = cliBin(['run', event, '--dialect', agent, '--home', brokenHome], { stdin: agentStdin(SAMPLE[agent]) });
    expect(agentReads(agent, event, r)).toEqual({ kind: 'block', reason: reasonFor(yamlProblem()) });
  });
});

describe('a healthy config is unaffected', () => {
  it('allows with an empty answer (Claude)', async () => {
    const { r, verdict } = await runAs('claude', ['--home', makeHome('hooks: {}\n')]);
    expect(verdict).toEqual({ kind: 'allow' });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

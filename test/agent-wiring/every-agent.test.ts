// Every agent in the registry, through every consumer: an agent added as one file (its record and its
// registry line) is complete, or this test names what is missing. Nothing here names an agent: each
// step reads the record (its gate, its stdin through renderStdin, its answers through readRun, its
// block example, its files) and drives the real CLI, serve and both bundled clients with it.
//   stdin        what its renderStdin writes (for the hooks it runs) its stdin reading gives back (for run --dialect)
//   import       a guard written in the agent's own protocol (it prints the record's blockOnStdout) → config.yaml → `test` blocks rm
//   print-config the snippet parses; every client command says --gate 1 exactly on the events that gate a tool call
//   doctor       the snippet, put in the first file the agent reads, is healthy (but for the agent's own trust file)
//   run          `run <gate> --dialect X` with the agent's stdin: `rm -rf /` is blocked in its shape, `ls` allowed
//   serve        POST /v1/agent/X/<gate> answers the same, byte for byte
//   clients      the printed command (perl) and the bash client give the same through serve; with serve down
//                the gate blocks and a non-gate event does not

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/dialects/agents/index.js';
import { commandKeyOf, eventsIn, timeoutKeyOf } from '../../src/dialects/agents/module.js';
import { evaluateDialectRun } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS, toOurEvent, type AgentDialect } from '../../src/dialects/names.js';
import { renderDialectStdin } from '../../src/dialects/render.js';
import { parseDialectInput } from '../../src/dialects/translate-call.js';
import type { Directive, RunRecord } from '../../src/types.js';
import { wire } from '../_dialect-fixtures.js';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, CLIENT_BASH, cleanupTemps, http, makeHome, runShell, runWithStdin } from '../serve/_helpers.js';
import { startServe, stopServe, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

const maps = DEFAULT_DIALECT_MAPS;
const isGate = (agent: AgentDialect, theirEvent: string): boolean => toOurEvent(maps, agent, theirEvent) === 'pre_tool_call';

/** The agent's own hook stdin for a shell call of `command` on its gate, as its record lays it out. */
function gateStdin(agent: AgentDialect, gate: string, command: string, cwd: string): string {
  const stdin = renderDialectStdin(agent, maps, wire('pre_tool_call', { tool_name: 'terminal', tool_input: { command }, session_id: 'every-agent' }), {
    cwd,
    theirEvent: gate,
  });
  expect(stdin, `${agent}: its record renders no stdin for ${gate}`).not.toBeNull();
  return JSON.stringify(stdin);
}

/** What the agent makes of an answer (exit code, stdout, stderr), read by its record as it reads a hook's. */
function agentReads(agent: AgentDialect, answer: { code: number | null; stdout: string; stderr: string }): Directive | null {
  const run: RunRecord = {
    status: answer.code === 0 ? 'ok' : 'nonzero_exit',
    exit_code: answer.code,
    signal: null,
    stdout: answer.stdout,
    stderr: answer.stderr,
    error: null,
    duration_ms: 1,
  };
  return evaluateDialectRun(agent, maps, { event: 'pre_tool_call', command: 'answer', fail_closed: false, timeout: 60 }, 'terminal', run);
}

const blocked = (d: Directive | null): boolean => d?.action === 'block';

describe.each(AGENTS.map((a) => [a.name, a] as const))('every consumer knows %s', (name, agent) => {
  const gate = agent.doctor.gate;
  /** The command of a printed entry, under the record's handler key (`command`, Copilot's `bash`). */
  const commandIn = (entries: unknown): string =>
    new RegExp(`"${commandKeyOf(agent)}":"((?:[^"\\\\]|\\\\.)*)"`).exec(JSON.stringify(entries))![1]!.replace(/\\(.)/g, '$1');
  // The events of a printed snippet: under `hooks`, or at the top level of a file the agent reads that way (the record's topLevelEvents).
  const printedFile = agent.doctor.files.find((f) => f.role === 'reads')!.path;
  const eventsOf = (stdout: string): Record<string, unknown[]> => eventsIn(agent, printedFile, JSON.parse(stdout)) as Record<string, unknown[]>;

  it('the record is whole: its gate maps to pre_tool_call and it says how its hook blocks', () => {
    expect(isGate(name, gate), `${name}: doctor.gate ${gate} does not map to pre_tool_call in names.events`).toBe(true);
    expect(agent.blockOnStdout, `${name}: no blockOnStdout`).not.toBe('');
    const own = agentReads(name, { code: 0, stdout: agent.blockOnStdout, stderr: '' });
    expect(blocked(own), `${name}: its readRun does not read its own blockOnStdout as a block`).toBe(true);
  });

  it('stdin: every kwarg its renderStdin writes, its stdin reading gives back under our name', () => {
    const extra = {
      result: 'result-text-1',
      user_message: 'prompt-text-1',
      final_response: 'final-text-1',
      assistant_response: 'assistant-text-1',
      child_session_id: 'child-1',
      child_role: 'role-1',
      tool_call_id: 'call-1',
      error_message: 'error-text-1',
      attempt: 2,
    };
    for (const [theirEvent, ourEvent] of Object.entries(agent.names.events)) {
      const payload = { ...wire(ourEvent, { tool_name: 'terminal', tool_input: { command: 'ls' }, extra }), session_id: 'sess-9' };
      const stdin = renderDialectStdin(name, maps, payload, { cwd: '/tmp', theirEvent });
      expect(stdin, `${name} ${theirEvent}: no stdin`).not.toBeNull();
      // The event comes with the stdin's own name, or on the command line (`run <event>`, serve's URL) for an agent whose stdin has none.
      const parsed = parseDialectInput(name, maps, JSON.parse(JSON.stringify(stdin)), { event: theirEvent });
      if ('error' in parsed) throw new Error(`${name} ${theirEvent}: ${parsed.error}`);
      expect([theirEvent, parsed.event, parsed.kwargs['session_id']]).toEqual([theirEvent, ourEvent, 'sess-9']);
      const text = JSON.stringify(stdin);
      for (const [kwarg, value] of Object.entries(extra)) {
        if (typeof value === 'string' && text.includes(value)) expect([theirEvent, kwarg, parsed.kwargs[kwarg]]).toEqual([theirEvent, kwarg, value]);
      }
      // A second verify attempt reads back as one, if the agent says it at all.
      if (ourEvent === 'pre_verify' && agent.stdin?.attempt !== undefined) expect([theirEvent, parsed.kwargs['attempt']]).toEqual([theirEvent, 2]);
    }
  });

  it('import: a guard in its own protocol becomes config.yaml that blocks rm -rf / and allows ls', async () => {
    const dir = tempDir('hh-every-');
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/sh\nif grep -q 'rm -rf'; then printf '%s\\n' '${agent.blockOnStdout}'; fi\nexit 0\n`);
    const handler = { type: 'command', command: guard, timeout: 30 };
    const flat = { ...(agent.handlerKeys?.type ? { type: agent.handlerKeys.type } : {}), [commandKeyOf(agent)]: guard, [timeoutKeyOf(agent)]: 30 };
    const hooks = agent.configShape === 'flat' ? { [gate]: [flat] } : { [gate]: [{ matcher: agent.printConfig.matchAll ?? '*', hooks: [handler] }] };
    const file = join(dir, agent.import.formats[0]!.dir, 'hooks.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(agent.topLevelEvents?.test(file) ? hooks : agent.versionedConfig ? { version: 1, hooks } : { hooks }));
    const home = makeHome('hooks: {}\n');
    const imported = await runMain(['import', file, '--dialect', name, '--write', '--home', home]);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await runMain(['approve', '--all', '--home', home])).code).toBe(0);
    const test = (command: string) =>
      runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', tool_input: { command } }) });
    const rm = await test('rm -rf /');
    expect([rm.code, JSON.parse(rm.stdout).decision.action], rm.stdout).toEqual([2, 'block']);
    expect((await test('ls')).code).toBe(0);
  });

  // One profile for the rest: a Hermes guard on the terminal tool.
  const profile = async (): Promise<string> => {
    const dir = tempDir('hh-every-');
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"action":"block","message":"no rm -rf"}'; fi\nexit 0\n`);
    return approvedHome({ pre_tool_call: [{ command: guard, matcher: 'terminal' }] });
  };

  it('print-config parses, --gate follows the record, and doctor --agent finds the snippet healthy', async () => {
    const home = await profile();
    const printed = await runMain(['print-config', name, '--home', home]);
    expect(printed.code, printed.stderr).toBe(0);
    const snippet = { hooks: eventsOf(printed.stdout) };
    expect(Object.keys(snippet.hooks)).toContain(gate);
    for (const [event, entries] of Object.entries(snippet.hooks)) {
      const text = JSON.stringify(entries);
      expect(text, `${name} ${event}: the client's --gate`).toContain(isGate(name, event) ? '--gate 1' : '--gate 0');
    }
    expect(Object.keys(eventsOf((await runMain(['print-config', name, '--run', '--home', home])).stdout))).toContain(gate);

    const user = tempDir('hh-every-user-');
    const project = tempDir('hh-every-project-');
    const reads = agent.doctor.files.find((f) => f.role === 'reads' && f.under === 'home')!;
    mkdirSync(dirname(join(user, reads.path)), { recursive: true });
    writeFileSync(join(user, reads.path), printed.stdout);
    const env = { PATH: process.env.PATH, HOME: user, LANG: 'C.UTF-8' };
    const doctor = await runMain(['doctor', '--agent', name, '--home', home, '--project', project, '--json'], { env });
    type Check = { ok: boolean | null; message: string };
    const report = JSON.parse(doctor.stdout) as { general: Check[]; entries: { event: string; checks: Check[] }[] };
    expect(report.entries.map((e) => e.event).sort()).toEqual(Object.keys(snippet.hooks).sort());
    const checks = [...report.general, ...report.entries.flatMap((e) => e.checks)];
    // An agent that keeps hook trust in its own file (the record's trust) is not trusted in a fresh HOME: that alone may fail.
    const trustFile = agent.doctor.trust?.file;
    const problems = checks.filter((c) => c.ok === false && (trustFile === undefined || !c.message.includes(trustFile)));
    expect(problems).toEqual([]);
  });

  it('run --dialect, serve and both clients block rm -rf / in its shape and allow ls', async () => {
    const home = await profile();
    const cwd = tempDir('hh-every-cwd-');
    const env = baseEnv();
    const run = async (command: string) => runMain(['run', gate, '--dialect', name, '--home', home], { stdin: gateStdin(name, gate, command, cwd), env });
    const rmRun = await run('rm -rf /');
    const lsRun = await run('ls');
    expect(blocked(agentReads(name, rmRun)), `${name} run: ${JSON.stringify(rmRun)}`).toBe(true);
    expect(blocked(agentReads(name, lsRun)), `${name} run: ${JSON.stringify(lsRun)}`).toBe(false);

    const served = await startServe(home, [], { env });
    try {
      for (const [command, viaRun] of [
        ['rm -rf /', rmRun],
        ['ls', lsRun],
      ] as const) {
        const res = await http({ socketPath: served.socket! }, 'POST', `/v1/agent/${name}/${gate}`, { body: gateStdin(name, gate, command, cwd) });
        const stderr = decodeURIComponent(String(res.headers['x-hermes-hooks-stderr'] ?? ''));
        const viaServe = { code: Number(res.headers['x-hermes-hooks-exit']), stdout: res.body, stderr };
        expect(blocked(agentReads(name, viaServe)), `${name} serve: ${JSON.stringify(viaServe)}`).toBe(blocked(agentReads(name, viaRun)));
      }

      const snippet = { hooks: eventsOf((await runMain(['print-config', name, '--home', home], { env })).stdout) };
      const commandOf = (event: string): string => commandIn(snippet.hooks[event]);
      const printedGate = commandOf(gate);
      // The bash client is given the same arguments as the perl one print-config chose.
      const args = printedGate.slice(printedGate.indexOf(`${name} ${gate} `)).split(' ');
      for (const command of ['rm -rf /', 'ls']) {
        const stdin = gateStdin(name, gate, command, cwd);
        const viaPerl = await runShell(printedGate, stdin, env);
        const viaBash = await runWithStdin(CLIENT_BASH, args, stdin, env);
        const want = command === 'ls' ? false : true;
        expect(blocked(agentReads(name, viaPerl)), `${name} perl client: ${JSON.stringify(viaPerl)}`).toBe(want);
        expect(blocked(agentReads(name, viaBash)), `${name} bash client: ${JSON.stringify(viaBash)}`).toBe(want);
      }
    } finally {
      await stopServe(served);
    }

    // serve down (and not started): the gate blocks, an event that gates nothing goes on (exit 1).
    const down = baseEnv({ HERMES_HOOKS_AUTOSTART: '0' });
    const snippet = { hooks: eventsOf((await runMain(['print-config', name, '--home', home], { env: down })).stdout) };
    for (const event of Object.keys(snippet.hooks)) {
      const command = commandIn(snippet.hooks[event]);
      const r = await runShell(command, JSON.stringify({ hook_event_name: event }), down);
      expect([event, r.code]).toEqual([event, isGate(name, event) ? 2 : 1]);
      if (isGate(name, event)) expect(blocked(agentReads(name, r)), `${name} ${event} with serve down: ${JSON.stringify(r)}`).toBe(true);
    }
  }, 60_000);
});

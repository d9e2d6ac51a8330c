// `hermes-hooks print-config <agent>`: the snippet is valid settings for that agent (its config
// shape, its event names, its timeout unit), and it works: acting as the agent, we take the snippet,
// pick the handlers it wires for an event, run their command through `sh -c` with the agent's exact
// stdin, and read the answer the way the agent does.

import { AGENT_HOOK_TIMEOUT_S } from '../../src/deadlines.js';
import { EVENT_NAMES } from '../../src/events.js';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { servesOf } from '../serve/_helpers.js';
import {
  agentReads,
  agentStdin,
  approvedHome,
  assertBuilt,
  BIN,
  cli,
  cliBin,
  cliHook,
  makeHome,
  q,
  removeTempDirs,
  sh,
  tempDir,
  type Agent,
  type Json,
  type Verdict,
} from './dialects-helpers.js';

// print-config runs in-process; every command it prints is run as the agent would (sh -c, the real
// binary), which on a loaded 2-core machine takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(assertBuilt);
afterAll(removeTempDirs);

/** Every event each agent fires (reference §b1–§b4). */
const AGENT_EVENTS: Record<Agent, readonly string[]> = {
  claude: [
    'SessionStart',
    'Setup',
    'UserPromptSubmit',
    'UserPromptExpansion',
    'PreToolUse',
    'PermissionRequest',
    'PermissionDenied',
    'PostToolUse',
    'PostToolUseFailure',
    'PostToolBatch',
    'Notification',
    'MessageDisplay',
    'SubagentStart',
    'SubagentStop',
    'TaskCreated',
    'TaskCompleted',
    'Stop',
    'StopFailure',
    'TeammateIdle',
    'InstructionsLoaded',
    'ConfigChange',
    'CwdChanged',
    'DirectoryAdded',
    'FileChanged',
    'WorktreeCreate',
    'WorktreeRemove',
    'PreCompact',
    'PostCompact',
    'Elicitation',
    'ElicitationResult',
    'SessionEnd',
  ],
  codex: ['SessionStart', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop'],
  gemini: [
    'SessionStart',
    'SessionEnd',
    'BeforeAgent',
    'AfterAgent',
    'BeforeModel',
    'AfterModel',
    'BeforeToolSelection',
    'BeforeTool',
    'AfterTool',
    'PreCompress',
    'Notification',
  ],
  cursor: [
    'sessionStart',
    'sessionEnd',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'subagentStart',
    'subagentStop',
    'beforeShellExecution',
    'afterShellExecution',
    'beforeMCPExecution',
    'afterMCPExecution',
    'beforeReadFile',
    'afterFileEdit',
    'beforeSubmitPrompt',
    'preCompact',
    'stop',
    'afterAgentResponse',
    'afterAgentThought',
    'beforeTabFileRead',
    'afterTabFileEdit',
    'workspaceOpen',
  ],
};
/** Events whose matcher selects tools; on the others a matcher is ignored or exact (§a1). */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'BeforeTool', 'AfterTool']);

const COMMAND = `${q(process.execPath)} ${q(BIN)}`;

/** print-config in-process; the snippet's commands are then run by the agent's shell (the real binary). */
async function printConfig(agent: Agent, home: string, command = COMMAND): Promise<{ text: string; json: Json }> {
  const r = await cli(['print-config', agent, '--home', home, '--command', command]);
  expect(r.code, r.stderr).toBe(0);
  // stdout is the JSON alone; the setup notes go to stderr.
  expect(r.stderr.split('\n')[0]).toBe(`hermes-hooks print-config ${agent}: the hooks read ${join(home, 'config.yaml')}`);
  expect(r.stderr).toContain(`Then check it: hermes-hooks doctor --agent ${agent}\n`);
  return { text: r.stdout, json: JSON.parse(r.stdout) as Json };
}

interface Handler {
  command: string;
  timeout: number;
  type?: string;
  name?: string;
}

/** Check the snippet's shape for `agent`, and return event → handlers. */
function checkShape(agent: Agent, snippet: Json): Map<string, { matcher: string | undefined; handler: Handler }[]> {
  const out = new Map<string, { matcher: string | undefined; handler: Handler }[]>();
  if (agent === 'cursor') expect(snippet['version']).toBe(1);
  expect(Object.keys(snippet).sort()).toEqual(agent === 'cursor' ? ['hooks', 'version'] : ['hooks']);
  const hooks = snippet['hooks'] as Record<string, unknown[]>;
  for (const [event, list] of Object.entries(hooks)) {
    expect(AGENT_EVENTS[agent], `${agent} has no event ${event}`).toContain(event);
    expect(Array.isArray(list)).toBe(true);
    const entries: { matcher: string | undefined; handler: Handler }[] = [];
    for (const item of list as Json[]) {
      if (agent === 'cursor') {
        // Flat: {command, timeout (s)}; no matcher groups. The tool gate fails closed if the command cannot start.
        expect(Object.keys(item).sort()).toEqual(event === 'preToolUse' ? ['command', 'failClosed', 'timeout'] : ['command', 'timeout']);
        if (event === 'preToolUse') expect(item['failClosed']).toBe(true);
        entries.push({ matcher: undefined, handler: item as unknown as Handler });
        continue;
      }
      const allowedGroupKeys = TOOL_EVENTS.has(event) ? ['hooks', 'matcher'] : ['hooks'];
      expect(Object.keys(item).sort(), `${agent} ${event}`).toEqual(allowedGroupKeys);
      if (TOOL_EVENTS.has(event)) expect(item['matcher']).toBe('*');
      for (const h of item['hooks'] as Json[]) {
        expect(h['type']).toBe('command');
        // Claude's tool gate fails closed when the command cannot answer (onFailure: block, on every wiring).
        const keys = agent === 'gemini' ? ['command', 'name', 'timeout', 'type'] : ['command', 'timeout', 'type'];
        if (agent === 'claude' && event === 'PreToolUse') {
          keys.splice(1, 0, 'onFailure');
          expect(h['onFailure']).toBe('block');
        }
        expect(Object.keys(h).sort()).toEqual(keys);
        entries.push({ matcher: item['matcher'] as string | undefined, handler: h as unknown as Handler });
      }
    }
    for (const { handler } of entries) {
      expect(typeof handler.command).toBe('string');
      expect(handler.command).toContain(`run ${event} --dialect ${agent}`);
      // Gemini counts in milliseconds, the others in seconds; all must outlast one `run` (≤ 300 s + 1 s kill).
      const seconds = agent === 'gemini' ? handler.timeout / 1000 : handler.timeout;
      expect(Number.isInteger(handler.timeout)).toBe(true);
      expect(seconds).toBeGreaterThan(301);
      expect(seconds).toBeLessThanOrEqual(600);
    }
    out.set(event, entries);
  }
  return out;
}

/** A profile with a hook on every Hermes event: print-config then wires every event the agent maps (it wires only what is needed). */
const EVERY_EVENT = `hooks:\n${EVENT_NAMES.map((e) => `  ${e}:\n    - command: /bin/true\n`).join('')}`;

describe('print-config output is settings the agent accepts', () => {
  let home: string;
  beforeAll(async () => {
    home = makeHome(EVERY_EVENT);
  });

  it('claude: wires PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart … to run --dialect claude', async () => {
    const { json } = await printConfig('claude', home);
    const events = checkShape('claude', json);
    expect([...events.keys()]).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Stop',
      'SessionStart',
      'SessionEnd',
      'SubagentStart',
      'SubagentStop',
    ]);
  });

  it('codex: only the events Codex fires', async () => {
    const events = checkShape('codex', (await printConfig('codex', home)).json);
    expect([...events.keys()].sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  });

  it('gemini: handlers carry a name and a timeout in milliseconds', async () => {
    const events = checkShape('gemini', (await printConfig('gemini', home)).json);
    expect([...events.keys()].sort()).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'SessionEnd', 'SessionStart']);
    expect(events.get('BeforeTool')![0]!.handler).toMatchObject({ name: 'hermes-hooks', timeout: AGENT_HOOK_TIMEOUT_S * 1000 });
  });

  it('cursor: version 1, flat entries, the general tool events only (family events would run hooks twice)', async () => {
    const events = checkShape('cursor', (await printConfig('cursor', home)).json);
    expect(events.has('preToolUse')).toBe(true);
    for (const family of ['beforeShellExecution', 'beforeReadFile', 'beforeMCPExecution', 'afterShellExecution', 'afterFileEdit', 'afterMCPExecution']) {
      expect(events.has(family), family).toBe(false);
    }
  });

  it('--run: the command is this installation by absolute path (node + dist/cli/bin.js), never npx, and carries --home', async () => {
    const r = cliBin(['print-config', 'claude', '--run', '--home', home]); // the installed binary names itself
    expect(r.code).toBe(0);
    const snippet = JSON.parse(r.stdout) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(snippet.hooks['PreToolUse']![0]!.hooks[0]!.command).toBe(`${process.execPath} ${BIN} run PreToolUse --dialect claude --home ${home}`);
    expect(r.stdout).not.toContain('npx');
    expect(r.stdout.endsWith('}\n')).toBe(true);
  });

  it('dialects: in config.yaml shapes the snippet (an event removed, another one added)', async () => {
    const custom = makeHome(`${EVERY_EVENT}
dialects:
  claude:
    events:
      SessionEnd: null
      PreCompact: on_session_end
`);
    const events = checkShape('claude', (await printConfig('claude', custom)).json);
    expect(events.has('SessionEnd')).toBe(false);
    expect(events.has('PreCompact')).toBe(true);
  });

  it('an unknown agent is an error with the valid names', async () => {
    const r = await cli(['print-config', 'windsurf', '--home', home]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('give one of claude, codex, gemini, cursor');
  });
});

describe('the printed settings work: the agent runs them against a real profile', () => {
  let home: string;
  beforeAll(async () => {
    const policy = q(cliHook('hermes-policy.sh'));
    home = await approvedHome(`hooks:
  pre_tool_call:
    - command: ${policy}
  pre_llm_call:
    - command: ${policy}
  pre_verify:
    - command: ${policy}
`);
  });

  /** Act as `agent`: run every handler the snippet wires for the sample's event, as the agent would. */
  async function agentFires(agent: Agent, stdin: Json): Promise<Verdict[]> {
    const event = stdin['hook_event_name'] as string;
    const events = checkShape(agent, (await printConfig(agent, home)).json);
    const entries = events.get(event);
    expect(entries, `${agent} snippet wires ${event}`).toBeDefined();
    return entries!.map(({ handler }) => {
      // Claude and Cursor run `sh -c`, Codex `$SHELL -lc`, Gemini `bash -c`: all a POSIX shell here.
      const r = sh('/bin/sh', ['-c', handler.command], { stdin, env: { HERMES_HOME: home }, cwd: '/' });
      return agentReads(agent, event, r);
    });
  }

  const rm = (sample: string): Json => {
    const s = agentStdin(sample);
    return { ...s, tool_input: { ...(s['tool_input'] as Json), command: 'rm -rf /' } };
  };
  const BLOCK = { kind: 'block', reason: 'hermes policy: rm -rf is not allowed' };

  it('claude', async () => {
    expect(await agentFires('claude', rm('claude-PreToolUse-Bash'))).toEqual([BLOCK]);
    expect(await agentFires('claude', agentStdin('claude-PreToolUse-Edit'))).toEqual([{ kind: 'allow' }]);
    expect(await agentFires('claude', agentStdin('claude-PostToolUse-Write'))).toEqual([{ kind: 'allow' }]);
    expect((await agentFires('claude', agentStdin('claude-UserPromptSubmit')))[0]!.kind).toBe('context');
    expect((await agentFires('claude', agentStdin('claude-Stop')))[0]!.kind).toBe('continue');
  });

  it('codex', async () => {
    expect(await agentFires('codex', rm('codex-PreToolUse'))).toEqual([BLOCK]);
    expect(await agentFires('codex', agentStdin('codex-PreToolUse'))).toEqual([{ kind: 'rewrite', input: { command: 'pip install --user requests' } }]);
    expect((await agentFires('codex', agentStdin('codex-UserPromptSubmit')))[0]!.kind).toBe('context');
    expect((await agentFires('codex', agentStdin('codex-Stop')))[0]!.kind).toBe('continue');
  });

  it('gemini', async () => {
    expect(await agentFires('gemini', rm('gemini-BeforeTool-shell'))).toEqual([BLOCK]);
    expect((await agentFires('gemini', agentStdin('gemini-BeforeAgent')))[0]!.kind).toBe('context');
    expect((await agentFires('gemini', agentStdin('gemini-AfterAgent')))[0]!.kind).toBe('continue');
  });

  it('cursor: preToolUse covers shell calls too', async () => {
    const shell = { ...agentStdin('cursor-preToolUse'), tool_name: 'Shell', tool_input: { command: 'rm -rf /', cwd: '/home/user/my-project' } };
    expect(await agentFires('cursor', shell)).toEqual([BLOCK]);
    expect(await agentFires('cursor', agentStdin('cursor-preToolUse'))).toEqual([
      { kind: 'rewrite', input: { file_path: '/home/user/my-project/notes/todo.md', content: '- ship it\n' } },
    ]);
    expect((await agentFires('cursor', agentStdin('cursor-beforeSubmitPrompt')))[0]!.kind).toBe('context');
    expect((await agentFires('cursor', agentStdin('cursor-stop')))[0]!.kind).toBe('continue');
  });
});

// Issue 16: the printed command must work wherever the agent runs it — another directory, no
// hermes-hooks on PATH, no HERMES_HOME in the agent's environment — and read the profile it was
// printed for.
describe.each([
  ['the default (serve, started by the client)', []],
  ['--run', ['--run']],
] as const)('%s snippet runs from anywhere', (_name, flags) => {
  let home: string;
  /** A PATH with what the policy hook needs (bash, jq, cat) and no node, no hermes-hooks. */
  let toolsOnly: string;
  beforeAll(async () => {
    home = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(cliHook('hermes-policy.sh'))}\n`);
    toolsOnly = tempDir('hh-path-');
    for (const tool of ['bash', 'jq', 'cat']) {
      const found = sh('/bin/sh', ['-c', `command -v ${tool}`]).stdout.trim();
      symlinkSync(found, join(toolsOnly, tool));
    }
  });

  afterAll(() => {
    for (const pid of servesOf(home)) process.kill(pid, 'SIGKILL');
  });

  it.each(['claude', 'codex', 'gemini', 'cursor'] as const)('%s: from /, with no node on PATH and no HERMES_HOME, the guard blocks', async (agent) => {
    const r = await cli(['print-config', agent, ...flags, '--home', home]);
    expect(r.code).toBe(0);
    const stdin = { ...agentStdin(SAMPLES[agent]) };
    const event = stdin['hook_event_name'] as string;
    const command = commandFor(JSON.parse(r.stdout) as Json, agent, event);
    const input =
      agent === 'cursor'
        ? { ...stdin, tool_name: 'Shell', tool_input: { command: 'rm -rf /' } }
        : { ...stdin, tool_input: { ...(stdin['tool_input'] as Json), command: 'rm -rf /' } };
    const answer = sh('/bin/sh', ['-c', command], { stdin: input, cwd: '/', env: { PATH: toolsOnly, HERMES_HOME: undefined } });
    expect(agentReads(agent, event, answer)).toEqual({ kind: 'block', reason: 'hermes policy: rm -rf is not allowed' });
  });

  it('--config and $HERMES_HOME are written into the command as absolute paths', async () => {
    const viaConfig = await cli(['print-config', 'codex', '--run', '--config', join(home, 'config.yaml')]);
    expect(commandFor(JSON.parse(viaConfig.stdout) as Json, 'codex', 'PreToolUse')).toBe(
      `${process.execPath} ${BIN} run PreToolUse --dialect codex --config ${join(home, 'config.yaml')}`,
    );
    const viaEnv = await cli(['print-config', 'gemini', '--run'], { env: { HERMES_HOME: home } });
    expect(commandFor(JSON.parse(viaEnv.stdout) as Json, 'gemini', 'BeforeTool')).toBe(
      `${process.execPath} ${BIN} run BeforeTool --dialect gemini --home ${home}`,
    );
  });

  it("--home with --config keeps both: the allowlist is the home's, the hooks the file's (run and serve alike)", async () => {
    const config = join(home, 'config.yaml');
    const r = await cli(['print-config', 'claude', '--run', '--home', home, '--config', config]);
    expect(commandFor(JSON.parse(r.stdout) as Json, 'claude', 'PreToolUse')).toBe(
      `${process.execPath} ${BIN} run PreToolUse --dialect claude --home ${home} --config ${config}`,
    );
    const served = await cli(['print-config', 'codex', '--home', home, '--config', config]);
    expect(served.stderr).toContain(`To run it yourself (a service, its own log): hermes-hooks serve --home ${home} --config ${config}\n`);
  });

  it('--command overrides the program; the profile options still follow', async () => {
    const r = await cli(['print-config', 'cursor', '--home', home, '--command', '/opt/hh/bin/hermes-hooks']);
    expect(commandFor(JSON.parse(r.stdout) as Json, 'cursor', 'preToolUse')).toBe(`/opt/hh/bin/hermes-hooks run preToolUse --dialect cursor --home ${home}`);
  });

  it('Codex: stderr says where the snippet goes and that an untrusted hook is skipped silently', async () => {
    const r = await cli(['print-config', 'codex', '--home', home]);
    expect(r.stderr).toContain('Where: ~/.codex/hooks.json (user) or <repo>/.codex/hooks.json (project)');
    expect(r.stderr).toContain(
      'Codex runs a hook only once it is TRUSTED, and skips an untrusted one without\n  a word. Open the interactive codex, run /hooks and trust the hermes-hooks entries (or start\n  codex with --dangerously-bypass-hook-trust, for automation).',
    );
  });
});

const SAMPLES: Record<Agent, string> = {
  claude: 'claude-PreToolUse-Bash',
  codex: 'codex-PreToolUse',
  gemini: 'gemini-BeforeTool-shell',
  cursor: 'cursor-preToolUse',
};

function commandFor(snippet: Json, agent: Agent, event: string): string {
  const list = (snippet['hooks'] as Record<string, Json[]>)[event]!;
  return agent === 'cursor' ? (list[0]!['command'] as string) : ((list[0]!['hooks'] as Json[])[0]!['command'] as string);
}

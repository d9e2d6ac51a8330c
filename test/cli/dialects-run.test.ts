// Issue 8, acceptance 2: round trips of `hermes-hooks run <their event> --dialect X`. Each agent's
// exact stdin (field for field, test/fixtures/*/stdin) goes in; what comes out is read the way that
// agent reads a hook's answer (dialects-helpers.ts agentReads, from reference §b1–§b4) and must be
// accepted with the intended effect: block, approve, modify (arguments in the agent's keys), context,
// continue, allow, and a failing hook under fail_closed.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  agentReads,
  agentStdin,
  approvedHome,
  assertBuilt,
  cli,
  cliBin,
  cliHook,
  cliVia,
  dialectHook,
  makeHome,
  q,
  removeTempDirs,
  tempDir,
  type Agent,
  type CliResult,
  type Json,
  type Verdict,
  type Via,
} from './dialects-helpers.js';
import { jsonError } from './_helpers.js';

// Hooks are real processes (and one CLI run per agent is the real binary); on a loaded 2-core
// machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(assertBuilt);
afterAll(removeTempDirs);

const PROJECT = '/home/user/my-project';
const POLICY = cliHook('hermes-policy.sh');

/** The profile behind the agent: one Hermes-native hook on the three deciding events. */
const POLICY_CONFIG = `# the profile's own hooks, Hermes wire
hooks:
  pre_tool_call:
    - command: ${q(POLICY)}
  pre_llm_call:
    - command: ${q(POLICY)}
  pre_verify:
    - command: ${q(POLICY)}
`;

let home: string;
beforeAll(async () => {
  home = await approvedHome(POLICY_CONFIG);
});

/** A sample with some tool_input fields replaced (every other field as the agent sends it). */
function withInput(sample: string, input: Json): Json {
  const s = agentStdin(sample);
  return { ...s, tool_input: { ...(s['tool_input'] as Json), ...input } };
}

/**
 * The agent runs `hermes-hooks run <event> --dialect <agent>` (as print-config wires it): in-process
 * by default; `'bin'` through the built binary as a real process (one round trip per agent kept, and
 * wherever the exit status of a real process is the point).
 */
async function run(agent: Agent, stdin: Json, h = home, extra: string[] = [], via: Via = 'main'): Promise<{ r: CliResult; verdict: Verdict }> {
  const event = stdin['hook_event_name'] as string;
  const r = await cliVia(via, ['run', event, '--dialect', agent, '--home', h, ...extra], { stdin });
  return { r, verdict: agentReads(agent, event, r) };
}

const BLOCK_REASON = 'hermes policy: rm -rf is not allowed';
const APPROVE_REASON = 'hermes policy: git push needs your approval';
const NUDGE = 'hermes: run the tests before you stop';

describe('Claude Code: run --dialect claude', () => {
  it('block: permissionDecision deny with our message, exit 0 (the real binary)', async () => {
    const { r, verdict } = await run('claude', withInput('claude-PreToolUse-Bash', { command: 'rm -rf /' }), home, [], 'bin');
    expect(verdict).toEqual({ kind: 'block', reason: BLOCK_REASON });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: BLOCK_REASON },
    });
  });

  it('approve: permissionDecision ask with our message', async () => {
    const { verdict } = await run('claude', withInput('claude-PreToolUse-Bash', { command: 'git push origin main' }));
    expect(verdict).toEqual({ kind: 'ask', reason: APPROVE_REASON, input: null });
  });

  it('modify: updatedInput carries the WHOLE input in Claude keys (run_in_background, timeout kept)', async () => {
    const { verdict } = await run('claude', withInput('claude-PreToolUse-Bash', { command: 'pip install requests' }));
    expect(verdict).toEqual({
      kind: 'rewrite',
      input: { command: 'pip install --user requests', description: 'Run the test suite', timeout: 120000, run_in_background: false },
    });
  });

  it("modify: a Read with a relative file_path comes back as file_path, resolved in Claude's cwd", async () => {
    const { verdict } = await run('claude', agentStdin('claude-PreToolUse-Read'));
    expect(verdict).toEqual({ kind: 'rewrite', input: { file_path: `${PROJECT}/src/app.ts`, offset: 10, limit: 50 } });
  });

  it("modify: Grep keeps Claude's own keys (path stays path, glob comes back from file_glob)", async () => {
    const { verdict } = await run('claude', agentStdin('claude-PreToolUse-Grep'));
    expect(verdict).toEqual({
      kind: 'rewrite',
      input: { pattern: 'TODO', path: `${PROJECT}/src`, glob: '*.ts', output_mode: 'content', '-n': true },
    });
  });

  it('allow: nothing to say is an empty exit 0', async () => {
    const { r, verdict } = await run('claude', agentStdin('claude-PreToolUse-Edit'));
    expect(verdict).toEqual({ kind: 'allow' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const post = await run('claude', agentStdin('claude-PostToolUse-Write'));
    expect(post.verdict).toEqual({ kind: 'allow' });
  });

  it('context: UserPromptSubmit gets additionalContext', async () => {
    const { verdict } = await run('claude', agentStdin('claude-UserPromptSubmit'));
    expect(verdict).toEqual({ kind: 'context', context: 'hermes context for: Write a function to calculate the factorial of a number' });
  });

  it('continue: Stop decision block + reason, once (stop_hook_active true lets Claude stop)', async () => {
    expect((await run('claude', agentStdin('claude-Stop'))).verdict).toEqual({ kind: 'continue', reason: NUDGE });
    expect((await run('claude', { ...agentStdin('claude-Stop'), stop_hook_active: true })).verdict).toEqual({ kind: 'allow' });
  });
});

describe('Codex: run --dialect codex', () => {
  it('block: exit 2 with the reason on stderr, nothing on stdout (the real binary)', async () => {
    const { r, verdict } = await run('codex', withInput('codex-PreToolUse', { command: 'rm -rf /' }), home, [], 'bin');
    expect(verdict).toEqual({ kind: 'block', reason: BLOCK_REASON });
    expect(r).toMatchObject({ code: 2, stdout: '' });
  });

  it('approve: Codex cannot ask, so the call is blocked with a reason saying so (never a failed hook)', async () => {
    const { verdict } = await run('codex', withInput('codex-PreToolUse', { command: 'git push origin main' }));
    expect(verdict.kind).toBe('block');
    expect((verdict as { reason: string }).reason).toContain(APPROVE_REASON);
    expect((verdict as { reason: string }).reason).toContain('cannot ask for approval');
  });

  it('modify: allow + updatedInput (Codex requires both)', async () => {
    const { verdict } = await run('codex', agentStdin('codex-PreToolUse'));
    expect(verdict).toEqual({ kind: 'rewrite', input: { command: 'pip install --user requests' } });
  });

  it('modify: apply_patch comes in as tool_input.command, our hook edits args.patch, it goes back as command', async () => {
    const sample = agentStdin('codex-PreToolUse-apply_patch');
    const patch = (sample['tool_input'] as Json)['command'] as string;
    const { verdict } = await run('codex', sample);
    expect(verdict).toEqual({ kind: 'rewrite', input: { command: patch.replace('console.log(', 'logger.debug(') } });
  });

  it('allow: empty exit 0', async () => {
    const { r, verdict } = await run('codex', withInput('codex-PreToolUse', { command: 'ls' }));
    expect(verdict).toEqual({ kind: 'allow' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });

  it('context and continue', async () => {
    expect((await run('codex', agentStdin('codex-UserPromptSubmit'))).verdict).toEqual({
      kind: 'context',
      context: 'hermes context for: fix the failing test in utils',
    });
    expect((await run('codex', agentStdin('codex-Stop'))).verdict).toEqual({ kind: 'continue', reason: NUDGE });
  });
});

describe('Gemini CLI: run --dialect gemini', () => {
  it('block: decision deny + reason (the real binary)', async () => {
    const { r, verdict } = await run('gemini', withInput('gemini-BeforeTool-shell', { command: 'rm -rf /' }), home, [], 'bin');
    expect(verdict).toEqual({ kind: 'block', reason: BLOCK_REASON });
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'deny', reason: BLOCK_REASON });
  });

  it('approve: decision ask', async () => {
    expect((await run('gemini', withInput('gemini-BeforeTool-shell', { command: 'git push origin main' }))).verdict).toEqual({
      kind: 'ask',
      reason: APPROVE_REASON,
      input: null,
    });
  });

  it('modify: hookSpecificOutput.tool_input in Gemini keys (file_path; dir_path back from workdir)', async () => {
    expect((await run('gemini', agentStdin('gemini-BeforeTool'))).verdict).toEqual({
      kind: 'rewrite',
      input: { file_path: `${PROJECT}/docs/notes.md`, content: '# Notes' },
    });
    expect((await run('gemini', withInput('gemini-BeforeTool-shell', { command: 'pip install requests' }))).verdict).toEqual({
      kind: 'rewrite',
      input: { command: 'pip install --user requests', description: 'List the folder', dir_path: '/tmp/build' },
    });
  });

  it('allow, context and continue', async () => {
    const allow = await run('gemini', agentStdin('gemini-BeforeTool-shell'));
    expect(allow.verdict).toEqual({ kind: 'allow' });
    expect(allow.r.code).toBe(0);
    expect((await run('gemini', agentStdin('gemini-BeforeAgent'))).verdict).toEqual({
      kind: 'context',
      context: 'hermes context for: Add a changelog entry for the release',
    });
    expect((await run('gemini', agentStdin('gemini-AfterAgent'))).verdict).toEqual({ kind: 'continue', reason: NUDGE });
  });
});

describe('Cursor: run --dialect cursor', () => {
  it('block: permission deny with user_message and agent_message (the real binary)', async () => {
    const stdin = { ...agentStdin('cursor-beforeShellExecution'), command: 'rm -rf /' };
    const { r, verdict } = await run('cursor', stdin, home, [], 'bin');
    expect(verdict).toEqual({ kind: 'block', reason: BLOCK_REASON });
    expect(JSON.parse(r.stdout)).toEqual({ permission: 'deny', user_message: BLOCK_REASON, agent_message: BLOCK_REASON });
  });

  it('approve: permission ask', async () => {
    const stdin = { ...agentStdin('cursor-beforeShellExecution'), command: 'git push origin main' };
    expect((await run('cursor', stdin)).verdict).toEqual({ kind: 'ask', reason: APPROVE_REASON, input: null });
  });

  it('modify on preToolUse: updated_input with file_path, resolved in the first workspace root', async () => {
    expect((await run('cursor', agentStdin('cursor-preToolUse'))).verdict).toEqual({
      kind: 'rewrite',
      input: { file_path: `${PROJECT}/notes/todo.md`, content: '- ship it\n' },
    });
  });

  it('modify on beforeShellExecution (no rewrite possible): a deny that names the rewritten command', async () => {
    const stdin = { ...agentStdin('cursor-beforeShellExecution'), command: 'pip install requests' };
    const { verdict } = await run('cursor', stdin);
    expect(verdict.kind).toBe('block');
    expect((verdict as { reason: string }).reason).toContain('run it as: pip install --user requests');
  });

  it('allow is explicit on every permission event', async () => {
    for (const sample of ['cursor-beforeShellExecution', 'cursor-beforeReadFile', 'cursor-beforeMCPExecution']) {
      const { r, verdict } = await run('cursor', sample === 'cursor-beforeShellExecution' ? { ...agentStdin(sample), command: 'ls' } : agentStdin(sample));
      expect(verdict, sample).toEqual({ kind: 'allow' });
      expect(JSON.parse(r.stdout), sample).toEqual({ permission: 'allow' });
    }
  });

  it('context on beforeSubmitPrompt (continue: true), followup_message on stop', async () => {
    const prompt = await run('cursor', agentStdin('cursor-beforeSubmitPrompt'));
    expect(prompt.verdict).toEqual({ kind: 'context', context: 'hermes context for: refactor the auth module' });
    expect(JSON.parse(prompt.r.stdout)).toMatchObject({ continue: true });
    expect((await run('cursor', agentStdin('cursor-stop'))).verdict).toEqual({ kind: 'continue', reason: NUDGE });
    expect((await run('cursor', { ...agentStdin('cursor-stop'), loop_count: 1 })).verdict).toEqual({ kind: 'allow' });
  });
});

describe('a hook that fails under fail_closed', () => {
  const SAMPLES: Record<Agent, Json> = {
    claude: agentStdin('claude-PreToolUse-Bash'),
    codex: agentStdin('codex-PreToolUse'),
    gemini: agentStdin('gemini-BeforeTool-shell'),
    cursor: agentStdin('cursor-beforeShellExecution'),
  };
  let crashHome: string;
  let slowHome: string;
  let openHome: string;
  beforeAll(async () => {
    crashHome = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(dialectHook('crash.sh'))}\n      fail_closed: true\n`);
    slowHome = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(dialectHook('sleepy.sh'))}\n      timeout: 1\n      fail_closed: true\n`);
    openHome = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(dialectHook('crash.sh'))}\n`);
  });

  for (const agent of ['claude', 'codex', 'gemini', 'cursor'] as const) {
    it(`${agent}: a crash blocks, a timeout blocks, each with the failed-closed reason; without fail_closed it is allowed`, async () => {
      const crash = await run(agent, SAMPLES[agent], crashHome);
      expect(crash.verdict).toEqual({ kind: 'block', reason: `hook ${dialectHook('crash.sh')} failed closed: exited with status 1 without a directive` });

      const started = Date.now();
      const slow = await run(agent, SAMPLES[agent], slowHome);
      expect(Date.now() - started).toBeLessThan(20_000); // the 1 s deadline, not sleep 30
      expect(slow.verdict).toEqual({ kind: 'block', reason: `hook ${dialectHook('sleepy.sh')} failed closed: timed out after 1s` });

      const open = await run(agent, SAMPLES[agent], openHome);
      expect(open.verdict).toEqual({ kind: 'allow' });
      // The failure is still reported, on stderr, where none of the agents takes it as a decision.
      expect(open.r.stderr).toContain('exited 1');
    });
  }
});

describe('agent-style hooks behind run --dialect (write a hook once, serve any agent)', () => {
  let mixed: string;
  beforeAll(async () => {
    mixed = await approvedHome(`hooks:
  pre_tool_call:
    - command: ${q(dialectHook('claude-read-guard.py'))}
      matcher: Read
      dialect: claude
    - command: ${q(dialectHook('cursor-before-shell.sh'))}
      matcher: Shell
      dialect: cursor
    - command: ${q(dialectHook('gemini-before-tool.sh'))}
      matcher: write_file
      dialect: gemini
`);
  });

  it('a Claude hook behind Claude sees what Claude sent (cwd, transcript, permission mode) and its rewrite goes back', async () => {
    const dir = tempDir();
    const seen = join(dir, 'seen.json');
    const recHome = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(`${cliHook('record-stdin.sh')} ${seen}`)}\n      dialect: claude\n`);
    const sample = agentStdin('claude-PreToolUse-Read');
    await run('claude', { ...sample, permission_mode: 'acceptEdits' }, recHome);
    const got = JSON.parse(readFileSync(seen, 'utf8')) as Json;
    expect(got).toEqual({
      session_id: sample['session_id'],
      transcript_path: sample['transcript_path'],
      cwd: PROJECT,
      permission_mode: 'acceptEdits',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: sample['tool_input'],
      tool_use_id: 'toolu_01READ',
    });

    expect((await run('claude', sample, mixed)).verdict).toEqual({ kind: 'rewrite', input: { file_path: `${PROJECT}/src/app.ts`, offset: 10, limit: 50 } });
  });

  it('a Cursor hook behind Cursor sees the conversation, workspace root, command, cwd and user', async () => {
    const dir = tempDir();
    const seen = join(dir, 'seen.json');
    const recHome = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(`${cliHook('record-stdin.sh')} ${seen}`)}\n      dialect: cursor\n`);
    const sample = agentStdin('cursor-beforeShellExecution');
    expect((await run('cursor', sample, recHome)).verdict).toEqual({ kind: 'allow' });
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({
      conversation_id: sample['conversation_id'],
      generation_id: sample['generation_id'],
      model: sample['model'],
      hook_event_name: 'beforeShellExecution',
      workspace_roots: sample['workspace_roots'],
      user_email: sample['user_email'],
      command: sample['command'],
      cwd: sample['cwd'],
    });
  });

  it("a Cursor beforeShellExecution hook blocks Codex's and Claude's npm publish, in each one's protocol", async () => {
    const codex = await run('codex', withInput('codex-PreToolUse', { command: 'npm publish' }), mixed);
    expect(codex.verdict).toEqual({ kind: 'block', reason: 'Do not run npm publish; ask the user to publish.' });
    expect(codex.r.code).toBe(2);
    const claude = await run('claude', withInput('claude-PreToolUse-Bash', { command: 'npm publish' }), mixed);
    expect(claude.verdict).toEqual({ kind: 'block', reason: 'Do not run npm publish; ask the user to publish.' });
  });

  it("a Gemini BeforeTool hook's tool_input merge reaches Cursor as updated_input and Claude as updatedInput", async () => {
    // Gemini's hook appends a newline to Markdown content (merged into the call).
    const cursor = await run('cursor', { ...agentStdin('cursor-preToolUse'), tool_input: { file_path: '/abs/notes.md', content: '# x' } }, mixed);
    expect(cursor.verdict).toEqual({ kind: 'rewrite', input: { file_path: '/abs/notes.md', content: '# x\n' } });
    const claude = await run(
      'claude',
      {
        ...agentStdin('claude-PostToolUse-Write'),
        hook_event_name: 'PreToolUse',
        tool_response: undefined,
        tool_input: { file_path: '/abs/notes.md', content: '# x' },
      },
      mixed,
    );
    expect(claude.verdict).toEqual({ kind: 'rewrite', input: { file_path: '/abs/notes.md', content: '# x\n' } });
  });
});

describe('dialects: in config.yaml on run --dialect', () => {
  it("Claude's Deploy is the host's deploy with our keys for Hermes hooks, and a Claude hook's rewrite goes back in Claude's keys", async () => {
    const dir = tempDir();
    const seen = join(dir, 'hermes-seen.json');
    const h = await approvedHome(`hooks:
  pre_tool_call:
    - command: ${q(`${cliHook('record-stdin.sh')} ${seen}`)}
      matcher: deploy
    - command: ${q(cliHook('claude-deploy-guard.sh'))}
      matcher: Deploy
      dialect: claude
dialects:
  claude:
    tools:
      Deploy: deploy
    args:
      Deploy:
        env_name: environment
`);
    const stdin = { ...agentStdin('claude-PreToolUse-Bash'), tool_name: 'Deploy', tool_input: { env_name: 'stage', version: '1.2.0' } };
    expect((await run('claude', stdin, h)).verdict).toEqual({ kind: 'rewrite', input: { env_name: 'staging', version: '1.2.0' } });
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ tool_name: 'deploy', tool_input: { environment: 'stage', version: '1.2.0' } });
    const prodClaude = await run('claude', { ...stdin, tool_input: { env_name: 'production' } }, h);
    expect(prodClaude.verdict).toEqual({ kind: 'block', reason: 'No production deploys from the agent' });
  });
});

describe('consent, safe mode and bad input on run --dialect', () => {
  it('an unapproved hook does not run (allow); --accept-hooks runs it; unapproved fail_closed blocks', async () => {
    const fresh = makeHome(POLICY_CONFIG);
    const stdin = withInput('claude-PreToolUse-Bash', { command: 'rm -rf /' });
    expect((await run('claude', stdin, fresh)).verdict).toEqual({ kind: 'allow' });
    expect((await run('claude', stdin, fresh, ['--accept-hooks'])).verdict).toEqual({ kind: 'block', reason: BLOCK_REASON });

    const guarded = makeHome(`hooks:\n  pre_tool_call:\n    - command: ${q(POLICY)}\n      fail_closed: true\n`);
    const v = (await run('codex', withInput('codex-PreToolUse', { command: 'ls' }), guarded)).verdict;
    expect(v.kind).toBe('block');
    expect((v as { reason: string }).reason).toBe(
      `hook ${POLICY} awaits approval (not approved yet): tool calls it guards are blocked until it is approved — ` +
        `run \`hermes-hooks approve --event pre_tool_call ${POLICY}\` (or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true)`,
    );
  });

  it('a script changed after approval is modified and does not run', async () => {
    const dir = tempDir();
    const script = join(dir, 'guard.sh');
    writeFileSync(script, '#!/bin/bash\ncat >/dev/null\necho "first version blocks" >&2\nexit 2\n', { mode: 0o755 });
    const h = await approvedHome(`hooks:\n  pre_tool_call:\n    - command: ${q(script)}\n      dialect: claude\n`);
    const stdin = agentStdin('claude-PreToolUse-Bash');
    expect((await run('claude', stdin, h)).verdict).toEqual({ kind: 'block', reason: 'first version blocks' });
    writeFileSync(script, '#!/bin/bash\ncat >/dev/null\necho "second version" >&2\nexit 2\n');
    expect((await run('claude', stdin, h)).verdict).toEqual({ kind: 'allow' });
  });

  it('HERMES_SAFE_MODE runs no hooks', async () => {
    const r = await cli(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], {
      stdin: withInput('claude-PreToolUse-Bash', { command: 'rm -rf /' }),
      env: { HERMES_SAFE_MODE: '1' },
    });
    expect(agentReads('claude', 'PreToolUse', r)).toEqual({ kind: 'allow' });
  });

  it('bad input on a tool gate blocks, naming it (issue 16: never an exit 1 the agent reads as "go ahead")', async () => {
    const tail = ' (fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide)';
    // The real binary: what the agent sees is the exit status and stdout of a real process.
    const bad = cliBin(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: '{not json' });
    expect(agentReads('claude', 'PreToolUse', bad)).toEqual({
      kind: 'block',
      reason: `hermes-hooks cannot decide, so it blocks this call: invalid claude hook input on stdin: ${jsonError('{not json')}${tail}`,
    });
    const mismatch = await cli(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: agentStdin('claude-Stop') });
    expect(agentReads('claude', 'PreToolUse', mismatch)).toEqual({
      kind: 'block',
      reason: `hermes-hooks cannot decide, so it blocks this call: stdin is a 'Stop' event but the command line says 'PreToolUse'${tail}`,
    });
  });

  it('errors exit 1 with a message where nothing can be blocked: an event with no counterpart, an unknown dialect', async () => {
    const unmapped = cliBin(['run', 'Notification', '--dialect', 'claude', '--home', home], {
      stdin: { ...agentStdin('claude-Stop'), hook_event_name: 'Notification', message: 'Claude needs your permission' },
    });
    expect(unmapped.code).toBe(1);
    expect(unmapped.stderr).toContain("claude event 'Notification' has no Hermes counterpart");
    const unknown = await cli(['run', 'PreToolUse', '--dialect', 'windsurf', '--home', home], { stdin: agentStdin('claude-Stop') });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown dialect 'windsurf'");
  });

  it('the event may come from stdin alone', async () => {
    const r = await cli(['run', '--dialect', 'gemini', '--home', home], { stdin: withInput('gemini-BeforeTool-shell', { command: 'rm -rf /' }) });
    expect(agentReads('gemini', 'BeforeTool', r)).toEqual({ kind: 'block', reason: BLOCK_REASON });
  });
});

// Issue 8, acceptance 1: hook scripts written the way each agent's users write them run through
// `hermes-hooks test` with `dialect:` set (the CLI in-process, once per agent the real binary; real
// profile homes, real hook processes), and the Hermes-side decision is asserted, arguments mapped
// back to our keys included. Also: dialect matchers may use
// the agent's tool names, and `dialects:` in config.yaml extends or overrides the name maps.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertBuilt, cli, cliHook, dialectHook, makeHome, q, removeTempDirs, tempDir, testReport, type Json } from './dialects-helpers.js';

// Each test starts several real hook processes; on a loaded 2-core machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(assertBuilt);
afterAll(removeTempDirs);

const PROJECT = '/home/user/my-project';

/** A pre_tool_call payload in our wire form. */
const call = (tool: string, input: Json, extra: Json = {}): Json => ({
  tool_name: tool,
  tool_input: input,
  session_id: 'sess-e2e',
  cwd: PROJECT,
  extra: { task_id: 't1', tool_call_id: 'call_1', ...extra },
});

const hooks = (entries: { event?: string; command: string; matcher?: string; dialect?: string; timeout?: number; fail_closed?: boolean }[]): string => {
  const byEvent = new Map<string, string[]>();
  for (const e of entries) {
    const lines = [`    - command: ${q(e.command)}`];
    if (e.matcher !== undefined) lines.push(`      matcher: ${q(e.matcher)}`);
    if (e.timeout !== undefined) lines.push(`      timeout: ${e.timeout}`);
    if (e.fail_closed) lines.push(`      fail_closed: true`);
    if (e.dialect !== undefined) lines.push(`      dialect: ${e.dialect}`);
    const ev = e.event ?? 'pre_tool_call';
    byEvent.set(ev, [...(byEvent.get(ev) ?? []), ...lines]);
  }
  return `hooks:\n${[...byEvent].map(([ev, lines]) => `  ${ev}:\n${lines.join('\n')}`).join('\n')}\n`;
};

describe('Claude Code hooks (dialect: claude) through hermes-hooks test', () => {
  let home: string;
  beforeAll(async () => {
    home = makeHome(
      hooks([
        // The hooks guide's Bash guard: jq -r '.tool_input.command', reason on stderr, exit 2.
        { command: dialectHook('claude-bash-guard.sh'), matcher: 'Bash', dialect: 'claude' },
        // A Read guard answering with hookSpecificOutput.permissionDecision (deny / ask / allow+updatedInput).
        { command: dialectHook('claude-read-guard.py'), matcher: 'Read', dialect: 'claude' },
        // An Edit|Write guard: exit 2 outside the project, updatedInput to fix new_string.
        { command: cliHook('claude-edit-guard.py'), matcher: 'Edit|MultiEdit|Write', dialect: 'claude' },
        // An MCP guard with Claude's MCP matcher.
        { command: cliHook('claude-mcp-guard.sh'), matcher: 'mcp__memory__.*', dialect: 'claude' },
      ]),
    );
  });

  it('Bash guard: exit 2 with the reason on stderr blocks the terminal call, message = stderr (the real binary)', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'git push --force origin main' }), [], 'bin');
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: "Blocked: 'git push --force origin main' is not allowed here", decided_by: 0 });
    expect(report.hooks[0]).toMatchObject({ status: 'nonzero_exit', exit_code: 2, dialect: 'claude' });
    // Only the Bash guard matched a terminal call.
    expect(report.hooks.slice(1, 4).map((h) => h.status)).toEqual(['not_matched', 'not_matched', 'not_matched']);
  });

  it('Bash guard: an ordinary command is allowed with no argument changes', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'npm test' }));
    expect(code).toBe(0);
    expect(report.decision).toMatchObject({ action: 'allow', args: null, decided_by: null });
    expect(report.hooks[0]).toMatchObject({ status: 'ok', exit_code: 0, directive: null });
  });

  it('Read guard: permissionDecision deny on a .env file blocks with permissionDecisionReason', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('read_file', { path: `${PROJECT}/.env.local` }));
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: `${PROJECT}/.env.local holds secrets; read .env.example instead`, decided_by: 1 });
  });

  it('Read guard: permissionDecision ask becomes approve, with its reason', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('read_file', { path: `${PROJECT}/logs/app.log` }));
    expect(code).toBe(0);
    expect(report.decision).toMatchObject({ action: 'approve', message: 'Log files can be large; read it anyway?', decided_by: 1 });
  });

  it('Read guard: allow + updatedInput becomes modify, file_path mapped back to path, resolved against the payload cwd', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('read_file', { path: 'src/app.ts', offset: 10, limit: 50 }));
    expect(code).toBe(0);
    expect(report.decision.action).toBe('allow');
    expect(report.decision.modified_by).toEqual([1]);
    // updatedInput replaced the whole input in Claude's keys; we get our keys back, nothing else.
    expect(report.decision.args).toEqual({ path: `${PROJECT}/src/app.ts`, offset: 10, limit: 50 });
    expect(report.hooks[1]!.directive).toEqual({ action: 'modify', args: { path: `${PROJECT}/src/app.ts`, offset: 10, limit: 50 } });
  });

  it('Edit guard: the patch tool is Edit to the hook; updatedInput.new_string comes back as a modify', async () => {
    const input = { path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: '\tb', replace_all: false };
    const { code, report } = await testReport(home, 'pre_tool_call', call('patch', input));
    expect(code).toBe(0);
    expect(report.decision.args).toEqual({ ...input, new_string: '  b' });
    expect(report.decision.modified_by).toEqual([2]);
  });

  it('Edit guard: exit 2 on /etc blocks a write_file call (Write) with stderr', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('write_file', { path: '/etc/hosts', content: '127.0.0.1 x' }));
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Refusing to edit /etc/hosts: outside the project', decided_by: 2 });
  });

  it("MCP guard: Claude's mcp__memory__.* matcher selects Hermes' mcp_memory_* tools, deny blocks", async () => {
    const denied = await testReport(home, 'pre_tool_call', call('mcp_memory_delete_entities', { entityNames: ['old'] }));
    expect(denied.code).toBe(2);
    expect(denied.report.decision).toMatchObject({ action: 'block', message: 'memory deletions are disabled (mcp__memory__delete_entities)', decided_by: 3 });
    const allowed = await testReport(home, 'pre_tool_call', call('mcp_memory_create_entities', { entities: [] }));
    expect(allowed.code).toBe(0);
    expect(allowed.report.hooks[3]).toMatchObject({ status: 'ok', directive: null });
    expect(allowed.report.decision.action).toBe('allow');
  });

  it('the human report names the dialect decision too (no --json)', async () => {
    const r = await cli(['test', 'pre_tool_call', '--home', home], { stdin: call('terminal', { command: 'rm -rf /' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Decision: BLOCK by #0');
    expect(r.stdout).toContain("Blocked: 'rm -rf /' is not allowed here");
  });
});

describe('Claude Code prompt and Stop hooks through hermes-hooks test', () => {
  it('UserPromptSubmit plain stdout is context for pre_llm_call; Stop decision:block is a pre_verify continue', async () => {
    const home = makeHome(
      hooks([
        { event: 'pre_llm_call', command: dialectHook('claude-prompt-context.sh'), dialect: 'claude' },
        { event: 'pre_verify', command: dialectHook('claude-stop-check.sh'), dialect: 'claude' },
      ]),
    );
    const prompt = await testReport(home, 'pre_llm_call', { session_id: 's', extra: { user_message: 'add a CHANGELOG entry' } });
    expect(prompt.code).toBe(0);
    expect(prompt.report.decision.context).toBe('Reminder for: add a CHANGELOG entry\nProject conventions: run npm test before committing.');

    const first = await testReport(home, 'pre_verify', { session_id: 's', extra: { attempt: 1, final_response: 'done' } });
    expect(first.report.decision).toMatchObject({ action: 'continue', message: 'Run the test suite and fix failures before stopping.' });
    // A second attempt is stop_hook_active=true for the hook: it lets the agent stop.
    const second = await testReport(home, 'pre_verify', { session_id: 's', extra: { attempt: 2, final_response: 'done' } });
    expect(second.report.decision).toMatchObject({ action: 'allow', message: null });
  });
});

describe('Codex hooks (dialect: codex) through hermes-hooks test', () => {
  let home: string;
  beforeAll(async () => {
    home = makeHome(
      hooks([
        { command: dialectHook('codex-policy.py'), matcher: 'Bash', dialect: 'codex' },
        // Codex's apply_patch carries the patch in tool_input.command; ours in args.patch.
        { command: cliHook('codex-apply-patch-guard.py'), matcher: 'apply_patch', dialect: 'codex' },
      ]),
    );
  });

  it('exit 2 + stderr blocks with stderr as the message (the real binary)', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'rm -rf build' }), [], 'bin');
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Refusing to run destructive command: rm -rf build' });
  });

  it('permissionDecision deny blocks with its reason', async () => {
    const { report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'curl https://example.com' }));
    expect(report.decision).toMatchObject({ action: 'block', message: 'Network access goes through the proxy tool' });
  });

  it('allow + updatedInput rewrites the command', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'pip install requests', timeout: 120 }));
    expect(code).toBe(0);
    expect(report.decision).toMatchObject({ action: 'allow', modified_by: [0] });
    expect(report.decision.args).toEqual({ command: 'pip install --user requests', timeout: 120 });
  });

  it("apply_patch guard: the rewritten tool_input.command comes back as the patch tool's patch", async () => {
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n+console.log(1);\n*** End Patch\n';
    const { code, report } = await testReport(home, 'pre_tool_call', call('patch', { mode: 'patch', patch }));
    expect(code).toBe(0);
    expect(report.decision.args).toEqual({ mode: 'patch', patch: patch.replace('console.log(', 'logger.debug(') });
    expect(report.decision.args).not.toHaveProperty('command');
  });

  it('apply_patch guard: exit 2 blocks a deletion', async () => {
    const { code, report } = await testReport(
      home,
      'pre_tool_call',
      call('patch', { mode: 'patch', patch: '*** Begin Patch\n*** Delete File: a.ts\n*** End Patch\n' }),
    );
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Deleting files needs a human review', decided_by: 1 });
  });
});

describe('Gemini CLI hooks (dialect: gemini) through hermes-hooks test', () => {
  let home: string;
  beforeAll(async () => {
    home = makeHome(
      hooks([
        { command: dialectHook('gemini-before-tool.sh'), dialect: 'gemini' },
        { command: cliHook('gemini-shell-guard.sh'), matcher: 'run_shell_command', dialect: 'gemini' },
      ]),
    );
  });

  it('decision deny blocks a write_file of .env (the real binary)', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('write_file', { path: 'config/.env', content: 'X=1' }), [], 'bin');
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Writing .env files is not allowed', decided_by: 0 });
  });

  it('hookSpecificOutput.tool_input is merged onto the call (file_path stays path)', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('write_file', { path: 'docs/notes.md', content: '# Notes' }));
    expect(code).toBe(0);
    expect(report.decision.args).toEqual({ path: 'docs/notes.md', content: '# Notes\n' });
    expect(report.decision.modified_by).toEqual([0]);
  });

  it('decision ask becomes approve', async () => {
    const { report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'sudo apt-get install jq' }));
    expect(report.decision).toMatchObject({ action: 'approve', message: 'sudo needs your confirmation', decided_by: 0 });
  });

  it('a dir_path rewrite comes back as workdir', async () => {
    const { report } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'make', workdir: '/tmp/build' }));
    expect(report.decision.args).toEqual({ command: 'make', workdir: '/srv/scratch' });
    expect(report.decision.modified_by).toEqual([1]);
  });

  it('plain text with exit 3 denies (Gemini reads stderr when stdout is empty)', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('terminal', { command: "psql -c 'DROP TABLE users'" }));
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: "Refusing destructive SQL: psql -c 'DROP TABLE users'", decided_by: 1 });
  });

  it('exit 2 with no output at all blocks (Gemini would let it through)', async () => {
    const silent = makeHome(hooks([{ command: dialectHook('gemini-silent-exit2.sh'), dialect: 'gemini' }]));
    const { code, report } = await testReport(silent, 'pre_tool_call', call('terminal', { command: 'ls' }));
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Blocked by shell hook.' });
  });
});

describe('Cursor hooks (dialect: cursor) through hermes-hooks test', () => {
  let home: string;
  beforeAll(async () => {
    home = makeHome(
      hooks([
        // A beforeShellExecution hook: the call arrives as {command, cwd}; matcher with Cursor's tool name.
        { command: dialectHook('cursor-before-shell.sh'), matcher: 'Shell', dialect: 'cursor' },
        { command: dialectHook('cursor-pre-tool-use.sh'), matcher: 'Write', dialect: 'cursor' },
        { command: cliHook('cursor-read-guard.sh'), matcher: 'read_file', dialect: 'cursor' },
      ]),
    );
  });

  it('permission deny blocks npm publish with the agent_message (the real binary)', async () => {
    const { code, report } = await testReport(
      home,
      'pre_tool_call',
      call('terminal', { command: 'npm publish --access public', workdir: `${PROJECT}/pkg` }),
      [],
      'bin',
    );
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Do not run npm publish; ask the user to publish.', decided_by: 0 });
  });

  it('permission ask becomes approve with the user_message; allow is a plain allow', async () => {
    const ask = await testReport(home, 'pre_tool_call', call('terminal', { command: 'git push origin main' }));
    expect(ask.report.decision).toMatchObject({ action: 'approve', message: 'Push to the remote?' });
    const allow = await testReport(home, 'pre_tool_call', call('terminal', { command: 'ls' }));
    expect(allow.code).toBe(0);
    expect(allow.report.decision).toMatchObject({ action: 'allow', args: null });
  });

  it('preToolUse updated_input is a modify with file_path mapped back to path', async () => {
    const { report } = await testReport(home, 'pre_tool_call', call('write_file', { path: 'notes/todo.md', content: '- ship it\n' }));
    expect(report.decision.args).toEqual({ path: 'sandbox/notes/todo.md', content: '- ship it\n' });
    expect(report.decision.modified_by).toEqual([1]);
  });

  it('beforeReadFile deny blocks a private key', async () => {
    const { code, report } = await testReport(home, 'pre_tool_call', call('read_file', { path: `${PROJECT}/certs/server.pem` }));
    expect(code).toBe(2);
    expect(report.decision).toMatchObject({ action: 'block', message: 'Private keys are never sent to the model.', decided_by: 2 });
  });
});

describe('what a dialect hook sees on stdin', () => {
  it('each agent gets its own event, tool name, argument keys and the payload cwd', async () => {
    const dir = tempDir();
    const out = (d: string): string => join(dir, `${d}.json`);
    const home = makeHome(
      hooks(['claude', 'codex', 'gemini', 'cursor', 'hermes'].map((d) => ({ command: `${cliHook('record-stdin.sh')} ${out(d)}`, dialect: d }))),
    );
    const { code } = await testReport(home, 'pre_tool_call', call('terminal', { command: 'npm test', workdir: `${PROJECT}/pkg` }, { model: 'gpt-x' }));
    expect(code).toBe(0);
    const seen = (d: string): Json => JSON.parse(readFileSync(out(d), 'utf8')) as Json;

    expect(seen('claude')).toEqual({
      session_id: 'sess-e2e',
      transcript_path: null,
      cwd: PROJECT,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test', workdir: `${PROJECT}/pkg` },
      tool_use_id: 'call_1',
    });
    expect(seen('codex')).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      cwd: PROJECT,
      model: 'gpt-x',
      turn_id: null,
      tool_use_id: 'call_1',
    });
    expect(seen('gemini')).toMatchObject({
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'npm test', dir_path: `${PROJECT}/pkg` },
      cwd: PROJECT,
      session_id: 'sess-e2e',
    });
    expect(typeof seen('gemini')['timestamp']).toBe('string');
    expect(seen('cursor')).toMatchObject({
      hook_event_name: 'beforeShellExecution',
      conversation_id: 'sess-e2e',
      command: 'npm test',
      cwd: `${PROJECT}/pkg`,
      workspace_roots: [PROJECT],
      model: 'gpt-x',
    });
    expect(seen('hermes')).toMatchObject({ hook_event_name: 'pre_tool_call', tool_name: 'terminal', cwd: PROJECT });
  });

  it("search_files is Claude's Grep with Claude's keys: path stays path, file_glob is glob", async () => {
    const dir = tempDir();
    const out = join(dir, 'grep.json');
    const home = makeHome(hooks([{ command: `${cliHook('record-stdin.sh')} ${out}`, matcher: 'Grep', dialect: 'claude' }]));
    await testReport(home, 'pre_tool_call', call('search_files', { pattern: 'TODO', path: 'src', file_glob: '*.ts' }));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ tool_name: 'Grep', tool_input: { pattern: 'TODO', path: 'src', glob: '*.ts' } });
  });

  it('a dialect hook on an event its agent does not have is skipped with a reason, not run', async () => {
    const dir = tempDir();
    const home = makeHome(hooks([{ event: 'post_llm_call', command: `${cliHook('record-stdin.sh')} ${join(dir, 'x.json')}`, dialect: 'claude' }]));
    const { code, report } = await testReport(home, 'post_llm_call', { session_id: 's', extra: { assistant_response: 'hi' } });
    expect(code).toBe(0);
    expect(report.hooks[0]).toMatchObject({ status: 'skipped', error: 'event post_llm_call has no claude counterpart' });
  });
});

describe('fail_closed on dialect hooks', () => {
  it('a crash, a timeout and garbled stdout block when fail_closed; fail open otherwise', async () => {
    const home = makeHome(
      hooks([
        { command: dialectHook('crash.sh'), dialect: 'claude', fail_closed: true, matcher: 'Bash' },
        { command: dialectHook('sleepy.sh'), dialect: 'gemini', fail_closed: true, timeout: 1, matcher: 'write_file' },
        { command: dialectHook('garbage.sh'), dialect: 'cursor', fail_closed: true, matcher: 'Read' },
        { command: dialectHook('crash.sh'), dialect: 'codex', matcher: 'apply_patch' },
      ]),
    );
    const crash = await testReport(home, 'pre_tool_call', call('terminal', { command: 'ls' }));
    expect(crash.code).toBe(2);
    expect(crash.report.decision.message).toBe(`hook ${dialectHook('crash.sh')} failed closed: exited with status 1 without a directive`);

    const started = Date.now();
    const slow = await testReport(home, 'pre_tool_call', call('write_file', { path: 'a', content: 'b' }));
    expect(Date.now() - started).toBeLessThan(20_000); // killed at its 1 s deadline, not after sleep 30
    expect(slow.code).toBe(2);
    expect(slow.report.hooks[1]!.status).toBe('timeout');
    expect(slow.report.decision.message).toBe(`hook ${dialectHook('sleepy.sh')} failed closed: timed out after 1s`);

    const garbled = await testReport(home, 'pre_tool_call', call('read_file', { path: 'a' }));
    expect(garbled.code).toBe(2);
    expect(garbled.report.decision.message).toBe(`hook ${dialectHook('garbage.sh')} failed closed: unparseable stdout (expected a JSON object)`);

    // The same crash without fail_closed: a warning, the call goes ahead.
    const open = await testReport(home, 'pre_tool_call', call('patch', { mode: 'patch', patch: '' }));
    expect(open.code).toBe(0);
    expect(open.report.hooks[3]).toMatchObject({ status: 'nonzero_exit', exit_code: 1, directive: null });
    expect(open.report.decision.action).toBe('allow');
  });
});

describe('matchers of dialect hooks may use either name of a tool', () => {
  it("Claude's Bash and our terminal both select a terminal call; Codex's Write alias selects patch", async () => {
    const dir = tempDir();
    const rec = (n: string): string => `${cliHook('record-stdin.sh')} ${join(dir, n)}`;
    const home = makeHome(
      hooks([
        { command: rec('claude-Bash'), matcher: 'Bash', dialect: 'claude' },
        { command: rec('claude-terminal'), matcher: 'terminal', dialect: 'claude' },
        { command: rec('claude-Read'), matcher: 'Read', dialect: 'claude' },
        { command: rec('codex-Write'), matcher: 'apply_patch|Write', dialect: 'codex' },
        { command: rec('gemini-shell'), matcher: 'run_shell_command', dialect: 'gemini' },
        { command: rec('hermes-Bash'), matcher: 'Bash' }, // a Hermes hook knows only our names
      ]),
    );
    const terminal = await testReport(home, 'pre_tool_call', call('terminal', { command: 'ls' }));
    expect(terminal.report.hooks.slice(0, 6).map((h) => h.status)).toEqual(['ok', 'ok', 'not_matched', 'not_matched', 'ok', 'not_matched']);
    const patch = await testReport(home, 'pre_tool_call', call('patch', { mode: 'patch', patch: '' }));
    expect(patch.report.hooks.slice(0, 6).map((h) => h.status)).toEqual(['not_matched', 'not_matched', 'not_matched', 'ok', 'not_matched', 'not_matched']);
    // --for-tool with the agent's name is our name to the engine: nothing is called "Bash" on our side.
    const forTool = await testReport(home, 'pre_tool_call', call('terminal', { command: 'ls' }), ['--for-tool', 'read_file']);
    expect(forTool.report.hooks.slice(0, 6).map((h) => h.status)).toEqual(['not_matched', 'not_matched', 'ok', 'not_matched', 'not_matched', 'not_matched']);
  });
});

describe('dialects: in config.yaml extends and overrides the name maps', () => {
  const config = (extra: string): string =>
    `${hooks([
      { command: cliHook('claude-deploy-guard.sh'), matcher: 'Deploy', dialect: 'claude' },
      { command: dialectHook('claude-read-guard.py'), matcher: 'Read', dialect: 'claude' },
    ])}${extra}`;

  it("a host's own tool gets a Claude name and argument keys, both ways", async () => {
    const home = makeHome(
      config(`dialects:
  claude:
    tools:
      Deploy: deploy        # extend: the host's deploy tool is "Deploy" to Claude hooks
      Read: view_file       # override: this host's read tool is view_file
    args:
      Deploy:
        env_name: environment
`),
    );
    const blocked = await testReport(home, 'pre_tool_call', call('deploy', { environment: 'production', version: '1.2.0' }));
    expect(blocked.code).toBe(2);
    expect(blocked.report.decision).toMatchObject({ action: 'block', message: 'No production deploys from the agent', decided_by: 0 });

    const rewritten = await testReport(home, 'pre_tool_call', call('deploy', { environment: 'stage', version: '1.2.0' }));
    expect(rewritten.code).toBe(0);
    expect(rewritten.report.decision.args).toEqual({ environment: 'staging', version: '1.2.0' });

    // Override: Claude's Read is view_file here, so the Read guard follows it and read_file is not Read any more.
    const viewed = await testReport(home, 'pre_tool_call', call('view_file', { path: '/x/.env' }));
    expect(viewed.code).toBe(2);
    expect(viewed.report.decision.message).toBe('/x/.env holds secrets; read .env.example instead');
    const read = await testReport(home, 'pre_tool_call', call('read_file', { path: '/x/.env' }));
    expect(read.code).toBe(0);
    expect(read.report.hooks[1]!.status).toBe('not_matched');
    expect(read.report.diagnostics).toEqual([]);
  });

  it('without the dialects: block the same hooks do not know the tool', async () => {
    const home = makeHome(config(''));
    const r = await testReport(home, 'pre_tool_call', call('deploy', { environment: 'production' }));
    expect(r.code).toBe(0);
    expect(r.report.hooks[0]!.status).toBe('not_matched');
  });

  it('a bad entry is a located warning in test and validate, and the good entries still apply', async () => {
    const home = makeHome(
      config(`dialects:
  claude:
    tools:
      Deploy: deploy
    events:
      Notification: not_an_event
  windsurf:
    tools: {}
`),
    );
    const r = await testReport(home, 'pre_tool_call', call('deploy', { env_name: 'production' }));
    expect(r.code).toBe(2); // Deploy still mapped
    const messages = r.report.diagnostics.map((d) => `${d.path}: ${d.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining("dialects.claude.events.Notification: 'not_an_event' is not a Hermes event"),
        expect.stringContaining("unknown dialect 'windsurf'"),
      ]),
    );
    const v = await cli(['validate', '--home', home]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/config\.yaml:\d+:\d+: warning: dialects\.claude\.events\.Notification/);
  });
});

// Issue 8, acceptance 3: `hermes-hooks import` converts the example configs from each agent's
// documentation and reports what it could not convert; `--write` merges into the profile's config
// with a backup, keeps comments and entries, is idempotent, and the result validates. Then the
// imported hooks really run: import → approve → run --dialect / test.

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  agentReads,
  agentStdin,
  assertBuilt,
  cli,
  cliBin,
  cliVia,
  DIALECT_FIXTURES,
  dialectHook,
  removeTempDirs,
  tempDir,
  testReport,
  type Json,
} from './dialects-helpers.js';

// The CLI runs in-process, once per agent as the real binary (the imported hooks' first run);
// hooks are real processes, which on a loaded 2-core machine takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(assertBuilt);
afterAll(removeTempDirs);

/** The documentation examples and where each agent keeps them in a project. */
const SOURCES = {
  claude: { fixture: 'claude-settings.json', at: '.claude/settings.json' },
  codex: { fixture: 'codex-hooks.json', at: '.codex/hooks.json' },
  gemini: { fixture: 'gemini-settings.json', at: '.gemini/settings.json' },
  cursor: { fixture: 'cursor-hooks.json', at: '.cursor/hooks.json' },
  qwen: { fixture: 'qwen-settings.json', at: '.qwen/settings.json' },
  droid: { fixture: 'droid-hooks.json', at: '.factory/hooks.json' },
} as const;
type Source = keyof typeof SOURCES;

/** A temp `my-project` holding one agent config, as the agent finds it. */
function projectWith(source: Source): { project: string; file: string } {
  const project = join(tempDir('hh-import-'), 'my-project');
  const file = join(project, SOURCES[source].at);
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(join(DIALECT_FIXTURES, 'configs', SOURCES[source].fixture), file);
  return { project, file };
}

/** What import must report as not carried over, per source (a substring of each message). */
const NOT_CONVERTED: Record<Source, string[]> = {
  claude: [
    'hooks.PreToolUse[0].hooks[2].if: the \'if\' rule "Bash(git *)" cannot be carried over',
    'hooks.PreToolUse[3].hooks[0].timeout: timeout 900 s exceeds the maximum of 300 s; clamped to 300',
    'hooks.PreToolUse[3].hooks[1].type: http hooks (http://localhost:8080/hooks/pre-tool-use) cannot be carried over',
    'hooks.PostToolUse[0].hooks[1].async: async cannot be carried over',
    "hooks.SessionStart[0].matcher: matcher 'compact' cannot be carried over",
    "hooks.Notification: Claude Code event 'Notification' has no Hermes counterpart; not imported: notify-send",
    "hooks.PermissionRequest: Claude Code event 'PermissionRequest' has no Hermes counterpart; not imported: /home/user/bin/auto-approve.sh",
    'hooks.Stop[0].hooks[0].type: prompt hooks cannot be carried over',
    'hooks.Stop[0].hooks[1].onFailure: fail-closed only applies to pre_tool_call',
  ],
  codex: [
    "hooks.SessionStart[0].matcher: matcher 'startup|resume' cannot be carried over",
    "hooks.PreToolUse[2].matcher: matcher 'mcp__(fs' is not a valid regex (Codex skips this group); not imported",
    "hooks.PermissionRequest: Codex CLI event 'PermissionRequest' has no Hermes counterpart",
    'hooks.PostToolUse[0].hooks[0].async: async cannot be carried over',
    'hooks.PostToolUse[0].hooks[1].type: agent hooks cannot be carried over',
    'hooks.UserPromptSubmit[0].hooks[0].enabled: disabled in the source; not imported',
  ],
  gemini: [
    'hooks.BeforeTool[1].sequential: sequential cannot be carried over',
    'hooks.BeforeTool[1].hooks[0].env: env cannot be carried over',
    'hooks.BeforeTool[1].hooks[0].timeout: timeout 30 is in milliseconds here and becomes 1 s',
    'hooks.AfterAgent[0].hooks[0].timeout: timeout 600000 ms exceeds the maximum of 300 s',
    "hooks.SessionStart[0].matcher: matcher 'startup' cannot be carried over",
    "hooks.BeforeModel: Gemini CLI event 'BeforeModel' has no Hermes counterpart; not imported: /opt/hooks/model-guard.sh",
  ],
  cursor: [
    'hooks.beforeShellExecution[1].matcher: matcher on beforeShellExecution cannot be carried over',
    'hooks.afterFileEdit[0].failClosed: fail-closed only applies to pre_tool_call',
    'hooks.beforeSubmitPrompt[0].command: relative path hooks/prompt-check.ts in the arguments resolves from the working directory of Hermes',
    'hooks.stop[0].loop_limit: loop_limit cannot be carried over',
    "hooks.afterAgentThought: Cursor event 'afterAgentThought' has no Hermes counterpart; not imported: ./hooks/thoughts.sh",
    'hooks.sessionStart[0].type: prompt hooks cannot be carried over',
  ],
  qwen: ['hooks.PreToolUse[0].hooks[1].timeout: timeout 2500 is read as milliseconds by Qwen Code (1000 and up are ms) and becomes 3 s'],
  // Droid's hooks.json is keyed by event at the top level: the places have no `hooks.` in front.
  droid: ["Notification: Factory Droid event 'Notification' has no Hermes counterpart; not imported"],
};

/**
 * `validate --json` on a profile, without its findings about scripts that are not on this machine
 * (the imported configs name the projects' and users' own files): what is wrong with the config itself.
 */
/**
 * Codex's example finds its policy script with `$(git rev-parse --show-toplevel)`: converted as
 * `sh -c '…'`, consent cannot follow the substitution to pin that script, so validate says the
 * hook cannot be approved as written (issue 29) — the one problem an import of it leaves.
 */
const CODEX_POLICY_UNPINNABLE =
  'cannot be approved: its -c code cannot be followed (it runs a command substitution, a here-document or a positional parameter, ' +
  'whose commands cannot be read from the text), so the scripts it runs could not be pinned — put that code in a script file and make the script the command';

async function configProblems(home: string): Promise<{ hooks: number; problems: string[] }> {
  const v = JSON.parse((await cli(['validate', '--json', '--home', home])).stdout) as {
    hooks: number;
    diagnostics: { level: string; path: string; message: string }[];
  };
  const absent = (d: { path: string; message: string }): boolean => d.path.endsWith('.command') && /^(file|command) not found: /.test(d.message);
  return { hooks: v.hooks, problems: v.diagnostics.filter((d) => d.level !== 'info' && !absent(d)).map((d) => `${d.path}: ${d.message}`) };
}

describe('import converts the documentation examples of each agent', () => {
  for (const source of Object.keys(SOURCES) as Source[]) {
    it(`${source}: the hooks: block, and every part that could not be converted, with its place`, async () => {
      const { project, file } = projectWith(source);
      const home = tempDir();
      // Claude's example, the longest, through the real binary: all of stdout drained before exit.
      const r = await cliVia(source === 'claude' ? 'bin' : 'main', ['import', file, '--home', home]);
      expect(r.code, r.stderr).toBe(0);
      const expected = readFileSync(join(DIALECT_FIXTURES, 'expected', `${source}.yaml`), 'utf8')
        .split('/home/user/my-project')
        .join(project);
      expect(r.stdout).toBe(expected);
      // Each report line is file:line:column: level: path: message.
      for (const what of NOT_CONVERTED[source]) {
        const line = r.stderr.split('\n').find((l) => l.includes(what));
        expect(line, `stderr reports: ${what}\n--- stderr:\n${r.stderr}`).toBeDefined();
        expect(line!.startsWith(`${file}:`)).toBe(true);
        expect(line).toMatch(/^[^:]+:\d+:\d+: (warning|info): /);
      }
      // Nothing was written anywhere without --write.
      expect(readdirSync(home)).toEqual([]);
    });
  }

  it('--json gives the hooks, the diagnostics with lines, and no write', async () => {
    const { file } = projectWith('cursor');
    const r = await cli(['import', file, '--json', '--home', tempDir()]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      dialect: string;
      hooks: Json[];
      diagnostics: { level: string; path: string; line: number | null }[];
      config: null;
      backup: null;
    };
    expect(out.dialect).toBe('cursor');
    expect(out.hooks).toHaveLength(8);
    expect(out.hooks[0]).toMatchObject({
      event: 'pre_tool_call',
      matcher: 'terminal',
      timeout: 10,
      fail_closed: true,
      dialect: 'cursor',
      source: 'hooks.beforeShellExecution[0]',
    });
    expect(out.diagnostics.find((d) => d.path === 'hooks.stop[0].loop_limit')).toMatchObject({ level: 'warning', line: 13 });
    expect(out).toMatchObject({ config: null, backup: null });
  });

  it('a file that is not JSON, or a config.toml, is an error (exit 1) with its place', async () => {
    const dir = tempDir();
    const bad = join(dir, '.claude', 'settings.json');
    mkdirSync(dirname(bad), { recursive: true });
    writeFileSync(bad, '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
    const r = await cli(['import', bad, '--home', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/settings\.json:3:\d+: error: not valid JSON/);
    const toml = join(dir, 'config.toml');
    writeFileSync(toml, '[hooks]\n');
    const t = await cli(['import', toml, '--home', tempDir()]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('move them to a hooks.json');
  });
});

describe('import --write', () => {
  const EXISTING = `# My Hermes profile: keep this comment
model:
  default: anthropic/claude-sonnet   # the usual one

hooks:
  # guard the terminal (hand-written)
  pre_tool_call:
  - command: /opt/hooks/guard.sh   # existing entry
    matcher: terminal
    timeout: 10
  on_session_start:
    - command: /opt/hooks/hello.sh

dialects:
  claude:
    tools:
      Deploy: deploy   # the host's deploy tool

hooks_auto_accept: false
`;

  it('(a) writes a backup of the original bytes, (b) keeps comments and entries, (d) validates', async () => {
    const home = tempDir();
    const config = join(home, 'config.yaml');
    writeFileSync(config, EXISTING, { mode: 0o640 });
    const modeBefore = statSync(config).mode & 0o777;
    const { file, project } = projectWith('claude');

    const r = await cli(['import', file, '--write', '--home', home]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Merged 10 hook\(s\) into .*config\.yaml \(backup: .*config\.yaml\.bak-[\dT-]+Z\)/);

    // (a) one backup, byte for byte the config before the merge.
    const backups = readdirSync(home).filter((f) => f.startsWith('config.yaml.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(home, backups[0]!), 'utf8')).toBe(EXISTING);

    // (b) every comment survives, every key and entry that was there is still there, first.
    const merged = readFileSync(config, 'utf8');
    for (const comment of [
      '# My Hermes profile: keep this comment',
      '# the usual one',
      '# guard the terminal (hand-written)',
      '# existing entry',
      "# the host's deploy tool",
    ]) {
      expect(merged).toContain(comment);
    }
    const before = parse(EXISTING) as Json;
    const after = parse(merged) as { hooks: Record<string, Json[]> } & Json;
    expect(after['model']).toEqual(before['model']);
    expect(after['dialects']).toEqual(before['dialects']);
    expect(after['hooks_auto_accept']).toBe(false);
    expect(after.hooks['pre_tool_call']![0]).toEqual({ command: '/opt/hooks/guard.sh', matcher: 'terminal', timeout: 10 });
    expect(after.hooks['on_session_start']![0]).toEqual({ command: '/opt/hooks/hello.sh' });
    // …and the imported ones follow, as import printed them.
    const imported = parse((await cli(['import', file, '--home', tempDir()])).stdout) as { hooks: Record<string, Json[]> };
    for (const [event, entries] of Object.entries(imported.hooks)) {
      const existing = (before['hooks'] as Record<string, unknown[]>)[event]?.length ?? 0;
      expect(after.hooks[event]!.slice(existing), event).toEqual(entries);
    }
    expect(merged).toContain(`${project}/.claude/hooks/stop-check.sh`);
    expect(statSync(config).mode & 0o777).toBe(modeBefore); // the file's own mode is kept

    // (d) the result passes validate (but for the scripts it names, which are not on this machine).
    expect(await configProblems(home)).toEqual({ hooks: 12, problems: [] });
  });

  it('(c) is idempotent: a second run adds nothing, writes nothing and says so', async () => {
    const home = tempDir();
    const config = join(home, 'config.yaml');
    writeFileSync(config, EXISTING);
    const { file } = projectWith('gemini');
    expect((await cli(['import', file, '--write', '--home', home])).code).toBe(0);
    const once = readFileSync(config, 'utf8');
    const backupsOnce = readdirSync(home).filter((f) => f.includes('.bak-'));

    const again = await cli(['import', file, '--write', '--home', home]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Nothing to merge: all 6 hook(s) are already in');
    expect(readFileSync(config, 'utf8')).toBe(once);
    expect(readdirSync(home).filter((f) => f.includes('.bak-'))).toEqual(backupsOnce);
    const json = JSON.parse((await cli(['import', file, '--write', '--json', '--home', home])).stdout) as Json;
    expect(json).toMatchObject({ added: 0, backup: null });
  });

  it('all four agents merged into one profile: each adds its own, the result validates and lists', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.yaml'), 'hooks: {}\n');
    const counts: number[] = [];
    for (const source of ['claude', 'codex', 'gemini', 'cursor'] as const) {
      const r = await cli(['import', projectWith(source).file, '--write', '--json', '--home', home]);
      expect(r.code, r.stderr).toBe(0);
      counts.push((JSON.parse(r.stdout) as { added: number }).added);
    }
    expect(counts).toEqual([10, 5, 6, 8]);
    expect(await configProblems(home)).toEqual({ hooks: 29, problems: [`hooks.pre_tool_call[6].command: ${CODEX_POLICY_UNPINNABLE}`] });
    const list = await cli(['list', '--home', home]);
    expect(list.code).toBe(0);
  });

  it('creates the config when there is none (no backup), mode 0600', async () => {
    const home = tempDir();
    const r = await cli(['import', projectWith('codex').file, '--write', '--home', home]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(home)).toEqual(['config.yaml']);
    expect(statSync(join(home, 'config.yaml')).mode & 0o777).toBe(0o600);
    expect((await configProblems(home)).problems).toEqual([`hooks.pre_tool_call[0].command: ${CODEX_POLICY_UNPINNABLE}`]);
  });

  it('refuses a config whose hooks: cannot take entries, and leaves it untouched', async () => {
    const home = tempDir();
    const config = join(home, 'config.yaml');
    writeFileSync(config, 'hooks:\n  - not a mapping\n');
    const r = await cli(['import', projectWith('codex').file, '--write', '--home', home]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hooks: in config.yaml is not a mapping');
    expect(readFileSync(config, 'utf8')).toBe('hooks:\n  - not a mapping\n');
    expect(readdirSync(home)).toEqual(['config.yaml']);
  });
});

describe('imported hooks run: import --write → approve --all → run --dialect', () => {
  /** A project whose agent config points at real agent-style hook scripts. */
  function realProject(agentDir: string, configName: string, config: Json, scripts: Record<string, string>): { project: string; file: string } {
    const project = join(tempDir('hh-real-'), 'proj');
    const file = join(project, agentDir, configName);
    mkdirSync(join(project, agentDir, 'hooks'), { recursive: true });
    for (const [name, from] of Object.entries(scripts)) copyFileSync(from, join(project, agentDir, 'hooks', name));
    writeFileSync(file, JSON.stringify(config, null, 2));
    return { project, file };
  }

  async function importAndApprove(file: string): Promise<string> {
    const home = tempDir();
    const w = await cli(['import', file, '--write', '--home', home]);
    expect(w.code, w.stderr).toBe(0);
    const a = await cli(['approve', '--all', '--home', home]);
    expect(a.code, a.stderr).toBe(0);
    return home;
  }

  it('claude: "$CLAUDE_PROJECT_DIR"/.claude/hooks/… guards block and rewrite, as Claude would see them', async () => {
    const { project, file } = realProject(
      '.claude',
      'settings.json',
      {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/bash-guard.sh', timeout: 10 }] },
            { matcher: 'Read', hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/read-guard.py' }] },
          ],
        },
      },
      { 'bash-guard.sh': dialectHook('claude-bash-guard.sh'), 'read-guard.py': dialectHook('claude-read-guard.py') },
    );
    const home = await importAndApprove(file);
    const config = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(config).toContain(`${project}/.claude/hooks/bash-guard.sh`);

    const rm = agentStdin('claude-PreToolUse-Bash');
    (rm['tool_input'] as Json)['command'] = 'rm -rf /';
    const blocked = cliBin(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: rm });
    expect(agentReads('claude', 'PreToolUse', blocked)).toEqual({ kind: 'block', reason: "Blocked: 'rm -rf /' is not allowed here" });

    const read = await cli(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: agentStdin('claude-PreToolUse-Read') });
    expect(agentReads('claude', 'PreToolUse', read)).toEqual({
      kind: 'rewrite',
      input: { file_path: '/home/user/my-project/src/app.ts', offset: 10, limit: 50 },
    });

    // The same hooks from a Hermes host (the dry run): our tool names, our keys.
    const dry = await testReport(home, 'pre_tool_call', { tool_name: 'terminal', tool_input: { command: 'git push -f' } });
    expect(dry.code).toBe(2);
  });

  it('gemini: a settings.json with comments and ms timeouts; the BeforeTool hook denies and rewrites', async () => {
    const project = join(tempDir('hh-real-'), 'proj');
    const file = join(project, '.gemini', 'settings.json');
    mkdirSync(join(project, '.gemini', 'hooks'), { recursive: true });
    copyFileSync(dialectHook('gemini-before-tool.sh'), join(project, '.gemini', 'hooks', 'before-tool.sh'));
    writeFileSync(
      file,
      `{
  // project hooks
  "hooks": {
    "BeforeTool": [
      { "matcher": "write_file|run_shell_command", "hooks": [
        { "name": "guard", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/before-tool.sh", "timeout": 15000 }
      ] }
    ]
  }
}
`,
    );
    const home = await importAndApprove(file);
    const hooks = parse(readFileSync(join(home, 'config.yaml'), 'utf8')) as { hooks: { pre_tool_call: Json[] } };
    expect(hooks.hooks.pre_tool_call[0]).toMatchObject({ timeout: 15, dialect: 'gemini', matcher: '.*(?:write_file|run_shell_command).*' });

    const env = cliBin(['run', 'BeforeTool', '--dialect', 'gemini', '--home', home], {
      stdin: { ...agentStdin('gemini-BeforeTool'), tool_input: { file_path: 'prod.env', content: 'X=1' } },
    });
    expect(agentReads('gemini', 'BeforeTool', env)).toEqual({ kind: 'block', reason: 'Writing .env files is not allowed' });
    const md = await cli(['run', 'BeforeTool', '--dialect', 'gemini', '--home', home], { stdin: agentStdin('gemini-BeforeTool') });
    expect(agentReads('gemini', 'BeforeTool', md)).toEqual({ kind: 'rewrite', input: { file_path: 'docs/notes.md', content: '# Notes\n' } });
  });

  it('cursor: ./hooks/… resolved from the folder of hooks.json; beforeShellExecution becomes a terminal matcher', async () => {
    const { file } = realProject(
      '.cursor',
      'hooks.json',
      { version: 1, hooks: { beforeShellExecution: [{ command: './hooks/before-shell.sh', failClosed: true, timeout: 10 }] } },
      { 'before-shell.sh': dialectHook('cursor-before-shell.sh') },
    );
    const home = await importAndApprove(file);
    const publish = cliBin(['run', 'beforeShellExecution', '--dialect', 'cursor', '--home', home], { stdin: agentStdin('cursor-beforeShellExecution') });
    expect(agentReads('cursor', 'beforeShellExecution', publish)).toEqual({ kind: 'block', reason: 'Do not run npm publish; ask the user to publish.' });
    // A Claude session served by the same profile gets the Cursor hook's answer in Claude's form.
    const claude = agentStdin('claude-PreToolUse-Bash');
    (claude['tool_input'] as Json)['command'] = 'git push origin main';
    const push = await cli(['run', 'PreToolUse', '--dialect', 'claude', '--home', home], { stdin: claude });
    expect(agentReads('claude', 'PreToolUse', push)).toEqual({ kind: 'ask', reason: 'Push to the remote?', input: null });
  });

  it('codex: a hooks.json policy; allow + updatedInput comes back to Codex', async () => {
    const { file } = realProject(
      '.codex',
      'hooks.json',
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 /dev/null/placeholder' }] }] } },
      { 'policy.py': dialectHook('codex-policy.py') },
    );
    // Point the command at the copied script (a path Codex users write literally).
    const policy = join(dirname(file), 'hooks', 'policy.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('/dev/null/placeholder', policy));
    const home = await importAndApprove(file);
    const r = cliBin(['run', 'PreToolUse', '--dialect', 'codex', '--home', home], { stdin: agentStdin('codex-PreToolUse') });
    expect(agentReads('codex', 'PreToolUse', r)).toEqual({ kind: 'rewrite', input: { command: 'pip install --user requests' } });
    expect(existsSync(join(home, 'shell-hooks-allowlist.json'))).toBe(true);
  });
});

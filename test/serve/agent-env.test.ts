// The platform an agent session counts as behind serve (issue 23): Claude Code tells its command
// hooks CLAUDE_CODE_SESSION_ATTENDED; the bundled client forwards it in X-Hermes-Hooks-Agent-Env,
// so serve answers as `run --dialect` answers in that env — a `claude -p` loop is stopped either way.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, baseEnv, CLIENT, CLIENT_BASH, cleanupTemps, http, runShell, startServe, stopServe } from './_helpers.js';

afterAll(cleanupTemps);

const HOOK = join(import.meta.dirname, '../fixtures/cli-dialects/hooks/hermes-platform.sh');
const stdin = JSON.stringify({ session_id: 'p', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

describe('X-Hermes-Hooks-Agent-Env', () => {
  it("Claude's attended indicator decides the platform the hooks see; absent → cli; another agent's variable is not read", async () => {
    const home = await approvedHome({ pre_tool_call: [HOOK] });
    const served = await startServe(home, []);
    try {
      const seen = async (agent: string, event: string, header?: string): Promise<string> => {
        const res = await http({ socketPath: served.socket! }, 'POST', `/v1/agent/${agent}/${event}`, {
          body: stdin.replace('PreToolUse', event),
          headers: header === undefined ? {} : { 'x-hermes-hooks-agent-env': header },
        });
        expect(res.status).toBe(200);
        return res.headers['x-hermes-hooks-stderr'] ? decodeURIComponent(String(res.headers['x-hermes-hooks-stderr'])) : res.body;
      };
      expect(await seen('claude', 'PreToolUse', 'CLAUDE_CODE_SESSION_ATTENDED=0')).toContain('platform=headless');
      expect(await seen('claude', 'PreToolUse', 'CLAUDE_CODE_SESSION_ATTENDED=1')).toContain('platform=cli');
      expect(await seen('claude', 'PreToolUse')).toContain('platform=cli');
      expect(await seen('codex', 'PreToolUse', 'CLAUDE_CODE_SESSION_ATTENDED=0')).toContain('platform=cli');
    } finally {
      expect(await stopServe(served)).toBe(0);
    }
  }, 60_000);

  it.each([
    ['perl', CLIENT],
    ['bash', CLIENT_BASH],
  ])(
    "print-config claude's client (%s) forwards CLAUDE_CODE_SESSION_ATTENDED: a claude -p session counts as headless, as through run",
    async (_name, client) => {
      const home = await approvedHome({ pre_tool_call: [HOOK] });
      const hooks = JSON.parse((await runMain(['print-config', 'claude', '--home', home])).stdout).hooks;
      const printed = hooks.PreToolUse[0].hooks[0].command as string;
      // Named in the home's client settings, not in the command (kept short: Claude shows it in its error lines).
      expect(printed).not.toContain('--agent-env');
      expect(readFileSync(join(home, 'hermes-hooks-client.env'), 'utf8')).toContain('\nHERMES_HOOKS_AGENT_ENV_claude=CLAUDE_CODE_SESSION_ATTENDED\n');
      const interpreter = client === CLIENT ? 'perl' : 'bash';
      const bin = (await runShell(`command -v ${interpreter}`, '')).stdout.trim();
      const command = printed.replace(/ \S+ \S+hermes-hooks-client claude /, ` ${bin} ${client} claude `);
      expect(command).toContain(`${bin} ${client} claude PreToolUse`);
      const served = await startServe(home, []);
      try {
        const seen = async (attended?: string) =>
          (await runShell(command, stdin, baseEnv(attended === undefined ? {} : { CLAUDE_CODE_SESSION_ATTENDED: attended }))).stdout;
        expect(await seen('0')).toContain('platform=headless');
        expect(await seen('1')).toContain('platform=cli');
        expect(await seen()).toContain('platform=cli');
      } finally {
        expect(await stopServe(served)).toBe(0);
      }
    },
    60_000,
  );
});

// `doctor --agent claude` (issue 23): Claude Code runs no http hook on SessionStart or Setup, so an
// http entry there is a ✗ naming the fix; what `print-config claude --http` prints has none.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, makeHome, runMain, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

function setup(): { home: string; project: string; hh: string } {
  const root = tempDir('hh-agent-http-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  return { home, project, hh: makeHome('hooks:\n  pre_tool_call:\n    - command: /bin/true\n') };
}

async function problems(s: { home: string; project: string; hh: string }): Promise<string[]> {
  const r = await runMain(['doctor', '--agent', 'claude', '--home', s.hh, '--project', s.project, '--json'], {
    env: { PATH: process.env.PATH, HOME: s.home, LANG: 'C.UTF-8' },
  });
  const report = JSON.parse(r.stdout) as { general: { ok: boolean | null; message: string }[] };
  return report.general.filter((c) => c.ok === false).map((c) => c.message);
}

const http = (event: string) => ({ type: 'http', url: `http://127.0.0.1:8765/v1/agent/claude/${event}`, timeout: 310 });

describe('doctor --agent claude: http entries Claude skips', () => {
  it('an http SessionStart (and Setup) entry is ✗ with the fix', async () => {
    const s = setup();
    const file = join(s.home, '.claude/settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [http('SessionStart')] }],
          Setup: [{ hooks: [http('Setup')] }],
          PreToolUse: [{ matcher: '*', hooks: [http('PreToolUse')] }],
        },
      }),
    );
    const found = (await problems(s)).filter((m) => m.includes('skips HTTP hooks'));
    expect(found).toEqual([
      `${file}: Claude Code skips HTTP hooks on SessionStart: this event never reaches hermes-hooks — use the command hook 'hermes-hooks print-config claude' prints`,
      `${file}: Claude Code skips HTTP hooks on Setup: this event never reaches hermes-hooks — use the command hook 'hermes-hooks print-config claude' prints`,
    ]);
  });

  it("print-config claude --http's snippet: no such ✗ (SessionStart is a command hook through the client)", async () => {
    const s = setup();
    const printed = await runMain(['print-config', 'claude', '--http', '--home', s.hh]);
    expect(printed.code).toBe(0);
    const snippet = JSON.parse(printed.stdout) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> };
    const start = snippet.hooks['SessionStart']![0]!.hooks[0]!;
    expect(start['type']).toBe('command');
    expect(start['command']).toMatch(/hermes-hooks-client claude SessionStart --gate 0 --home /);
    expect(start).not.toHaveProperty('onFailure');
    expect(snippet.hooks['PreToolUse']![0]!.hooks[0]).toMatchObject({ type: 'http', onFailure: 'block' });
    // The server must listen on the socket as well as on TCP for the client-wired event.
    expect(printed.stderr).toMatch(/To run it now: hermes-hooks serve --home \S+ --socket \S+hermes-hooks\.sock --http 127\.0\.0\.1:8765/);
    writeFileSync(join(s.home, '.claude/settings.json'), printed.stdout);
    expect((await problems(s)).filter((m) => m.includes('skips HTTP hooks'))).toEqual([]);
  });
});

describe('doctor --agent: the platform rule', () => {
  it("is said (JSON `platform`, and an ℹ line), with the config's platform when it sets one", async () => {
    const s = setup();
    const env = { PATH: process.env.PATH, HOME: s.home, LANG: 'C.UTF-8' };
    const json = await runMain(['doctor', '--agent', 'codex', '--home', s.hh, '--project', s.project, '--json'], { env });
    expect(JSON.parse(json.stdout).platform).toMatch(/^guardrails count Codex sessions as platform 'cli'/);
    writeFileSync(join(s.hh, 'config.yaml'), 'hooks:\n  pre_tool_call:\n    - command: /bin/true\ndialects:\n  claude:\n    platform: telegram\n');
    const text = await runMain(['doctor', '--agent', 'claude', '--home', s.hh, '--project', s.project], { env });
    expect(text.stdout).toContain("  ℹ guardrails count Claude Code sessions as platform 'telegram' (dialects.claude.platform in config.yaml)\n");
  });
});

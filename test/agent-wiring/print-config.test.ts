import { describe, expect, it } from 'vitest';
import { AGENT_HOOK_TIMEOUT_S } from '../../src/deadlines.js';
import { parseDialectInput } from '../../src/dialects/translate-call.js';
import { DEFAULT_DIALECT_MAPS as maps, AGENT_DIALECTS } from '../../src/dialects/names.js';
import { printDialectConfig, setupNotes, wiredEvents } from '../../src/agent-wiring/print-config.js';

describe('printDialectConfig', () => {
  it('Claude: a settings.json hooks block wiring every mappable event to `run <event> --dialect claude`', () => {
    const text = printDialectConfig('claude', { command: 'hermes-hooks' });
    expect(text.endsWith('}\n')).toBe(true);
    const handler = (ev: string) => ({ type: 'command', command: `hermes-hooks run ${ev} --dialect claude`, timeout: AGENT_HOOK_TIMEOUT_S });
    expect(JSON.parse(text)).toEqual({
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [{ ...handler('PreToolUse'), onFailure: 'block' }] }],
        PostToolUse: [{ matcher: '*', hooks: [handler('PostToolUse')] }],
        PostToolUseFailure: [{ matcher: '*', hooks: [handler('PostToolUseFailure')] }],
        UserPromptSubmit: [{ hooks: [handler('UserPromptSubmit')] }],
        Stop: [{ hooks: [handler('Stop')] }],
        SessionStart: [{ hooks: [handler('SessionStart')] }],
        SessionEnd: [{ hooks: [handler('SessionEnd')] }],
        SubagentStart: [{ hooks: [handler('SubagentStart')] }],
        SubagentStop: [{ hooks: [handler('SubagentStop')] }],
      },
    });
  });

  it('Gemini timeouts are milliseconds; Codex wires only its events', () => {
    const gemini = JSON.parse(printDialectConfig('gemini', { command: 'npx hermes-hooks --profile work' }));
    expect(gemini.hooks.BeforeTool).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            name: 'hermes-hooks',
            type: 'command',
            command: 'npx hermes-hooks --profile work run BeforeTool --dialect gemini',
            timeout: AGENT_HOOK_TIMEOUT_S * 1000,
          },
        ],
      },
    ]);
    expect(Object.keys(gemini.hooks)).toEqual(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart', 'SessionEnd']);
    expect(Object.keys(JSON.parse(printDialectConfig('codex', { command: 'hermes-hooks' })).hooks)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'UserPromptSubmit',
      'Stop',
      'SessionStart',
    ]);
  });

  it('Cursor: version 1, flat entries, and no family events (they would run every hook twice per call)', () => {
    const cursor = JSON.parse(printDialectConfig('cursor', { command: 'hermes-hooks' }));
    expect(cursor.version).toBe(1);
    // failClosed on the tool gate: a command that cannot start blocks in Cursor instead of allowing.
    expect(cursor.hooks.preToolUse).toEqual([{ command: 'hermes-hooks run preToolUse --dialect cursor', timeout: AGENT_HOOK_TIMEOUT_S, failClosed: true }]);
    expect(cursor.hooks.postToolUse).toEqual([{ command: 'hermes-hooks run postToolUse --dialect cursor', timeout: AGENT_HOOK_TIMEOUT_S }]);
    expect(Object.keys(cursor.hooks)).toEqual([
      'preToolUse',
      'postToolUse',
      'postToolUseFailure',
      'beforeSubmitPrompt',
      'afterAgentResponse',
      'stop',
      'sessionStart',
      'sessionEnd',
      'subagentStart',
      'subagentStop',
    ]);
  });

  it('every wired event is one `run --dialect` understands', () => {
    for (const dialect of AGENT_DIALECTS) {
      for (const ev of wiredEvents(dialect, maps)) {
        expect(parseDialectInput(dialect, maps, { hook_event_name: ev }), `${dialect} ${ev}`).not.toHaveProperty('error');
      }
    }
  });
});

describe('setupNotes: where the snippet goes and what the agent needs first', () => {
  it("names each agent's files (reference §a1) and ends with the doctor check", () => {
    const where: Record<string, string> = {
      claude: 'Where: merge the "hooks" object into ~/.claude/settings.json (every project) or',
      codex: 'Where: ~/.codex/hooks.json (user) or <repo>/.codex/hooks.json (project), merged into its "hooks".',
      gemini: 'Where: merge the "hooks" object into ~/.gemini/settings.json (user) or',
      cursor: 'Where: ~/.cursor/hooks.json (user) or <project>/.cursor/hooks.json (project); keep',
      goose: 'Where: a plugin folder, ~/.agents/plugins/hermes-hooks/ (user) or <project>/.agents/plugins/hermes-hooks/',
      antigravity: 'Where: merge the "hooks" object into ~/.gemini/config/hooks.json (user) or <workspace>/.agents/hooks.json',
      copilot: 'Where: save it as ~/.copilot/hooks/hermes-hooks.json (every *.json there is read) or',
      qwen: 'Where: merge the "hooks" object into ~/.qwen/settings.json (every project) or',
      droid: 'Where: ~/.factory/hooks.json (every project) or <project>/.factory/hooks.json, the events at the',
    };
    for (const dialect of AGENT_DIALECTS) {
      const notes = setupNotes(dialect);
      expect(notes[0], dialect).toBe(where[dialect]);
      expect(notes.at(-1), dialect).toBe(`Then check it: hermes-hooks doctor --agent ${dialect}`);
    }
  });

  it('Codex: trust via /hooks or --dangerously-bypass-hook-trust; Claude: workspace trust', () => {
    const codex = setupNotes('codex').join('\n');
    expect(codex).toContain('skips an untrusted one without\n  a word. Open the interactive codex, run /hooks and trust the hermes-hooks entries');
    expect(codex).toContain('--dangerously-bypass-hook-trust');
    expect(setupNotes('claude').join('\n')).toContain(
      "interactive Claude Code holds back settings-file hooks until the folder's\n  workspace-trust dialog is accepted",
    );
  });
});

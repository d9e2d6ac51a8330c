// Another agent's hooks block pasted under hooks: (issue 20 item 1), below the faces: the engine
// blocks exactly the calls its entries would have checked (their matchers, in their agent's tool
// names), says how to convert them, and `import --write` converts the file in place — dropping,
// and saying so, a key that has no Hermes counterpart.

import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine } from '../../src/index.js';
import { baseEnv, cleanupTemps, makeHome, runMain } from './_helpers.js';

afterAll(cleanupTemps);

const PASTED = [
  'hooks:',
  '  PreToolUse:',
  '    - matcher: Bash',
  '      hooks:',
  '        - type: command',
  '          command: /nonexistent/guard.sh',
  '  Notification:',
  '    - hooks: [{type: command, command: /nonexistent/notify.sh}]',
  '',
].join('\n');

describe("another agent's block under hooks:", () => {
  it('the engine blocks the calls its matcher selects (Bash = terminal), lets the others through, and runs nothing', async () => {
    const home = makeHome(PASTED);
    const engine = await createHookEngine({ home, env: baseEnv(), interactive: false, exitCleanup: false });
    try {
      expect(engine.diagnostics.filter((d) => d.level === 'error').map((d) => d.path)).toEqual(['hooks.PreToolUse', 'hooks.Notification']);
      const terminal = await engine.emit('pre_tool_call', { tool_name: 'terminal', args: { command: 'ls' } });
      expect(terminal.decision.action).toBe('block');
      expect(terminal.decision.message).toBe(
        `hooks.PreToolUse[0].hooks[0] in ${join(home, 'config.yaml')} is written in Claude Code's format, which Hermes does not read, so it did not run ` +
          `and this call it would have checked is blocked — convert it with: hermes-hooks import ${join(home, 'config.yaml')} --dialect claude --write`,
      );
      expect(terminal.hooks.filter((h) => h.kind === 'shell').map((h) => [h.status, h.command])).toEqual([['not_converted', '/nonexistent/guard.sh']]);
      const read = await engine.emit('pre_tool_call', { tool_name: 'read_file', args: { path: 'a' } });
      expect(read.decision.action).toBe('allow');
      expect(read.hooks.filter((h) => h.kind === 'shell').map((h) => h.status)).toEqual(['not_matched']);
    } finally {
      await engine.close({ finalize: false });
    }
  });

  it('import --write converts it in place, says which key it dropped, and validate then passes', async () => {
    const home = makeHome(PASTED);
    const config = join(home, 'config.yaml');
    const env = baseEnv();
    const r = await runMain(['import', config, '--dialect', 'claude', '--write', '--home', home], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `Converted hooks\\.PreToolUse in ${config.replace(/[.]/g, '\\.')} into 1 Hermes hook entry \\(backup: [^)]+\\); removed hooks\\.Notification, which could not be carried over \\(see above; the backup keeps it\\)\\. Approve them with 'hermes-hooks approve --all'\\.`,
      ),
    );
    expect(r.stderr).toContain("Claude Code event 'Notification' has no Hermes counterpart; not imported: /nonexistent/notify.sh");
    expect(readFileSync(config, 'utf8')).toBe('hooks:\n  pre_tool_call:\n    - command: /nonexistent/guard.sh\n      matcher: Bash\n      dialect: claude\n');
    expect(readdirSync(home).filter((f) => f.startsWith('config.yaml.bak-'))).toHaveLength(1);
    const validate = await runMain(['validate', '--home', home], { env });
    expect(validate.stdout + validate.stderr).not.toContain('PreToolUse');
    // Without --write it only prints the result and says how to apply it.
    const home2 = makeHome(PASTED);
    const dry = await runMain(['import', join(home2, 'config.yaml'), '--home', home2], { env });
    expect(dry.stdout).toContain('pre_tool_call:\n    - command: /nonexistent/guard.sh');
    expect(dry.stderr).toContain('run this again with --write (a backup is kept)');
    expect(readFileSync(join(home2, 'config.yaml'), 'utf8')).toBe(PASTED);
  });
});

// The command records are the one list: main parses, answers --help and prints MAIN_HELP from
// them, and the faces chosen by raw arguments (doctor --agent, run --dialect) are taken only then.

import { describe, expect, it } from 'vitest';
import { COMMANDS, findCommand, MAIN_HELP } from '../../src/cli/commands.js';
import { runMain } from './_helpers.js';

describe('command records', () => {
  it('every parsed command answers --help with its record’s help, on stdout, exit 0', async () => {
    for (const c of COMMANDS) {
      if (!('options' in c)) continue;
      const r = await runMain([c.name, '--help']);
      expect(r.code, c.name).toBe(0);
      expect(r.stdout, c.name).toBe(await c.help());
      expect(r.stdout, c.name).toMatch(new RegExp(`^Usage: hermes-hooks ${c.name} `));
    }
  });

  it('MAIN_HELP lists every listed record, in the list’s order, and main prints it', async () => {
    const listed = COMMANDS.flatMap((c) => (c.synopsis !== null ? [`  ${c.synopsis}`] : []));
    const at = listed.map((l) => MAIN_HELP.indexOf(`\n${l}  `));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect((await runMain(['--help'])).stdout).toBe(MAIN_HELP);
  });

  it('a face chosen by its raw arguments is taken only when they ask for it', () => {
    expect(findCommand('doctor', ['--agent', 'x'])).toHaveProperty('runRaw');
    expect(findCommand('doctor', ['--agent=x'])).toHaveProperty('runRaw');
    expect(findCommand('doctor', ['--json'])).toHaveProperty('options');
    expect(findCommand('run', ['--dialect', 'x'])).toHaveProperty('runRaw');
    expect(findCommand('run', ['--dialect=hermes'])).toHaveProperty('options');
    expect(findCommand('run', ['--', '--dialect', 'x'])).toHaveProperty('options');
    expect(findCommand('ls', [])).toBe(findCommand('list', []));
    expect(findCommand('toString', [])).toBeUndefined();
  });

  it('an option a command does not take is an error that names it and the command', async () => {
    const r = await runMain(['ls', '--bogus']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("hermes-hooks: list: Unknown option '--bogus'");
    expect(r.stderr).toContain("Run 'hermes-hooks list --help' for usage.");
  });
});

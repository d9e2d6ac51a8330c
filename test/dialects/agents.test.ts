// The registry is the only list of agents: every other list the code shows derives from it.

import { describe, expect, it } from 'vitest';
import { AGENT_DIALECTS, AGENTS, agentModule } from '../../src/dialects/agents/index.js';
import { DEFAULT_DIALECT_MAPS } from '../../src/dialects/names.js';
import { DIALECTS } from '../../src/config/hooks.js';
import { HookReportSchema } from '../../src/protocol/test-report.js';
import { runAsAgentCommand } from '../../src/cli/run-command.js';
import type { CliIO } from '../../src/cli/_io.js';

describe('the agent registry', () => {
  it('names each agent once, and its record answers to its name', () => {
    expect(new Set(AGENT_DIALECTS).size).toBe(AGENTS.length);
    for (const name of AGENT_DIALECTS) expect(agentModule(name).name).toBe(name);
  });

  it('is the list behind the config, the maps, the report schema and run --dialect', async () => {
    expect(DIALECTS).toEqual(['hermes', ...AGENT_DIALECTS]);
    expect(Object.keys(DEFAULT_DIALECT_MAPS)).toEqual([...AGENT_DIALECTS]);
    for (const name of AGENT_DIALECTS) expect(HookReportSchema.shape.dialect.safeParse(name).success).toBe(true);
    expect(HookReportSchema.shape.dialect.safeParse('nope').success).toBe(false);
    // Refused before anything is read: the io is never touched.
    await expect(runAsAgentCommand('nope', ['x', '--dialect', 'nope'], {} as CliIO)).rejects.toThrow(`(one of: ${AGENT_DIALECTS.join(', ')})`);
  });
});

// The "cannot decide" rule has one home (agent-wiring/call.ts) that every face calls: what
// hermes-hooks could not decide on a tool gate is a block saying why, read back by each agent's own
// rules as a block; on any other event nothing is enforced (null: the face reports an error).

import { describe, expect, it } from 'vitest';
import { undecidedAgentCall, undecidedBlock, undecidedHermesCall } from '../../src/agent-wiring/call.js';
import { AGENT_DIALECTS } from '../../src/dialects/agents/index.js';
import { evaluateDialectRun } from '../../src/dialects/evaluate.js';
import { DEFAULT_DIALECT_MAPS as maps, theirEventNames } from '../../src/dialects/names.js';
import { EVENT_NAMES, EVENTS } from '../../src/events.js';
import { record } from '../_dialect-fixtures.js';

describe('cannot decide', () => {
  it('every event that can block is blocked with the reason; every other event is left to the face', () => {
    for (const event of EVENT_NAMES) {
      const block = undecidedHermesCall(event, 'config.yaml: bad indentation\nusage: …');
      if (!EVENTS[event].canBlock) {
        expect(block, event).toBeNull();
        continue;
      }
      expect(block, event).toMatchObject({ event, action: 'block' });
      // One line: what follows the first line (a usage hint) is not for the transcript.
      expect(block!.message).toBe('hermes-hooks cannot decide, so it blocks this call: config.yaml: bad indentation (fix that)');
    }
    expect(undecidedBlock('pre_tool_call', 'why')).toMatchObject({ action: 'block', message: 'why' });
  });

  for (const agent of AGENT_DIALECTS) {
    it(`${agent}: its tool gate gets its own block, read back as a block; its other events get none`, () => {
      const gate = theirEventNames(maps, agent, 'pre_tool_call')[0]!;
      // The first named event that is a gate decides, whichever source named it.
      const answer = undecidedAgentCall(agent, maps, [undefined, gate], 'invalid hook input on stdin: Unexpected token');
      expect(answer).not.toBeNull();
      const spec = { event: 'pre_tool_call' as const, command: 'hermes-hooks', fail_closed: false, timeout: 310 };
      const read = evaluateDialectRun(agent, maps, spec, null, record(answer!.exitCode, answer!.stdout, answer!.stderr));
      expect(read).toMatchObject({ action: 'block' });
      expect(JSON.stringify(read)).toContain('invalid hook input on stdin: Unexpected token');
      expect(JSON.stringify(read)).toContain('--fail-open');
      const other = theirEventNames(maps, agent, 'on_session_start')[0];
      if (other !== undefined) expect(undecidedAgentCall(agent, maps, [other, undefined], 'anything')).toBeNull();
    });
  }
});

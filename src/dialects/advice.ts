// Advice that depends on which agent's protocol a hook speaks: how its hook says "block" is its
// record's (agents/<agent>.ts blockOnStdout), so a new agent's advice comes with its file. Pure.

import { failsClosed } from '../directives/messages.js';
import { agentModule, isAgentDialect } from './agents/index.js';

/** How a Hermes hook says "block" on stdout. */
const HERMES_BLOCK = '{"action":"block"}';

/**
 * A hook on the tool gate that exited non-zero but not 2, said nothing and is not fail_closed: the
 * call went ahead, most likely against its author's intent (exit 1 is how many think "no"). What
 * to do instead, after `exited N: `; null when that is not the case.
 */
export function exitCodeAdvice(
  event: string,
  h: { dialect?: string; exit_code: number | null; fail_closed?: boolean; directive: { action: string } | null },
): string | null {
  const code = h.exit_code;
  if (event !== 'pre_tool_call' || code === null || code === 0 || code === 2 || h.directive !== null) return null;
  if (failsClosed({ event, fail_closed: h.fail_closed === true })) return null; // it blocked, and says why
  const block = isAgentDialect(h.dialect) ? agentModule(h.dialect).blockOnStdout : HERMES_BLOCK;
  return `on pre_tool_call only exit 2 blocks; exit ${code} is a warning and the call went ahead — use exit 2 or print ${block}`;
}

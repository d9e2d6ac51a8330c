import { didYouMean } from '../config/hooks.js';
import { mimicsOf } from '../dialects/agents/index.js';
import { AGENT_LABELS, DEFAULT_DIALECT_MAPS } from '../dialects/names.js';
import { agentEventName } from '../dialects/recognise.js';
import { EVENTS, SORTED_EVENT_NAMES } from '../events.js';
import { CliError } from './_io.js';

/** The agents that write `agent`'s event names, in one parenthesis: ` (Codex: --dialect codex; Qwen Code: --dialect qwen)`. */
function alsoFor(agent: Parameters<typeof mimicsOf>[0]): string {
  const also = mimicsOf(agent).map((m) => `${m.label}: --dialect ${m.name}`);
  return also.length > 0 ? ` (${also.join('; ')})` : '';
}

/**
 * "Unknown event" with a did-you-mean, or the list of valid events. Another agent's event name
 * (`PreToolUse`) says which `--dialect` runs it and what Hermes calls it; given to `run`, a tool
 * gate's name exits 2, a block for every agent, since an agent reads an exit 1 as "go ahead".
 */
export function unknownEventError(event: string, command: 'run' | 'test' | 'approve' = 'test'): CliError {
  const theirs = agentEventName(event, DEFAULT_DIALECT_MAPS);
  if (theirs) {
    const label = AGENT_LABELS[theirs.agent];
    const gate = command === 'run' && EVENTS[theirs.event].canBlock;
    const fix =
      command === 'run'
        ? `as ${label}'s hook command: hermes-hooks run ${event} --dialect ${theirs.agent}${alsoFor(theirs.agent)}; ` +
          `with a Hermes payload: hermes-hooks run ${theirs.event}`
        : command === 'test'
          ? `did you mean: hermes-hooks test ${theirs.event}? (a hook written for ${label} needs dialect: ${theirs.agent} in its config entry)`
          : `did you mean --event ${theirs.event}?`;
    return new CliError(`${gate ? 'blocks this call: ' : ''}'${event}' is ${label}'s event name; Hermes calls it '${theirs.event}' — ${fix}`, gate ? 2 : 1);
  }
  const guess = didYouMean(event);
  return new CliError(
    guess ? `Unknown event: '${event}' — did you mean '${guess}'?` : `Unknown event: '${event}'\nValid events: ${SORTED_EVENT_NAMES.join(', ')}`,
  );
}

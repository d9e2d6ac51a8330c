// `hermes-hooks print-config <agent>`: the settings snippet that makes an agent call
// `hermes-hooks run <their event> --dialect <agent>` on every event we can serve.
//
// Timeouts: one `run` waits for the slowest of the profile's hooks (at most 300 s, plus 1 s to
// kill), so every handler gets 310 s — above Claude's 30 s UserPromptSubmit default and Gemini's
// 60 s default, which would otherwise cut a slow hook off and fail open.
// Cursor: its family events (beforeShellExecution, beforeReadFile, beforeMCPExecution and the
// after* ones) fire next to preToolUse/postToolUse for the same call, so only the general events
// are wired; wiring both would run the profile's hooks twice per call.

import { EVENTS } from '../events.js';
import { CURSOR_FAMILIES, DEFAULT_DIALECT_MAPS, type AgentDialect, type DialectMaps } from './names.js';

const RUN_TIMEOUT_SECONDS = 310;

/** Their events that print-config wires, in map order. */
export function wiredEvents(dialect: AgentDialect, maps: DialectMaps = DEFAULT_DIALECT_MAPS): string[] {
  return [...maps[dialect].events.keys()].filter((name) => dialect !== 'cursor' || CURSOR_FAMILIES[name] === undefined);
}

/** The JSON snippet (pretty-printed, ending in a newline) to paste into the agent's hook config. */
export function printDialectConfig(
  dialect: AgentDialect,
  opts: { command: string; maps?: DialectMaps },
): string {
  const maps = opts.maps ?? DEFAULT_DIALECT_MAPS;
  const commandFor = (theirEvent: string): string => `${opts.command} run ${theirEvent} --dialect ${dialect}`;
  const hooks: Record<string, unknown[]> = {};
  for (const theirEvent of wiredEvents(dialect, maps)) {
    const ours = maps[dialect].events.get(theirEvent)!;
    const toolScoped = EVENTS[ours].toolScoped;
    if (dialect === 'cursor') {
      hooks[theirEvent] = [{ command: commandFor(theirEvent), timeout: RUN_TIMEOUT_SECONDS }];
      continue;
    }
    const handler =
      dialect === 'gemini'
        ? { name: 'hermes-hooks', type: 'command', command: commandFor(theirEvent), timeout: RUN_TIMEOUT_SECONDS * 1000 }
        : { type: 'command', command: commandFor(theirEvent), timeout: RUN_TIMEOUT_SECONDS };
    hooks[theirEvent] = [toolScoped ? { matcher: '*', hooks: [handler] } : { hooks: [handler] }];
  }
  const snippet = dialect === 'cursor' ? { version: 1, hooks } : { hooks };
  return `${JSON.stringify(snippet, null, 2)}\n`;
}

// Which Hermes events a profile needs another agent to send (issue 33: an event with no hook costs
// zero): print-config wires only those, doctor --agent says when one is needed but not wired. Pure.
//
// Beyond the events the config's shell hooks are on:
//   - pre_tool_call, always: a config that breaks later, strict mode's refused guards, another
//     agent's unconverted hooks and the tool-loop guardrails all answer there (with a block);
//   - on_session_start, always: the start-of-session summary of the profile's problems (issue 30);
//   - post_tool_call while the tool-loop guardrails can act: they count each call's result;
//   - every event when plugins are enabled: their hooks are known only once loaded (which runs them).
// Human-input pairing and session finalize need nothing here: no agent has events that map to them.

import type { LoadedConfig } from '../config/load.js';
import type { EventName } from '../events.js';
import { parseGuardrailsConfig } from '../guardrails/guardrails.js';
import { parsePluginsConfig } from '../plugins/config.js';

export interface ProfileEvents {
  /** Each needed event and why, in words for notes ("the profile's post_tool_call hooks"). */
  needs: Map<EventName, string>;
  /** Why every event is needed (plugins enabled), or null when `needs` is the whole list. */
  everyEvent: string | null;
}

export function profileEvents(config: LoadedConfig): ProfileEvents {
  const needs = new Map<EventName, string>();
  for (const spec of config.specs) if (!needs.has(spec.event)) needs.set(spec.event, `the profile's ${spec.event} hooks`);
  if (!needs.has('pre_tool_call')) {
    needs.set('pre_tool_call', 'the tool gate (a config that breaks later, strict mode and the tool-loop guardrails block there)');
  }
  if (!needs.has('on_session_start')) needs.set('on_session_start', "the start-of-session summary of the profile's problems");
  const guard = parseGuardrailsConfig(config.source).config;
  if (!needs.has('post_tool_call') && (guard.warnings_enabled || guard.hard_stop_enabled || guard.non_interactive_hard_stop_enabled)) {
    needs.set(
      'post_tool_call',
      "the tool-loop guardrails, which count each call's result (tool_loop_guardrails: warnings_enabled, hard_stop_enabled and " +
        'non_interactive_hard_stop_enabled all false turn them off)',
    );
  }
  const plugins = parsePluginsConfig(config.source).enabled;
  const everyEvent = plugins.length > 0 ? `plugins ${plugins.join(', ')} are enabled and their hooks are known only once loaded` : null;
  return { needs, everyEvent };
}

/** Whether `event` is to be wired. */
export function isNeeded(p: ProfileEvents, event: EventName): boolean {
  return p.everyEvent !== null || p.needs.has(event);
}

// Public shapes of in-process plugin hooks: what a plugin registers and what one call produced.

import type { EventName } from '../events.js';
import type { Directive } from '../types.js';

/**
 * A plugin hook callback. It gets its own deep copy of the event kwargs (mutating it changes
 * nothing: a pre_tool_call plugin must *return* `{action:'modify', args}`) and an AbortSignal that
 * fires when the call is abandoned after `plugins.hook_callback_timeout`.
 */
export type PluginCallback = (kwargs: Record<string, unknown>, ctx: { signal: AbortSignal }) => unknown;

export interface PluginHook {
  /** The plugin's directory name (the name listed in `plugins.enabled`). */
  plugin: string;
  /** `<plugin>.<function name>`, or `<plugin>.<n>` for an anonymous callback (n = registration index). */
  name: string;
  event: EventName;
  callback: PluginCallback;
}

export type PluginCallStatus = 'ok' | 'error' | 'timeout' | 'suppressed';

/** What one bounded callback call produced, normalised for the resolver. */
export interface PluginCallOutcome {
  directive: Directive | null;
  status: PluginCallStatus;
  /** `<Type>: <message>` when it threw, a timeout/suppression note otherwise; null when ok. */
  error: string | null;
  duration_ms: number;
}

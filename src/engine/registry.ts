// What the engine keeps per registered hook. Order of the list is registration order:
// in-process callbacks (host + plugins) first, then shell hooks in config order, then built-ins.

import type { ConsentInfo } from '../consent/state.js';
import type { ToolMatcher } from '../config/matcher.js';
import type { EventName, HookSpec } from '../types.js';

/** A callback registered with HookEngine.registerHook: kwargs in, the event's answer (or null) out; may be async. */
export type InProcessCallback = (kwargs: Record<string, unknown>, ctx: { signal: AbortSignal }) => unknown;

/** A registered in-process callback (a host's or a plugin's). */
export interface CallbackEntry {
  kind: 'plugin';
  event: EventName;
  /** `<plugin>.<function>` or the host-given name. */
  name: string;
  plugin: string;
  callback: InProcessCallback;
}

/** A registered shell hook from config.yaml, with its consent and whether it runs. */
export interface ShellEntry {
  kind: 'shell';
  event: EventName;
  spec: HookSpec;
  matcher: ToolMatcher;
  /** Consent as decided at start-up (reports); whether it runs is decided again at each launch. */
  consent: ConsentInfo | null;
  /**
   * 'run' normally; 'safe_mode' = listed by the dry run under HERMES_SAFE_MODE, never run;
   * 'not_converted' = another agent's entry under `hooks:` (issue 20): never run, and on a tool gate
   * it blocks the calls it would have checked, saying how to convert it (`note`);
   * 'refused' = under strict mode (`hooks_fail_closed: true`), a tool-gate guard the config meant but
   * that cannot be registered: it blocks the calls it would have checked, naming file:line and the fix (`note`).
   */
  action: 'run' | 'safe_mode' | 'not_converted' | 'refused';
  note?: string;
}

/** A built-in hook (the tool-loop guardrails). */
export interface BuiltinEntry {
  kind: 'builtin';
  event: EventName;
  name: string;
}

/** One entry of HookEngine.hooksFor(event), in registration order. */
export type RegistryEntry = CallbackEntry | ShellEntry | BuiltinEntry;

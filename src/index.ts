// Public API: re-exports only.

export { createHookEngine, type EngineStats, type HookEngine, type HookEngineOptions, type ReloadResult } from './engine/create-engine.js';
export type { EmitOptions } from './engine/run-hooks.js';
export type { BuiltinEntry, CallbackEntry, InProcessCallback, RegistryEntry, ShellEntry } from './engine/registry.js';
export { stderrLogger, silentLogger } from './engine/logger.js';
export { HooksError, errorText } from './errors.js';
export { smokeRunHook } from './engine/smoke-run.js';

export { EVENTS, EVENT_NAMES, SORTED_EVENT_NAMES, isEventName, syntheticKwargs, type EventInfo } from './events.js';
export type * from './types.js';

export { parseConfigText, diagnosticAt, formatPath, type ConfigSource } from './config/source.js';
export { parseHooksConfig, isTruthyEnv, didYouMean } from './config/hooks.js';
export { loadConfig, type LoadedConfig } from './config/load.js';
export { locateConfig, ConfigLocationError, type ConfigLocation, type LocateOptions } from './config/locate.js';
export { checkLocation, type CheckedLocation } from './config/check-location.js';
export { compileMatcher, type ToolMatcher } from './config/matcher.js';

export * from './protocol/index.js';
export * from './directives/index.js';
export * from './resolve/index.js';

export { spawnHook, type SpawnHookOptions } from './spawn/run-hook.js';
export { splitCommand } from './shell-words.js';
export { killLiveHooks, installExitCleanup } from './spawn/live-hooks.js';

export { ConsentStore, ConsentApproveError, ConsentPersistError } from './consent/store.js';
export { consentOf, consentAllowsRun, type ConsentInfo } from './consent/state.js';
export { choosePinTarget, type PinTarget } from './consent/script-path.js';
export { inert } from './display.js';
export { applyConsentPolicy } from './consent/policy.js';

export { parseOutboundConfig, createOutboundDispatcher, signBody, verifySignature } from './outbound/dispatcher.js';
export { parseGuardrailsConfig, createToolLoopGuardrails } from './guardrails/guardrails.js';

export { loadPlugins, parsePluginsConfig } from './plugins/load.js';
export { createCallbackRunner } from './plugins/callback-runner.js';
export { loadGatewayHooks, createGatewayRegistry } from './gateway/gateway-hooks.js';
export {
  buildBootPrompt,
  createBootMdHook,
  isSilentReply,
  SILENT_TOKENS,
  type BootMdOptions,
  type BootRun,
} from './gateway/boot-md.js';
export type { GatewayHandler, GatewayHandlerInfo, GatewayHooks } from './gateway/types.js';
export { resolveCommandDecision } from './gateway/command-decision.js';
export type { CommandDecision, CommandVerdict, GatewayCommandContext, GatewayCommandVerdict } from './gateway/command-decision.js';
export {
  HUMAN_INPUT_OUTCOMES,
  HumanInputTracker,
  normaliseOutcome,
  redactHumanInputKwargs,
  type HumanInputOutcome,
  type PendingHumanInput,
} from './lifecycle/index.js';

export { main } from './cli/main.js';

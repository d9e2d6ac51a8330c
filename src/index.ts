// Public API: re-exports only, and only what a host embedding the engine needs (docs/api.md lists each;
// test/api.test.ts pins the list). Everything else is internal: import it from its module, not from here.

export { createHookEngine, type EngineStats, type HookEngine, type HookEngineOptions, type ReloadResult } from './engine/create-engine.js';
export type { EmitOptions, ReceivedInput } from './engine/run-hooks.js';
export type { EmitRecord } from './engine/options.js';
export type { BuiltinEntry, CallbackEntry, InProcessCallback, RegistryEntry, ShellEntry } from './engine/registry.js';
export { stderrLogger, silentLogger } from './engine/logger.js';
export { HooksError } from './errors.js';

export { EVENTS, EVENT_NAMES, isEventName, type EventInfo } from './events.js';
export type * from './types.js';

export { loadConfig, type LoadedConfig } from './config/load.js';
export { locateConfig, ConfigLocationError, type ConfigLocation, type LocateOptions } from './config/locate.js';

export { WirePayloadSchema, PartialWirePayloadSchema, type WirePayload, type PartialWirePayload } from './protocol/payload.js';
export { HookOutputSchema, type HookOutput } from './protocol/hook-output.js';
export { DecisionSchema } from './protocol/decision.js';
export { TestReportSchema, type HookReport, type TestReport } from './protocol/test-report.js';

export type { PromptInfo } from './consent/prompt.js';
export type { JudgedSubject } from './consent/trust.js';

export { verifySignature } from './outbound/signature.js';
export { buildBootPrompt, isSilentReply, type BootRun } from './gateway/boot-md.js';
export {
  resolveCommandDecision,
  type CommandDecision,
  type CommandVerdict,
  type GatewayCommandContext,
  type GatewayCommandVerdict,
} from './gateway/command-decision.js';
export { HUMAN_INPUT_OUTCOMES, type HumanInputOutcome } from './lifecycle/human-input.js';

// Lifecycle helpers for human-input and auxiliary-call events (re-exports only).
export { prepareAuxiliaryKwargs } from './auxiliary.js';
export {
  HUMAN_INPUT_OUTCOMES,
  HumanInputTracker,
  normaliseOutcome,
  redactHumanInputKwargs,
  requestIdOf,
  type HumanInputOutcome,
  type PendingHumanInput,
} from './human-input.js';
export { REDACTED, redactDeep, redactSecrets } from './redact.js';

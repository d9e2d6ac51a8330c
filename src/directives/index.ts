// stdout → Directive (dialects) and HookRun → Directive (exit 2, fail_closed). Pure.

export { evaluateRun, describeRun, type EvaluatedSpec } from './evaluate-run.js';
export {
  inspectStdout,
  isJsonObjectText,
  parseStdout,
  stdoutProblem,
  type StdoutInspection,
  type StdoutKind,
} from './parse-stdout.js';
export { answerProblem, honoursText, type AnswerProblem } from './answer-problem.js';
export {
  abnormalEndReason,
  DEFAULT_BLOCK_MESSAGE,
  FAIL_CLOSED_REASON,
  isFailClosedBlock,
  STDERR_MESSAGE_LIMIT,
  failClosedMessage,
} from './messages.js';
export {
  FAILOVER_REASONS,
  readTransformAnswer,
  TRANSFORM_EVENTS,
  TTS_BLOCKED,
  TTS_INVALID_DIRECTIVE,
  TTS_INVALID_SCRIPT,
  TTS_UNSTABLE,
  type AnswerOrigin,
} from './transforms.js';

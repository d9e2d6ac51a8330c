// The transform and rewrite events' answers → Directive, for plugin returns and (beyond Hermes)
// shell stdout. Pure. One reader per event so a plugin and a shell hook are held to the same rule;
// the only difference is the shape: a plugin may return a bare string where Hermes reads one, a
// shell hook, whose stdout is always a JSON object, says `{"action":"rewrite","text":…}` instead.

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import { pyStrip, pyTruthy } from '../util/python.js';
import type { Directive, JsonObject } from '../types.js';

/** Where the answer came from: a plugin's return value or a shell hook's parsed stdout object. */
export type AnswerOrigin = 'plugin' | 'shell';

/** Events whose answer replaces something the host holds (Decision.result). */
export const TRANSFORM_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'transform_tool_result',
  'transform_terminal_output',
  'transform_llm_output',
  'transform_api_error_classification',
  'pre_gateway_dispatch',
  'pre_transcription',
  'pre_tts_synthesis',
]);

/**
 * Hermes' `agent.error_classifier.FailoverReason` values. A classification whose reason (trimmed,
 * lower-cased) is not one of these is invalid and skipped, as Hermes skips it.
 */
export const FAILOVER_REASONS: ReadonlySet<string> = new Set([
  'auth',
  'auth_permanent',
  'billing',
  'rate_limit',
  'overloaded',
  'server_error',
  'timeout',
  'context_overflow',
  'payload_too_large',
  'image_too_large',
  'model_not_found',
  'provider_policy_blocked',
  'content_policy_blocked',
  'format_error',
  'thinking_signature',
  'long_context_tier',
  'oauth_long_context_beta_forbidden',
  'unknown',
]);

const CLASSIFICATION_HINTS = ['retryable', 'should_compress', 'should_rotate_credential', 'should_fallback'] as const;
const TRANSCRIPTION_KEYS = ['prompt', 'language', 'model'] as const;

export const TTS_BLOCKED = 'TTS synthesis blocked';
export const TTS_INVALID_DIRECTIVE = 'pre_tts_synthesis returned an invalid directive';
export const TTS_INVALID_SCRIPT = 'pre_tts_synthesis returned an invalid script or directive';
export const TTS_UNSTABLE = 'pre_tts_synthesis returned an unstable script';

/**
 * The directive a transform/rewrite event's answer carries, or null (no answer, or one the event
 * ignores). `value` is the plugin's return value, or the shell hook's stdout object. Never throws.
 * Only called for events in TRANSFORM_EVENTS; any other event gives null.
 */
export function readTransformAnswer(event: EventName, value: unknown, origin: AnswerOrigin): Directive | null {
  if (value === undefined || value === null) return null; // Hermes drops None before any rule
  switch (event) {
    case 'transform_tool_result':
    case 'transform_terminal_output': {
      // First `str`, including "" (transform_tool_result) — an empty result is a real answer.
      const text = textOf(value, origin);
      return text === null ? null : { action: 'rewrite', text };
    }
    case 'transform_llm_output': {
      // First non-empty `str`: "" means "leave the output alone".
      const text = textOf(value, origin);
      return text === null || text === '' ? null : { action: 'rewrite', text };
    }
    case 'pre_gateway_dispatch':
      return gatewayDispatch(value, origin);
    case 'pre_transcription':
      return transcription(value);
    case 'pre_tts_synthesis':
      return ttsSynthesis(value, origin);
    case 'transform_api_error_classification':
      // Shell hooks cannot register here (Hermes refuses them at parse); only a plugin answers.
      return origin === 'plugin' ? classification(value) : null;
    default:
      return null;
  }
}

/** A plugin's bare string, or a shell hook's `{"action":"rewrite","text": str}`. */
function textOf(value: unknown, origin: AnswerOrigin): string | null {
  if (origin === 'plugin') return typeof value === 'string' ? value : null;
  return isPlainObject(value) && value.action === 'rewrite' && typeof value.text === 'string' ? value.text : null;
}

/** `{"action":"skip","reason"?}` / `{"action":"rewrite","text"}` / `{"action":"allow"}` (a plugin may also return "allow"). */
function gatewayDispatch(value: unknown, origin: AnswerOrigin): Directive | null {
  if (origin === 'plugin' && value === 'allow') return { action: 'allow' };
  if (!isPlainObject(value)) return null;
  switch (value.action) {
    case 'skip': {
      const reason = typeof value.reason === 'string' && pyStrip(value.reason) !== '' ? value.reason : null;
      return { action: 'skip', reason };
    }
    case 'rewrite':
      return typeof value.text === 'string' ? { action: 'rewrite', text: value.text } : null;
    case 'allow':
      return { action: 'allow' };
    default:
      return null;
  }
}

/** A dict of prompt / language / model (string values); other keys are ignored. */
function transcription(value: unknown): Directive | null {
  if (!isPlainObject(value)) return null;
  const overrides: JsonObject = {};
  for (const key of TRANSCRIPTION_KEYS) {
    if (typeof value[key] === 'string') overrides[key] = value[key];
  }
  return Object.keys(overrides).length > 0 ? { action: 'override', overrides } : null;
}

/**
 * Hermes' fail-closed TTS boundary: `{"action":"block","message"?}` blocks; exactly `{"text":
 * non-blank str}` replaces the script; any other answer blocks as invalid. A shell hook's object
 * is read only when it tries to answer (has `action` or `text`): an observer printing `{}` or
 * `{"context":…}` does not silence speech.
 */
function ttsSynthesis(value: unknown, origin: AnswerOrigin): Directive | null {
  if (!isPlainObject(value)) return { action: 'block', message: TTS_INVALID_DIRECTIVE };
  if (origin === 'shell' && !('action' in value) && !('text' in value)) return null;
  const keys = Object.keys(value);
  if (value.action === 'block' && keys.every((k) => k === 'action' || k === 'message')) {
    return { action: 'block', message: pyTruthy(value.message) ? String(value.message) : TTS_BLOCKED };
  }
  if (keys.length === 1 && keys[0] === 'text' && typeof value.text === 'string' && pyStrip(value.text) !== '') {
    return { action: 'rewrite', text: value.text };
  }
  return { action: 'block', message: TTS_INVALID_SCRIPT };
}

/** `{"reason": FailoverReason, hints…}` sanitised as Hermes does; an unknown reason is no answer. */
function classification(value: unknown): Directive | null {
  if (!isPlainObject(value) || typeof value.reason !== 'string') return null;
  const reason = pyStrip(value.reason).toLowerCase();
  if (!FAILOVER_REASONS.has(reason)) return null;
  const out: JsonObject = { reason };
  for (const key of CLASSIFICATION_HINTS) {
    if (key in value) out[key] = pyTruthy(value[key]);
  }
  if (typeof value.message === 'string' && pyStrip(value.message) !== '') {
    out.message = [...pyStrip(value.message)].slice(0, 500).join('');
  }
  if (isPlainObject(value.error_context)) out.error_context = value.error_context as JsonObject;
  return { action: 'classify', classification: out };
}

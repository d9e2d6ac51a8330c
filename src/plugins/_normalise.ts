// A plugin callback's return value → our Directive, per event (Hermes plugin return contracts).
// Pure. Only the events whose answer Hermes honours produce a directive; everything else is null.

import { isPlainObject } from '../json.js';
import type { EventName } from '../events.js';
import type { Directive, JsonObject } from '../types.js';
import { readTransformAnswer, TRANSFORM_EVENTS } from '../directives/transforms.js';

const nonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function normalisePluginReturn(event: EventName, value: unknown, hookName: string): Directive | null {
  switch (event) {
    case 'pre_tool_call':
      return preToolCall(value, hookName);
    case 'pre_llm_call':
      // A non-empty string, or {context: non-empty string}.
      if (nonBlank(value)) return { action: 'context', context: value };
      if (isPlainObject(value) && nonBlank(value.context)) return { action: 'context', context: value.context };
      return null;
    case 'pre_verify': {
      // Hermes (get_pre_verify_continue_message): `action` or `decision`, any case; the message is
      // `message` or `reason` — so Claude's Stop shape {"decision": "block", "reason": …} keeps the turn going too.
      if (!isPlainObject(value)) return null;
      const verb = String((value.action || value.decision) ?? '')
        .trim()
        .toLowerCase();
      const message = value.message || value.reason;
      if ((verb === 'continue' || verb === 'block') && nonBlank(message)) return { action: 'continue', message };
      return null;
    }
    case 'on_session_finalize':
      if (nonBlank(value)) return { action: 'notify', message: value };
      if (isPlainObject(value) && nonBlank(value.message)) return { action: 'notify', message: value.message };
      return null;
    case 'post_gateway_admission':
      if (isPlainObject(value) && value.action === 'handled') {
        return nonBlank(value.reply) ? { action: 'handled', reply: value.reply } : { action: 'handled' };
      }
      return null;
    default:
      // transform_* / pre_gateway_dispatch / pre_transcription / pre_tts_synthesis.
      return TRANSFORM_EVENTS.has(event) ? readTransformAnswer(event, value, 'plugin') : null;
  }
}

// Only the `action` key is read (Hermes #118844). Beyond Hermes, a block without a usable message
// still blocks with a default message instead of being silently dropped: a plugin that asked to
// block should never let the tool run because it forgot the message.
function preToolCall(value: unknown, hookName: string): Directive | null {
  if (!isPlainObject(value)) return null;
  switch (value.action) {
    case 'block':
      return {
        action: 'block',
        message: typeof value.message === 'string' && value.message !== '' ? value.message : `Blocked by plugin hook ${hookName}.`,
      };
    case 'approve': {
      const d: Directive & { action: 'approve' } = { action: 'approve' };
      if (nonBlank(value.message)) d.message = value.message;
      if (nonBlank(value.rule_key)) d.rule_key = value.rule_key.trim();
      return d;
    }
    case 'modify':
      // A modify with empty or non-object args changes nothing (Hermes).
      if (isPlainObject(value.args) && Object.keys(value.args).length > 0) {
        return { action: 'modify', args: value.args as JsonObject };
      }
      return null;
    default:
      return null;
  }
}

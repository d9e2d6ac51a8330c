// pre_auxiliary_call kwargs as hooks should see them. Hermes passes both the raw request
// (`request_messages` — during compression the whole transcript — and `system_prompt`) and a
// redacted `request`, and tells hook authors to prefer the redacted one. We enforce that:
//  - when a redacted `request` is present, the raw `request_messages` / `system_prompt` are
//    withheld and `raw_withheld` lists which keys were removed (the counts and sizes —
//    message_count, request_char_count, approx_input_tokens — stay);
//  - when there is no `request`, the raw fields stay but every string in them is secret-redacted.
// Pure.

import { redactDeep } from './redact.js';

const RAW_KEYS = ['request_messages', 'system_prompt'] as const;

export function prepareAuxiliaryKwargs(kwargs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...kwargs };
  const present = RAW_KEYS.filter((k) => k in out);
  if (out.request !== undefined && out.request !== null) {
    for (const k of present) delete out[k];
    if (present.length > 0) out.raw_withheld = [...present];
  } else {
    for (const k of present) out[k] = redactDeep(out[k]);
  }
  return out;
}

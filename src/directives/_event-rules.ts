// Which events read which stdout keys. Hermes's generic parser offers `{context}` on every event
// except pre_tool_call and pre_verify (only pre_llm_call consumes it; elsewhere it is reported).

import type { EventName } from '../events.js';

export function takesContext(event: EventName): boolean {
  return event !== 'pre_tool_call' && event !== 'pre_verify';
}

// Beyond Hermes: the Claude Code dialect, read only when the Hermes dialect found nothing, so
// Claude-style hooks work unchanged (Hermes silently ignores them and fails open — third parties hit
// this). `hookSpecificOutput.permissionDecision` on pre_tool_call, `additionalContext` elsewhere.

import type { EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import type { Directive, JsonObject } from '../types.js';
import { nonBlankTrimmed } from './_hermes-dialect.js';
import { DEFAULT_BLOCK_MESSAGE } from './messages.js';
import { takesContext } from './_event-rules.js';

export function parseClaudeDialect(event: EventName, obj: JsonObject): Directive | null {
  const hso = obj.hookSpecificOutput;
  if (!isPlainObject(hso)) return null;
  if (event === 'pre_tool_call') return parsePermissionDecision(hso);
  if (takesContext(event)) {
    const context = hso.additionalContext;
    if (typeof context === 'string' && nonBlankTrimmed(context) !== null) return { action: 'context', context };
  }
  return null;
}

function parsePermissionDecision(hso: JsonObject): Directive | null {
  const decision = hso.permissionDecision;
  const reason = hso.permissionDecisionReason;
  if (decision === 'deny') {
    return { action: 'block', message: typeof reason === 'string' && reason.length > 0 ? reason : DEFAULT_BLOCK_MESSAGE };
  }
  if (decision === 'ask') {
    const message = nonBlankTrimmed(reason);
    return message === null ? { action: 'approve' } : { action: 'approve', message };
  }
  // `allow` alone is the default and says nothing; with updatedInput it rewrites the arguments
  // (shallow-merged like a Hermes modify, not Claude's whole-input replacement).
  if (decision === 'allow' && isPlainObject(hso.updatedInput)) return { action: 'modify', args: hso.updatedInput };
  return null;
}

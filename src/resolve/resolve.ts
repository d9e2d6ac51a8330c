// Ordered directives → one Decision (DESIGN "Resolution", reference §4.2/§4.3). Pure and
// deterministic: indices are positions in `directives` (null entries keep their slot), inputs are
// never mutated, and anything malformed in the list is ignored rather than thrown on.

import type { EventName } from '../events.js';
import { canonicalJson, isPlainObject } from '../json.js';
import { pyStrip } from '../util/python.js';
import type { Decision, Directive, JsonObject } from '../types.js';
import { DEFAULT_BLOCK_MESSAGE } from '../directives/messages.js';

type Entry = { index: number; d: Record<string, unknown> };

export function resolve(event: EventName, directives: readonly (Directive | null)[], originalArgs: JsonObject | null): Decision {
  const entries: Entry[] = [];
  // Typed as Directive, but plugin results reach here too: anything that is not an object is skipped.
  const list: readonly unknown[] = Array.isArray(directives) ? directives : [];
  for (let index = 0; index < list.length; index++) {
    const d = list[index];
    if (d !== null && typeof d === 'object' && !Array.isArray(d)) entries.push({ index, d: d as Record<string, unknown> });
  }
  switch (event) {
    case 'pre_tool_call':
      return resolvePreToolCall(entries, originalArgs);
    case 'pre_llm_call':
      return resolvePreLlmCall(entries);
    case 'pre_verify':
      return resolvePreVerify(entries);
    case 'on_session_finalize':
      return { ...allowDecision(event), notifications: notifications(entries) };
    case 'post_gateway_admission':
      return resolveGatewayAdmission(entries);
    case 'transform_tool_result':
    case 'transform_terminal_output':
    case 'transform_llm_output':
      return firstRewrite(event, entries);
    case 'transform_api_error_classification':
      return firstClassification(entries);
    case 'pre_gateway_dispatch':
      return resolveGatewayDispatch(entries);
    case 'pre_transcription':
      return resolveTranscription(entries);
    case 'pre_tts_synthesis':
      return resolveTtsSynthesis(entries);
    default:
      return allowDecision(event);
  }
}

/** The Decision when no hook said anything: allow, with every other field empty. */
export function allowDecision(event: EventName): Decision {
  return {
    event,
    action: 'allow',
    message: null,
    args: null,
    context: null,
    decided_by: null,
    modified_by: [],
    conflicts: [],
  };
}

/**
 * Modifies are shallow-merged onto the original args in order (later wins per key); any block wins
 * (the first one speaks, and nothing is applied); else the first approve carries the merged args.
 */
function resolvePreToolCall(entries: readonly Entry[], originalArgs: JsonObject | null): Decision {
  let merged: JsonObject | null = null;
  const modifiedBy: number[] = [];
  const valuesByKey = new Map<string, Set<string>>();
  let firstApprove: Entry | null = null;

  for (const entry of entries) {
    const { d } = entry;
    if (d.action === 'block') {
      // A block ends the call; modifies after it would not matter, modifies before it are moot.
      const message = typeof d.message === 'string' && d.message !== '' ? d.message : DEFAULT_BLOCK_MESSAGE;
      return { ...allowDecision('pre_tool_call'), action: 'block', message, decided_by: entry.index };
    }
    if (d.action === 'modify' && isPlainObject(d.args) && Object.keys(d.args).length > 0) {
      merged = { ...(merged ?? (isPlainObject(originalArgs) ? originalArgs : {})), ...d.args };
      modifiedBy.push(entry.index);
      for (const key of Object.keys(d.args)) {
        const seen = valuesByKey.get(key) ?? new Set<string>();
        seen.add(canonicalJson(d.args[key]));
        valuesByKey.set(key, seen);
      }
    } else if (d.action === 'approve' && firstApprove === null) {
      firstApprove = entry;
    }
  }

  const conflicts = [...valuesByKey]
    .filter(([, values]) => values.size > 1)
    .map(([key]) => key)
    .sort();
  const base: Decision = { ...allowDecision('pre_tool_call'), args: merged, modified_by: modifiedBy, conflicts };
  if (firstApprove === null) return base;
  const { d } = firstApprove;
  return {
    ...base,
    action: 'approve',
    message: typeof d.message === 'string' && d.message !== '' ? d.message : null,
    rule_key: nonBlank(d.rule_key),
    decided_by: firstApprove.index,
  };
}

function resolvePreLlmCall(entries: readonly Entry[]): Decision {
  const contexts = entries.filter(({ d }) => d.action === 'context' && typeof d.context === 'string' && d.context !== '').map(({ d }) => d.context as string);
  return { ...allowDecision('pre_llm_call'), context: contexts.length > 0 ? contexts.join('\n\n') : null };
}

/** The first continue wins (a plugin's `block` means the same here: Claude Code's Stop block). */
function resolvePreVerify(entries: readonly Entry[]): Decision {
  const first = entries.find(({ d }) => (d.action === 'continue' || d.action === 'block') && nonBlank(d.message) !== null);
  if (!first) return allowDecision('pre_verify');
  return { ...allowDecision('pre_verify'), action: 'continue', message: nonBlank(first.d.message), decided_by: first.index };
}

function notifications(entries: readonly Entry[]): string[] {
  return entries
    .filter(({ d }) => d.action === 'notify')
    .map(({ d }) => nonBlank(d.message))
    .filter((m): m is string => m !== null);
}

function resolveGatewayAdmission(entries: readonly Entry[]): Decision {
  const first = entries.find(({ d }) => d.action === 'handled');
  if (!first) return allowDecision('post_gateway_admission');
  const reply = typeof first.d.reply === 'string' ? first.d.reply : null;
  return { ...allowDecision('post_gateway_admission'), action: 'handled', reply, decided_by: first.index };
}

/** Trimmed (Python strip) non-blank string, else null. */
function nonBlank(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = pyStrip(value);
  return trimmed === '' ? null : trimmed;
}

// ── Transform and rewrite events: `result` is what the host uses instead of the original ─────────

/** The Decision of a transform event no hook answered: allow, with `result: null`. */
function noResult(event: EventName): Decision {
  return { ...allowDecision(event), result: null };
}

/** transform_tool_result / _terminal_output / _llm_output: the first string answer wins. */
function firstRewrite(event: EventName, entries: readonly Entry[]): Decision {
  const first = entries.find(({ d }) => d.action === 'rewrite' && typeof d.text === 'string');
  if (!first) return noResult(event);
  return { ...noResult(event), action: 'rewrite', result: first.d.text as string, decided_by: first.index };
}

/** Run all, then the first valid classification in order (later valid ones are skipped). */
function firstClassification(entries: readonly Entry[]): Decision {
  const event = 'transform_api_error_classification';
  const first = entries.find(({ d }) => d.action === 'classify' && isPlainObject(d.classification));
  if (!first) return noResult(event);
  return { ...noResult(event), action: 'rewrite', result: first.d.classification as JsonObject, decided_by: first.index };
}

/** The first recognised answer decides: skip (drop), rewrite (replace the text) or allow. */
function resolveGatewayDispatch(entries: readonly Entry[]): Decision {
  const event = 'pre_gateway_dispatch';
  const first = entries.find(({ d }) => d.action === 'skip' || d.action === 'allow' || (d.action === 'rewrite' && typeof d.text === 'string'));
  if (!first) return noResult(event);
  const { d, index } = first;
  if (d.action === 'skip') {
    return { ...noResult(event), action: 'skip', message: typeof d.reason === 'string' ? d.reason : null, decided_by: index };
  }
  if (d.action === 'rewrite') return { ...noResult(event), action: 'rewrite', result: d.text as string, decided_by: index };
  return { ...noResult(event), decided_by: index };
}

/** prompt / language / model overrides applied in order; the last writer of each key wins. */
function resolveTranscription(entries: readonly Entry[]): Decision {
  const event = 'pre_transcription';
  let merged: JsonObject | null = null;
  const by: number[] = [];
  for (const { d, index } of entries) {
    if (d.action !== 'override' || !isPlainObject(d.overrides) || Object.keys(d.overrides).length === 0) continue;
    merged = { ...(merged ?? {}), ...d.overrides };
    by.push(index);
  }
  if (merged === null) return noResult(event);
  return { ...noResult(event), action: 'rewrite', result: merged, decided_by: by[by.length - 1]!, modified_by: by };
}

/**
 * Hermes' fail-closed TTS boundary: the first block (or invalid answer, already a block) in order
 * stops synthesis; else the last replacement script wins. (The engine then re-checks a changed
 * script against every hook once more: see create-engine.)
 */
function resolveTtsSynthesis(entries: readonly Entry[]): Decision {
  const event = 'pre_tts_synthesis';
  let last: Entry | null = null;
  const by: number[] = [];
  for (const entry of entries) {
    const { d } = entry;
    if (d.action === 'block') {
      const message = typeof d.message === 'string' && d.message !== '' ? d.message : DEFAULT_BLOCK_MESSAGE;
      return { ...noResult(event), action: 'block', message, decided_by: entry.index };
    }
    if (d.action === 'rewrite' && typeof d.text === 'string') {
      last = entry;
      by.push(entry.index);
    }
  }
  if (last === null) return noResult(event);
  return { ...noResult(event), action: 'rewrite', result: last.d.text as string, decided_by: last.index, modified_by: by };
}

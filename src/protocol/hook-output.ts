// What a hook may print on stdout: the Hermes dialect (reference §3.4, V4) and, beyond Hermes, the
// Claude Code dialect (`hookSpecificOutput`). These describe what hooks *emit*, so every object is
// loose: unknown keys are allowed and ignored. src/directives/ is what actually reads them; the
// schemas are for hook authors, editors and the published protocol/directive.schema.json.

import { z } from 'zod';
import { JsonObjectSchema } from './payload.js';

const message = z.string().describe('Shown to the model (block) or the user (approve).');

// ── Hermes dialect ──────────────────────────────────────────────────────────────────────────────

export const HermesBlockOutputSchema = z
  .looseObject({
    action: z.literal('block'),
    message: message.optional(),
    reason: z.string().optional().describe('Used when `message` is absent or empty.'),
  })
  .describe('pre_tool_call: block the tool call. Message defaults to "Blocked by shell hook.".');

export const HermesDecisionBlockOutputSchema = z
  .looseObject({
    decision: z.literal('block'),
    reason: z.string().optional(),
    message: z.string().optional().describe('Used when `reason` is absent or empty.'),
  })
  .describe('pre_tool_call: block (Claude-style spelling). On pre_verify: keep the turn going.');

export const HermesModifyOutputSchema = z
  .looseObject({
    action: z.literal('modify'),
    args: JsonObjectSchema.describe('Keys to set on the tool arguments (shallow merge).'),
  })
  .describe('pre_tool_call: rewrite tool arguments; `{}` changes nothing.');

export const HermesDecisionModifyOutputSchema = z
  .looseObject({
    decision: z.literal('modify'),
    tool_input: JsonObjectSchema.describe('Keys to set on the tool arguments (shallow merge).'),
  })
  .describe('pre_tool_call: rewrite tool arguments (alternative spelling).');

export const HermesApproveOutputSchema = z
  .looseObject({
    action: z.literal('approve'),
    message: z.string().optional().describe('Shown in the approval prompt.'),
    rule_key: z.string().optional().describe('Key for "always allow" answers; defaults to the tool name.'),
  })
  .describe('pre_tool_call: ask the human to approve the call. (`decision: "approve"` is ignored on purpose.)');

export const HermesContinueOutputSchema = z
  .looseObject({
    action: z.literal('continue').describe('Case-insensitive on pre_verify; "block" works too.'),
    message: z.string().describe('Non-blank; injected as a user turn.'),
  })
  .describe('pre_verify: keep the turn going with this message.');

export const HermesContextOutputSchema = z
  .looseObject({
    context: z.string().describe('Non-blank text.'),
  })
  .describe("pre_llm_call: text appended to this turn's user message (other events: reported only).");

export const HermesNotifyOutputSchema = z
  .looseObject({
    message: z.string().describe('Non-blank text for the user.'),
  })
  .describe('on_session_finalize: a notification shown to the user when the session ends.');

export const HermesHandledOutputSchema = z
  .looseObject({
    action: z.literal('handled'),
    reply: z.string().optional().describe('Sent back to the chat; omit to consume silently.'),
  })
  .describe('post_gateway_admission: consume the message; the agent turn is skipped.');

// ── Transform and rewrite events (beyond Hermes: its shell bridge gives these no answer) ────────

export const RewriteOutputSchema = z
  .looseObject({
    action: z.literal('rewrite'),
    text: z.string().describe('The replacement ("" counts on transform_tool_result / transform_terminal_output).'),
  })
  .describe(
    'transform_tool_result / transform_terminal_output / transform_llm_output: replace the text (first answer wins; an empty text is ignored on ' +
      'transform_llm_output). pre_gateway_dispatch: replace the message text.',
  );

export const SkipOutputSchema = z
  .looseObject({
    action: z.literal('skip'),
    reason: z.string().optional().describe('Why the message was dropped (logged, reported as the decision message).'),
  })
  .describe('pre_gateway_dispatch: drop the incoming message (first recognised skip / rewrite / allow wins).');

export const AllowOutputSchema = z
  .looseObject({ action: z.literal('allow') })
  .describe('pre_gateway_dispatch: dispatch normally; it counts as the first recognised answer.');

export const TranscriptionOutputSchema = z
  .union([z.looseObject({ prompt: z.string() }), z.looseObject({ language: z.string() }), z.looseObject({ model: z.string() })])
  .describe('pre_transcription: override the transcription prompt / language / model (applied in order, last writer wins).');

export const TtsTextOutputSchema = z
  .strictObject({ text: z.string().describe('Non-blank replacement script.') })
  .describe(
    'pre_tts_synthesis: replace the spoken script (exactly this one key; anything else with `text` or `action` blocks synthesis as invalid). ' +
      '`{"action":"block","message"?}` blocks it.',
  );

export const HermesOutputSchema = z
  .union([
    HermesBlockOutputSchema,
    HermesDecisionBlockOutputSchema,
    HermesModifyOutputSchema,
    HermesDecisionModifyOutputSchema,
    HermesApproveOutputSchema,
    HermesContinueOutputSchema,
    HermesContextOutputSchema,
    HermesNotifyOutputSchema,
    HermesHandledOutputSchema,
    RewriteOutputSchema,
    SkipOutputSchema,
    AllowOutputSchema,
    TranscriptionOutputSchema,
    TtsTextOutputSchema,
  ])
  .describe('A directive in the Hermes dialect.');

// ── Claude Code dialect (beyond Hermes) ─────────────────────────────────────────────────────────

export const ClaudeHookSpecificOutputSchema = z
  .looseObject({
    hookEventName: z.string().optional().describe('Claude event name, e.g. "PreToolUse" (not checked).'),
    permissionDecision: z
      .enum(['allow', 'deny', 'ask', 'defer'])
      .optional()
      .describe('pre_tool_call: deny → block, ask → approve, allow + updatedInput → modify; defer is ignored.'),
    permissionDecisionReason: z.string().optional().describe('Block message (deny) or approval prompt (ask).'),
    updatedInput: JsonObjectSchema.optional().describe('With allow: keys set on the tool arguments (shallow-merged, not a full replacement).'),
    additionalContext: z.string().optional().describe('Context on events that take it (pre_llm_call).'),
  })
  .describe('Claude Code `hookSpecificOutput`.');

export const ClaudeOutputSchema = z
  .looseObject({
    hookSpecificOutput: ClaudeHookSpecificOutputSchema,
    continue: z.boolean().optional().describe('Accepted, not acted on.'),
    stopReason: z.string().optional().describe('Accepted, not acted on.'),
    suppressOutput: z.boolean().optional().describe('Accepted, not acted on.'),
    systemMessage: z.string().optional().describe('Accepted, not acted on.'),
  })
  .describe('A directive in the Claude Code dialect (read only when no Hermes key decided).');

/** Anything a hook may print that means something: either dialect. */
export const HookOutputSchema = z.union([HermesOutputSchema, ClaudeOutputSchema]);

/** What a hook may print on stdout, in either dialect (HookOutputSchema). */
export type HookOutput = z.infer<typeof HookOutputSchema>;

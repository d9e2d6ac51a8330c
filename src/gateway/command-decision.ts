// What a slash command's `command:<name>` decision hooks decided, from their collected answers, in
// Hermes' order and words (gateway/run.py): answers are read in handler order (exact subscribers,
// then `command:*`); a missing/empty decision or "allow" reads on; the first "deny", "handled" or
// "rewrite" (with a command name) decides. Pure.

/** What a slash command's decision hooks decided: allow, deny, handled, or rewrite to another command. */
export type CommandDecision =
  | { decision: 'allow' }
  /** The command is refused; `message` is what the user is told. */
  | { decision: 'deny'; message: string }
  /** A hook did the command's work; `message` (or none) is the reply. */
  | { decision: 'handled'; message: string | null }
  /** Dispatch `/<command> <args>` instead: `text` is the new message text. */
  | { decision: 'rewrite'; command: string; args: string; text: string };

/** resolveCommandDecision's answer: the decision, which answer made it, and what was ignored. */
export interface CommandVerdict {
  /** Which answer decided (its index among the collected answers); null when all allowed. */
  decidedBy: number | null;
  result: CommandDecision;
  /** Answers Hermes skips without a word, said here: an unknown decision, a rewrite with no command. */
  ignored: string[];
}

const KNOWN = ['allow', 'deny', 'handled', 'rewrite'];

/**
 * `command` is the command as the user typed it (Hermes' deny message names it: "Command `/x` was
 * blocked by a hook.").
 */
export function resolveCommandDecision(answers: readonly unknown[], command: string): CommandVerdict {
  const ignored: string[] = [];
  for (const [i, answer] of answers.entries()) {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) continue;
    const a = answer as Record<string, unknown>;
    const decision = String(a.decision ?? '')
      .trim()
      .toLowerCase();
    if (decision === '' || decision === 'allow') continue;
    const message = typeof a.message === 'string' && a.message !== '' ? a.message : null;
    if (decision === 'deny')
      return { decidedBy: i, result: { decision: 'deny', message: message ?? `Command \`/${command}\` was blocked by a hook.` }, ignored };
    if (decision === 'handled') return { decidedBy: i, result: { decision: 'handled', message }, ignored };
    if (decision === 'rewrite') {
      const name = String(a.command_name ?? '')
        .trim()
        .replace(/^\/+/, '');
      if (name === '') {
        ignored.push(`answer ${i + 1}: "rewrite" without a "command_name"; ignored`);
        continue;
      }
      const args = String(a.raw_args ?? '').trim();
      return { decidedBy: i, result: { decision: 'rewrite', command: name, args, text: `/${name} ${args}`.trim() }, ignored };
    }
    ignored.push(`answer ${i + 1}: unknown decision ${JSON.stringify(a.decision)} (known: ${KNOWN.join(', ')}); ignored`);
  }
  return { decidedBy: null, result: { decision: 'allow' }, ignored };
}

/** What the gateway hands `command:<name>` hooks (gateway/run.py's hook_ctx); extra keys pass through. */
export interface GatewayCommandContext {
  /** The canonical command name, without the slash (`reset`). */
  command: string;
  /** As the user typed it (an alias such as `rst`); defaults to `command`. */
  raw_command?: string;
  args?: string;
  raw_args?: string;
  platform?: string;
  user_id?: string;
  [key: string]: unknown;
}

/** What HookEngine.decideGatewayCommand resolves with: the verdict and the answers read. */
export interface GatewayCommandVerdict extends CommandVerdict {
  /** The hooks' answers that were not None, in the order they were asked. */
  answers: unknown[];
}

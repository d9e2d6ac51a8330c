// Example hermes-hooks plugin. Enable it in the profile's config.yaml:
//
//   plugins:
//     enabled: [tool-guard]
//     hook_callback_timeout: 30   # seconds per callback call; 0 disables the bound
//
// and copy this folder to <profile home>/plugins/tool-guard/. Every callback receives one kwargs
// object (its own copy) and { signal }, which aborts when the call runs past the timeout.

const DESTRUCTIVE = [/\brm\s+-[a-z]*r[a-z]*f?\s+\/(\s|$)/i, /\bmkfs(\.\w+)?\b/, /\bdd\s+.*\bof=\/dev\//, /:\(\)\s*\{\s*:\|:&\s*\};:/];
const POLICY = 'Never execute commands that delete files without explicit user confirmation.';

const toolCounts = new Map();

/** pre_tool_call: return {action:'block'|'approve'|'modify'} or nothing. */
function guardTerminal({ tool_name, args }) {
  if (tool_name !== 'terminal') return undefined;
  const command = String(args?.command ?? '');
  if (DESTRUCTIVE.some((re) => re.test(command))) {
    return { action: 'block', message: `tool-guard: refusing a destructive command: ${command}` };
  }
  if (/\bsudo\b/.test(command)) {
    // Ask the human first; the rule key groups approvals in the host's approval gate.
    return { action: 'approve', message: 'tool-guard: this command uses sudo', rule_key: 'tool-guard:sudo' };
  }
  if (args && args.timeout === undefined) {
    // Modify is returned, never done in place: mutating kwargs changes nothing.
    return { action: 'modify', args: { timeout: 120 } };
  }
  return undefined;
}

/** pre_llm_call: a string or {context} is appended to this turn's user message. */
function guardrails() {
  return { context: POLICY };
}

/** post_tool_call: an observer; its return value is ignored. */
function countTools({ tool_name }) {
  toolCounts.set(tool_name, (toolCounts.get(tool_name) ?? 0) + 1);
}

/** on_session_finalize: a string or {message} becomes a notification for the user. */
function summary() {
  if (toolCounts.size === 0) return null;
  const parts = [...toolCounts].map(([name, n]) => `${name}×${n}`);
  toolCounts.clear();
  return { message: `tool-guard: tools used this session: ${parts.join(', ')}` };
}

/** post_gateway_admission: {action:'handled', reply} consumes the message; anything else lets it through. */
function ping({ message }) {
  const text = typeof message === 'string' ? message : message?.text;
  if (typeof text === 'string' && text.trim() === '/ping') return { action: 'handled', reply: 'pong' };
  return null;
}

export function register(ctx) {
  ctx.registerHook('pre_tool_call', guardTerminal);
  ctx.registerHook('pre_llm_call', guardrails);
  ctx.registerHook('post_tool_call', countTools);
  ctx.registerHook('on_session_finalize', summary);
  ctx.registerHook('post_gateway_admission', ping);
}

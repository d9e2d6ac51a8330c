// hermes-hooks as an agent's mod: written by `hermes-hooks print-config AGENT --mod DIR` from
// scripts-examples/hosts/agent-mod/register.js — do not edit here, print it again. SETTINGS.agent names
// the agent it is for (the record with a printConfig.mod says since which version it loads mods).
//
// The agent calls this module inside its own process (a worker with no Node): each tool call and
// lifecycle event goes to `hermes-hooks serve` on its Unix socket through `$.http.fetch`, with the
// request the bundled client sends (POST /v1/agent/<agent>/<Event>, the agent's hook stdin as the body),
// and serve's answer — the agent's hook stdout, exit code and stderr — is applied in the mod's terms:
// a block is `{deny: message}`, a rewrite `next({...e, ...updatedInput})`, context `{...result, context}`.
// No process runs between the agent and serve on a call; SessionStart alone (once a session) goes
// through the bundled client: a mod cannot abort a request, and one left open to a frozen serve holds
// the agent at exit until the agent drops it (30 s in the version checked, see docs/dialects.md). The client's connection
// ends with its process; when it finds serve frozen, the calls after it are denied with no request.
//
// The gate never fails open: serve down, frozen, answering garbage or an error → the call is denied
// with the reason. $.http.fetch hands back only the whole answer (serve's heartbeat bytes cannot be
// seen), so liveness is asked for instead: once a call is slower than PROBE_MS, GET /v1/health must
// answer within PROBE_MS every PROBE_MS, else serve is frozen or wedged and the call is denied (~2 s).
// A live serve with a slow guard is waited for up to its own per-call deadline (DEADLINE_S).
// Not running (no socket, or a stale one): the bundled client is run once through $.process.run with
// this call — it starts serve detached, as for command hooks, and answers — so the next call is direct.
//
// `$` is spelled `$.noun.call(…)` at each call site (the agent reads this file statically); the
// helpers get small functions that make those calls.

/* hermes-hooks:settings */ const SETTINGS = {
  agent: 'AGENT',
  attendedEnv: null,
  socket: '/path/to/hermes-hooks.sock',
  profile: '/path/to/profile/home',
  events: ['PreToolUse'],
  gate: 'PreToolUse',
  client: null,
  deadlineS: 310,
  probeMs: 1000,
  retryAfterS: 60,
}; /* hermes-hooks:end */

const MARK = 'hermes-hooks';
const wired = (event) => SETTINGS.events.includes(event);
const session = { id: `mod-${crypto.randomUUID()}`, cwd: '', attended: null };
// A serve that let a call go unanswered: the next calls are denied at once for retryAfterS (the client's rule).
let unansweredAt = 0;
// SessionStart under way (through the client): the session's other calls wait for it, so serve sees them in order.
let started = null;

class Unreachable extends Error {}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `p`, or a rejection once `ms` pass; the timer never outlives the race. */
function within(p, ms, why) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(why)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function headersFor() {
  const h = { 'content-type': 'application/json', 'user-agent': 'hermes-hooks-mod' };
  if (session.attended !== null && SETTINGS.attendedEnv) h['x-hermes-hooks-agent-env'] = `${SETTINGS.attendedEnv}=${session.attended ? '1' : '0'}`;
  return h;
}

/** serve's answer to one call over the socket, while it shows signs of life. */
async function overSocket(io, event, body) {
  const call = io.fetch(`http://localhost/v1/agent/${SETTINGS.agent}/${encodeURIComponent(event)}`, {
    method: 'POST',
    socketPath: SETTINGS.socket,
    headers: headersFor(),
    body,
  });
  // Liveness is asked only once a call is slower than probeMs: an answer before that clears the one
  // timer armed for it, so nothing of the probe runs (no request, no timer left) on a quick call.
  let done = false;
  let timer;
  const nap = (ms) =>
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    });
  const alive = (async () => {
    const end = Date.now() + SETTINGS.deadlineS * 1000;
    for (;;) {
      await nap(SETTINGS.probeMs);
      if (done) return;
      if (Date.now() > end) throw new Error(`hermes-hooks serve on ${SETTINGS.socket} did not answer within ${SETTINGS.deadlineS}s`);
      const health = io.fetch('http://localhost/v1/health', { socketPath: SETTINGS.socket, headers: { 'user-agent': 'hermes-hooks-mod' } });
      health.catch(() => {});
      const silent = `no sign of life for ${(2 * SETTINGS.probeMs) / 1000}s`;
      await within(health, SETTINGS.probeMs, `hermes-hooks serve on ${SETTINGS.socket} is not answering (${silent}): it is frozen or wedged`);
      if (done) return;
    }
  })();
  try {
    return await Promise.race([call, alive.then(() => call)]);
  } catch (err) {
    const text = String(err?.message ?? err);
    // No socket, or one nobody listens on: serve is not running.
    if (/ENOENT|ECONNREFUSED|ECONNRESET|no such file|refused/i.test(text)) throw new Unreachable(text);
    if (/frozen|did not answer/.test(text)) unansweredAt = Date.now();
    throw err;
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

/** What the bundled client answers for this call: it starts serve when none answers (only when serve is not running). */
async function throughClient(io, event, body, why) {
  if (SETTINGS.client === null) throw new Error(`serve is not running (${why}): start it with: hermes-hooks serve --home ${SETTINGS.profile}`);
  const argv = [...SETTINGS.client.head, event, ...SETTINGS.client.tail, '--gate', event === SETTINGS.gate ? '1' : '0'];
  const r = await io.run(argv, { stdin: body, timeoutMs: 25_000 });
  return { exitCode: r.exitCode, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/**
 * serve's answer as `{exitCode, stdout, stderr}`; a throw says why there is none. `viaClient`: asked
 * through the bundled client (a process), whose connection ends with it.
 */
async function ask(io, event, payload, viaClient = false) {
  if (started !== null && !viaClient) await started;
  if (unansweredAt && Date.now() - unansweredAt < SETTINGS.retryAfterS * 1000) {
    const again = `so this call does not wait again (for ${SETTINGS.retryAfterS}s); restart it`;
    throw new Error(`hermes-hooks serve on ${SETTINGS.socket} did not answer a moment ago, ${again}`);
  }
  const body = JSON.stringify({ session_id: session.id, cwd: session.cwd, hook_event_name: event, permission_mode: 'default', ...payload });
  if (viaClient && SETTINGS.client !== null) {
    const a = await throughClient(io, event, body, '');
    // The client found serve frozen (2 s of silence): the calls after it are denied at once, with no request.
    if (a.exitCode !== 0 && /hermes-hooks serve on .* (is not answering|did not answer)/.test(a.stderr)) unansweredAt = Date.now();
    return a;
  }
  let r;
  try {
    r = await overSocket(io, event, body);
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
    return throughClient(io, event, body, err.message);
  }
  unansweredAt = 0;
  const exit = r.headers?.['x-hermes-hooks-exit'];
  const text = typeof r.text === 'string' ? r.text : '';
  if (r.status !== 200 || exit === undefined) throw new Error(`hermes-hooks serve answered HTTP ${r.status}: ${text.slice(0, 300)}`);
  let stderr = '';
  try {
    stderr = decodeURIComponent(r.headers['x-hermes-hooks-stderr'] ?? '');
  } catch {
    stderr = String(r.headers['x-hermes-hooks-stderr']);
  }
  return { exitCode: Number(exit), stdout: text, stderr };
}

/**
 * The agent's hook answer → `{deny}`, `{input}` (updatedInput: the whole new input), `{context}`. On the
 * gate anything unreadable denies; elsewhere it is dropped.
 */
function verdict(event, a) {
  const gate = event === SETTINGS.gate;
  const said = a.stderr.trim();
  if (a.exitCode === 2) return { deny: said || 'Blocked by hermes-hooks.' };
  if (a.exitCode !== 0) return gate ? { deny: `hermes-hooks answered exit ${a.exitCode}${said ? `: ${said}` : ''}` } : {};
  const out = a.stdout.trim();
  if (out === '') return {};
  let json;
  try {
    json = JSON.parse(out);
  } catch {
    if (gate) return { deny: `hermes-hooks answered something that is not JSON: ${out.slice(0, 200)}` };
    return {};
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return gate ? { deny: 'hermes-hooks answered something that is not a JSON object' } : {};
  }
  const hso = json.hookSpecificOutput && typeof json.hookSpecificOutput === 'object' ? json.hookSpecificOutput : {};
  if (json.continue === false) return { deny: String(json.stopReason ?? hso.permissionDecisionReason ?? 'Blocked by hermes-hooks.') };
  if (hso.permissionDecision === 'deny' || json.decision === 'block') {
    return { deny: String(hso.permissionDecisionReason ?? json.reason ?? 'Blocked by hermes-hooks.') };
  }
  // A mod cannot ask the person: an approval the guard asks for is a block that says so.
  if (hso.permissionDecision === 'ask') {
    return { deny: `${hso.permissionDecisionReason ?? 'hermes-hooks asks for approval'} (a mod cannot ask, so hermes-hooks blocks the call)` };
  }
  const v = {};
  if (hso.updatedInput && typeof hso.updatedInput === 'object' && !Array.isArray(hso.updatedInput)) v.input = hso.updatedInput;
  if (typeof hso.additionalContext === 'string' && hso.additionalContext.trim() !== '') v.context = hso.additionalContext;
  return v;
}

/** A lifecycle event serve is told of; its failure never stops the agent (not a gate). */
async function tell(io, event, payload, viaClient = false) {
  try {
    return verdict(event, await ask(io, event, payload, viaClient));
  } catch {
    return {};
  }
}

export function register(on) {
  on('session.start', async ($, e, next) => {
    session.cwd = typeof e.cwd === 'string' ? e.cwd : '';
    session.attended = e.isInteractive === true;
    // Through the client, once a session: a request to a frozen serve cannot be aborted from a mod and
    // keeps the agent from exiting until it drops it (30 s); the client's process ends, and its connection.
    // Not awaited: the agent starts meanwhile, and the first call (after the model's first answer) waits for it.
    if (wired('SessionStart')) {
      started = tell({ fetch: (u, i) => $.http.fetch(u, i), run: (a, o) => $.process.run(a, o) }, 'SessionStart', { source: 'startup' }, true);
    }
    return next(e);
  });

  on('prompt.submit', async ($, e, next) => {
    if (!wired('UserPromptSubmit')) return next(e);
    const io = { fetch: (u, i) => $.http.fetch(u, i), run: (a, o) => $.process.run(a, o) };
    const v = await tell(io, 'UserPromptSubmit', { prompt: typeof e.text === 'string' ? e.text : '' });
    if (v.deny !== undefined) return { deny: `${MARK}: ${v.deny}` };
    return next(e);
  }).catch(($, e, next) => next(e)); // not a gate: a failure lets the prompt through, as Hermes does

  on('tool.call', async ($, e, next) => {
    if (!wired('PreToolUse') && !wired('PostToolUse')) return next(e);
    const io = { fetch: (u, i) => $.http.fetch(u, i), run: (a, o) => $.process.run(a, o) };
    const { tool, tool_use_id, agentId, ...input } = e;
    const base = agentId === undefined ? { tool, tool_use_id } : { tool, tool_use_id, agentId };
    let call = e;
    let context;
    if (wired('PreToolUse')) {
      let v;
      try {
        v = verdict('PreToolUse', await ask(io, 'PreToolUse', { tool_name: tool, tool_input: input, tool_use_id }));
      } catch (err) {
        return { deny: `${MARK}: ${String(err?.message ?? err)}; blocking this call rather than letting it through unguarded` };
      }
      if (v.deny !== undefined) return { deny: v.deny };
      if (v.input !== undefined) call = { ...base, ...v.input };
      context = v.context;
    }
    const result = await next(call);
    if (wired('PostToolUse')) {
      const { tool: _t, tool_use_id: _id, agentId: _a, ...ran } = call;
      const v = await tell(io, 'PostToolUse', { tool_name: tool, tool_input: ran, tool_use_id, tool_response: result ?? null });
      if (v.context !== undefined) context = context === undefined ? v.context : `${context}\n\n${v.context}`;
    }
    return context === undefined ? result : { ...result, context };
  }).catch(($, e, next) =>
    next.called ? next(e) : { deny: `${MARK}: the mod failed before serve answered; blocking this call rather than letting it through unguarded` },
  );

  on('turn.complete', async ($, e, next) => {
    if (wired('Stop')) {
      const io = { fetch: (u, i) => $.http.fetch(u, i), run: (a, o) => $.process.run(a, o) };
      await tell(io, 'Stop', { stop_hook_active: false, last_assistant_message: typeof e.answer === 'string' ? e.answer : '' });
    }
    return next(e);
  });

  on('session.end', async ($, e, next) => {
    if (wired('SessionEnd')) {
      const io = { fetch: (u, i) => $.http.fetch(u, i), run: (a, o) => $.process.run(a, o) };
      await tell(io, 'SessionEnd', { reason: typeof e.reason === 'string' ? e.reason : 'other' });
    }
    return next(e);
  });
}

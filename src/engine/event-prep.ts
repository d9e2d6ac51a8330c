// What some events need around the run of their hooks, as a table keyed by event: `before` turns
// the host's kwargs into what hooks get (or answers without running any), `after` reworks the
// emission the hooks produced. Events not in the table run their hooks on the kwargs as given.

import { TTS_UNSTABLE } from '../directives/transforms.js';
import type { ToolLoopGuardrails } from '../guardrails/guardrails.js';
import { prepareAuxiliaryKwargs, redactHumanInputKwargs, requestIdOf, type HumanInputTracker } from '../lifecycle/index.js';
import type { Diagnostic, Emission, EventName, FinalizeNotice } from '../types.js';
import type { SessionBook } from './_sessions.js';

type Kwargs = Record<string, unknown>;

export interface BeforeContext {
  tracker: HumanInputTracker;
  /** What a resolve of a request this engine never saw does (EmitOptions.unpairedResolve). */
  unpairedResolve: 'drop' | 'run';
  sessions: SessionBook;
  /** What an emit that runs nothing returns. */
  empty(kwargs: Kwargs): Emission;
}

export interface AfterContext {
  /** Run the same event's hooks again on other kwargs (same registry). */
  once(kwargs: Kwargs): Promise<Emission>;
  guardrails: ToolLoopGuardrails | null;
}

/** Run the hooks on `run`, or answer `skip` without running any. */
export type Prepared = { run: Kwargs } | { skip: Emission };

export interface EventSteps {
  before?(kwargs: Kwargs, ctx: BeforeContext): Prepared;
  after?(emission: Emission, kwargs: Kwargs, ctx: AfterContext): Promise<void> | void;
}

export const EVENT_STEPS: Partial<Record<EventName, EventSteps>> = {
  on_human_input_request: {
    // The prompt reaches hooks redacted; the tracker remembers the request so exactly one resolved follows.
    before: (kwargs, { tracker }) => ({ run: tracker.request(kwargs) ?? redactHumanInputKwargs(kwargs) }),
  },
  on_human_input_resolved: {
    // A second (or unknown) resolve for a request is dropped: exactly one resolved per request.
    before: (kwargs, { tracker, empty, unpairedResolve }) => {
      const resolved = unpairedResolve === 'run' ? tracker.resolveUnpaired(kwargs) : tracker.resolve(kwargs);
      if (resolved) return { run: resolved };
      const skipped = empty(redactHumanInputKwargs(kwargs));
      skipped.diagnostics.push(unpairedNote(requestIdOf(kwargs), tracker));
      return { skip: skipped };
    },
  },
  pre_auxiliary_call: {
    before: (kwargs) => ({ run: prepareAuxiliaryKwargs(kwargs) }),
  },
  on_session_finalize: {
    // Once per session: one finalized already and not seen since is not finalized again.
    before: (kwargs, { sessions, empty }) => (sessions.claimFinalize(kwargs) ? { run: kwargs } : { skip: empty(kwargs) }),
    after: (emission, kwargs, { guardrails }) => {
      emission.decision.notices = noticesOf(emission, sessionIdOf(kwargs), sessionKeyOf(kwargs));
      if (typeof kwargs.session_id === 'string') guardrails?.resetSession(kwargs.session_id);
    },
  },
  pre_tts_synthesis: {
    after: (emission, kwargs, { once }) => recheckTtsScript(emission, kwargs, once),
  },
};

/** Why a resolve ran no hook: a duplicate (info), or a request this engine never saw (a warning). */
function unpairedNote(requestId: string, tracker: HumanInputTracker): Diagnostic {
  const at = { path: 'request_id', line: null, column: null };
  if (requestId !== '' && tracker.isResolved(requestId)) {
    return {
      level: 'info',
      ...at,
      message: `request '${requestId}' was resolved already; exactly one on_human_input_resolved runs per request, so its hooks did not run again`,
    };
  }
  const named = requestId === '' ? 'no request_id' : `request_id '${requestId}'`;
  return {
    level: 'warning',
    ...at,
    message:
      `no on_human_input_request with ${named} is pending in this engine, so the on_human_input_resolved hooks did not run: a request and its ` +
      `resolution pair inside one engine — emit both to the same serve or library engine`,
  };
}

/** Each notification of a finalize paired with the session it belongs to. */
function noticesOf(e: Emission, session_id: string | null, session_key: string | null): FinalizeNotice[] {
  return (e.decision.notifications ?? []).map((message) => ({ session_id, session_key, message }));
}

const sessionIdOf = (kwargs: Kwargs): string | null => (typeof kwargs.session_id === 'string' && kwargs.session_id !== '' ? kwargs.session_id : null);
const sessionKeyOf = (kwargs: Kwargs): string | null => (typeof kwargs.session_key === 'string' && kwargs.session_key !== '' ? kwargs.session_key : null);

/**
 * Hermes' TTS boundary re-checks a changed script against every hook once more, so no hook's
 * guard is skipped by another hook's rewrite: a block there blocks, and a second pass that changes
 * the script again blocks as unstable. Mutates the first pass's decision; its hook list stays.
 */
async function recheckTtsScript(first: Emission, args: Kwargs, once: (kwargs: Kwargs) => Promise<Emission>): Promise<void> {
  const d = first.decision;
  if (d.action !== 'rewrite' || typeof d.result !== 'string' || d.result === args.text) return;
  const approved = d.result;
  const second = (await once({ ...args, text: approved })).decision;
  if (second.action === 'block') {
    Object.assign(d, { action: 'block', message: second.message, result: null, decided_by: second.decided_by, modified_by: [] });
  } else if (second.action === 'rewrite' && second.result !== approved) {
    Object.assign(d, { action: 'block', message: TTS_UNSTABLE, result: null, decided_by: second.decided_by, modified_by: [] });
  }
}

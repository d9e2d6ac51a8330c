// Why a hook's JSON object answer decided nothing (issue 24 item 4, issue 20 item 3): a word Hermes
// does not know (`deny`, `Block`, `allow`, `reject` …), a key it does not read (`Action`,
// `permissionDecision` outside hookSpecificOutput, Cursor's `permission`), or an answer meant for
// another event. Hermes ignores all of these and the call goes ahead; we say so, with a
// did-you-mean, and a fail_closed guard whose answer meant anything stricter than "go ahead"
// blocks instead. Read by each event's own rules (reference §3.4): pre_tool_call is exact and
// case-sensitive, pre_verify is case-insensitive, the other events read `{context}` (and a few
// their own keys). Pure: called only for an object that produced no directive.

import { didYouMean } from '../util/did-you-mean.js';
import { EVENTS, type EventName } from '../events.js';
import { isPlainObject } from '../json.js';
import type { JsonObject } from '../types.js';
import { takesContext } from './_event-rules.js';

export interface AnswerProblem {
  /** One clause, e.g. `answered 'deny', which is not a Hermes action — did you mean 'block'?` */
  message: string;
  /**
   * The answer meant something stricter than "go ahead" (a block, an approval, a rewrite): a
   * fail_closed guard that printed it blocks instead of letting the call through unchecked.
   */
  failsClosed: boolean;
  /** What the hook meant did not happen (doctor ✗); false when the call goes ahead as it meant. */
  lost: boolean;
}

/** The action words each event reads on stdout (its honours, as words; `context` etc. are keys). */
const ACTION_WORDS = new Set(['block', 'modify', 'approve', 'continue', 'handled', 'rewrite', 'skip', 'allow']);

type Intent = 'block' | 'ask' | 'allow' | 'modify';

// What other agents' words (and everyday synonyms) mean, so the did-you-mean names the Hermes word
// that does the same, and fail_closed knows whether ignoring the answer loses anything.
const INTENT_WORDS: Readonly<Record<Intent, readonly string[]>> = {
  block: [
    'deny',
    'denied',
    'reject',
    'rejected',
    'refuse',
    'refused',
    'forbid',
    'forbidden',
    'disallow',
    'disallowed',
    'blocked',
    'abort',
    'cancel',
    'veto',
    'prevent',
    'no',
  ],
  ask: ['ask', 'confirm', 'prompt', 'approval', 'review', 'escalate', 'require_approval', 'approval_required'],
  allow: [
    'allow',
    'allowed',
    'accept',
    'accepted',
    'ok',
    'okay',
    'yes',
    'pass',
    'proceed',
    'permit',
    'permitted',
    'approved',
    'none',
    'noop',
    'ignore',
    'continue',
    'defer',
    'passthrough',
  ],
  modify: ['rewrite', 'update', 'updated', 'replace', 'edit', 'change', 'mutate', 'modified', 'transform', 'patch'],
};

function intentOf(word: string): Intent | null {
  const w = word.trim().toLowerCase();
  for (const intent of Object.keys(INTENT_WORDS) as Intent[]) if (INTENT_WORDS[intent].includes(w)) return intent;
  return null;
}

/** What this event honours, for messages: `block, modify, approve` / `nothing — observer only`. */
export function honoursText(event: EventName): string {
  const honours = EVENTS[event].honours;
  return honours.length ? honours.join(', ') : 'nothing — observer only';
}

/** The words an event reads in `action` (pre_verify: `continue`, or Claude's `block`). */
function wordsOf(event: EventName): string[] {
  if (event === 'pre_verify') return ['continue', 'block'];
  return EVENTS[event].honours.filter((h) => ACTION_WORDS.has(h));
}

const quote = (v: unknown): string => (typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? String(v)));

/** Why `obj` (a hook's stdout object that produced no directive on `event`) decided nothing, or null. */
export function answerProblem(event: EventName, obj: JsonObject): AnswerProblem | null {
  if (event === 'pre_tool_call') return preToolCall(obj);
  if (event === 'pre_verify') return preVerify(obj);
  return otherEvent(event, obj);
}

// ---- pre_tool_call: exact, case-sensitive words (reference §3.4) ---------------------------------

function preToolCall(obj: JsonObject): AnswerProblem | null {
  const action = obj.action;
  if (action !== undefined && action !== null) return toolWord(action, 'action');
  const decision = obj.decision;
  if (decision !== undefined && decision !== null) {
    if (decision === 'approve') {
      return {
        message:
          "answered decision 'approve', which Hermes ignores on purpose (in Claude Code it means allow): the call goes ahead without asking — " +
          'print {"action":"approve"} to ask the user, or nothing to allow',
        failsClosed: false,
        lost: false,
      };
    }
    return toolWord(decision, 'decision');
  }
  return misplacedKeys('pre_tool_call', obj);
}

function toolWord(word: unknown, field: 'action' | 'decision'): AnswerProblem {
  if (typeof word !== 'string') {
    return { message: `answered ${field} ${quote(word)}, which is not a Hermes action (a string: block, modify, approve)`, failsClosed: true, lost: true };
  }
  if (word === 'modify') {
    const key = field === 'action' ? 'args' : 'tool_input';
    return { message: `answered 'modify' without an '${key}' object, so the arguments are not changed`, failsClosed: true, lost: true };
  }
  const lower = word.trim().toLowerCase();
  const exact = ['block', 'modify', 'approve'].find((w) => w === lower);
  if (exact !== undefined) {
    return {
      message: `answered ${quote(word)}, which is not a Hermes action (actions are exact and lower-case) — did you mean '${exact}'?`,
      failsClosed: true,
      lost: true,
    };
  }
  const intent = intentOf(word);
  if (intent === 'allow') {
    return {
      message:
        `answered ${quote(word)}, which is not a Hermes action — to allow, print nothing or {} (the call goes ahead, as meant); 'approve' ` +
        `would ask the user first`,
      failsClosed: false,
      lost: false,
    };
  }
  const meant =
    intent === 'block' ? 'block' : intent === 'ask' ? 'approve' : intent === 'modify' ? 'modify' : didYouMean(lower, ['block', 'modify', 'approve']);
  const hint = meant === null ? ' (pre_tool_call reads: block, modify, approve)' : ` — did you mean '${meant}'?`;
  return { message: `answered ${quote(word)}, which is not a Hermes action${hint}`, failsClosed: true, lost: true };
}

// ---- pre_verify: case-insensitive continue/block with a message -------------------------------

function preVerify(obj: JsonObject): AnswerProblem | null {
  const verb = obj.action ?? obj.decision;
  if (verb !== undefined && verb !== null && verb !== '') {
    if (typeof verb === 'string' && ['continue', 'block'].includes(verb.trim().toLowerCase())) {
      return { message: `answered ${quote(verb)} without a non-blank 'message' (or 'reason'), so the turn ends`, failsClosed: false, lost: true };
    }
    const word = typeof verb === 'string' ? verb : '';
    const intent = intentOf(word);
    if (intent === 'allow') return null; // "let the turn end" is what nothing does
    // Gemini's AfterAgent `deny` asks for another turn: our `continue`.
    const meant = intent === 'block' || intent === 'ask' ? 'continue' : didYouMean(word.toLowerCase(), ['continue', 'block']);
    const hint = meant === null ? ' (pre_verify reads: continue + message)' : ` — did you mean '${meant}'?`;
    return { message: `answered ${quote(verb)}, which pre_verify does not read${hint}`, failsClosed: false, lost: true };
  }
  return misplacedKeys('pre_verify', obj);
}

// ---- every other event: {context} (and the event's own keys) ----------------------------------

function otherEvent(event: EventName, obj: JsonObject): AnswerProblem | null {
  const verb = obj.action ?? obj.decision;
  if (verb !== undefined && verb !== null) {
    const words = wordsOf(event);
    const word = typeof verb === 'string' ? verb : '';
    const close = words.find((w) => w === word.trim().toLowerCase()) ?? (word ? didYouMean(word.toLowerCase(), words) : null);
    if (close !== null && close !== word) {
      return { message: `answered ${quote(verb)}, which ${event} does not read — did you mean '${close}'?`, failsClosed: false, lost: true };
    }
    if (intentOf(word) === 'allow' && !words.includes('allow')) return null;
    // A guard's or a nudge's word on an event that takes none is a hook that thinks it decided;
    // another event's own word (rewrite, skip, handled) is most likely one script serving several.
    const lost = ['block', 'modify', 'approve', 'continue'].includes(word) || intentOf(word) === 'block';
    return { message: `answered ${quote(verb)}, which ${event} does not honour (it honours: ${honoursText(event)})`, failsClosed: false, lost };
  }
  return misplacedKeys(event, obj);
}

// ---- keys a hook meant as an answer, but which this event does not read ------------------------

function misplacedKeys(event: EventName, obj: JsonObject): AnswerProblem | null {
  const keys = Object.keys(obj);
  const gate = event === 'pre_tool_call';
  const meansStricter = (v: unknown): boolean => typeof v !== 'string' || intentOf(v) !== 'allow';

  if (gate) {
    const hso = obj.hookSpecificOutput;
    if (isPlainObject(hso)) {
      const pd = hso.permissionDecision;
      // `allow` alone and `defer` say "go ahead": nothing is lost.
      if (pd === 'allow' || pd === 'defer') return null;
      if (pd === undefined || pd === null) {
        if (hso.updatedInput !== undefined)
          return {
            message: "printed hookSpecificOutput.updatedInput without permissionDecision 'allow', so the arguments are not changed",
            failsClosed: true,
            lost: true,
          };
        return null;
      }
      const lower = typeof pd === 'string' ? pd.trim().toLowerCase() : '';
      const meant =
        ['allow', 'deny', 'ask', 'defer'].find((w) => w === lower) ?? (intentOf(lower) === 'block' ? 'deny' : intentOf(lower) === 'ask' ? 'ask' : null);
      return {
        message:
          `printed hookSpecificOutput.permissionDecision ${quote(pd)}, which is not one Hermes reads (allow, deny, ask, ` +
          `defer)${meant ? ` — did you mean '${meant}'?` : ''}`,
        failsClosed: meant !== 'allow' && meant !== 'defer',
        lost: meant !== 'allow' && meant !== 'defer',
      };
    }
    if ('permissionDecision' in obj) {
      return {
        message:
          `printed permissionDecision ${quote(obj.permissionDecision)} at the top level, where Hermes does not read it — Claude Code's form ` +
          `puts it inside hookSpecificOutput; or print {"action":"block","message":"…"}`,
        failsClosed: meansStricter(obj.permissionDecision),
        lost: meansStricter(obj.permissionDecision),
      };
    }
    if ('permission' in obj) {
      return {
        message:
          `printed Cursor's 'permission' answer (${quote(obj.permission)}), which Hermes does not read — mark the hook dialect: cursor, or ` +
          `print {"action":"block","message":"…"}`,
        failsClosed: meansStricter(obj.permission),
        lost: meansStricter(obj.permission),
      };
    }
    if (obj.continue === false) {
      return {
        message:
          'printed continue: false (Claude Code\'s "stop"), which pre_tool_call does not read — to stop this call print {"action":"block","message":"…"}',
        failsClosed: true,
        lost: true,
      };
    }
    for (const key of ['block', 'blocked', 'deny', 'denied', 'reject']) {
      if (obj[key] === true)
        return { message: `printed ${quote(key)}: true, which Hermes does not read — did you mean {"action":"block"}?`, failsClosed: true, lost: true };
    }
    if (obj.allow === false || obj.allowed === false) {
      return {
        message: `printed ${quote(obj.allow === false ? 'allow' : 'allowed')}: false, which Hermes does not read — did you mean {"action":"block"}?`,
        failsClosed: true,
        lost: true,
      };
    }
  }
  // `Action`, `actoin`, `Decision`: a misspelled key is never read.
  for (const key of keys) {
    if (key === 'action' || key === 'decision') continue;
    const lower = key.toLowerCase();
    const meant = ['action', 'decision'].find((k) => nearMiss(lower, k)) ?? null;
    if (meant !== null) {
      return {
        message: `printed ${quote(key)}, which is not read (keys are exact and case-sensitive) — did you mean '${meant}'?`,
        failsClosed: gate && meansStricter(obj[key]),
        lost: true,
      };
    }
  }
  const said =
    typeof obj.message === 'string' && obj.message.trim() !== '' ? 'message' : typeof obj.reason === 'string' && obj.reason.trim() !== '' ? 'reason' : null;
  if (gate && said !== null) {
    return {
      message: `printed a '${said}' but no action, so nothing was decided — did you mean {"action":"block","message":"…"}?`,
      failsClosed: true,
      lost: true,
    };
  }
  if (event === 'pre_verify' && said !== null) {
    return {
      message: `printed a '${said}' but no action, so the turn ends — did you mean {"action":"continue","message":"…"}?`,
      failsClosed: false,
      lost: true,
    };
  }
  // {context} answered where it is not read.
  if (!takesContext(event) && typeof obj.context === 'string' && obj.context.trim() !== '') {
    return { message: `answered 'context', which ${event} does not honour (it honours: ${honoursText(event)})`, failsClosed: false, lost: true };
  }
  if (takesContext(event) && obj.context === undefined) {
    for (const key of keys) {
      const lower = key.toLowerCase().replace(/[_-]/g, '');
      if (lower === 'context' || lower === 'contexts' || lower === 'additionalcontext') {
        return {
          message: `printed ${quote(key)}, which is not read — did you mean 'context'? (Hermes reads {"context": "…"})`,
          failsClosed: false,
          lost: true,
        };
      }
    }
  }
  return null;
}

/** Same word but for case, one typo, or two letters swapped (`Action`, `actoin`, `decison`). */
function nearMiss(word: string, target: string): boolean {
  if (word === target) return true;
  if (Math.abs(word.length - target.length) > 1) return false;
  if (word.length === target.length) {
    const diff = [...word].flatMap((c, i) => (c === target[i] ? [] : [i]));
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0]! + 1 && word[diff[0]!] === target[diff[1]!] && word[diff[1]!] === target[diff[0]!];
  }
  const [short, long] = word.length < target.length ? [word, target] : [target, word];
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

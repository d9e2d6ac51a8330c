// Run one configured shell hook on a payload outside an emit — `hermes-hooks doctor`'s smoke run.
// Same rendering, spawning and evaluation as an emit, so the verdict is the production one.
// Under HERMES_SAFE_MODE nothing runs: the outcome says so (status safe_mode). Given the consent
// store, consent is checked again at the launch, as in an emit: a script rewritten after doctor
// looked at it (an attacker flipping it in a loop) does not run.
//
// A smoke run is a real run: a hook that logs, notifies or posts does so. So the payload says it is
// a test (session_id `hermes-hooks-doctor`, HERMES_HOOKS_SMOKE_RUN=1 in the hook's environment), and
// hooks whose event only observes — nothing their answer decides, only their side effects — are left
// to the caller to run when asked (doctor --smoke-all), never by default.

import { isTruthyEnv } from '../config/hooks.js';
import { compileMatcher } from '../config/matcher.js';
import { LaunchGate } from '../consent/launch.js';
import type { ConsentStore } from '../consent/store.js';
import type { DialectMaps } from '../dialects/names.js';
import { EVENTS, syntheticKwargs, type EventName } from '../events.js';
import { buildPayload } from '../protocol/build-payload.js';
import { serializePayload } from '../protocol/serialize.js';
import type { HookOutcome, HookSpec, JsonObject } from '../types.js';
import { outcomeBase, runShellHook } from './_run-shell.js';
import { noteStdoutProblem, SAFE_MODE_NOT_RUN } from './run-hooks.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './options.js';

/** The session a smoke run's payload names, so a hook (or whoever reads its log) can tell doctor's test. */
export const SMOKE_SESSION = 'hermes-hooks-doctor';
/** Set to 1 in a smoke-run hook's environment: a hook that keeps state can leave it alone. */
export const SMOKE_ENV = 'HERMES_HOOKS_SMOKE_RUN';

/**
 * Events whose hooks only observe: their answer decides nothing (at most a notification), so a run
 * shows nothing but its side effects — a line in a real audit log, a message sent. Not smoke-run by default.
 */
export function observesOnly(event: EventName): boolean {
  return EVENTS[event].honours.every((h) => h === 'notify');
}

/** The event's synthetic kwargs, marked as doctor's test. */
export function smokeKwargs(event: EventName): Record<string, unknown> {
  const kwargs = syntheticKwargs(event);
  kwargs.session_id = SMOKE_SESSION;
  if ('parent_session_id' in kwargs) kwargs.parent_session_id = SMOKE_SESSION;
  return kwargs;
}

export async function smokeRunHook(
  spec: HookSpec,
  kwargs: Record<string, unknown>,
  opts: { home: string; profile: string; cwd: string; env: NodeJS.ProcessEnv; dialectMaps: DialectMaps; store?: ConsentStore },
): Promise<HookOutcome> {
  const entry = { kind: 'shell', event: spec.event, spec, matcher: compileMatcher(spec.matcher), consent: null, action: 'run' } as const;
  if (isTruthyEnv(opts.env.HERMES_SAFE_MODE)) return { ...outcomeBase(entry, 0), status: 'safe_mode', error: SAFE_MODE_NOT_RUN };
  const payload = buildPayload(spec.event, kwargs, { cwd: opts.cwd, profile: opts.profile }) as unknown as JsonObject;
  const bytes = Buffer.from(serializePayload(payload), 'utf8');
  const outcome = await runShellHook(entry, 0, {
    payload,
    stdin: () => bytes,
    // Never approves (no accept) and warns nowhere: a refusal is the outcome doctor reports.
    gate: opts.store ? new LaunchGate({ store: opts.store, accept: false, warn: () => {}, promptable: false }) : null,
    env: opts.env,
    extraEnv: { HERMES_HOME: opts.home, HERMES_HOOK_EVENT: spec.event, [SMOKE_ENV]: '1' },
    cwd: opts.cwd,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    signal: new AbortController().signal,
    dialectMaps: opts.dialectMaps,
    emitStart: performance.now(),
  });
  noteStdoutProblem(spec.event, outcome);
  return outcome;
}

// Run one configured shell hook on a payload outside an emit — `hermes-hooks doctor`'s smoke run.
// Same rendering, spawning and evaluation as an emit, so the verdict is the production one.
// Under HERMES_SAFE_MODE nothing runs: the outcome says so (status safe_mode). Given the consent
// store, consent is checked again at the launch, as in an emit: a script rewritten after doctor
// looked at it (an attacker flipping it in a loop) does not run.

import { isTruthyEnv } from '../config/hooks.js';
import { compileMatcher } from '../config/matcher.js';
import { LaunchGate } from '../consent/launch.js';
import type { ConsentStore } from '../consent/store.js';
import type { DialectMaps } from '../dialects/names.js';
import { buildPayload } from '../protocol/build-payload.js';
import { serializePayload } from '../protocol/serialize.js';
import type { HookOutcome, HookSpec, JsonObject } from '../types.js';
import { outcomeBase, runShellHook } from './_run-shell.js';
import { noteStdoutProblem, SAFE_MODE_NOT_RUN } from './emit.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './options.js';

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
    extraEnv: { HERMES_HOME: opts.home, HERMES_HOOK_EVENT: spec.event },
    cwd: opts.cwd,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    signal: new AbortController().signal,
    dialectMaps: opts.dialectMaps,
    emitStart: performance.now(),
  });
  noteStdoutProblem(spec.event, outcome);
  return outcome;
}

// Run one shell hook for one emit: render its stdin (Hermes wire or its agent's dialect), check
// consent at launch, spawn it, and turn the run into a directive. Everything that can go wrong
// becomes a field, never a throw.

import { evaluateDialectRun } from '../dialects/evaluate.js';
import type { DialectMaps } from '../dialects/names.js';
import { renderDialectStdin } from '../dialects/render.js';
import { evaluateRun } from '../directives/evaluate-run.js';
import { serializePayload } from '../protocol/serialize.js';
import type { LaunchGate, LaunchRefusal } from '../consent/launch.js';
import type { ConsentInfo } from '../consent/state.js';
import { consentRefusal } from '../consent/policy.js';
import { spawnHook } from '../spawn/run-hook.js';
import type { Directive, HookOutcome, HookRun, JsonObject } from '../types.js';
import { hookOutcome, round } from './_outcome.js';
import type { ShellEntry } from './registry.js';
import { errorText } from '../errors.js';

export interface ShellRunContext {
  payload: JsonObject;
  /** The Hermes-wire payload bytes, encoded once per emit; each hook still gets its own copy. */
  stdin: () => Uint8Array;
  /** Consent checked at each launch; null = not enforced (the dry run). */
  gate: LaunchGate | null;
  env: NodeJS.ProcessEnv;
  extraEnv: Record<string, string>;
  cwd: string;
  maxOutputBytes: number;
  signal: AbortSignal;
  dialectMaps: DialectMaps;
  emitStart: number;
}

export async function runShellHook(entry: ShellEntry, index: number, ctx: ShellRunContext): Promise<HookOutcome> {
  const { spec } = entry;
  const base = outcomeBase(entry, index);
  let stdin: string | Uint8Array;
  if (spec.dialect === 'hermes') {
    stdin = ctx.stdin();
  } else {
    // The agent's working directory is the payload's (the dry run's or the calling agent's), not ours.
    const cwd = typeof ctx.payload.cwd === 'string' && ctx.payload.cwd !== '' ? ctx.payload.cwd : ctx.cwd;
    const rendered = renderDialectStdin(spec.dialect, ctx.dialectMaps, ctx.payload, { cwd });
    if (rendered === null) {
      return { ...base, status: 'skipped', error: `event ${spec.event} has no ${spec.dialect} counterpart` };
    }
    stdin = serializePayload(rendered);
  }

  const launched = await launchChecked(entry, stdin, ctx);
  if ('refused' in launched) return refusedOutcome(base, launched.refused);
  const { run } = launched;
  if ('tainted' in launched) return { ...runFields(base, run, ctx), ...refusalFields(launched.tainted) };
  let directive: Directive | null;
  try {
    directive = spec.dialect === 'hermes' ? evaluateRun(spec, run) : evaluateDialectRun(spec.dialect, ctx.dialectMaps, spec, toolNameOf(ctx.payload), run);
  } catch (e) {
    // The evaluators are pure and property-tested never to throw; this is the last line of defence.
    directive = null;
    run.error = run.error ?? `internal error evaluating hook output: ${errorText(e)}`;
  }
  return {
    ...runFields(base, run, ctx),
    ...(launched.consent !== null ? { consent: launched.consent.state } : {}),
    directive,
  };
}

/** The outcome fields a finished process fills in. */
function runFields(base: HookOutcome, run: HookRun, ctx: ShellRunContext): HookOutcome {
  return {
    ...base,
    status: run.status,
    exit_code: run.exit_code,
    signal: run.signal,
    duration_ms: round(run.duration_ms),
    started_ms: round(Math.max(0, run.started_at - ctx.emitStart)),
    stdout: run.stdout,
    stderr: run.stderr,
    error: run.error,
    left_processes: run.left_processes,
    stdout_dropped_bytes: run.stdout_dropped_bytes,
    stderr_dropped_bytes: run.stderr_dropped_bytes,
  };
}

/** Spawns whose last-moment consent check failed before the hook is refused as changing. */
const MAX_LAUNCH_ATTEMPTS = 3;

type Launched =
  | { run: HookRun; consent: ConsentInfo | null }
  | { refused: LaunchRefusal }
  /** It ran, but its script changed after the check: which bytes ran is unknown, its answer is not trusted. */
  | { run: HookRun; tainted: LaunchRefusal };

/**
 * Spawn the hook if consent, checked now, lets it run. The ticket's verify() runs inside spawnHook
 * right before the process starts; if the allowlist or the script moved since the check, nothing
 * is started and the check is made again from scratch. Right after the start and after the exit,
 * the script must still be the one that was hashed.
 */
async function launchChecked(entry: ShellEntry, stdin: string | Uint8Array, ctx: ShellRunContext): Promise<Launched> {
  const { spec } = entry;
  // The dry run enforces no approval, but never runs a file that fails the trust rule either.
  if (ctx.gate === null && entry.consent?.untrusted != null) return { refused: { run: false, consent: entry.consent, ...consentRefusal(spec, entry.consent) } };
  for (let attempt = 0; ; attempt++) {
    const ticket = ctx.gate === null ? null : await ctx.gate.check(spec, { fresh: attempt > 0 });
    if (ticket !== null && !ticket.run) return { refused: ticket };
    let stale = false;
    let killed = false;
    const run = await spawnHook({
      command: spec.command,
      stdin,
      timeoutMs: spec.timeout * 1000,
      env: ctx.env,
      extraEnv: ctx.extraEnv,
      cwd: ctx.cwd,
      maxOutputBytes: ctx.maxOutputBytes,
      signal: ctx.signal,
      ...(ticket !== null
        ? {
            beforeLaunch: () => (ticket.verify() ? null : ((stale = true), 'the allowlist or the script changed during launch')),
            afterLaunch: () => (ticket.scriptUnchanged() ? null : ((killed = true), 'the script changed as it was started')),
          }
        : {}),
    });
    if (ticket === null) return { run, consent: null };
    const gate = ctx.gate as LaunchGate;
    if (killed) return { refused: gate.changedDuring(spec, ticket.consent, 'launch') };
    if (!stale) {
      if (!ticket.scriptUnchanged()) return { run, tainted: gate.changedDuring(spec, ticket.consent, 'run') };
      return { run, consent: ticket.consent };
    }
    // Changed between every check and its spawn: never vouch for it.
    if (attempt + 1 >= MAX_LAUNCH_ATTEMPTS) return { refused: gate.unstable(spec, ticket.consent) };
  }
}

/** A hook consent did not let run: a fail_closed guard blocks, any other is skipped. */
function refusedOutcome(base: HookOutcome, refusal: LaunchRefusal): HookOutcome {
  return { ...base, status: refusal.block ? 'awaiting_approval' : 'skipped', ...refusalFields(refusal) };
}

function refusalFields(refusal: LaunchRefusal): Pick<HookOutcome, 'consent' | 'error' | 'directive'> {
  return {
    consent: refusal.consent.state,
    error: refusal.message,
    directive: refusal.block ? { action: 'block', message: refusal.message } : null,
  };
}

/** A shell hook's outcome before it ran (status not_matched). */
export function outcomeBase(entry: ShellEntry, index: number): HookOutcome {
  const { spec } = entry;
  return hookOutcome({
    index,
    kind: 'shell',
    command: spec.command,
    matcher: spec.matcher,
    timeout: spec.timeout,
    fail_closed: spec.fail_closed,
    dialect: spec.dialect,
    consent: entry.consent?.state ?? null,
  });
}

function toolNameOf(payload: JsonObject): string | null {
  return typeof payload.tool_name === 'string' ? payload.tool_name : null;
}

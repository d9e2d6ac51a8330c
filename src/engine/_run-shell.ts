// Run one shell hook for one emit: render its stdin (Hermes wire or its agent's dialect), spawn it,
// and turn the run into a directive. Everything that can go wrong becomes a field, never a throw.

import { evaluateDialectRun } from '../dialects/evaluate.js';
import type { DialectMaps } from '../dialects/names.js';
import { renderDialectStdin } from '../dialects/render.js';
import { evaluateRun } from '../directives/evaluate-run.js';
import { serializePayload } from '../protocol/serialize.js';
import { spawnHook } from '../spawn/run-hook.js';
import type { PreparedStdin } from '../spawn/stdin-file.js';
import type { Directive, HookOutcome, HookRun, JsonObject } from '../types.js';
import { hookOutcome, round } from './_outcome.js';
import type { ShellEntry } from './_registry.js';

export interface ShellRunContext {
  payload: JsonObject;
  /** The Hermes-wire payload, prepared once and shared by every Hermes-dialect hook of the emit. */
  stdin: () => Promise<PreparedStdin>;
  env: NodeJS.ProcessEnv;
  extraEnv: Record<string, string>;
  cwd: string;
  maxOutputBytes: number;
  signal: AbortSignal;
  dialectMaps: DialectMaps;
  emitStart: number;
}

export async function runShellHook(
  entry: ShellEntry,
  index: number,
  ctx: ShellRunContext,
): Promise<HookOutcome> {
  const { spec } = entry;
  const base = outcomeBase(entry, index);
  let stdin: string | PreparedStdin;
  if (spec.dialect === 'hermes') {
    stdin = await ctx.stdin();
  } else {
    // The agent's working directory is the payload's (the dry run's or the calling agent's), not ours.
    const cwd = typeof ctx.payload.cwd === 'string' && ctx.payload.cwd !== '' ? ctx.payload.cwd : ctx.cwd;
    const rendered = renderDialectStdin(spec.dialect, ctx.dialectMaps, ctx.payload, { cwd });
    if (rendered === null) {
      return { ...base, status: 'skipped', error: `event ${spec.event} has no ${spec.dialect} counterpart` };
    }
    stdin = serializePayload(rendered);
  }
  const run: HookRun = await spawnHook({
    command: spec.command,
    stdin,
    timeoutMs: spec.timeout * 1000,
    env: ctx.env,
    extraEnv: ctx.extraEnv,
    cwd: ctx.cwd,
    maxOutputBytes: ctx.maxOutputBytes,
    signal: ctx.signal,
  });
  let directive: Directive | null;
  try {
    directive =
      spec.dialect === 'hermes'
        ? evaluateRun(spec, run)
        : evaluateDialectRun(spec.dialect, ctx.dialectMaps, spec, toolNameOf(ctx.payload), run);
  } catch (e) {
    // The evaluators are pure and property-tested never to throw; this is the last line of defence.
    directive = null;
    run.error = run.error ?? `internal error evaluating hook output: ${(e as Error).message}`;
  }
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
    directive,
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

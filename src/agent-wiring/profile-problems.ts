// What a session is told once at its start (issue 30): the profile's problems that leave a guard
// inactive — the config's diagnostics, hooks not approved (or modified since), a program that cannot
// start (missing, no x bit, no #! line, CRLF: spawn's own file checks, as doctor and validate say
// them) — each with its fix. Reads the hooks' program files (sync, only at session start).

import path from 'node:path';
import { consentAllowsRun } from '../consent/state.js';
import type { AwaitingConsentState } from '../consent-states.js';
import { defaultApproveHint } from '../consent/policy.js';
import type { HookEngine } from '../engine/create-engine.js';
import { EVENT_NAMES } from '../events.js';
import { splitCommand } from '../shell-words.js';
import { problemText, programProblem, whichOnPath } from '../spawn/launch-problems.js';
import { diagnosticLines } from './problems.js';

/** Why a hook awaiting approval does not run, as the person is told (a Record: a new state cannot go unworded). */
const AWAITING_WORDS: Record<AwaitingConsentState, string> = { not_approved: 'not approved', modified: 'changed since it was approved' };

export type ProfileView = Pick<HookEngine, 'diagnostics' | 'configFile' | 'config' | 'hooksFor' | 'stats'>;

/** Where the hooks run and the env (PATH, HOME) they are started with. */
export interface HookPlace {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function profileProblems(engine: ProfileView, ctx: HookPlace): string[] {
  const stats = engine.stats();
  const lines: string[] = [];
  if (!stats.config_exists) lines.push(`no config file at ${engine.configFile}: no hooks are configured, every call goes ahead unchecked`);
  if (stats.safe_mode) lines.push('HERMES_SAFE_MODE is set: no user hook runs — unset it to turn the guards back on');
  if (stats.reload_error) lines.push(`the config on disk was refused, the last good one stays in force: ${stats.reload_error}`);
  lines.push(...diagnosticLines(engine.diagnostics, engine.configFile, null, engine.config.foreign));
  const seen = new Set<string>();
  for (const event of EVENT_NAMES) {
    for (const entry of engine.hooksFor(event)) {
      if (entry.kind !== 'shell' || entry.action !== 'run') continue;
      const { command } = entry.spec;
      const state = entry.consent?.state;
      if (state !== undefined && !consentAllowsRun(state)) {
        const why = AWAITING_WORDS[state];
        lines.push(`hook ${command} (${event}) is ${why}, so it does not run — run: ${defaultApproveHint(event, command)}`);
      }
      if (seen.has(command)) continue;
      seen.add(command);
      const problem = programCheck(command, ctx);
      if (problem !== null) lines.push(`hook ${command} cannot start: ${problem}`);
    }
  }
  return lines;
}

/** What stops the command's program from starting as spawn starts it, with its fix; null when nothing visible does. */
function programCheck(command: string, ctx: HookPlace): string | null {
  const home = ctx.env['HOME'];
  const split = splitCommand(command, home === undefined ? {} : { homedir: home });
  if (!split.ok || split.argv.length === 0) return null; // the config's diagnostics say it
  const argv = split.argv;
  const program = argv[0]!;
  if (!program.includes('/')) {
    return whichOnPath(program, ctx.env['PATH']) === null ? `command not found: ${program} — it is not on PATH; use its full path` : null;
  }
  const relative = !program.startsWith('/');
  const fix = relative
    ? `a relative path is looked up in the directory the agent runs the hook from (here ${ctx.cwd}); use an absolute path`
    : 'fix the path in config.yaml';
  const found = programProblem(path.resolve(ctx.cwd, program), { cwd: ctx.cwd, path: ctx.env['PATH'], argv });
  return found === null ? null : problemText(found, fix);
}

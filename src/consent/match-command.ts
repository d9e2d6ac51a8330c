// Which configured hook a person means by a command typed on the command line. Approvals are keyed
// by the exact configured string (Hermes' format), but people type what their shell produced:
// `approve ~/x.sh` unquoted arrives as `/home/me/x.sh`. Two commands mean the same hook when they
// are the same string, or when they split into the same argv (the spawn splitter, `~/` expanded)
// with the pinned word resolved to the same absolute file.

import { getCloseMatches } from '../util/did-you-mean.js';
import { splitCommand } from '../shell-words.js';
import { locatePinned, type InspectOptions } from './script-info.js';

/** A comparable form of `command`: its argv with the pinned word as an absolute path; null when it does not split. */
export async function commandKey(command: string, opts: InspectOptions = {}): Promise<string | null> {
  const split = splitCommand(command.trim(), opts.homedir === undefined ? {} : { homedir: opts.homedir });
  if (!split.ok) return null;
  const argv = [...split.argv];
  const { target, file } = await locatePinned(command.trim(), opts);
  const at = argv.indexOf(target.token);
  if (file !== null && at >= 0) argv[at] = file;
  return JSON.stringify(argv);
}

/** The candidates that mean the same as `typed`: an exact string match first, else by commandKey. */
export async function matchCommand(typed: string, candidates: readonly string[], opts: InspectOptions = {}): Promise<string[]> {
  const want = typed.trim();
  const unique = [...new Set(candidates)];
  if (unique.includes(want)) return [want];
  const key = await commandKey(want, opts);
  if (key === null) return [];
  const out: string[] = [];
  for (const c of unique) if ((await commandKey(c, opts)) === key) out.push(c);
  return out;
}

/** Up to `n` candidates closest to `typed`, best first (for "did you mean"). */
export function closestCommands(typed: string, candidates: readonly string[], n = 3): string[] {
  return getCloseMatches(typed.trim(), [...new Set(candidates)], n, 0);
}

// serve tells a problem once per agent session (issue 30): its first call that meets the problem
// (SessionStart, which summarises the profile, or a gate) carries it to the person, the session's
// later calls do not — until the engine reloads (the config, the allowlist or a script changed),
// when whatever is still wrong is told again. `run` has no memory between calls: it tells every call.

/** Sessions remembered; the least recently seen is forgotten first (it is then told again, no harm). */
const MAX_SESSIONS = 2000;

export class ToldOnce {
  private readonly sessions = new Map<string, { generation: number; told: Set<string> }>();

  constructor(private readonly max = MAX_SESSIONS) {}

  /** The problems of `sessionId` not told since `generation` came into force; they count as told now. */
  fresh(sessionId: string, generation: number, problems: readonly string[]): string[] {
    // No session id: nothing to remember it by, so every call tells.
    if (sessionId === '') return [...problems];
    let seen = this.sessions.get(sessionId);
    if (seen === undefined || seen.generation !== generation) seen = { generation, told: new Set() };
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, seen);
    if (this.sessions.size > this.max) this.sessions.delete(this.sessions.keys().next().value as string);
    const out = problems.filter((p) => !seen.told.has(p));
    for (const p of out) seen.told.add(p);
    return out;
  }
}

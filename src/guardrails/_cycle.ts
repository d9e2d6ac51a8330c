// Cycle detection over one session's call history (identities only). Pure.

export interface Cycle {
  /** Complete repetitions of `unit` at the tail that the next call continues. */
  reps: number;
  /** One repetition: the calls before the next one, in call order. */
  unit: string[];
}

/** Longest run of complete repetitions at the tail that `next` continues, over periods 2..maxPeriod. */
export function cycleAt(history: readonly string[], next: string, maxPeriod: number): Cycle | null {
  const seq = [...history, next];
  const n = seq.length;
  let best: Cycle | null = null;
  for (let p = 2; p <= maxPeriod; p++) {
    if (n < p + 1) break;
    let matched = 0; // positions i (from the end) with seq[i] === seq[i - p]
    for (let i = n - 1; i - p >= 0 && seq[i] === seq[i - p]; i--) matched++;
    const periodic = matched + p; // length of the p-periodic suffix, `next` included
    const reps = Math.floor((periodic - 1) / p);
    if (reps < 1) continue;
    // One repetition = the p calls before `next`, in call order.
    const unit = seq.slice(n - 1 - p, n - 1);
    if (new Set(unit).size < 2) continue; // a single repeated call is idempotent/exact territory
    if (!best || reps > best.reps) best = { reps, unit };
  }
  return best;
}

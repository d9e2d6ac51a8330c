// The trust rule (trust.ts) judged again at every launch, cheaply when nothing moved. A passing
// judgement keeps what it read — each path on the way with the type, mode and owner the rule
// judges — from the very lstats it judged (never from a second look, which could record a mode
// that was not judged). A walk with no symlink on the way reads exactly these paths, so finding
// them unchanged is the same verdict for the price of the lstats alone, without the walk's and
// the judgement's work (two thirds of the check's cost on the launch path: bench/README.md, issue 33).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { judgeWalk } from './trust.js';

export interface TrustProof {
  euid: number;
  steps: { path: string; mode: number; uid: number }[];
}

/** The proof of a file that exists, passes the rule and has no symlink on the way; null otherwise. */
export function trustProof(file: string): TrustProof | null {
  const abs = path.resolve(file);
  const { verdict, judged, euid } = judgeWalk(abs);
  if (euid === undefined || verdict.target !== abs || verdict.findings.length > 0) return null;
  // Root and each component once, as plain steps: a link or a `..` on the way was walked otherwise.
  if (judged.length !== abs.split('/').filter((c) => c !== '').length + 1) return null;
  return { euid, steps: judged.map(({ path: p, st }) => ({ path: p, mode: st.mode, uid: st.uid })) };
}

/** Every step of the proof still has the type, mode and owner it had (and we are the same user). */
export function proofHolds(proof: TrustProof): boolean {
  if (process.geteuid?.() !== proof.euid) return false;
  for (const step of proof.steps) {
    const st = lstatSync(step.path, { throwIfNoEntry: false });
    if (st === undefined || st.mode !== step.mode || st.uid !== step.uid) return false;
  }
  return true;
}

// A faithful port of Python's `difflib.get_close_matches` (and the parts of SequenceMatcher it
// uses), so "did you mean …?" suggests exactly what Hermes suggests for the same typo.
// Strings are compared by code point, like Python str.

/** Python `SequenceMatcher(None, a, b)` reduced to what `ratio()` needs. `b` is the indexed side. */
class SequenceMatcher {
  private a: string[] = [];
  private b: string[] = [];
  /** b2j: element → ascending indices in b (popular elements removed, as with autojunk=True). */
  private b2j = new Map<string, number[]>();
  private fullBCount: Map<string, number> | null = null;

  setSeq1(a: string): void {
    this.a = Array.from(a);
  }

  setSeq2(b: string): void {
    this.b = Array.from(b);
    this.fullBCount = null;
    this.chainB();
  }

  private chainB(): void {
    const b = this.b;
    const b2j = new Map<string, number[]>();
    b.forEach((elt, i) => {
      const indices = b2j.get(elt);
      if (indices) indices.push(i);
      else b2j.set(elt, [i]);
    });
    // No isjunk. autojunk: in sequences of 200+ items, items making up more than 1% are "popular".
    const n = b.length;
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [elt, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(elt);
    }
    this.b2j = b2j;
  }

  private findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, b2j } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(a[i] as string) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    // bjunk is empty (no isjunk), so only the two "non-junk" extension loops can do anything;
    // they are what lets popular elements join a match at its edges.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  }

  /** Sum of the sizes of get_matching_blocks() (the order of discovery does not change the sum). */
  private matchingCharacters(): number {
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    let matches = 0;
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
      const [i, j, k] = this.findLongestMatch(alo, ahi, blo, bhi);
      if (k) {
        matches += k;
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    return matches;
  }

  ratio(): number {
    return calculateRatio(this.matchingCharacters(), this.a.length + this.b.length);
  }

  quickRatio(): number {
    if (this.fullBCount === null) {
      this.fullBCount = new Map();
      for (const elt of this.b) this.fullBCount.set(elt, (this.fullBCount.get(elt) ?? 0) + 1);
    }
    const avail = new Map<string, number>();
    let matches = 0;
    for (const elt of this.a) {
      const numb = avail.has(elt) ? (avail.get(elt) as number) : (this.fullBCount.get(elt) ?? 0);
      avail.set(elt, numb - 1);
      if (numb > 0) matches++;
    }
    return calculateRatio(matches, this.a.length + this.b.length);
  }

  realQuickRatio(): number {
    const la = this.a.length;
    const lb = this.b.length;
    return calculateRatio(Math.min(la, lb), la + lb);
  }
}

function calculateRatio(matches: number, length: number): number {
  return length ? (2.0 * matches) / length : 1.0;
}

/** Python `SequenceMatcher(None, a, b).ratio()`. */
export function sequenceRatio(a: string, b: string): number {
  const s = new SequenceMatcher();
  s.setSeq2(b);
  s.setSeq1(a);
  return s.ratio();
}

/**
 * Python `difflib.get_close_matches(word, possibilities, n, cutoff)`: the best `n` candidates with
 * ratio ≥ cutoff, best first; equal scores put the lexicographically larger candidate first
 * (heapq.nlargest over (score, candidate) tuples).
 */
export function getCloseMatches(word: string, possibilities: Iterable<string>, n = 3, cutoff = 0.6): string[] {
  if (!(n > 0)) throw new RangeError(`n must be > 0: ${n}`);
  if (!(cutoff >= 0.0 && cutoff <= 1.0)) throw new RangeError(`cutoff must be in [0.0, 1.0]: ${cutoff}`);
  const scored: [number, string][] = [];
  const s = new SequenceMatcher();
  s.setSeq2(word);
  for (const x of possibilities) {
    s.setSeq1(x);
    if (s.realQuickRatio() >= cutoff && s.quickRatio() >= cutoff) {
      const r = s.ratio();
      if (r >= cutoff) scored.push([r, x]);
    }
  }
  scored.sort((p, q) => q[0] - p[0] || comparePy(q[1], p[1]));
  return scored.slice(0, n).map(([, x]) => x);
}

/** Python str ordering: by code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
function comparePy(x: string, y: string): number {
  const a = Array.from(x, (c) => c.codePointAt(0) as number);
  const b = Array.from(y, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  return a.length - b.length;
}

/** The single best suggestion for a mistyped name, as Hermes computes it (n=1, cutoff=0.6). */
export function didYouMean(word: string, candidates: Iterable<string>): string | null {
  return getCloseMatches(word, candidates, 1, 0.6)[0] ?? null;
}

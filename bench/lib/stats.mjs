// Summary statistics for timing samples (milliseconds unless stated otherwise).

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function round(x, digits = 2) {
  if (x === null || x === undefined || !Number.isFinite(x)) return x ?? null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** { n, median, p95, min, max, mean } of a sample, rounded. */
export function summarize(values, digits = 2) {
  if (values.length === 0) return { n: 0, median: null, p95: null, min: null, max: null, mean: null };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return {
    n: values.length,
    median: round(median(values), digits),
    p95: round(percentile(values, 95), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
    mean: round(mean, digits),
  };
}

/** Rotates `items` by `k` so that interleaved variants take turns going first. */
export function rotate(items, k) {
  const n = items.length;
  const s = ((k % n) + n) % n;
  return [...items.slice(s), ...items.slice(0, s)];
}

// Timestamps written the way Hermes (Python) writes them, so a file shared by both tools reads
// the same in either: UTC ISO-8601 with a `Z`, microseconds only when non-zero (isoformat()).
// Pure.

/** Epoch microseconds → `2025-01-02T03:04:05.678901Z` (no fraction when it is zero). */
export function isoFromEpochMicros(micros: number): string {
  const seconds = Math.floor(micros / 1e6);
  const frac = micros - seconds * 1e6;
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return frac === 0 ? `${base}Z` : `${base}.${String(frac).padStart(6, '0')}Z`;
}

/** A wall-clock instant (millisecond precision) in the same format. */
export function isoFromDate(date: Date): string {
  return isoFromEpochMicros(date.getTime() * 1000);
}

/**
 * A file mtime from `stat(…, { bigint: true })` exactly as Python derives it: `st_mtime` is the
 * double `sec + nsec * 1e-9`, and `datetime.fromtimestamp` rounds its fraction to microseconds
 * half-to-even. Matching that keeps Hermes' own drift check from seeing a 1 µs "change".
 */
export function isoFromMtimeNs(mtimeNs: bigint): string {
  const NS = 1_000_000_000n;
  let sec = mtimeNs / NS;
  let nsec = mtimeNs % NS;
  if (nsec < 0n) {
    nsec += NS;
    sec -= 1n;
  }
  const d = Number(sec) + Number(nsec) * 1e-9;
  let intPart = Math.trunc(d);
  let us = roundHalfEven((d - intPart) * 1e6);
  if (us >= 1e6) {
    us -= 1e6;
    intPart += 1;
  } else if (us < 0) {
    us += 1e6;
    intPart -= 1;
  }
  return isoFromEpochMicros(intPart * 1e6 + us);
}

// C's round() (half away from zero), then Python's _PyTime_RoundHalfEven correction.
function roundHalfEven(x: number): number {
  const r = x < 0 ? -Math.round(-x) : Math.round(x);
  if (Math.abs(x - r) === 0.5) return 2 * Math.round(x / 2);
  return r;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parse an ISO timestamp as written by Hermes or us into epoch microseconds; null when it is not
 * one. A missing offset is read as UTC (both tools only ever write UTC).
 */
export function parseIsoMicros(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = ISO_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return null;
  let micros = ms * 1000 + (frac ? Number(frac.padEnd(6, '0')) : 0);
  if (tz && tz !== 'Z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
    micros -= sign * offsetMin * 60e6;
  }
  return micros;
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isoFromDate, isoFromEpochMicros, isoFromMtimeNs, parseIsoMicros } from '../../src/consent/_timestamps.js';

describe('timestamps in Hermes (Python isoformat) form', () => {
  it('writes microseconds only when non-zero, always UTC with Z', () => {
    expect(isoFromDate(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 0)))).toBe('2025-01-02T03:04:05Z');
    expect(isoFromDate(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 7)))).toBe('2025-01-02T03:04:05.007000Z');
    expect(isoFromEpochMicros(1_700_000_000_000_001)).toBe('2023-11-14T22:13:20.000001Z');
  });

  it('rounds a nanosecond mtime to microseconds half-to-even like Python', () => {
    expect(isoFromMtimeNs(1_700_000_000_000_000_000n)).toBe('2023-11-14T22:13:20Z');
    expect(isoFromMtimeNs(1_700_000_000_123_456_789n)).toBe('2023-11-14T22:13:20.123457Z');
    expect(isoFromMtimeNs(1_700_000_000_999_999_900n)).toBe('2023-11-14T22:13:21Z');
  });

  it('matches what Python itself writes for real file mtimes', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'consent-ts-'));
    const files: string[] = [];
    const times = [1_700_000_000.5, 1_234_567_890.123456, 1_600_000_000, 1_711_111_111.999999];
    for (const [i, t] of times.entries()) {
      const f = path.join(dir, `f${i}`);
      writeFileSync(f, 'x');
      utimesSync(f, t, t);
      files.push(f);
    }
    files.push(path.join(dir, 'now'));
    writeFileSync(files.at(-1) as string, 'now'); // a real nanosecond mtime
    const py = execFileSync(
      'python3',
      [
        '-c',
        'import os, sys, datetime\n' +
          'for f in sys.argv[1:]:\n' +
          '    print(datetime.datetime.fromtimestamp(os.stat(f).st_mtime, tz=datetime.timezone.utc).isoformat().replace("+00:00", "Z"))',
        ...files,
      ],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    const ours = files.map((f) => isoFromMtimeNs(statSync(f, { bigint: true }).mtimeNs));
    rmSync(dir, { recursive: true, force: true });
    expect(ours).toEqual(py);
  });

  it('parses ISO timestamps to epoch microseconds', () => {
    expect(parseIsoMicros('2023-11-14T22:13:20.000001Z')).toBe(1_700_000_000_000_001);
    expect(parseIsoMicros('2023-11-14T22:13:20+00:00')).toBe(1_700_000_000_000_000);
    expect(parseIsoMicros('2023-11-14T23:13:20.5+01:00')).toBe(1_700_000_000_500_000);
    expect(parseIsoMicros('2023-11-14 22:13:20')).toBe(1_700_000_000_000_000);
    expect(parseIsoMicros('yesterday')).toBeNull();
    expect(parseIsoMicros(null)).toBeNull();
    expect(parseIsoMicros(12)).toBeNull();
  });
});

// Bounded byte capture of one output stream. The cap bounds memory, never a verdict: past `limit`
// bytes, chunks are counted and dropped — the stream keeps flowing, so the hook is never wedged on
// a full pipe and runs on to its exit, whose status still counts (an exit 2 past the cap blocks).
// `flood` is a second, much larger bound on bytes seen: a writer that never stops would otherwise
// be drained for its whole timeout (Node reads a hook's output socket at 64 KiB a chunk: measured
// 90 MB/s – 1.4 GB/s on the loaded 2-core machine, 0.3–0.7 of a host core), so past it the
// caller is told once (run-hook.ts kills the group, unless the hook already exited).

import type { Readable } from 'node:stream';

export class OutputCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes seen, including the dropped ones. */
  total = 0;

  /** @param onFlood called once, on the first byte past `flood`. */
  constructor(
    private readonly limit: number,
    private readonly flood: number,
    private readonly onFlood: () => void,
  ) {}

  readonly push = (chunk: Buffer): void => {
    const before = this.total;
    this.total += chunk.length;
    if (this.kept < this.limit) {
      const room = this.limit - this.kept;
      // A copy of the piece, not a view: a view would pin the whole pooled chunk it came from.
      const piece = chunk.length <= room ? chunk : Buffer.from(chunk.subarray(0, room));
      this.chunks.push(piece);
      this.kept += piece.length;
    }
    if (before <= this.flood && this.total > this.flood) this.onFlood();
  };

  /** Bytes past the cap, drained and discarded; 0 when everything was kept. */
  get dropped(): number {
    return this.total - this.kept;
  }

  /** UTF-8 with U+FFFD for invalid bytes (including a character cut by the cap). */
  text(): string {
    if (this.chunks.length === 0) return '';
    const first = this.chunks[0] as Buffer;
    return (this.chunks.length === 1 ? first : Buffer.concat(this.chunks, this.kept)).toString('utf8');
  }
}

/**
 * How many bytes one stream may carry before its writer counts as endless: far above the cap, and
 * above anything a guard echoing its own payload (however large) writes — so a verdict is never
 * lost to it in practice (a guard's `set -x` trace repeats its input a few times), while an
 * endless writer is stopped after 16 MiB at the default cap — tens to a couple of hundred ms of
 * draining — instead of at its timeout.
 */
export const FLOOD_FACTOR = 16;

export function floodBound(limit: number, stdinBytes: number): number {
  return FLOOD_FACTOR * Math.max(limit, stdinBytes);
}

/**
 * Captures a child's stdout and stderr, each up to `limit` bytes (the rest drained and counted);
 * `onFlood` on the first byte past `flood` on either.
 */
export function captureOutput(
  streams: { stdout: Readable | null; stderr: Readable | null },
  limit: number,
  flood: number,
  onFlood: () => void,
): { stdout: OutputCapture; stderr: OutputCapture } {
  const stdout = new OutputCapture(limit, flood, onFlood);
  const stderr = new OutputCapture(limit, flood, onFlood);
  streams.stdout?.on('data', stdout.push);
  streams.stderr?.on('data', stderr.push);
  // An abandoned or broken pipe is not a hook outcome.
  streams.stdout?.on('error', () => {});
  streams.stderr?.on('error', () => {});
  return { stdout, stderr };
}

// Bounded byte capture of one output stream. Memory stays at most `limit` bytes however much a
// hook prints: past the cap, chunks are counted and dropped (the stream keeps flowing so the
// writer is not wedged on a full pipe while we kill its group).

import type { Readable } from 'node:stream';

export class OutputCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes seen, including the dropped ones. */
  total = 0;

  /** @param onOverflow called once, on the first byte past `limit`. */
  constructor(
    private readonly limit: number,
    private readonly onOverflow: () => void,
  ) {}

  readonly push = (chunk: Buffer): void => {
    const before = this.total;
    this.total += chunk.length;
    if (this.kept < this.limit) {
      const room = this.limit - this.kept;
      const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(piece);
      this.kept += piece.length;
    }
    if (before <= this.limit && this.total > this.limit) this.onOverflow();
  };

  get overflowed(): boolean {
    return this.total > this.limit;
  }

  /** UTF-8 with U+FFFD for invalid bytes (including a character cut by the cap). */
  text(): string {
    if (this.chunks.length === 0) return '';
    const first = this.chunks[0] as Buffer;
    return (this.chunks.length === 1 ? first : Buffer.concat(this.chunks, this.kept)).toString('utf8');
  }
}

/** Captures a child's stdout and stderr, each up to `limit` bytes; `onOverflow` on the first byte past either. */
export function captureOutput(
  streams: { stdout: Readable | null; stderr: Readable | null },
  limit: number,
  onOverflow: () => void,
): { stdout: OutputCapture; stderr: OutputCapture } {
  const stdout = new OutputCapture(limit, onOverflow);
  const stderr = new OutputCapture(limit, onOverflow);
  streams.stdout?.on('data', stdout.push);
  streams.stderr?.on('data', stderr.push);
  // An abandoned or broken pipe is not a hook outcome.
  streams.stdout?.on('error', () => {});
  streams.stderr?.on('error', () => {});
  return { stdout, stderr };
}

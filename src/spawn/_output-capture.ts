// Bounded byte capture of one output stream. Memory stays at most `limit` bytes however much a
// hook prints: past the cap, chunks are counted and dropped (the stream keeps flowing so the
// writer is not wedged on a full pipe while we kill its group).

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

// Newline framing for `serve --stdio`, linear in the input: chunks are kept as they arrive and only
// the new bytes are searched for '\n' (joining strings and measuring the whole buffer on every
// chunk made an 8 MB line cost seconds of blocked event loop). A line over the cap is not kept: it
// is skipped to its end and reported once, with the request's `id` when it can be read from the
// bytes going by (a streaming scan for the top-level "id" key), so the host knows which call failed.

export interface LineFramer {
  push(chunk: Buffer): void;
  /** The input ended: a last line without '\n' is still a line. */
  end(): void;
}

export interface LineFramerOptions {
  maxLineBytes: number;
  onLine(line: string): void;
  /** A line over the cap: `id` is its top-level JSON-RPC id when one was seen, else null. */
  onTooLong(id: string | number | null): void;
}

const NL = 0x0a;

export function createLineFramer(opts: LineFramerOptions): LineFramer {
  let chunks: Buffer[] = [];
  let size = 0;
  /** Inside an over-long line: its bytes go to the id scan only, until its '\n'. */
  let skipping: IdScanner | null = null;
  let reported = false;

  const reset = (): void => {
    chunks = [];
    size = 0;
  };
  const report = (scan: IdScanner): void => {
    if (reported) return;
    reported = true;
    opts.onTooLong(scan.id ?? null);
  };
  /** The line in `chunks` has gone over the cap: scan what we hold, keep nothing. */
  const startSkipping = (): IdScanner => {
    const scan = new IdScanner();
    for (const c of chunks) scan.feed(c);
    reset();
    skipping = scan;
    reported = false;
    if (scan.done) report(scan);
    return scan;
  };

  return {
    push(chunk) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NL, start);
        const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
        if (skipping) {
          if (!skipping.done) skipping.feed(piece);
          if (skipping.done) report(skipping);
        } else if (size + piece.length > opts.maxLineBytes) {
          chunks.push(piece);
          startSkipping();
        } else if (piece.length > 0) {
          chunks.push(piece);
          size += piece.length;
        }
        if (nl < 0) return;
        // A line ends here.
        if (skipping) {
          report(skipping);
          skipping = null;
        } else {
          const line = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
          reset();
          opts.onLine(line);
        }
        start = nl + 1;
      }
    },
    end() {
      if (skipping) {
        report(skipping);
        skipping = null;
      } else if (size > 0) {
        const line = Buffer.concat(chunks, size).toString('utf8');
        reset();
        opts.onLine(line);
      }
    },
  };
}

/** The next `byte` at or after `from`, or the buffer's length when there is none (never searched again). */
function nextIndex(buf: Buffer, byte: number, from: number): number {
  const i = buf.indexOf(byte, from);
  return i < 0 ? buf.length : i;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_ID_BYTES = 1024;

/**
 * Finds the value of the top-level "id" key of a JSON object as its bytes stream by, without
 * parsing the rest: it tracks nesting and strings, and reads only keys and the id at depth 1.
 * Best effort: a line that is not an object, or an id that is not a string or number, gives none.
 */
class IdScanner {
  id: string | number | undefined = undefined;
  done = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: what comes next. */
  private expect: 'key' | 'colon' | 'value' | 'comma' = 'key';
  private key: number[] | null = null;
  private isId = false;
  /** The id's bytes while they arrive (a string with its quotes, or a literal). */
  private capture: number[] | null = null;
  private captureIsString = false;

  feed(buf: Buffer): void {
    // Inside a string only '"' and '\\' matter: jump to the next of them (native search), so a
    // long string value costs what indexOf costs. Their next positions are kept per buffer, so
    // many short strings do not search the rest of the buffer again and again.
    let quote = -1;
    let backslash = -1;
    for (let i = 0; i < buf.length && !this.done; i++) {
      if (this.inString && !this.escaped && !this.capture && !this.key) {
        if (quote < i) quote = nextIndex(buf, QUOTE, i);
        if (backslash < i) backslash = nextIndex(buf, BACKSLASH, i);
        i = Math.min(quote, backslash);
        if (i >= buf.length) return;
      }
      this.byte(buf[i]!);
    }
  }

  private byte(b: number): void {
    if (this.inString) {
      if (this.capture) this.take(b);
      else if (this.key) this.key.length <= 8 && this.key.push(b);
      if (this.escaped) {
        this.escaped = false;
      } else if (b === BACKSLASH) {
        this.escaped = true;
      } else if (b === QUOTE) {
        this.inString = false;
        if (this.capture) this.finishId();
        else if (this.key) {
          this.key.pop(); // the closing quote
          this.isId = this.key.length === 2 && this.key[0] === 0x69 && this.key[1] === 0x64; // "id"
          this.key = null;
          this.expect = 'colon';
        }
      }
      return;
    }
    if (this.capture && !this.captureIsString) {
      // A literal id (number, null …) ends at a delimiter.
      if (b === 0x2c || b === 0x7d || b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) this.finishId();
      else this.take(b);
      if (this.done) return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) return;
    if (this.depth === 0) {
      if (b === 0x7b) {
        this.depth = 1;
        this.expect = 'key';
      } else {
        this.done = true; // not an object: nothing to read
      }
      return;
    }
    const top = this.depth === 1;
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (top && this.expect === 'key') this.key = [];
        else if (top && this.expect === 'value' && this.isId) this.startCapture(true, b);
        else if (top && this.expect === 'value') this.expect = 'comma';
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (top && this.expect === 'value') {
          this.isId = false;
          this.expect = 'comma';
        }
        this.depth += 1;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth -= 1;
        if (this.depth <= 0) this.done = true;
        return;
      case 0x3a: // :
        if (top && this.expect === 'colon') this.expect = 'value';
        return;
      case 0x2c: // ,
        if (top) {
          this.expect = 'key';
          this.isId = false;
        }
        return;
      default:
        if (top && this.expect === 'value') {
          if (this.isId) this.startCapture(false, b);
          else this.expect = 'comma';
        }
    }
  }

  private startCapture(isString: boolean, first: number): void {
    this.capture = [first];
    this.captureIsString = isString;
    this.expect = 'comma';
  }

  private take(b: number): void {
    if (this.capture!.length >= MAX_ID_BYTES) {
      this.done = true; // an id that long is not one we would echo
      return;
    }
    this.capture!.push(b);
  }

  private finishId(): void {
    this.done = true;
    try {
      const v: unknown = JSON.parse(Buffer.from(this.capture!).toString('utf8'));
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) this.id = v;
    } catch {
      // not a readable id
    }
    this.capture = null;
  }
}

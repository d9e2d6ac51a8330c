// Open-session bookkeeping for on_session_finalize: which sessions have been seen and not yet
// finalized, when each was last seen, and which were finalized already (so each is finalized once).
// Bounded: past `maxOpen` the least recently seen idle session is finalized (`evicted`), and the
// finalized set forgets its oldest ids past FINALIZED_LIMIT. A session with an emit in flight is
// never idle.

export interface SessionBook {
  /** An emit for kwargs.session_id starts: mark it open and busy. Returns the emit's done(), or null. */
  touch(kwargs: Record<string, unknown>): (() => void) | null;
  /** on_session_finalize for kwargs.session_id: false when it was finalized already and not seen since. */
  claimFinalize(kwargs: Record<string, unknown>): boolean;
  size(): number;
  /** Whether any session was ever seen (an emit with a session_id), or any finalize fired (even with no session). */
  seenAny(): boolean;
  /** Every open session, oldest first; the book is empty afterwards (shutdown). */
  drain(): { session_id: string; session_key: string | null }[];
  /** Stop the idle timer. */
  stop(): void;
}

interface Entry {
  session_key: string | null;
  lastSeen: number;
  busy: number;
}

const FINALIZED_LIMIT = 10_000;

interface SessionBookOptions {
  idleMs: number | null;
  maxOpen: number;
  onExpire: (sessionId: string, sessionKey: string | null, reason: 'idle' | 'evicted') => void;
  now?: () => number;
}

/** The book's state, shared by the functions below. */
interface Book {
  readonly now: () => number;
  readonly open: Map<string, Entry>;
  readonly finalized: Set<string>;
  readonly maxOpen: number;
  readonly onExpire: SessionBookOptions['onExpire'];
  seen: boolean;
  timer: NodeJS.Timeout | null;
}

export function createSessionBook(opts: SessionBookOptions): SessionBook {
  const book: Book = {
    now: opts.now ?? Date.now,
    open: new Map<string, Entry>(),
    finalized: new Set<string>(),
    maxOpen: Math.max(1, Math.floor(opts.maxOpen)),
    onExpire: opts.onExpire,
    seen: false,
    timer: null,
  };
  if (opts.idleMs !== null && opts.idleMs > 0) book.timer = startIdleTimer(book, opts.idleMs);

  return {
    touch: (kwargs) => touch(book, kwargs),
    claimFinalize(kwargs) {
      const id = kwargs.session_id;
      book.seen = true; // a host that finalized (even with no session) gets no extra null finalize at close()
      if (typeof id !== 'string' || id === '') return true;
      if (!book.open.has(id) && book.finalized.has(id)) return false;
      book.open.delete(id);
      remember(book, id);
      return true;
    },
    size: () => book.open.size,
    seenAny: () => book.seen,
    drain() {
      const out = [...book.open].map(([session_id, e]) => ({ session_id, session_key: e.session_key }));
      book.open.clear();
      return out;
    },
    stop() {
      if (book.timer) clearInterval(book.timer);
      book.timer = null;
    },
  };
}

function touch(book: Book, kwargs: Record<string, unknown>): (() => void) | null {
  const id = kwargs.session_id;
  if (typeof id !== 'string' || id === '') return null;
  book.seen = true;
  let entry = book.open.get(id);
  if (!entry) {
    entry = { session_key: null, lastSeen: book.now(), busy: 0 };
    book.open.set(id, entry);
    book.finalized.delete(id); // seen again: it may be finalized again
    if (book.open.size > book.maxOpen) evictOne(book);
  }
  if (typeof kwargs.session_key === 'string' && kwargs.session_key !== '') entry.session_key = kwargs.session_key;
  entry.busy += 1;
  entry.lastSeen = book.now();
  const e = entry;
  return () => {
    e.busy -= 1;
    e.lastSeen = book.now();
  };
}

function remember(book: Book, id: string): void {
  if (book.finalized.size >= FINALIZED_LIMIT) book.finalized.delete(book.finalized.values().next().value as string);
  book.finalized.add(id);
}

function expire(book: Book, id: string, entry: Entry, reason: 'idle' | 'evicted'): void {
  book.open.delete(id);
  book.onExpire(id, entry.session_key, reason);
}

function evictOne(book: Book): void {
  let oldest: [string, Entry] | null = null;
  for (const pair of book.open) if (pair[1].busy === 0 && (!oldest || pair[1].lastSeen < oldest[1].lastSeen)) oldest = pair;
  if (oldest) expire(book, oldest[0], oldest[1], 'evicted');
}

/** Checks for idle sessions a few times per idle period (20 ms to 5 s); never keeps the process alive. */
function startIdleTimer(book: Book, idleMs: number): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      const t = book.now();
      for (const [id, entry] of book.open) if (entry.busy === 0 && t - entry.lastSeen >= idleMs) expire(book, id, entry, 'idle');
    },
    Math.min(Math.max(idleMs / 4, 20), 5000),
  );
  timer.unref();
  return timer;
}

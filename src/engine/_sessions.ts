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

export function createSessionBook(opts: {
  idleMs: number | null;
  maxOpen: number;
  onExpire: (sessionId: string, sessionKey: string | null, reason: 'idle' | 'evicted') => void;
  now?: () => number;
}): SessionBook {
  const now = opts.now ?? Date.now;
  const open = new Map<string, Entry>();
  const finalized = new Set<string>();
  const maxOpen = Math.max(1, Math.floor(opts.maxOpen));
  let seen = false;

  const remember = (id: string): void => {
    if (finalized.size >= FINALIZED_LIMIT) finalized.delete(finalized.values().next().value as string);
    finalized.add(id);
  };

  const expire = (id: string, entry: Entry, reason: 'idle' | 'evicted'): void => {
    open.delete(id);
    opts.onExpire(id, entry.session_key, reason);
  };

  const evictOne = (): void => {
    let oldest: [string, Entry] | null = null;
    for (const pair of open) if (pair[1].busy === 0 && (!oldest || pair[1].lastSeen < oldest[1].lastSeen)) oldest = pair;
    if (oldest) expire(oldest[0], oldest[1], 'evicted');
  };

  let timer: NodeJS.Timeout | null = null;
  if (opts.idleMs !== null && opts.idleMs > 0) {
    const idleMs = opts.idleMs;
    timer = setInterval(
      () => {
        const t = now();
        for (const [id, entry] of open) if (entry.busy === 0 && t - entry.lastSeen >= idleMs) expire(id, entry, 'idle');
      },
      Math.min(Math.max(idleMs / 4, 20), 5000),
    );
    timer.unref();
  }

  return {
    touch(kwargs) {
      const id = kwargs.session_id;
      if (typeof id !== 'string' || id === '') return null;
      seen = true;
      let entry = open.get(id);
      if (!entry) {
        entry = { session_key: null, lastSeen: now(), busy: 0 };
        open.set(id, entry);
        finalized.delete(id); // seen again: it may be finalized again
        if (open.size > maxOpen) evictOne();
      }
      if (typeof kwargs.session_key === 'string' && kwargs.session_key !== '') entry.session_key = kwargs.session_key;
      entry.busy += 1;
      entry.lastSeen = now();
      const e = entry;
      return () => {
        e.busy -= 1;
        e.lastSeen = now();
      };
    },
    claimFinalize(kwargs) {
      const id = kwargs.session_id;
      seen = true; // a host that finalized (even with no session) gets no extra null finalize at close()
      if (typeof id !== 'string' || id === '') return true;
      if (!open.has(id) && finalized.has(id)) return false;
      open.delete(id);
      remember(id);
      return true;
    },
    size: () => open.size,
    seenAny: () => seen,
    drain() {
      const out = [...open].map(([session_id, e]) => ({ session_id, session_key: e.session_key }));
      open.clear();
      return out;
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

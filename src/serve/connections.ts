// The connections of serve's HTTP servers (the Unix socket and --http together), held within what
// the process can afford: every connection is in one state, each state has a cap, and the states a
// client can hold without a complete, authorised request are the ones that give way.
//
//   waiting   connected, or between two keep-alive requests: its request headers are incomplete.
//             At most half the cap. A deadline (--headers-timeout) closes it.
//   body      headers complete and authorised (on --http the token is checked before any body
//             byte is read): its body is arriving. At most a quarter of the cap. No short
//             deadline: a slow body from a client that holds the token (or the socket) must still
//             go through — but past the state's cap the oldest is cut short, answered as shed.
//   answering the whole request is in; its hooks run. Never closed by the guard (the request
//             deadline bounds it); at least a quarter of the cap can only be held by these.
//
// Over a cap, the oldest connection of the state gives way (a waiting one is closed, a body cut
// short), so connections held open cannot lock a newcomer out: the held ones are always older.
// (The oldest, not one old enough: an attacker who keeps reconnecting keeps all of its connections
// young, and a rule that spared young ones would spare all of them.) When the whole cap is taken by
// requests being answered, a newcomer is still let in — an overflow inside the open-file budget —
// so that its request can be answered as shed: a tool gate with a block, anything else 503. Every
// shed and deadline is counted and said on stderr, at most once per window.
//
// Why not node:http's own knobs: `server.maxConnections` drops the newest connection, which lets
// held connections lock out a legitimate one; `headersTimeout` is checked only every
// `connectionsCheckingInterval` (30 s) and does not tell one state from another.

import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HooksError } from '../errors.js';

/** The request was not taken: answered without being checked, because serve must shed. */
export class Shed extends HooksError {
  constructor(message: string) {
    super('shed', message);
  }
}

/** Open files kept for the rest of the process: Node itself, stdio, watchers, plugin workers, webhook sockets. */
export const FD_RESERVE = 128;
/** Open files per running hook: its stdout and stderr pipes, its stdin file, libuv's exec pipe while spawning. */
export const FD_PER_HOOK = 4;
/** Connections over the cap let in only to be answered as shed (every connection was answering). */
export const OVERFLOW = 32;
/** The default cap when the open-file limit allows it (~10–20 KB of memory per idle connection). */
export const DEFAULT_MAX_CONNECTIONS = 2048;
/** The fewest connections a cap may allow: below it, a host with a few parallel calls would be shed. */
export const MIN_MAX_CONNECTIONS = 16;

/** This process's open-file limit (Node raises the soft limit to the hard one at start), or null when unknown (no /proc). */
export function openFileLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!m) return null;
    return m[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(m[1]);
  } catch {
    return null;
  }
}

/**
 * The most connections the open-file limit allows with `concurrency` hooks running (null: limit
 * unknown): the limit less the process's own reserve, the hooks' files and the overflow.
 */
export function connectionBudget(limit: number | null, concurrency: number): number | null {
  if (limit === null) return null;
  return limit - FD_RESERVE - FD_PER_HOOK * concurrency - OVERFLOW;
}

/** The default cap: DEFAULT_MAX_CONNECTIONS, lowered to the budget (limit unknown: as for a limit of 1024). */
export function defaultMaxConnections(limit: number | null, concurrency: number): number {
  const budget = connectionBudget(limit ?? 1024, concurrency)!;
  return Math.max(MIN_MAX_CONNECTIONS, Math.min(DEFAULT_MAX_CONNECTIONS, budget));
}

type State = 'waiting' | 'body' | 'answering';

interface Conn {
  socket: Socket;
  state: State;
  /** When it entered its state (ms, monotonic). */
  since: number;
  /** socket.bytesRead when it entered `waiting`: nothing more read means an idle connection. */
  bytesAtWait: number;
  /** Outside the cap: let in over it (every place was answering), or cut short and leaving. */
  outside: boolean;
  /** Requests admitted and not yet answered (more than one only when a client pipelines). */
  requests: number;
  /** Requests whose body is arriving: aborted when the connection is cut short. */
  bodies: Set<AbortController>;
}

export interface RequestSlot {
  /** Aborted, with a Shed as reason, when the request must be answered without being checked. */
  readonly signal: AbortSignal;
  /** The whole body is in (or there is none): the request now holds a place in the reserve. */
  bodyRead(): void;
}

export interface ConnectionStats {
  open: number;
  max: number;
  waiting_for_headers: number;
  sending_body: number;
  being_answered: number;
  /** Since start: connections closed to make room, requests answered as shed, connections refused. */
  shed: number;
  /** Since start: connections closed by the headers deadline. */
  timed_out: number;
}

export interface ConnectionGuard {
  /** Put a server's connections under the guard (call before it listens). */
  watch(server: Server): void;
  /** A request whose headers are complete and authorised. Never throws: it sheds through the slot's signal. */
  admit(req: IncomingMessage, res: ServerResponse): RequestSlot;
  stats(): ConnectionStats;
  /** Stop the deadline sweep and say what was not said yet. */
  close(): void;
}

export interface ConnectionGuardOptions {
  maxConnections: number;
  headersTimeoutMs: number;
  /** One line for stderr; the guard calls it at most once per `logEveryMs`. */
  log: (line: string) => void;
  logEveryMs?: number;
}

export function createConnectionGuard(opts: ConnectionGuardOptions): ConnectionGuard {
  const max = opts.maxConnections;
  const maxWaiting = Math.max(1, Math.ceil(max / 2));
  const maxBody = Math.max(1, Math.floor(max / 4));
  const headersS = opts.headersTimeoutMs / 1000;
  const all = new Map<Socket, Conn>();
  // Insertion order is the order connections entered the state: the first is the oldest.
  const waiting = new Map<Socket, Conn>();
  const body = new Map<Socket, Conn>();
  /** Connections in `all` that do not count against the cap (see Conn.outside). */
  let outside = 0;
  const window = { closedWaiting: 0, cutBodies: 0, shedRequests: 0, refused: 0, timedOut: 0 };
  let shedTotal = 0;
  let timedOutTotal = 0;
  const acceptErrors = new Map<string, number>();
  const log = createWindowLog(opts.logEveryMs ?? 10_000, () => summary(), opts.log);
  const now = (): number => performance.now();

  function enter(c: Conn, state: State): void {
    waiting.delete(c.socket);
    body.delete(c.socket);
    c.state = state;
    c.since = now();
    if (state === 'waiting') {
      c.bytesAtWait = c.socket.bytesRead;
      waiting.set(c.socket, c);
    } else if (state === 'body') {
      body.set(c.socket, c);
    }
  }

  function setOutside(c: Conn, value: boolean): void {
    if (c.outside !== value) outside += value ? 1 : -1;
    c.outside = value;
  }

  function forget(socket: Socket): void {
    const c = all.get(socket);
    if (!c) return;
    setOutside(c, false);
    all.delete(socket);
    waiting.delete(socket);
    body.delete(socket);
  }

  function shed(kind: keyof typeof window): void {
    window[kind] += 1;
    if (kind === 'timedOut') timedOutTotal += 1;
    else shedTotal += 1;
    log.note();
  }

  /** Closes a connection still waiting for its headers: silently when it sent nothing, else answering `status`. */
  function closeWaiting(c: Conn, status: 408 | 503, message: string): void {
    forget(c.socket);
    if (c.socket.bytesRead > c.bytesAtWait && c.socket.writable) {
      const text = `${JSON.stringify({ error: { status, message } })}\n`;
      const head = status === 408 ? '408 Request Timeout' : '503 Service Unavailable\r\nretry-after: 1';
      c.socket.write(`HTTP/1.1 ${head}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
      c.socket.destroySoon();
    } else {
      c.socket.destroy();
    }
  }

  function onConnection(socket: Socket): void {
    const c: Conn = { socket, state: 'waiting', since: 0, bytesAtWait: 0, outside: false, requests: 0, bodies: new Set() };
    all.set(socket, c);
    socket.once('close', () => forget(socket));
    enter(c, 'waiting');
    makeRoom(c);
  }

  /** `c` has just joined `waiting`: the oldest connection still without a complete request makes room. */
  function makeRoom(c: Conn): void {
    while (waiting.size > maxWaiting || all.size - outside > max) {
      const oldest = waiting.values().next().value as Conn;
      if (oldest !== c) {
        closeWaiting(oldest, 503, `serve is at its connection limit (${max}); the oldest connection still without a complete request was closed to make room`);
        shed('closedWaiting');
        continue;
      }
      // Every other place holds a request: the newcomer rides over the cap, to be answered as
      // shed, as long as the overflow has room (it fits in the open-file budget).
      if (outside >= OVERFLOW) {
        forget(c.socket);
        c.socket.destroy();
        shed('refused');
      } else {
        setOutside(c, true);
      }
      return;
    }
  }

  const sweep = setInterval(
    () => {
      const t = now();
      for (const c of waiting.values()) {
        if (t - c.since < opts.headersTimeoutMs) break; // the rest are younger
        closeWaiting(c, 408, `no complete request headers within ${headersS}s (--headers-timeout)`);
        shed('timedOut');
      }
    },
    Math.min(1000, Math.max(50, opts.headersTimeoutMs / 4)),
  );
  sweep.unref();

  function summary(): string | null {
    const shedParts: string[] = [];
    if (window.closedWaiting) shedParts.push(`closed ${window.closedWaiting} connection(s) still without a complete request to make room, oldest first`);
    if (window.cutBodies) shedParts.push(`cut ${window.cutBodies} request body(ies) short, oldest first, and answered them unchecked`);
    if (window.shedRequests) shedParts.push(`answered ${window.shedRequests} request(s) over the cap unchecked`);
    if (window.refused) shedParts.push(`refused ${window.refused} connection(s): every place was answering and the overflow of ${OVERFLOW} was full`);
    for (const [code, n] of acceptErrors) shedParts.push(`could not accept ${n} connection(s): ${code}${code === 'EMFILE' ? ' (the open-file limit: lower --max-connections or raise ulimit -n)' : ''}`);
    const timedOut = window.timedOut ? `closed ${window.timedOut} connection(s) that sent no complete request headers within ${headersS}s` : null;
    const answeredUnchecked = window.cutBodies + window.shedRequests > 0;
    window.closedWaiting = window.cutBodies = window.shedRequests = window.refused = window.timedOut = 0;
    acceptErrors.clear();
    if (shedParts.length === 0 && timedOut === null) return null;
    const s = stats();
    const now = `now ${s.open} connections of ${max}: ${s.waiting_for_headers} waiting for headers, ${s.sending_body} sending a body, ${s.being_answered} being answered`;
    if (shedParts.length === 0) return `serve ${timedOut} (--headers-timeout; ${now})`;
    return `serve is shedding load: ${[...shedParts, ...(timedOut ? [timedOut] : [])].join('; ')} (${answeredUnchecked ? 'a tool gate answered unchecked is blocked; ' : ''}${now})`;
  }

  function stats(): ConnectionStats {
    return {
      open: all.size,
      max,
      waiting_for_headers: waiting.size,
      sending_body: body.size,
      being_answered: all.size - waiting.size - body.size,
      shed: shedTotal,
      timed_out: timedOutTotal,
    };
  }

  /** Cuts a body short: its request is answered as shed and its connection leaves. */
  function cutBody(c: Conn): void {
    const ageS = Math.round((now() - c.since) / 100) / 10;
    const why = new Shed(`serve takes at most ${maxBody} request bodies arriving at once; this one had been arriving for ${ageS}s and was cut short`);
    enter(c, 'answering');
    setOutside(c, true);
    for (const ac of c.bodies) ac.abort(why);
    c.bodies.clear();
    shed('cutBodies');
  }

  return {
    watch(server) {
      server.on('connection', onConnection);
      // Out of file descriptors (or another accept failure): said, never a crash of the server.
      server.on('error', (e: NodeJS.ErrnoException) => {
        if (e.syscall !== 'accept') return;
        acceptErrors.set(e.code ?? e.message, (acceptErrors.get(e.code ?? e.message) ?? 0) + 1);
        shedTotal += 1;
        log.note();
      });
    },
    admit(req, res) {
      const socket = req.socket;
      let found = all.get(socket);
      if (!found) {
        // Not seen connecting (not a watched server): accounted for from here.
        found = { socket, state: 'waiting', since: now(), bytesAtWait: 0, outside: false, requests: 0, bodies: new Set() };
        all.set(socket, found);
        socket.once('close', () => forget(socket));
      }
      const c = found;
      const ac = new AbortController();
      c.requests += 1;
      res.once('finish', () => {
        c.requests -= 1;
        c.bodies.delete(ac);
        // Kept alive for another request: waiting again, with a fresh deadline.
        if (c.requests === 0 && all.has(socket) && !c.outside && !socket.destroyed && socket.writable) {
          enter(c, 'waiting');
          makeRoom(c);
        }
      });
      if (c.outside && all.size - outside < max) setOutside(c, false); // a place came free meanwhile
      if (c.outside) {
        ac.abort(new Shed(`serve is at its connection limit (${max}) and every connection holds a request being answered`));
        enter(c, 'answering');
        shed('shedRequests');
        return { signal: ac.signal, bodyRead() {} };
      }
      if (c.state === 'waiting') {
        enter(c, 'body');
        if (body.size > maxBody) cutBody(body.values().next().value as Conn);
      }
      if (c.state === 'body') c.bodies.add(ac);
      return {
        signal: ac.signal,
        bodyRead() {
          c.bodies.delete(ac);
          if (c.state === 'body' && c.bodies.size === 0) enter(c, 'answering');
        },
      };
    },
    stats,
    close() {
      clearInterval(sweep);
      log.flush();
    },
  };
}

/** Says `line()` a second after the first event (so a burst of accepts is one line), then at most once per `everyMs`. */
function createWindowLog(everyMs: number, line: () => string | null, sink: (l: string) => void) {
  let last = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const say = (): void => {
    timer = null;
    const l = line();
    if (l === null) return;
    last = performance.now();
    sink(l);
  };
  return {
    note(): void {
      if (timer) return;
      timer = setTimeout(say, Math.max(1000, last + everyMs - performance.now()));
      timer.unref();
    },
    flush(): void {
      if (timer) clearTimeout(timer);
      say();
    },
  };
}

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

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HooksError } from '../errors.js';
import { OVERFLOW } from './connection-budget.js';

/** The request was not taken: answered without being checked, because serve must shed. */
export class Shed extends HooksError {
  constructor(message: string) {
    super('shed', message);
  }
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

/** A guard's whole state: every connection, the two states that give way, and what was shed. */
interface Guard {
  max: number;
  maxWaiting: number;
  maxBody: number;
  headersTimeoutMs: number;
  all: Map<Socket, Conn>;
  // Insertion order is the order connections entered the state: the first is the oldest.
  waiting: Map<Socket, Conn>;
  body: Map<Socket, Conn>;
  /** Connections in `all` that do not count against the cap (see Conn.outside). */
  outside: number;
  /** Counts since the last line said on stderr. */
  window: { closedWaiting: number; cutBodies: number; shedRequests: number; refused: number; timedOut: number };
  shedTotal: number;
  timedOutTotal: number;
  acceptErrors: Map<string, number>;
  log: WindowLog;
}

const now = (): number => performance.now();

export function createConnectionGuard(opts: ConnectionGuardOptions): ConnectionGuard {
  const max = opts.maxConnections;
  const g: Guard = {
    max,
    maxWaiting: Math.max(1, Math.ceil(max / 2)),
    maxBody: Math.max(1, Math.floor(max / 4)),
    headersTimeoutMs: opts.headersTimeoutMs,
    all: new Map(),
    waiting: new Map(),
    body: new Map(),
    outside: 0,
    window: { closedWaiting: 0, cutBodies: 0, shedRequests: 0, refused: 0, timedOut: 0 },
    shedTotal: 0,
    timedOutTotal: 0,
    acceptErrors: new Map(),
    log: createWindowLog(opts.logEveryMs ?? 10_000, () => summary(g), opts.log),
  };
  const sweep = setInterval(() => closeLateHeaders(g), Math.min(1000, Math.max(50, opts.headersTimeoutMs / 4)));
  sweep.unref();
  return {
    watch(server) {
      server.on('connection', (socket: Socket) => onConnection(g, socket));
      // Out of file descriptors (or another accept failure): said, never a crash of the server.
      server.on('error', (e: NodeJS.ErrnoException) => {
        if (e.syscall !== 'accept') return;
        g.acceptErrors.set(e.code ?? e.message, (g.acceptErrors.get(e.code ?? e.message) ?? 0) + 1);
        g.shedTotal += 1;
        g.log.note();
      });
    },
    admit: (req, res) => admit(g, req, res),
    stats: () => stats(g),
    close() {
      clearInterval(sweep);
      g.log.flush();
    },
  };
}

function enter(g: Guard, c: Conn, state: State): void {
  g.waiting.delete(c.socket);
  g.body.delete(c.socket);
  c.state = state;
  c.since = now();
  if (state === 'waiting') {
    c.bytesAtWait = c.socket.bytesRead;
    g.waiting.set(c.socket, c);
  } else if (state === 'body') {
    g.body.set(c.socket, c);
  }
}

function setOutside(g: Guard, c: Conn, value: boolean): void {
  if (c.outside !== value) g.outside += value ? 1 : -1;
  c.outside = value;
}

function forget(g: Guard, socket: Socket): void {
  const c = g.all.get(socket);
  if (!c) return;
  setOutside(g, c, false);
  g.all.delete(socket);
  g.waiting.delete(socket);
  g.body.delete(socket);
}

function shed(g: Guard, kind: keyof Guard['window']): void {
  g.window[kind] += 1;
  if (kind === 'timedOut') g.timedOutTotal += 1;
  else g.shedTotal += 1;
  g.log.note();
}

/** Closes a connection still waiting for its headers: silently when it sent nothing, else answering `status`. */
function closeWaiting(g: Guard, c: Conn, status: 408 | 503, message: string): void {
  forget(g, c.socket);
  if (c.socket.bytesRead > c.bytesAtWait && c.socket.writable) {
    const text = `${JSON.stringify({ error: { status, message } })}\n`;
    const head = status === 408 ? '408 Request Timeout' : '503 Service Unavailable\r\nretry-after: 1';
    c.socket.write(`HTTP/1.1 ${head}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
    c.socket.destroySoon();
  } else {
    c.socket.destroy();
  }
}

function newConn(socket: Socket): Conn {
  return { socket, state: 'waiting', since: now(), bytesAtWait: 0, outside: false, requests: 0, bodies: new Set() };
}

function onConnection(g: Guard, socket: Socket): void {
  const c = newConn(socket);
  g.all.set(socket, c);
  socket.once('close', () => forget(g, socket));
  enter(g, c, 'waiting');
  makeRoom(g, c);
}

/** `c` has just joined `waiting`: the oldest connection still without a complete request makes room. */
function makeRoom(g: Guard, c: Conn): void {
  while (g.waiting.size > g.maxWaiting || g.all.size - g.outside > g.max) {
    const oldest = g.waiting.values().next().value as Conn;
    if (oldest !== c) {
      closeWaiting(
        g,
        oldest,
        503,
        `serve is at its connection limit (${g.max}); the oldest connection still without a complete request was closed to make room`,
      );
      shed(g, 'closedWaiting');
      continue;
    }
    // Every other place holds a request: the newcomer rides over the cap, to be answered as
    // shed, as long as the overflow has room (it fits in the open-file budget).
    if (g.outside >= OVERFLOW) {
      forget(g, c.socket);
      c.socket.destroy();
      shed(g, 'refused');
    } else {
      setOutside(g, c, true);
    }
    return;
  }
}

/** The headers deadline: the oldest waiting connections first, until one is young enough. */
function closeLateHeaders(g: Guard): void {
  const t = now();
  for (const c of g.waiting.values()) {
    if (t - c.since < g.headersTimeoutMs) break; // the rest are younger
    closeWaiting(g, c, 408, `no complete request headers within ${g.headersTimeoutMs / 1000}s (--headers-timeout)`);
    shed(g, 'timedOut');
  }
}

/** What was shed and timed out since the last line, as one line (null: nothing to say); the window restarts. */
function summary(g: Guard): string | null {
  const { window, max } = g;
  const headersS = g.headersTimeoutMs / 1000;
  const shedParts: string[] = [];
  if (window.closedWaiting) shedParts.push(`closed ${window.closedWaiting} connection(s) still without a complete request to make room, oldest first`);
  if (window.cutBodies) shedParts.push(`cut ${window.cutBodies} request body(ies) short, oldest first, and answered them unchecked`);
  if (window.shedRequests) shedParts.push(`answered ${window.shedRequests} request(s) over the cap unchecked`);
  if (window.refused) shedParts.push(`refused ${window.refused} connection(s): every place was answering and the overflow of ${OVERFLOW} was full`);
  for (const [code, n] of g.acceptErrors)
    shedParts.push(
      `could not accept ${n} connection(s): ${code}${code === 'EMFILE' ? ' (the open-file limit: lower --max-connections or raise ulimit -n)' : ''}`,
    );
  const timedOut = window.timedOut ? `closed ${window.timedOut} connection(s) that sent no complete request headers within ${headersS}s` : null;
  const answeredUnchecked = window.cutBodies + window.shedRequests > 0;
  window.closedWaiting = window.cutBodies = window.shedRequests = window.refused = window.timedOut = 0;
  g.acceptErrors.clear();
  if (shedParts.length === 0 && timedOut === null) return null;
  const s = stats(g);
  const now =
    `now ${s.open} connections of ${max}: ${s.waiting_for_headers} waiting for headers, ${s.sending_body} sending a body, ` +
    `${s.being_answered} being answered`;
  if (shedParts.length === 0) return `serve ${timedOut} (--headers-timeout; ${now})`;
  return (
    `serve is shedding load: ${[...shedParts, ...(timedOut ? [timedOut] : [])].join('; ')} ` +
    `(${answeredUnchecked ? 'a tool gate answered unchecked is blocked; ' : ''}${now})`
  );
}

function stats(g: Guard): ConnectionStats {
  return {
    open: g.all.size,
    max: g.max,
    waiting_for_headers: g.waiting.size,
    sending_body: g.body.size,
    being_answered: g.all.size - g.waiting.size - g.body.size,
    shed: g.shedTotal,
    timed_out: g.timedOutTotal,
  };
}

/** Cuts a body short: its request is answered as shed and its connection leaves. */
function cutBody(g: Guard, c: Conn): void {
  const ageS = Math.round((now() - c.since) / 100) / 10;
  const why = new Shed(`serve takes at most ${g.maxBody} request bodies arriving at once; this one had been arriving for ${ageS}s and was cut short`);
  enter(g, c, 'answering');
  setOutside(g, c, true);
  for (const ac of c.bodies) ac.abort(why);
  c.bodies.clear();
  shed(g, 'cutBodies');
}

/** A request whose headers are complete and authorised: its slot, shed at once when there is no place. */
function admit(g: Guard, req: IncomingMessage, res: ServerResponse): RequestSlot {
  const socket = req.socket;
  let found = g.all.get(socket);
  if (!found) {
    // Not seen connecting (not a watched server): accounted for from here.
    found = newConn(socket);
    g.all.set(socket, found);
    socket.once('close', () => forget(g, socket));
  }
  const c = found;
  const ac = new AbortController();
  c.requests += 1;
  res.once('finish', () => {
    c.requests -= 1;
    c.bodies.delete(ac);
    // Kept alive for another request: waiting again, with a fresh deadline.
    if (c.requests === 0 && g.all.has(socket) && !c.outside && !socket.destroyed && socket.writable) {
      enter(g, c, 'waiting');
      makeRoom(g, c);
    }
  });
  if (c.outside && g.all.size - g.outside < g.max) setOutside(g, c, false); // a place came free meanwhile
  if (c.outside) {
    ac.abort(new Shed(`serve is at its connection limit (${g.max}) and every connection holds a request being answered`));
    enter(g, c, 'answering');
    shed(g, 'shedRequests');
    return { signal: ac.signal, bodyRead() {} };
  }
  if (c.state === 'waiting') {
    enter(g, c, 'body');
    if (g.body.size > g.maxBody) cutBody(g, g.body.values().next().value as Conn);
  }
  if (c.state === 'body') c.bodies.add(ac);
  return {
    signal: ac.signal,
    bodyRead() {
      c.bodies.delete(ac);
      if (c.state === 'body' && c.bodies.size === 0) enter(g, c, 'answering');
    },
  };
}

/** Says `line()` a second after the first event (so a burst of accepts is one line), then at most once per `everyMs`. */
interface WindowLog {
  note(): void;
  flush(): void;
}

function createWindowLog(everyMs: number, line: () => string | null, sink: (l: string) => void): WindowLog {
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

// The contract of a serve transport: how requests reach the one method table (methods.ts) and
// answers go back. A transport frames requests and answers and maps errors (error-answer.ts),
// nothing more; who may call is its own (the socket's file mode, the bearer token). lifecycle.ts
// holds the list, starts each in turn, and at shutdown stops them all, drains, then closes them.
// Adding a transport is one file implementing this, and its line in lifecycle.ts's list.

import type { ConnectionGuard } from './connections.js';
import type { MethodContext } from './methods.js';

/** What every transport is handed: the method table's context, and the budget the transports share. */
export interface TransportContext extends MethodContext {
  maxBodyBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Shared by every HTTP server of the process (one open-file budget). */
  connections: ConnectionGuard;
}

/** A transport once it listens. */
export interface Listening {
  /** How health lists it: `stdio`, `unix:<path>`, `http://<host>:<port>`. */
  label: string;
  /** The line said on stderr. */
  announce: string;
  /** Loopback TCP: where it listens, port resolved (for tests and the announcement). */
  tcp?: { host: string; port: number };
}

export interface Transport {
  readonly name: string;
  /** Its connections are held under `ctx.connections` (health then lists their stats). */
  readonly holdsConnections: boolean;
  /** Listen; a failure throws with nothing left behind by this transport. */
  start(ctx: TransportContext): Promise<Listening>;
  /** Shutdown begins: take no new request; those in flight go on and are answered. */
  stop(): void;
  /** After the drain: cut whatever is left, hand over the last answers, remove what it made. */
  close(): Promise<void>;
  /** A server → host notification (no answer expected), where the transport can push one. */
  notify?(method: string, params: unknown): void;
  /** A second signal: the process exits now; undo at once what must not outlive it (synchronous). */
  abandon?(): void;
}

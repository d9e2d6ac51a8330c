// Shapes of gateway directory hooks (`<home>/hooks/<name>/HOOK.yaml` + handler) and their registry.

/** One loaded gateway hook handler (a directory hook or a built-in such as boot-md). */
export interface GatewayHandler {
  name: string;
  /** Event names and `<prefix>:*` wildcards, as declared in HOOK.yaml. */
  events: readonly string[];
  /** The hook directory; null for a built-in. */
  dir: string | null;
  /** Called once per matching event; may return a promise. Errors are the registry's to catch. */
  handle(eventType: string, context: Record<string, unknown>): unknown;
  /** Releases what the handler holds (a python worker). */
  close?(): Promise<void>;
}

export interface GatewayHandlerInfo {
  name: string;
  events: string[];
  dir: string | null;
}

export interface GatewayHooks {
  /** In run order: built-ins first, then directory hooks sorted by directory name. */
  handlers: GatewayHandlerInfo[];
  /**
   * Fire-and-forget: returns at once; each matching handler (exact subscribers first, then
   * `<prefix>:*` subscribers) gets the event on a later tick, through its own queue: per handler,
   * events arrive in emit order, and a slow handler delays only itself. Errors are logged, never thrown.
   */
  emitGateway(eventType: string, context: Record<string, unknown>): void;
  /**
   * Hermes' emit_collect, for decision hooks (`command:<name>`): asks each matching handler in order
   * (after its earlier events), and resolves with the answers that are not None/undefined. A handler
   * that throws is logged and skipped; one that does not answer within `timeoutMs` (default 30 s) is
   * skipped with a warning.
   */
  emitCollect(eventType: string, context: Record<string, unknown>, opts?: { timeoutMs?: number }): Promise<unknown[]>;
  /** Waits up to `timeoutMs` (default 5 s) for in-flight handlers, then stops python workers. */
  close(timeoutMs?: number): Promise<void>;
}

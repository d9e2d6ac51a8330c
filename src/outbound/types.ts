// Public types of outbound webhooks (`hooks.outbound:` in config.yaml): notify-only HTTP POSTs of
// lifecycle events to external endpoints, optionally HMAC-signed.

import type { EventName } from '../events.js';

/** One validated `hooks.outbound[i]` entry. */
export interface OutboundTarget {
  /** The `name` label (trimmed), or null. */
  name: string | null;
  /** Trimmed http(s) URL. */
  url: string;
  /** Valid, de-duplicated event names, in config order (never empty). */
  events: EventName[];
  /** Trimmed matcher regex source (whole tool name must match); only kept when a tool event is listed. */
  matcher: string | null;
  /** Per-attempt timeout in seconds, 1..60 (default 10). */
  timeout: number;
  /** The signing secret, or null for UNSIGNED deliveries. Never print it. */
  secret: string | null;
  /** Where the secret came from (null = unsigned). */
  secret_source: 'secret_env' | 'secret' | null;
  /** The `secret_env` variable name when one was configured (even if it turned out empty). */
  secret_env: string | null;
  /** Position of the entry in `hooks.outbound` and its config path / YAML position. */
  index: number;
  path: string;
  line: number | null;
  column: number | null;
}

/** Where warnings and traces go. Only `warn` is required. */
export interface Logger {
  warn(msg: string): void;
  info?(msg: string): void;
  debug?(msg: string): void;
}

/** Counters of a dispatcher's life. Every accepted delivery ends as delivered, failed or abandoned. */
export interface OutboundStats {
  /** Deliveries accepted into the queue. */
  queued: number;
  /** Deliveries answered with a 2xx. */
  delivered: number;
  /** Deliveries given up after their attempts (4xx, 3xx, or 2 failed attempts). */
  failed: number;
  /** Deliveries refused: queue full, or notified after close(). */
  dropped: number;
  /** Deliveries still queued or in flight when close()'s flush bound ran out. */
  abandoned: number;
  /** HTTP attempts made (a retried delivery counts 2). */
  attempts: number;
}

export type DeliveryOutcome = 'delivered' | 'http_error' | 'redirect' | 'timeout' | 'connection_error' | 'aborted';

/** The result of one delivery (used by ping / `doctor --ping`). */
export interface DeliveryResult {
  ok: boolean;
  outcome: DeliveryOutcome;
  /** HTTP status of the last attempt, or null when no response arrived. */
  status_code: number | null;
  /** Human-readable failure, or null when delivered. */
  error: string | null;
  attempts: number;
  delivery_id: string;
  signed: boolean;
  duration_ms: number;
}

export interface OutboundDispatcherOptions {
  /** Active profile name for the body (`"default"` outside named profiles). */
  profile: string;
  /** Working directory for the body. */
  cwd: string;
  /** Default: warnings to stderr, nothing else. */
  logger?: Logger;
  /** Maximum deliveries waiting (not yet in flight), across all targets. Default 256. */
  queueSize?: number;
  /** Pause before the second attempt. Default 1000 ms. */
  retryDelayMs?: number;
  /** How long close() keeps flushing before it abandons the rest. Default 5000 ms. */
  flushTimeoutMs?: number;
  /** Default `Hermes-Agent-Outbound-Webhook`. */
  userAgent?: string;
}

export interface OutboundDispatcher {
  /** Queue a delivery of `event` to every matching target. Never blocks, never throws. */
  notify(event: EventName, kwargs: Record<string, unknown>): void;
  /** Stop accepting, flush for at most flushTimeoutMs, abandon the rest; resolves with final stats. */
  close(): Promise<OutboundStats>;
  /** A snapshot of the counters. */
  stats(): OutboundStats;
  /** Send one signed (when a secret is set) test delivery now, one attempt, outside the queue. */
  ping(target: OutboundTarget): Promise<DeliveryResult>;
}

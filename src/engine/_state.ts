// What one engine holds between calls, in one object the engine's pieces (emit, reload, close)
// share: the generation in force (swapped whole by reload), the session book, pending human-input
// requests, and the bits that outlive a generation (the worker pool, host callbacks, the abort).

import type { CheckedLocation } from '../config/check-location.js';
import type { GatewayHooks } from '../gateway/gateway-hooks.js';
import type { GatewayHandler } from '../gateway/types.js';
import type { HumanInputTracker } from '../lifecycle/index.js';
import type { CallbackRunner } from '../plugins/callback-runner.js';
import type { Diagnostic } from '../types.js';
import type { Generation } from './build.js';
import type { ReloadResult } from './api.js';
import type { ResolvedEngineOptions } from './options.js';
import type { Limiter } from './_pool.js';
import type { CallbackEntry } from './registry.js';
import type { SessionBook } from './_sessions.js';

export interface EngineState {
  readonly location: CheckedLocation;
  readonly opts: ResolvedEngineOptions;
  /** The generation in force: an emit reads it once and runs wholly on it. */
  gen: Generation;
  /** Reloads applied since start. */
  generation: number;
  reloadError: string | null;
  reloadDiagnostics: Diagnostic[];
  /** The reload in progress (or the last one): reloads run one at a time, in call order. */
  reloading: Promise<ReloadResult>;
  /** Plugin suppression windows live in the runner: it is replaced only when its timeout changes. */
  callbacks: CallbackRunner;
  readonly hostCallbacks: CallbackEntry[];
  /** Names host callbacks registered without one. */
  hostSeq: number;
  /** Every running hook listens on this one signal; close() aborts it. */
  readonly abort: AbortController;
  readonly limiter: Limiter;
  readonly tracker: HumanInputTracker;
  /** Hooks already warned about for unreadable stdout (once per hook for the engine's life). */
  readonly stdoutWarned: Set<string>;
  readonly sessions: SessionBook;
  readonly boot: GatewayHandler;
  readonly gateway: GatewayHooks | null;
  closed: boolean;
}

// Gateway directory hooks (Hermes `HookRegistry`): every `<home>/hooks/<name>/` holding a
// HOOK.yaml and a handler is loaded once, in directory-name order (after the built-in boot-md
// hook when the host passes onBoot). Placing the files is the opt-in: no enable list, no consent,
// not affected by safe mode — the directory is inside the profile home's trust boundary, so it
// must pass the trust rule (consent/trust.ts): an untrusted hooks/ loads nothing, an untrusted hook
// folder, HOOK.yaml or handler is skipped, and each says why and how to fix it. Load the
// registry only on the gateway surface, never for the CLI. Emits are fire-and-forget; a broken
// hook never hurts the host. Each handler has its own queue: it sees events in emit order, and a
// handler that hangs delays only its own later events (never another handler, never the caller).
//
// Handler precedence in one directory: handler.mjs, then handler.js, then handler.py (run
// unchanged by the profile's one python3 worker, see _python-hooks.ts).

import type { Logger } from '../types.js';
import { loadDirectoryHooks } from './_directory-hooks.js';
import { createGatewayRegistry } from './_registry.js';
import { createBootMdHook, type BootRun } from './boot-md.js';
import type { GatewayHandler, GatewayHooks } from './types.js';

export type { GatewayHandler, GatewayHandlerInfo, GatewayHooks } from './types.js';

/** The emit/close machinery over loaded handlers (exported for hosts that build handlers themselves). */
export { createGatewayRegistry, DEFAULT_GATEWAY_CLOSE_TIMEOUT_MS, DEFAULT_GATEWAY_COLLECT_TIMEOUT_MS } from './_registry.js';
/** How long each handler.py may take to import, counted from the python worker being up. */
export const DEFAULT_GATEWAY_IMPORT_TIMEOUT_MS = 10_000;
/** How long the python interpreter may take to come up before any handler.py is imported. */
export const DEFAULT_GATEWAY_PYTHON_START_TIMEOUT_MS = 30_000;

export interface LoadGatewayHooksOptions {
  home: string;
  logger: Logger;
  /** Interpreter for handler.py hooks. Default `python3`. */
  python?: string;
  /** Environment of python workers (default process.env); HERMES_HOME is set to `home`. */
  env?: NodeJS.ProcessEnv;
  /** Receives BOOT.md's instructions on gateway:startup (see boot-md.ts). */
  onBoot?: (instructions: string, run: BootRun) => unknown;
  /** The boot session's reply when it is not `[SILENT]` (see boot-md.ts). */
  onBootReply?: (reply: string) => unknown;
  /**
   * Register the built-in boot-md hook first. Default: only when `onBoot` is given (a host that
   * drives createBootMdHook itself leaves both out).
   */
  bootMd?: boolean;
  /**
   * How long importing each handler.py may take, counted from the python worker being up (a slow
   * interpreter start does not count); one that takes longer is skipped, said. Default 10 s.
   */
  importTimeoutMs?: number;
  /** @deprecated The former name of `importTimeoutMs` (used when that is not given). */
  readyTimeoutMs?: number;
  /** How long the python interpreter may take to start, before any import. Default 30 s. */
  pythonStartTimeoutMs?: number;
}

export async function loadGatewayHooks(opts: LoadGatewayHooksOptions): Promise<GatewayHooks> {
  const { logger } = opts;
  const handlers: GatewayHandler[] = [];
  if (opts.bootMd ?? opts.onBoot !== undefined)
    handlers.push(createBootMdHook({ home: opts.home, onBoot: opts.onBoot, onBootReply: opts.onBootReply, logger }));
  const loaded = await loadDirectoryHooks({
    home: opts.home,
    logger,
    python: opts.python ?? 'python3',
    env: opts.env ?? process.env,
    startTimeoutMs: opts.pythonStartTimeoutMs ?? DEFAULT_GATEWAY_PYTHON_START_TIMEOUT_MS,
    importTimeoutMs: opts.importTimeoutMs ?? opts.readyTimeoutMs ?? DEFAULT_GATEWAY_IMPORT_TIMEOUT_MS,
  });
  handlers.push(...loaded);
  return createGatewayRegistry(handlers, logger);
}

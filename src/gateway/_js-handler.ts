// A gateway hook whose handler is handler.mjs / handler.js: imported in-process, must export
// `handle(eventType, context)` (sync or async; a CommonJS module may export it on module.exports).

import { pathToFileURL } from 'node:url';
import { describeError } from '../plugins/callback-runner.js';
import type { GatewayHandler } from './types.js';

type HandleFn = (eventType: string, context: Record<string, unknown>) => unknown;

export async function importJsHandler(
  file: string,
  info: { name: string; events: readonly string[]; dir: string },
): Promise<{ handler: GatewayHandler } | { error: string }> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    return { error: `importing ${file} failed: ${describeError(e)}` };
  }
  const fromDefault = mod.default as { handle?: unknown } | undefined;
  const handle = (typeof mod.handle === 'function' ? mod.handle : typeof fromDefault?.handle === 'function' ? fromDefault.handle : null) as HandleFn | null;
  if (!handle) return { error: "no 'handle' function found" };
  return { handler: { ...info, handle: (eventType, context) => handle(eventType, context) } };
}

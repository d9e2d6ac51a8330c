// reload(): re-read the config and rebuild its generation, then swap it in at once. One reload at
// a time, in call order, so a burst of file events ends with the file as it is now. A config that
// cannot be read, parsed or built keeps the last good one in force, and says why.

import { configLoadError, loadConfig } from '../config/load.js';
import { locatedMessage } from '../config/source.js';
import { createCallbackRunner } from '../plugins/callback-runner.js';
import { errorText } from '../errors.js';
import { buildGeneration, type Generation } from './build.js';
import type { ReloadResult } from './api.js';
import type { EngineState } from './_state.js';

export function reloadEngine(st: EngineState): Promise<ReloadResult> {
  st.reloading = st.reloading.then(() => reloadNow(st));
  return st.reloading;
}

async function reloadNow(st: EngineState): Promise<ReloadResult> {
  if (st.closed) return { ok: false, error: 'hook engine is closed', diagnostics: [] };
  const { location, opts } = st;
  const config = await loadConfig(location.configFile);
  const broken = configLoadError(config);
  if (broken) {
    opts.logger.warn(`config reload refused, the last good config stays in force: ${broken}`);
    return refused(st, broken, config.diagnostics);
  }
  let next: Generation;
  try {
    next = await buildGeneration(st, config, st.gen, false); // a reload never prompts
  } catch (e) {
    opts.logger.warn(`config reload failed, the last good config stays in force: ${errorText(e)}`);
    return refused(st, `reload failed: ${errorText(e)}`, config.diagnostics);
  }
  swapIn(st, next);
  return { ok: true, error: null, diagnostics: next.diagnostics };
}

function refused(st: EngineState, error: string, diagnostics: ReloadResult['diagnostics']): ReloadResult {
  st.reloadError = error;
  st.reloadDiagnostics = diagnostics;
  return { ok: false, error, diagnostics };
}

/** The swap: emits that start from now on see the new registries; what the old one alone held is released. */
function swapIn(st: EngineState, next: Generation): void {
  const { location, opts } = st;
  const old = st.gen;
  st.gen = next;
  st.generation += 1;
  st.reloadError = null;
  st.reloadDiagnostics = [];
  if (next.callbackTimeoutMs !== old.callbackTimeoutMs) st.callbacks = createCallbackRunner({ timeoutMs: next.callbackTimeoutMs, logger: opts.logger });
  if (old.dispatcher && old.dispatcher !== next.dispatcher) void old.dispatcher.close().catch(() => undefined);
  if (old.closePlugins !== next.closePlugins) void old.closePlugins().catch(() => undefined);
  // What a reload loses is said as loudly as a broken file: an entry that no longer runs as
  // written, or the whole file gone (every call allowed from now on).
  if (!next.config.exists && old.config.exists) {
    opts.logger.warn(`config reloaded: ${location.configFile} is gone, so no hooks are configured; every call is allowed until it is written again`);
  }
  for (const d of next.diagnostics) if (d.level !== 'info') opts.logger.warn(`config reloaded with a problem: ${locatedMessage(d, location.configFile)}`);
}

// Loads the plugins listed in `plugins.enabled` from `<home>/plugins/<name>/`: reads plugin.yaml,
// imports the entry ES module and calls its `register(ctx)`. A plugin that fails anywhere is
// skipped with a diagnostic; the others still load. Nothing loads under HERMES_SAFE_MODE.
// Order is directory-name order (Hermes: plugin discovery is alphabetical), which is also the
// order their callbacks run and their pre_llm_call contexts are joined in.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pTimeout from 'p-timeout';
import { didYouMean } from '../config/_did-you-mean.js';
import { parseConfigText } from '../config/source.js';
import type { Logger } from '../engine/logger.js';
import { EVENT_NAMES, isEventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { parsePluginManifest } from './_manifest.js';
import { describeError } from './callback-runner.js';
import type { PluginCallback, PluginHook } from './types.js';

// The config side lives in config.ts; re-exported so the engine imports plugin loading from one place.
export { parsePluginsConfig, type PluginsConfig } from './config.js';

export const DEFAULT_REGISTER_TIMEOUT_MS = 30_000;

export interface LoadPluginsOptions {
  home: string;
  enabled: readonly string[];
  safeMode: boolean;
  logger: Logger;
  /** Bound for one plugin's `register(ctx)`. Default 30 s. */
  registerTimeoutMs?: number;
}

export interface LoadedPlugins {
  hooks: PluginHook[];
  diagnostics: Diagnostic[];
}

/** What `register(ctx)` receives. */
export interface PluginContext {
  /** The plugin's directory name. */
  readonly plugin: string;
  /** The plugin folder. */
  readonly dir: string;
  /** The profile home. */
  readonly home: string;
  readonly logger: Logger;
  registerHook(event: string, callback: PluginCallback): void;
}

const DEFAULT_ENTRIES = ['index.mjs', 'index.js'];

export async function loadPlugins(opts: LoadPluginsOptions): Promise<LoadedPlugins> {
  const diagnostics: Diagnostic[] = [];
  const hooks: PluginHook[] = [];
  if (opts.enabled.length === 0) return { hooks, diagnostics };
  if (opts.safeMode) {
    diagnostics.push(diag('info', 'plugins.enabled', 'HERMES_SAFE_MODE is set: no plugins are loaded'));
    return { hooks, diagnostics };
  }
  const names = [...new Set(opts.enabled)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const loaded = await loadOne(name, opts, diagnostics);
    if (loaded) hooks.push(...loaded);
  }
  return { hooks, diagnostics };
}

function diag(level: Diagnostic['level'], where: string, message: string, file?: string): Diagnostic {
  const d: Diagnostic = { level, path: where, line: null, column: null, message };
  if (file !== undefined) d.file = file;
  return d;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function loadOne(name: string, opts: LoadPluginsOptions, diagnostics: Diagnostic[]): Promise<PluginHook[] | null> {
  const where = `plugins.enabled`;
  const skip = (message: string, file?: string): null => {
    diagnostics.push(diag('error', where, `plugin ${name} skipped: ${message}`, file));
    opts.logger.warn(`[plugins] Skipping ${name}: ${message}`);
    return null;
  };
  if (name === '.' || name === '..' || name.includes('/') || name.includes('\\')) {
    return skip('a plugin name is a folder name under plugins/, not a path');
  }
  const dir = path.join(opts.home, 'plugins', name);
  const manifestFile = path.join(dir, 'plugin.yaml');
  let text: string;
  try {
    text = await readFile(manifestFile, 'utf8');
  } catch {
    return skip(`${manifestFile} not found`, manifestFile);
  }
  const { manifest, diagnostics: manifestDiags } = parsePluginManifest(parseConfigText(text, manifestFile));
  diagnostics.push(...manifestDiags);
  if (!manifest) return skip(`invalid plugin.yaml: ${manifestDiags.map((d) => d.message).join('; ')}`, manifestFile);

  let entryFile: string | null = null;
  if (manifest.entry !== null) {
    const candidate = path.join(dir, manifest.entry);
    if (!(await isFile(candidate))) return skip(`entry module ${manifest.entry} not found in ${dir}`, manifestFile);
    entryFile = candidate;
  } else {
    for (const e of DEFAULT_ENTRIES) {
      if (await isFile(path.join(dir, e))) {
        entryFile = path.join(dir, e);
        break;
      }
    }
    if (!entryFile) {
      const python = await isFile(path.join(dir, '__init__.py'));
      return skip(
        python
          ? 'it is a Python plugin (__init__.py); hermes-hooks loads ES modules: port it to index.mjs exporting register(ctx)'
          : `no entry module (index.mjs or index.js, or \`entry:\` in plugin.yaml) in ${dir}`,
        manifestFile,
      );
    }
  }

  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ pathToFileURL(entryFile).href)) as Record<string, unknown>;
  } catch (e) {
    return skip(`importing ${entryFile} failed: ${describeError(e)}`, entryFile);
  }
  const fromDefault = mod.default as { register?: unknown } | undefined;
  const register = typeof mod.register === 'function' ? mod.register : typeof fromDefault?.register === 'function' ? fromDefault.register : null;
  if (typeof register !== 'function') return skip(`${entryFile} does not export a register(ctx) function`, entryFile);

  const hooks: PluginHook[] = [];
  let open = true;
  let index = 0;
  const ctx: PluginContext = {
    plugin: name,
    dir,
    home: opts.home,
    logger: opts.logger,
    registerHook(event: string, callback: PluginCallback): void {
      const n = index++;
      if (!open) {
        opts.logger.warn(`[plugins] ${name}: registerHook('${event}') after register() returned is ignored`);
        return;
      }
      if (!isEventName(event)) {
        const hint = didYouMean(String(event), EVENT_NAMES);
        diagnostics.push(
          diag('warning', where, `plugin ${name} registered a hook for unknown event '${String(event)}'${hint ? ` (did you mean '${hint}'?)` : ''}; ignored`, entryFile ?? undefined),
        );
        return;
      }
      if (typeof callback !== 'function') {
        diagnostics.push(diag('warning', where, `plugin ${name} registered a non-function for ${event}; ignored`, entryFile ?? undefined));
        return;
      }
      const fn = callback.name && callback.name !== 'anonymous' ? callback.name : String(n);
      hooks.push({ plugin: name, name: `${name}.${fn}`, event, callback });
    },
  };

  const timeoutMs = opts.registerTimeoutMs ?? DEFAULT_REGISTER_TIMEOUT_MS;
  try {
    await pTimeout(Promise.resolve().then(() => (register as (c: PluginContext) => unknown).call(mod, ctx)), {
      milliseconds: timeoutMs,
      message: `register() did not finish within ${timeoutMs / 1000}s`,
    });
  } catch (e) {
    open = false;
    return skip(`register() failed: ${describeError(e)}`, entryFile);
  }
  open = false;
  if (manifest.name !== name) {
    diagnostics.push(diag('info', where, `plugin folder ${name} declares name '${manifest.name}'; it is enabled and reported by its folder name`, manifestFile));
  }
  opts.logger.debug?.(`[plugins] loaded ${name}: ${hooks.length} hook(s)`);
  return hooks;
}

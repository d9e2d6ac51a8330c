// Loads the plugins listed in `plugins.enabled` from `<home>/plugins/<name>/`: reads plugin.yaml,
// then starts the plugin where a timeout can stop it — an ES module (index.mjs / index.js /
// `entry:`) in its own worker thread, a Hermes Python plugin (__init__.py) in a python3 worker —
// and calls its `register(ctx)` there. A plugin that fails anywhere is
// skipped with a diagnostic; the others still load. A plugin is code that runs with no per-command
// approval, so its folder, plugin.yaml and entry file must pass the trust rule (consent/trust.ts:
// yours or root's, and nothing on the way writable by others), else it is skipped, saying why. Nothing loads under HERMES_SAFE_MODE.
// Order is directory-name order (Hermes: plugin discovery is alphabetical), which is also the
// order their callbacks run and their pre_llm_call contexts are joined in.

import { stat } from 'node:fs/promises';
import { checkTrust, distrustMessage, readTrustedFile } from '../consent/trust.js';
import path from 'node:path';
import { didYouMean } from '../util/did-you-mean.js';
import { parseConfigText } from '../config/source.js';
import type { Logger } from '../types.js';
import { EVENT_NAMES, isEventName } from '../events.js';
import type { Diagnostic } from '../types.js';
import { parsePluginManifest } from './_manifest.js';
import { startJsPlugin } from './_js-plugin.js';
import { startPythonPlugin, type RemoteRegistration } from './_python-plugin.js';
import type { PluginCallback, PluginHook } from './types.js';

// The config side lives in config.ts; re-exported so the engine imports plugin loading from one place.
export { parsePluginsConfig, type PluginsConfig } from './config.js';

export const DEFAULT_REGISTER_TIMEOUT_MS = 30_000;

export interface LoadPluginsOptions {
  home: string;
  enabled: readonly string[];
  safeMode: boolean;
  logger: Logger;
  /** Bound for one plugin's import + `register(ctx)` (and each restart). Default 30 s. */
  registerTimeoutMs?: number;
  /** Interpreter for Python plugins. Default `python3`. */
  python?: string;
  /** Environment of Python plugin workers (default process.env); HERMES_HOME is set to `home`. */
  env?: NodeJS.ProcessEnv;
}

export interface LoadedPlugins {
  hooks: PluginHook[];
  diagnostics: Diagnostic[];
  /** Stops every plugin's worker (thread or python3 process). */
  close(): Promise<void>;
}

/** What a JS plugin's `register(ctx)` receives (in its worker thread). */
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
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    await Promise.allSettled(closers.splice(0).map((c) => c()));
  };
  if (opts.enabled.length === 0) return { hooks, diagnostics, close };
  if (opts.safeMode) {
    diagnostics.push(diag('info', 'plugins.enabled', 'HERMES_SAFE_MODE is set: no plugins are loaded'));
    return { hooks, diagnostics, close };
  }
  const names = [...new Set(opts.enabled)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const loaded = await loadOne(name, opts, diagnostics, closers);
    if (loaded) hooks.push(...loaded);
  }
  return { hooks, diagnostics, close };
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

async function loadOne(name: string, opts: LoadPluginsOptions, diagnostics: Diagnostic[], closers: (() => Promise<void>)[]): Promise<PluginHook[] | null> {
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
  const folder = checkTrust(dir, { kind: 'directory' });
  if (folder.exists && folder.findings.length > 0) return skip(`the ${distrustMessage('plugin folder', folder)}`, dir);
  const read = readTrustedFile(manifestFile);
  if (read.refused !== null) return skip(`the ${distrustMessage('manifest', read.refused)}`, manifestFile);
  if (read.text === null) return skip(`${manifestFile} not found`, manifestFile);
  const text = read.text;
  const { manifest, diagnostics: manifestDiags } = parsePluginManifest(parseConfigText(text, manifestFile));
  diagnostics.push(...manifestDiags);
  if (!manifest) return skip(`invalid plugin.yaml: ${manifestDiags.map((d) => d.message).join('; ')}`, manifestFile);

  const found = await findEntry(dir, manifest.entry);
  if (typeof found === 'string') return skip(found, manifestFile);
  const { entryFile, python } = found;

  const entry = checkTrust(entryFile);
  if (entry.findings.length > 0) return skip(`the ${distrustMessage('entry file', entry)}`, entryFile);

  const timeoutMs = opts.registerTimeoutMs ?? DEFAULT_REGISTER_TIMEOUT_MS;
  // Plugin code never runs on the host's thread: a Python plugin in a python3 worker, a JS plugin
  // in a worker thread; both can be stopped by the callback timeout.
  const started = python
    ? await startPythonPlugin({
        name,
        dir,
        python: opts.python ?? 'python3',
        env: { ...(opts.env ?? process.env), HERMES_HOME: opts.home },
        logger: opts.logger,
        readyTimeoutMs: timeoutMs,
      })
    : await startJsPlugin({ name, dir, home: opts.home, entryFile, logger: opts.logger, readyTimeoutMs: timeoutMs });
  if ('error' in started) return skip(started.error, entryFile);
  closers.push(() => started.close());

  const hooks = acceptedHooks(name, started, entryFile, diagnostics);
  const unsupported = 'unsupported' in started ? (started.unsupported as string[]) : [];
  if (unsupported.length > 0) {
    const what = unsupported.map((m) => `ctx.${m}`).join(', ');
    const message = `plugin ${name} called ${what}: not supported by hermes-hooks (only ctx.register_hook runs here); ignored`;
    diagnostics.push(diag('warning', where, message, entryFile));
    opts.logger.warn(`[plugins] ${message}`);
  }
  if (manifest.name !== name) {
    diagnostics.push(
      diag('info', where, `plugin folder ${name} declares name '${manifest.name}'; it is enabled and reported by its folder name`, manifestFile),
    );
  }
  opts.logger.debug?.(`[plugins] loaded ${name}: ${hooks.length} hook(s)`);
  return hooks;
}

/** The entry module (index.mjs, index.js, `entry:`, or a Python package's __init__.py); a string says why there is none. */
async function findEntry(dir: string, entry: string | null): Promise<{ entryFile: string; python: boolean } | string> {
  if (entry !== null) {
    const candidate = path.join(dir, entry);
    if (!(await isFile(candidate))) return `entry module ${entry} not found in ${dir}`;
    if (!candidate.endsWith('.py')) return { entryFile: candidate, python: false };
    // A Python plugin is its package: __init__.py in the plugin folder, as Hermes imports it.
    if (candidate !== path.join(dir, '__init__.py')) return `entry ${entry}: a Python plugin's entry is the folder's __init__.py`;
    return { entryFile: candidate, python: true };
  }
  for (const e of DEFAULT_ENTRIES) {
    if (await isFile(path.join(dir, e))) return { entryFile: path.join(dir, e), python: false };
  }
  if (!(await isFile(path.join(dir, '__init__.py')))) {
    return `no entry module (index.mjs or index.js, __init__.py, or \`entry:\` in plugin.yaml) in ${dir}`;
  }
  return { entryFile: path.join(dir, '__init__.py'), python: true };
}

/** The plugin's registrations that name a known event and a function; the others are diagnosed and dropped. */
function acceptedHooks(name: string, started: { registrations: RemoteRegistration[] }, file: string, diagnostics: Diagnostic[]): PluginHook[] {
  const where = 'plugins.enabled';
  const hooks: PluginHook[] = [];
  started.registrations.forEach((r, n) => {
    if (!isEventName(r.event)) {
      const hint = didYouMean(r.event, EVENT_NAMES);
      diagnostics.push(
        diag('warning', where, `plugin ${name} registered a hook for unknown event '${r.event}'${hint ? ` (did you mean '${hint}'?)` : ''}; ignored`, file),
      );
      return;
    }
    if (!r.callable) {
      diagnostics.push(diag('warning', where, `plugin ${name} registered a non-function for ${r.event}; ignored`, file));
      return;
    }
    hooks.push({ plugin: name, name: `${name}.${r.fn ?? String(n)}`, event: r.event, callback: r.callback });
  });
  return hooks;
}

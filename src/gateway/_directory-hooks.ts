// Loading `<home>/hooks/<name>/` directories (Hermes `HookRegistry.discover_and_load`): each needs a
// HOOK.yaml and a handler; each is checked against the trust rule, then its handler is imported
// (handler.mjs / handler.js in-process) or handed to the profile's one python worker (handler.py).
// Results and log lines follow the directory names.

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkTrust, distrustMessage, readTrustedFile } from '../consent/trust.js';
import type { Logger } from '../types.js';
import { importJsHandler } from './_js-handler.js';
import { parseGatewayHookManifest } from './_manifest.js';
import { startPythonHooks, type PythonHookSpec } from './_python-hooks.js';
import type { GatewayHandler } from './types.js';

/** Handler precedence in one directory. */
const HANDLER_FILES = ['handler.mjs', 'handler.js', 'handler.py'] as const;

export interface DirectoryHooksOptions {
  home: string;
  logger: Logger;
  python: string;
  env: NodeJS.ProcessEnv;
  startTimeoutMs: number;
  importTimeoutMs: number;
}

/** A directory after its checks: skipped (said), or a JS handler, or a handler.py for the worker. */
type Prepared = { skipped: string } | { handler: GatewayHandler; notes: string[] } | { python: PythonHookSpec; notes: string[] } | null;

export async function loadDirectoryHooks(opts: DirectoryHooksOptions): Promise<GatewayHandler[]> {
  const { logger } = opts;
  const hooksDir = path.join(opts.home, 'hooks');
  let names: string[];
  try {
    names = (await readdir(hooksDir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
  const trust = checkTrust(hooksDir, { kind: 'directory' });
  if (trust.findings.length > 0) {
    logger.warn(`[hooks] No gateway hook is loaded: the ${distrustMessage('gateway hooks directory', trust)}`);
    return [];
  }
  const prepared = await Promise.all(names.map((dirName) => prepareHook(path.join(hooksDir, dirName), dirName, logger)));
  const specs = prepared.flatMap((p) => (p !== null && 'python' in p ? [p.python] : []));
  const env: NodeJS.ProcessEnv = { ...opts.env, HERMES_HOME: opts.home, PYTHONIOENCODING: 'utf-8' };
  const started = await startPythonHooks(specs, {
    python: opts.python,
    env,
    logger,
    startTimeoutMs: opts.startTimeoutMs,
    importTimeoutMs: opts.importTimeoutMs,
  });

  const loaded: GatewayHandler[] = [];
  for (const [i, p] of prepared.entries()) {
    if (p === null) continue;
    if ('skipped' in p) {
      logger.warn(p.skipped);
      continue;
    }
    const result = 'python' in p ? started.get(p.python.key)! : p;
    if ('error' in result) {
      logger.warn(skipLine(names[i]!, result.error));
      continue;
    }
    for (const note of p.notes) logger.warn(note);
    logger.info?.(`[hooks] Loaded hook '${result.handler.name}' for events: ${result.handler.events.join(', ')}`);
    loaded.push(result.handler);
  }
  return loaded;
}

const skipLine = (dirName: string, why: string): string => `[hooks] Skipping ${dirName}: ${why}`;

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function handlerFileIn(dir: string): Promise<string | null> {
  for (const f of HANDLER_FILES) if (await isFile(path.join(dir, f))) return f;
  return null;
}

async function prepareHook(dir: string, dirName: string, logger: Logger): Promise<Prepared> {
  const skip = (why: string): Prepared => ({ skipped: skipLine(dirName, why) });
  try {
    if (!(await stat(dir)).isDirectory()) return null;
  } catch {
    return null;
  }
  const manifestFile = path.join(dir, 'HOOK.yaml');
  const handlerFile = await handlerFileIn(dir);
  // Hermes skips a directory missing either file silently.
  if (!(await isFile(manifestFile)) || !handlerFile) {
    logger.debug?.(`[hooks] ${dirName}: no HOOK.yaml + handler; not a hook directory`);
    return null;
  }
  // Placing the files is the opt-in: they must be files only you (or root) could have placed.
  const folder = checkTrust(dir, { kind: 'directory' });
  if (folder.findings.length > 0) return skip(`the ${distrustMessage('hook folder', folder)}`);
  const handlerTrust = checkTrust(path.join(dir, handlerFile));
  if (handlerTrust.findings.length > 0) return skip(`the ${distrustMessage('handler', handlerTrust)}`);
  const read = readTrustedFile(manifestFile);
  if (read.refused !== null) return skip(`the ${distrustMessage('manifest', read.refused)}`);
  if (read.text === null) return skip(`cannot read HOOK.yaml: ${read.error ?? 'it is gone'}`);
  const parsed = parseGatewayHookManifest(read.text, manifestFile, dirName);
  if ('error' in parsed) return skip(parsed.error);
  const { name, events, inert } = parsed.manifest;
  const notes = inert.map((e) => `[hooks] ${dirName}: event '${e}' has no ':' and matches nothing (did you mean '${e}:*'?)`);
  const file = path.join(dir, handlerFile);
  if (handlerFile === 'handler.py') return { python: { key: dirName, name, events, dir, file }, notes };
  const result = await importJsHandler(file, { name, events, dir });
  return 'error' in result ? skip(result.error) : { handler: result.handler, notes };
}

// One engine's files watched: config.yaml, the allowlist and every shell hook's script; a change
// reloads that engine, and the watch then follows the files the new config names. serve keeps one
// such watch per engine it hosts (the default profile's and each routed profile's).

import { join } from 'node:path';
import { ALLOWLIST_FILENAME } from '../consent/allowlist.js';
import type { HookEngine } from '../engine/create-engine.js';
import { EVENT_NAMES } from '../events.js';
import type { Logger } from '../types.js';
import { watchFiles, type FileWatch } from './watch.js';

/** Reload `engine` when one of its files changes; close() stops watching. */
export function watchEngine(engine: HookEngine, log: Logger): FileWatch {
  const watcher = watchFiles(
    () => {
      void engine.reload().then((r) => {
        if (r.ok) log.info?.(`config reloaded from ${engine.configFile}`);
        watcher.set(watchedFiles(engine));
      });
    },
    { warn: (m) => log.warn(m) },
  );
  watcher.set(watchedFiles(engine));
  return watcher;
}

/** config.yaml, the allowlist, and every shell hook's script file. */
function watchedFiles(engine: HookEngine): string[] {
  const files = new Set<string>([engine.configFile, join(engine.home, ALLOWLIST_FILENAME)]);
  for (const event of EVENT_NAMES) {
    for (const entry of engine.hooksFor(event)) {
      const p = entry.kind === 'shell' ? entry.consent?.script_path : null;
      if (p && p.startsWith('/')) files.add(p);
    }
  }
  return [...files];
}

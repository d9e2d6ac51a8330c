// Watch the files that decide what runs — config.yaml, the allowlist, the hook scripts — and call
// `onChange` (debounced) when one of them changes. Directories are watched, not the files: editors
// and our own atomic writes replace a file by renaming over it, which a file watch would miss.

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { errorText } from '../errors.js';

export interface FileWatch {
  /** Watch exactly these files from now on (directories are added and dropped as needed). */
  set(files: readonly string[]): void;
  close(): void;
}

export function watchFiles(onChange: (file: string) => void, opts: { debounceMs?: number; warn: (m: string) => void }): FileWatch {
  const watchers = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  let timer: NodeJS.Timeout | null = null;
  let changed = '';
  const fire = (file: string): void => {
    changed = file;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      onChange(changed);
    }, opts.debounceMs ?? 50);
    timer.unref();
  };
  return {
    set(files) {
      const wanted = new Map<string, Set<string>>();
      for (const f of files) {
        const dir = dirname(f);
        if (!wanted.has(dir)) wanted.set(dir, new Set());
        wanted.get(dir)!.add(basename(f));
      }
      for (const [dir, w] of watchers) {
        if (!wanted.has(dir)) {
          w.watcher.close();
          watchers.delete(dir);
        }
      }
      for (const [dir, names] of wanted) {
        const existing = watchers.get(dir);
        if (existing) {
          existing.names = names;
          continue;
        }
        try {
          const entry = { watcher: null as unknown as FSWatcher, names };
          entry.watcher = watch(dir, { persistent: false }, (_type, name) => {
            // No name (some platforms): assume the worst and reload.
            if (name === null || entry.names.has(String(name))) fire(`${dir}/${name ?? ''}`);
          });
          entry.watcher.on('error', (e) => opts.warn(`cannot watch ${dir} any more: ${e.message}`));
          watchers.set(dir, entry);
        } catch (e) {
          opts.warn(`cannot watch ${dir} for changes (${errorText(e)}); POST /v1/reload or the reload method reloads by hand`);
        }
      }
    },
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.watcher.close();
      watchers.clear();
    },
  };
}

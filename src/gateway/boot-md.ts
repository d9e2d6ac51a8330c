// The built-in boot-md gateway hook (Hermes ships it): on `gateway:startup`, if
// `<home>/BOOT.md` exists, its instructions go to the host's `onBoot` in the background — the host
// runs them as a background agent session. No file → nothing happens and nothing is read
// beforehand (the file is looked at only when the event fires).

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../engine/logger.js';
import { describeError } from '../plugins/callback-runner.js';
import type { GatewayHandler } from './types.js';

export interface BootMdOptions {
  home: string;
  /** Receives BOOT.md's text (trimmed). May be async; its errors are logged, never thrown. */
  onBoot?: (instructions: string) => unknown;
  logger: Logger;
}

/** The prompt Hermes wraps BOOT.md in; a host may use it for the background session. */
export function buildBootPrompt(instructions: string): string {
  return (
    'You are running a startup boot checklist. Follow the BOOT.md instructions below exactly.\n\n' +
    `---\n${instructions}\n---\n\n` +
    'If nothing needs attention, reply with ONLY: [SILENT]'
  );
}

export function createBootMdHook(opts: BootMdOptions): GatewayHandler {
  const file = path.join(opts.home, 'BOOT.md');
  return {
    name: 'boot-md',
    events: ['gateway:startup'],
    dir: null,
    // Never rejects: hosts may call it directly, without the registry's error isolation.
    async handle() {
      try {
        if (!(await stat(file)).isFile()) return;
      } catch {
        return; // no BOOT.md: skip silently, no cost
      }
      let text: string;
      try {
        text = (await readFile(file, 'utf8')).trim();
      } catch (e) {
        opts.logger.warn(`[hooks] boot-md: cannot read ${file}: ${describeError(e)}`);
        return;
      }
      if (text === '') return;
      const onBoot = opts.onBoot;
      if (!onBoot) {
        opts.logger.info?.(`[hooks] boot-md: ${file} found, but the host has no onBoot handler; not run`);
        return;
      }
      opts.logger.info?.(`[hooks] boot-md: running ${file} in the background`);
      // In the background: gateway startup never waits for the boot session.
      void Promise.resolve()
        .then(() => onBoot(text))
        .catch((e: unknown) => opts.logger.warn(`[hooks] boot-md: onBoot failed: ${describeError(e)}`));
    },
  };
}

// The built-in boot-md gateway hook (Hermes ships it): on `gateway:startup`, if
// `<home>/BOOT.md` exists, its instructions go to the host's `onBoot` in the background — the host
// runs them as a background agent session (buildBootPrompt gives the prompt Hermes uses). When
// onBoot resolves to the session's final reply, a silence token (`[SILENT]`: nothing needed
// attention) sends nothing; any other reply goes to `onBootReply`. No file → nothing happens and
// nothing is read beforehand (the file is looked at only when the event fires). BOOT.md tells an
// agent what to do with no per-command approval, so it must pass the trust rule (consent/trust.ts);
// when it does not, it is not run, and the log says why and how to fix it.

import { stat } from 'node:fs/promises';
import { distrustMessage, readTrustedFile } from '../consent/trust.js';
import path from 'node:path';
import type { Logger } from '../types.js';
import { describeError } from '../plugins/callback-runner.js';
import type { GatewayHandler } from './types.js';

/** What onBoot receives besides the instructions. */
export interface BootRun {
  /** BOOT.md wrapped the way Hermes wraps it (buildBootPrompt): run the session with this. */
  prompt: string;
}

export interface BootMdOptions {
  home: string;
  /**
   * Receives BOOT.md's text (trimmed) and the prompt to run it with. May be async; its errors are
   * logged, never thrown. Resolve to the session's final reply (a string) to have it checked for
   * `[SILENT]`; anything else means the host delivers on its own.
   */
  onBoot?: (instructions: string, run: BootRun) => unknown;
  /** Gets the boot session's reply when it is not a silence token (the host sends it). */
  onBootReply?: (reply: string) => unknown;
  logger: Logger;
}

/**
 * Hermes' intentional-silence tokens: a final reply that is exactly one of these (case and
 * whitespace normalised) is stored but never delivered. A sentence that merely mentions one is
 * delivered.
 */
export const SILENT_TOKENS: readonly string[] = ['[SILENT]', 'SILENT', 'NO_REPLY', 'NO REPLY'];

/** True when the whole reply is a silence token (`[SILENT]`, ` silent `, `no_reply` …): send nothing. */
export function isSilentReply(reply: unknown): boolean {
  if (typeof reply !== 'string') return false;
  const normalised = reply.trim().replace(/\s+/g, ' ').toUpperCase();
  return SILENT_TOKENS.includes(normalised);
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
      const read = readTrustedFile(file);
      if (read.refused !== null) {
        opts.logger.warn(`[hooks] boot-md: not run: the ${distrustMessage('file', read.refused)}`);
        return;
      }
      if (read.text === null) {
        opts.logger.warn(`[hooks] boot-md: cannot read ${file}: ${read.error ?? 'it is gone'}`);
        return;
      }
      const text = read.text.trim();
      if (text === '') return;
      const onBoot = opts.onBoot;
      if (!onBoot) {
        opts.logger.info?.(`[hooks] boot-md: ${file} found, but the host has no onBoot handler; not run`);
        return;
      }
      opts.logger.info?.(`[hooks] boot-md: running ${file} in the background`);
      // In the background: gateway startup never waits for the boot session.
      void Promise.resolve()
        .then(() => onBoot(text, { prompt: buildBootPrompt(text) }))
        .then(async (reply: unknown) => {
          if (typeof reply !== 'string') return;
          if (isSilentReply(reply)) {
            opts.logger.info?.('[hooks] boot-md: the boot session answered [SILENT]; nothing sent');
            return;
          }
          if (reply.trim() === '') return;
          if (opts.onBootReply) await opts.onBootReply(reply);
          else opts.logger.info?.('[hooks] boot-md: the boot session replied, but the host has no onBootReply; not sent');
        })
        .catch((e: unknown) => opts.logger.warn(`[hooks] boot-md: onBoot failed: ${describeError(e)}`));
    },
  };
}

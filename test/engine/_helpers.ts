// Shared set-up for engine tests: temp profile homes and engines that are cleaned up after each
// test, and a logger that keeps what the engine warned about.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../../src/engine/create-engine.js';
import type { Logger } from '../../src/engine/logger.js';

const homes: string[] = [];
const engines: HookEngine[] = [];

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close({ finalize: false })));
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

export function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (m) => lines.push(m), info: () => {}, debug: () => {} };
}

/** A temp directory removed after the test. */
export function tempHome(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  homes.push(dir);
  return dir;
}

/** An engine on `home` that accepts hooks, never prompts, ignores the caller's HERMES_* switches, and is closed after the test. */
export async function testEngine(home: string, opts: HookEngineOptions = {}): Promise<HookEngine> {
  const engine = await createHookEngine({
    home,
    env: { ...process.env, HERMES_SAFE_MODE: '', HERMES_ACCEPT_HOOKS: '' },
    acceptHooks: true,
    interactive: false,
    logger: capture(),
    ...opts,
  });
  engines.push(engine);
  return engine;
}

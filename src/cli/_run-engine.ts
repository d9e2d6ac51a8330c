// The engine of one `hermes-hooks run` (Hermes wire or a dialect): the profile from the command's
// options, consent enforced but never prompted for (stdin is the payload), and closed afterwards
// without on_session_finalize (a run is one hook call, not a session).

import { configLoadError } from '../config/load.js';
import { createHookEngine, type HookEngine } from '../engine/create-engine.js';
import type { Logger } from '../engine/logger.js';
import type { EventName } from '../events.js';
import { discoveryOf } from './_args.js';
import { CliError, type CliIO } from './_io.js';
import { locateProfile } from './_profile.js';

export async function withRunEngine<T>(
  values: Record<string, unknown>,
  io: CliIO,
  logger: Logger,
  use: (engine: HookEngine) => Promise<T>,
  opts: { events?: readonly EventName[] } = {},
): Promise<T> {
  // A given location that does not exist is an error worded for the command line.
  await locateProfile(discoveryOf(values), io);
  const engine = await createHookEngine({
    ...discoveryOf(values),
    env: io.env,
    cwd: io.cwd,
    acceptHooks: values['accept-hooks'] === true,
    interactive: false,
    logger,
    // stderr carries only what concerns the event being run: consent is decided for its hooks alone.
    ...(opts.events ? { events: opts.events } : {}),
  });
  try {
    // A config that exists but cannot be read or parsed is an error, not "no hooks": a host must
    // not go unguarded silently.
    const broken = configLoadError(engine.config);
    if (broken) throw new CliError(`cannot use config: ${broken}`);
    return await use(engine);
  } finally {
    await engine.close({ finalize: false });
  }
}

// The engine of one `hermes-hooks run` (Hermes wire or a dialect): the profile from the command's
// options, consent enforced but never prompted for (stdin is the payload), and closed afterwards
// without on_session_finalize (a run is one hook call, not a session).

import { configLoadError, loadConfig, type LoadedConfig } from '../config/load.js';
import { createHookEngineAt, type HookEngine } from '../engine/create-engine.js';
import { joinObservers } from '../engine/options.js';
import type { Logger } from '../types.js';
import type { EventName } from '../events.js';
import { RUN_FLUSH_DEADLINE_MS, startTelemetry } from '../telemetry/index.js';
import { discoveryOf } from './_args.js';
import { CliError, type CliIO } from './_io.js';
import { locateProfile, missingConfigNote } from './_profile.js';
import { openCliJournal } from './_journal.js';

export async function withRunEngine<T>(
  values: Record<string, unknown>,
  io: CliIO,
  logger: Logger,
  use: (engine: HookEngine) => Promise<T>,
  opts: {
    events?: readonly EventName[];
    /** The events to register, known only from the config (a dialect's `dialects:` name maps). */
    eventsFor?: (config: LoadedConfig) => readonly EventName[] | undefined;
  } = {},
): Promise<T> {
  // A given location that does not exist is an error worded for the command line.
  const location = await locateProfile(discoveryOf(values), io);
  // A config that exists but cannot be read or parsed is an error, not "no hooks": a host must
  // not go unguarded silently. Said once, here, before an engine would warn about it too.
  const config = await loadConfig(location.configFile);
  const broken = configLoadError(config);
  if (broken) throw new CliError(`cannot use config: ${broken}`);
  // Nothing to check the call against is said on every call: a host wired to `run` expects guards.
  const missing = missingConfigNote({ location, config });
  if (missing) logger.warn(`${missing} The call is allowed unchecked.`);
  const events = opts.events ?? opts.eventsFor?.(config);
  const journal = await openCliJournal(values, config, location, io, logger);
  // Off (nothing loaded) unless the OTEL_* variables turn it on.
  const telemetry = await startTelemetry(io.env, logger, 'run');
  const observe = joinObservers(journal?.observe, telemetry?.observe);
  const engine = await createHookEngineAt(location, config, {
    env: io.env,
    cwd: io.cwd,
    acceptHooks: values['accept-hooks'] === true,
    interactive: false,
    logger,
    // stderr carries only what concerns the event being run: consent is decided for its hooks alone.
    ...(events ? { events } : {}),
    ...(observe ? { observe } : {}),
  });
  try {
    return await use(engine);
  } finally {
    await engine.close({ finalize: false });
    journal?.close();
    // The verdict is printed; the spans go out before the process ends, a dead collector costing at most the deadline.
    await telemetry?.shutdown(RUN_FLUSH_DEADLINE_MS);
  }
}

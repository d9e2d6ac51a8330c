// `hermes-hooks test <event>`: the dry run. Real matching, spawning, evaluation and resolution;
// consent reported, not enforced, and what `run` would decide under it said next to the result;
// no webhooks sent. Under HERMES_SAFE_MODE nothing runs (the hooks are listed) unless
// --ignore-safe-mode. Exit 0 not blocked, 2 blocked, 1 error.

import { isTruthyEnv } from '../config/hooks.js';
import { acceptsUnapproved } from '../consent/policy.js';
import { passes } from '../consent/trust.js';
import { configLoadError, loadConfig } from '../config/load.js';
import { createHookEngineAt } from '../engine/create-engine.js';
import { pluginOutputLogger } from '../engine/logger.js';
import { isEventName } from '../events.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { painter } from './_color.js';
import { TEST_HELP } from './_help.js';
import { CliError, readAllStdin, stdinTimeoutMs, writeLine, type CliIO } from './_io.js';
import { payloadFromStdin } from './_payload.js';
import { productionView, reportedHooks } from './_production.js';
import { locateProfile } from './_profile.js';
import { renderReport } from './_report.js';
import { unknownEventError } from './_events.js';
import { inert } from '../display.js';

export async function testCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const event = positionals[0];
  if (!event) throw new CliError(`test: missing <event>\n${TEST_HELP}`);
  if (positionals.length > 1) throw new CliError(`test: unexpected argument '${positionals[1]}'`);
  if (!isEventName(event)) throw unknownEventError(event);

  const location = await locateProfile(discoveryOf(values), io);
  const input = payloadFromStdin(event, await readAllStdin(io, stdinTimeoutMs(values['stdin-timeout'], io.env)), { synthetic: true });
  const safeMode = isTruthyEnv(io.env.HERMES_SAFE_MODE);
  const ignoreSafeMode = safeMode && values['ignore-safe-mode'] === true;
  const env = ignoreSafeMode ? { ...io.env } : io.env;
  if (ignoreSafeMode) delete env.HERMES_SAFE_MODE;
  const engine = await createHookEngineAt(location, await loadConfig(location.configFile), {
    env,
    events: [event],
    cwd: io.cwd,
    enforceConsent: false,
    interactive: false,
    outbound: false,
    exitCleanup: true,
    // The report says the rest; what plugins print is theirs to say, on stderr as under Hermes.
    logger: pluginOutputLogger(io.stderr),
  });
  const broken = configLoadError(engine.config);
  if (broken) {
    await engine.close({ finalize: false });
    throw new CliError(`cannot use config: ${broken}`);
  }

  // A config or home that fails the trust rule is said on stderr as well as in the report: what
  // `run` would grant from it differs from what this dry run shows.
  for (const u of engine.untrusted) if (u.message !== '') writeLine(io.stderr, `hermes-hooks: warning: ${inert(u.message)}`);

  const forTool = typeof values['for-tool'] === 'string' ? values['for-tool'] : undefined;
  // As in Hermes' `hooks test --for-tool T`: the hooks are told the tool is T, and matchers test T.
  if (forTool !== undefined) input.body.tool_name = forTool;
  try {
    // The dry run tests the resolved hooks alone: there is no request in this engine to pair with.
    const emission = await engine.emit(event, input.body, { ...(forTool !== undefined ? { forTool } : {}), unpairedResolve: 'run' });
    const diagnostics = [...engine.diagnostics, ...emission.diagnostics.map((d) => ({ ...d, file: d.file ?? '<stdin>' }))];
    const registered = engine.hooksFor(event);
    const production = productionView({
      emission,
      entries: registered,
      safeMode,
      // What `run` would accept: the same rule as the engine's (test itself has no --accept-hooks).
      accept: acceptsUnapproved({
        env: io.env,
        autoAccept: engine.config.autoAccept,
        ownConfig: location.ownConfig,
        configTrusted: passes(engine.untrusted, engine.configFile),
      }),
    });
    // `index` is the position in resolution order (what decided_by points at); a shell hook also
    // carries its config path, the one its diagnostics name (`hooks.pre_tool_call[1]`).
    const configPaths = emission.hooks.map((h) => {
      const entry = registered[h.index];
      return entry?.kind === 'shell' ? `hooks.${event}[${entry.spec.index}]` : null;
    });
    const hooks = reportedHooks(emission.hooks).map((h) => ({ ...h, config_path: configPaths[h.index] ?? null }));
    const report = { event: emission.event, payload: emission.payload, hooks, decision: emission.decision, production, diagnostics };
    if (values.json) {
      writeLine(io.stdout, JSON.stringify(report));
    } else {
      io.stdout.write(
        renderReport(report, diagnostics, painter(io), {
          configFile: engine.configFile,
          profile: engine.profile,
          synthetic: input.synthetic,
          ignoredSafeMode: ignoreSafeMode,
          configPaths,
        }),
      );
    }
    return emission.decision.action === 'block' ? 2 : 0;
  } finally {
    await engine.close({ finalize: false });
  }
}

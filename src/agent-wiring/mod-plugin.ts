// `print-config <agent> --mod DIR`: the files of a plugin the agent runs in its own process (a mod:
// Claude Code 2.1.287+, the record's `printConfig.mod`) that hands each tool call and lifecycle event
// to serve over its Unix socket, with no process per call. Pure: the template (named by the record)
// comes in as text and the files go out as text; the CLI reads and writes them.
//
// The template's settings object, between its two markers, is replaced by this profile's: the
// socket, the events the profile needs (Claude's names), the bundled client that starts serve when
// none answers, and the deadline chain's serve links (src/deadlines.ts).

import { CLIENT_TIMEOUT_S } from '../deadlines.js';

export const MOD_PLUGIN_NAME = 'hermes-hooks';
/** The register.js line that says the file is ours (print-config overwrites only a DIR holding these). */
export const MOD_MARK = "// hermes-hooks as an agent's mod";
const SETTINGS_RE = /\/\* hermes-hooks:settings \*\/[\s\S]*?\/\* hermes-hooks:end \*\//;

export interface ModSettings {
  /** The agent's dialect name (its serve route) and the variable that says whether its session is attended, if any. */
  agent: string;
  attendedEnv: string | null;
  socket: string;
  /** The profile home, for the "start it with" line when no client can start serve. */
  profile: string;
  /** The agent's event names to send (the profile's), of those a mod can see. */
  events: readonly string[];
  gate: string;
  /** The bundled client run (through $.process.run) when serve is not running: argv before EVENT, and after it. */
  client: { head: readonly string[]; tail: readonly string[] } | null;
  /** How often a slow call asks serve for a sign of life, and how long it waits for one (ms). */
  probeMs?: number;
}

/** The mod's files, path (relative to DIR) → text; `manifest` is where the agent looks for the plugin's manifest. */
export function modPluginFiles(template: string, s: ModSettings, version: string, manifest: string): Map<string, string> {
  if (!SETTINGS_RE.test(template)) throw new Error('the mod template has no /* hermes-hooks:settings */ … /* hermes-hooks:end */ block');
  const settings = {
    agent: s.agent,
    attendedEnv: s.attendedEnv,
    socket: s.socket,
    profile: s.profile,
    events: [...s.events],
    gate: s.gate,
    client: s.client === null ? null : { head: [...s.client.head], tail: [...s.client.tail] },
    // The client's deadline: serve's per-call one plus 5 s, so a live serve's own answer comes first.
    deadlineS: CLIENT_TIMEOUT_S,
    probeMs: s.probeMs ?? 1000,
    retryAfterS: 60,
  };
  const settingsText = `/* hermes-hooks:settings */ const SETTINGS = ${JSON.stringify(settings, null, 2)}; /* hermes-hooks:end */`;
  const plugin = {
    name: MOD_PLUGIN_NAME,
    version,
    description: 'hermes-hooks: every tool call and lifecycle event goes to hermes-hooks serve over its Unix socket, in process',
  };
  return new Map([
    [manifest, `${JSON.stringify(plugin, null, 2)}\n`],
    ['hooks/hooks.json', `${JSON.stringify({ modules: ['./register.js'] }, null, 2)}\n`],
    ['hooks/register.js', template.replace(SETTINGS_RE, () => settingsText)],
  ]);
}

/** Does this register.js text come from print-config (ours to overwrite)? */
export function isOurModule(text: string): boolean {
  return text.startsWith(MOD_MARK);
}

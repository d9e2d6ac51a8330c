// `hermes-hooks doctor --agent <agent>`: check that agent's own hook config for hermes-hooks
// entries it will not run or that fail open, and say how to fix each (the judging is
// src/agent-wiring/agent-doctor.ts). `doctor` without --agent is the profile doctor, unchanged.

import { accessSync, constants, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { configLoadError } from '../config/load.js';
import { errorText } from '../errors.js';
import { agentFiles, agentTrustFile, checkAgentConfig, type AgentCheck, type AgentFile, type AgentProbes } from '../agent-wiring/agent-doctor.js';
import type { ClientSettingsFile } from '../agent-wiring/client-settings.js';
import { platformRule } from '../agent-wiring/platform.js';
import { AGENTS, AGENT_DIALECTS, isAgentDialect, type AgentDialect } from '../dialects/agents/index.js';
import type { EventName } from '../events.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter, type Paint } from './_color.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { openProfile } from './_profile.js';
import { whichOnPath } from '../spawn/launch-problems.js';
import { portListeners } from '../serve/port-owner.js';
import { profileEvents } from '../agent-wiring/profile-events.js';
import { shellQuote } from '../shell-words.js';
import { isNeeded } from '../agent-wiring/profile-events.js';
import { isOurModule } from '../agent-wiring/mod-plugin.js';
import { bundledClient, CLI_BIN } from './print-config-command.js';
import { modFiles } from './print-config-mod.js';

const HELP = `Usage: hermes-hooks doctor --agent <${AGENT_DIALECTS.join('|')}> [--project DIR] [--mod DIR [--socket PATH]] [--json] [discovery options]

Check an agent's own hook config for hermes-hooks entries that agent will not run, or that fail open:
  - the wrong file (one the agent never reads) or a file it cannot parse
  - a command that does not exist, runs through npx, or uses a relative path
  - the tool gate (${[...new Set(AGENTS.map((a) => a.doctor.gate))].join(' / ')}) not wired, or a matcher that skips tools
  - a timeout shorter than the profile's hooks for that event (the agent then goes ahead)
  - the wrong event or --dialect in the command
  - Codex: a hook with no trust record in ~/.codex/config.toml (Codex skips it without a word)
  - ⚠ an answer the profile's hooks can give that the agent drops (Qwen Code ignores a rewrite)
  - Claude Code's http wiring: its port held by another user (who would answer for serve and get
    the token), or by nothing
  - the bundled client's settings (<profile home>/hermes-hooks-client.env): missing, refused by the
    client (not yours or root's, or writable by others), or naming a node or CLI that is gone
  - --mod DIR (Claude Code): the mod print-config --mod wrote there matches what it would write now (--socket PATH: the one it was given)
Files read: the agent's user file under $HOME and the project file under --project (default: the
current directory). Exit 1 when any ✗ is found.

Examples:
  hermes-hooks doctor --agent codex
  hermes-hooks doctor --agent claude --project ~/src/app --json
`;

export async function doctorAgentCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('doctor', args, {
    agent: { type: 'string' },
    project: { type: 'string' },
    json: { type: 'boolean' },
    mod: { type: 'string' },
    // The mod's socket, as given to print-config --mod (else the profile's default is checked).
    socket: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const agent = values.agent;
  if (typeof agent !== 'string' || !isAgentDialect(agent)) {
    throw new CliError(`doctor --agent: give one of ${AGENT_DIALECTS.join(', ')}${typeof agent === 'string' ? ` (not '${agent}')` : ''}`);
  }
  const home = io.env.HOME ?? homedir();
  const project = resolve(io.cwd, typeof values.project === 'string' ? values.project : '.');

  const profile = await openProfile(discoveryOf(values), io);
  const broken = configLoadError(profile.config);
  const maps = profile.config.dialects.maps;
  if (typeof values.mod === 'string') {
    return doctorMod(agent, values, { home: profile.home, maps, needed: neededOf(profile.config), client: bundledClient(io), cliBin: CLI_BIN }, io);
  }
  const profileTimeouts: Partial<Record<EventName, number>> = {};
  for (const spec of profile.config.specs) profileTimeouts[spec.event] = Math.max(profileTimeouts[spec.event] ?? 0, spec.timeout);

  const files = readAgentFiles(agent, home, project);
  const trustFile = agentTrustFile(agent, home);
  const report = checkAgentConfig({
    dialect: agent,
    maps,
    files,
    ...(trustFile !== undefined ? { trustConfig: { path: trustFile, text: readText(trustFile) } } : {}),
    profileTimeouts,
    home,
    probes: fsProbes(io),
    needs: { events: profileEvents(profile.config), rewire: rewireCommand(agent, values, files) },
    profileHooks: profile.config.specs.map((spec) => ({ event: spec.event, name: spec.command })),
    // The client's own rule for a wiring without --home.
    clientHome: io.env.HERMES_HOME || join(home, '.hermes'),
  });
  if (broken) {
    report.general.unshift({
      ok: null,
      message: `the profile's config cannot be used (${broken}): every tool call the agent sends is blocked until it is fixed`,
    });
  }

  // Said apart from the checks: it is neither right nor wrong, only easy to miss.
  const platform = platformRule(agent, profile.config.dialects.platforms?.[agent]);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ ...report, platform, config: profile.configFile, healthy: report.problems === 0 }));
    return report.problems === 0 ? 0 : 1;
  }
  const paint = painter(io);
  writeLine(io.stdout, `hermes-hooks doctor --agent ${agent}  (profile ${profile.configFile})`);
  for (const f of report.files) {
    if (f.state === 'missing' && f.role === 'wrong') continue;
    const state =
      f.state === 'missing' ? 'not present' : f.state === 'unparseable' ? 'cannot be parsed' : `${f.entries} hermes-hooks entr${f.entries === 1 ? 'y' : 'ies'}`;
    writeLine(io.stdout, `  ${f.path}: ${state}${f.role === 'wrong' ? ` (${agent} never reads this file)` : ''}`);
  }
  writeLine(io.stdout);
  for (const c of report.general) writeLine(io.stdout, `  ${mark(c, paint)} ${c.message}`);
  writeLine(io.stdout, `  ${mark({ ok: null, message: platform }, paint)} ${platform}`);
  writeLine(io.stdout);
  for (const e of report.entries) {
    writeLine(io.stdout, `  [${e.event}] ${e.command}`);
    writeLine(io.stdout, `      ${paint('dim', `${e.file} ${e.at}`)}`);
    for (const c of e.checks) writeLine(io.stdout, `      ${mark(c, paint)} ${c.message}`);
    writeLine(io.stdout);
  }
  writeLine(
    io.stdout,
    report.problems === 0
      ? paint('green', `${agent}: every hermes-hooks entry will run.`)
      : paint('red', `${report.problems} problem(s) found: ${agent} will skip hermes-hooks or let calls through unguarded. Fix them, then re-run this check.`),
  );
  return report.problems === 0 ? 0 : 1;
}

function neededOf(config: Parameters<typeof profileEvents>[0]): (ours: EventName) => boolean {
  const needs = profileEvents(config);
  return (ours) => isNeeded(needs, ours);
}

/**
 * doctor --agent claude --mod DIR: is DIR the mod print-config --mod would write for this profile
 * now? A file missing or different (another socket, events, installation) is a ✗ with the command
 * that writes it again.
 */
function doctorMod(agent: AgentDialect, values: Record<string, unknown>, target: Parameters<typeof modFiles>[2], io: CliIO): number {
  if (AGENTS.find((a) => a.name === agent)?.printConfig.mod === undefined) throw new CliError(`doctor --agent ${agent}: --mod is for agents that run mods`);
  const dir = resolve(io.cwd, values.mod as string);
  const rewrite = ['hermes-hooks', 'print-config', agent, '--mod', shellQuote(dir)];
  for (const key of ['home', 'profile', 'config', 'socket']) if (typeof values[key] === 'string') rewrite.push(`--${key}`, shellQuote(values[key] as string));
  const checks: AgentCheck[] = [];
  const module = readText(resolve(dir, 'hooks/register.js'));
  if (module !== null && !isOurModule(module)) {
    checks.push({ ok: false, message: `${dir}/hooks/register.js is not the one print-config writes: this is another plugin` });
  } else {
    for (const [rel, text] of modFiles(agent, values, target, io).files) {
      const have = readText(resolve(dir, rel));
      if (have === null) checks.push({ ok: false, message: `${rel} is missing: write the mod again with ${rewrite.join(' ')}` });
      else if (have !== text)
        checks.push({
          ok: false,
          message: `${rel} differs from what print-config writes now (the socket, the profile's events or this installation changed): ${rewrite.join(' ')}`,
        });
    }
  }
  if (checks.length === 0)
    checks.push({ ok: true, message: `${dir} is the mod print-config writes for this profile; enable it with claude --plugin-dir ${shellQuote(dir)}` });
  const problems = checks.filter((c) => c.ok === false).length;
  if (values.json) writeLine(io.stdout, JSON.stringify({ mod: dir, checks, healthy: problems === 0 }));
  else {
    const paint = painter(io);
    writeLine(io.stdout, `hermes-hooks doctor --agent ${agent} --mod ${dir}`);
    for (const c of checks) writeLine(io.stdout, `  ${mark(c, paint)} ${c.message}`);
  }
  return problems === 0 ? 0 : 1;
}

/**
 * The print-config command that re-wires this agent for this profile, in the wiring its entries use
 * (http URLs: --http; `run --dialect`: --run; else the client's default). Replace the entries with its output.
 */
function rewireCommand(agent: AgentDialect, values: Record<string, unknown>, files: AgentFile[]): string {
  const words = ['hermes-hooks', 'print-config', agent];
  for (const key of ['home', 'profile', 'config', 'socket']) if (typeof values[key] === 'string') words.push(`--${key}`, shellQuote(values[key] as string));
  const text = files.map((f) => (f.role === 'reads' ? (f.text ?? '') : '')).join('\n');
  if (/\/v1\/agent\//.test(text)) words.push('--http');
  else if (!/hermes-hooks-client/.test(text) && /\brun\s+\S+\s+--dialect/.test(text)) words.push('--run');
  return words.join(' ');
}

/**
 * The agent's files, read. Run from $HOME, the project's files are the user's
 * (~/.claude/settings.json twice): each file once, by its real path.
 */
function readAgentFiles(agent: AgentDialect, home: string, project: string): AgentFile[] {
  const seen = new Set<string>();
  return agentFiles(agent, home, project)
    .map((f) => {
      const text = readText(f.path);
      const real = text === null ? undefined : realPath(f.path);
      return { ...f, text, ...(real !== undefined && real !== f.path ? { realPath: real } : {}) };
    })
    .filter((f) => {
      const key = f.realPath ?? resolve(f.path);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function fsProbes(io: CliIO): AgentProbes {
  return {
    runnable(path, mode) {
      try {
        if (!statSync(path).isFile()) return 'not_file';
      } catch {
        return 'missing';
      }
      try {
        accessSync(path, mode === 'exec' ? constants.X_OK : constants.R_OK);
        return 'ok';
      } catch {
        return 'not_executable';
      }
    },
    which: (name) => whichOnPath(name, io.env.PATH),
    listeners: portListeners,
    uid: process.getuid?.() ?? 0,
    clientSettings: readClientSettings,
  };
}

/** The client's settings file as the client meets it: lstat (a symlink is not followed), then the text. */
function readClientSettings(path: string): ClientSettingsFile {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return { kind: 'missing' };
  }
  if (!st.isFile()) return { kind: 'not_file' };
  try {
    return { kind: 'file', uid: st.uid, mode: st.mode, text: readFileSync(path, 'utf8') };
  } catch (e) {
    return { kind: 'file', uid: st.uid, mode: st.mode, text: null, error: errorText(e) };
  }
}

function mark(c: AgentCheck, paint: Paint): string {
  if (c.ok === null) return c.warning === true ? paint('yellow', '⚠') : paint('dim', 'ℹ');
  return c.ok ? paint('green', '✓') : paint('red', '✗');
}

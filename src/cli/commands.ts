// The CLI's commands, one record each and one list: main dispatches on it, parses each command's
// arguments with its options, answers its --help, and prints MAIN_HELP's command list from it.
// A record's run imports its module lazily: a host calling `hermes-hooks run` per event pays only
// for what `run` needs. A new command is one record here (its help in _help.ts) and its module.

import type { CliIO } from './_io.js';
import type { OptionSpecs, ParsedArgs } from './_args.js';
import {
  APPROVE_HELP,
  AUDIT_HELP,
  DOCTOR_HELP,
  REPLAY_HELP,
  LIST_HELP,
  MAIN_HELP_HEAD,
  MAIN_HELP_TAIL,
  REVOKE_HELP,
  RUN_HELP,
  TEST_HELP,
  VALIDATE_HELP,
} from './_help.js';

/** A command whose arguments main parses with `options` (plus the discovery options) before `run`. */
export interface ParsedCommand {
  name: string;
  aliases?: readonly string[];
  /** MAIN_HELP's line: what to type, and what it does. */
  synopsis: string;
  summary: string;
  options: OptionSpecs;
  help: () => string | Promise<string>;
  run: (args: ParsedArgs, io: CliIO) => Promise<number>;
}

/**
 * Another face of a command, chosen by its raw arguments (`doctor --agent`, `run --dialect`), or a
 * command whose module reads its own arguments and help (import, print-config). `synopsis` null:
 * not listed in MAIN_HELP.
 */
export interface RawCommand {
  name: string;
  synopsis: string | null;
  summary: string;
  /** Taken instead of the command's plain record when this holds for the arguments. */
  when?: (args: readonly string[]) => boolean;
  runRaw: (args: string[], io: CliIO) => Promise<number>;
}

export type CliCommand = ParsedCommand | RawCommand;

const json = { type: 'boolean' } as const;

/** In MAIN_HELP's order. */
export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'test',
    synopsis: 'test <event>',
    summary: 'Dry-run the configured hooks on a payload (consent reported, not enforced)',
    options: { json, 'for-tool': { type: 'string' }, 'ignore-safe-mode': { type: 'boolean' }, 'stdin-timeout': { type: 'string' } },
    help: () => TEST_HELP,
    run: async (args, io) => (await import('./test-command.js')).testCommand(args, io),
  },
  {
    name: 'run',
    synopsis: 'run <event>',
    summary: 'Run hooks for a host: consent and safe mode honoured; prints only the Decision JSON',
    options: { 'accept-hooks': { type: 'boolean' }, dialect: { type: 'string' }, 'stdin-timeout': { type: 'string' }, journal: { type: 'string' } },
    help: () => RUN_HELP,
    run: async (args, io) => (await import('./run-command.js')).runCommand(args, io),
  },
  {
    // A dialect run parses its own options: whatever goes wrong from there on must still end in
    // that agent's block, never in an exit 1 the agent would treat as "go ahead".
    name: 'run',
    synopsis: null,
    summary: "Run hooks as another agent's hook, in its protocol",
    when: (args) => {
      const dialect = optionValue(args, '--dialect');
      return dialect !== undefined && dialect !== 'hermes';
    },
    runRaw: async (args, io) => (await import('./run-command.js')).runAsAgentCommand(optionValue(args, '--dialect')!, args, io),
  },
  {
    name: 'list',
    aliases: ['ls'],
    synopsis: 'list',
    summary: 'Hooks per event with matcher, timeout, fail_closed and consent state',
    options: { json },
    help: () => LIST_HELP,
    run: async (args, io) => (await import('./list-command.js')).listCommand(args, io),
  },
  {
    name: 'doctor',
    synopsis: 'doctor',
    summary: 'Check every hook: runnable, approved, unchanged, and a smoke run when approved',
    options: { json, ping: { type: 'boolean' }, 'smoke-all': { type: 'boolean' } },
    help: () => DOCTOR_HELP,
    run: async (args, io) => (await import('./doctor-command.js')).doctorCommand(args, io),
  },
  {
    // Another agent's hook config is checked by its own module, with its own options.
    name: 'doctor',
    synopsis: 'doctor --agent AGENT',
    summary: 'Check Claude Code / Codex / Gemini CLI / Cursor config for hermes-hooks entries it will not run',
    when: (args) => args.some((a) => a === '--agent' || a.startsWith('--agent=')),
    runRaw: async (args, io) => (await import('./doctor-agent.js')).doctorAgentCommand(args, io),
  },
  {
    name: 'validate',
    synopsis: 'validate [FILE]',
    summary: 'Print config diagnostics with file:line:column; exit 1 on any problem',
    options: { json },
    help: () => VALIDATE_HELP,
    run: async (args, io) => (await import('./validate-command.js')).validateCommand(args, io),
  },
  {
    name: 'approve',
    synopsis: 'approve [CMD]',
    summary: 'Record approvals (--event E, --all)',
    options: { event: { type: 'string', short: 'e' }, all: { type: 'boolean' }, json },
    help: () => APPROVE_HELP,
    run: async (args, io) => (await import('./approve-command.js')).approveCommand(args, io),
  },
  {
    name: 'revoke',
    synopsis: 'revoke <CMD>',
    summary: 'Remove every approval for a command',
    options: { json },
    help: () => REVOKE_HELP,
    run: async (args, io) => (await import('./approve-command.js')).revokeCommand(args, io),
  },
  {
    name: 'replay',
    synopsis: 'replay JOURNAL',
    summary: 'Re-run recorded events through the current hooks; list the verdicts that changed (exit 1)',
    options: { json },
    help: () => REPLAY_HELP,
    run: async (args, io) => (await import('./replay-command.js')).replayCommand(args, io),
  },
  {
    name: 'audit',
    synopsis: 'audit JOURNAL',
    summary: 'Tool calls with no gate verdict, guards that never fired, failing and slow hooks',
    options: { json },
    help: () => AUDIT_HELP,
    run: async (args, io) => (await import('./audit-command.js')).auditCommand(args, io),
  },
  {
    name: 'import',
    synopsis: 'import <FILE>',
    summary: 'Convert a Claude Code / Codex / Gemini CLI / Cursor hook config into a hooks: block',
    runRaw: async (args, io) => (await import('./import-command.js')).importCommand(args, io),
  },
  {
    name: 'print-config',
    synopsis: 'print-config <AGENT>',
    summary: 'Settings snippet that makes another agent call hermes-hooks',
    runRaw: async (args, io) => (await import('./print-config-command.js')).printConfigCommand(args, io),
  },
  {
    name: 'serve',
    synopsis: 'serve',
    summary: 'One long-lived engine for a host or agent: JSON-RPC on stdio, HTTP on a socket or loopback',
    options: {
      'accept-hooks': { type: 'boolean' },
      stdio: { type: 'boolean' },
      socket: { type: 'string' },
      http: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'token-env': { type: 'string' },
      'idle-timeout': { type: 'string' },
      'idle-exit': { type: 'string' },
      'request-timeout': { type: 'string' },
      'drain-timeout': { type: 'string' },
      'max-body': { type: 'string' },
      'max-connections': { type: 'string' },
      'headers-timeout': { type: 'string' },
      concurrency: { type: 'string' },
      surface: { type: 'string' },
      profiles: { type: 'boolean' },
      verbose: { type: 'boolean' },
      journal: { type: 'string' },
    },
    // Its help states this machine's connection cap: computed by the serve module.
    help: async () => (await import('./serve-command.js')).serveHelp(),
    run: async (args, io) => (await import('./serve-command.js')).serveCommand(args, io),
  },
];

/** The record for `name` given these arguments: a face whose `when` holds, else the plain one. */
export function findCommand(name: string, args: readonly string[]): CliCommand | undefined {
  const named = COMMANDS.filter((c) => c.name === name || ('aliases' in c && c.aliases?.includes(name)));
  return named.find((c) => 'when' in c && c.when?.(args)) ?? named.find((c) => !('when' in c) || c.when === undefined);
}

export const MAIN_HELP = `${MAIN_HELP_HEAD}${COMMANDS.map(helpLine)
  .filter((l) => l !== null)
  .join('')}${MAIN_HELP_TAIL}`;

function helpLine(c: CliCommand): string | null {
  return c.synopsis === null ? null : `  ${c.synopsis.padEnd(17)}  ${c.summary}\n`;
}

/** The value of `--name X` / `--name=X`, read before full parsing (which may fail); none after `--`. */
function optionValue(args: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a === flag) return args[i + 1];
    if (a.startsWith(`${flag}=`)) return a.slice(flag.length + 1);
  }
  return undefined;
}

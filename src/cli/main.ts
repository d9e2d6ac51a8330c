// main(argv, io): the whole CLI as a function, so tests run it in-process. Subcommands are
// imported lazily: a host calling `hermes-hooks run` per event pays only for what `run` needs.

import { MAIN_HELP } from './_help.js';
import { CliError, processIO, writeLine, type CliIO } from './_io.js';

type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  test: async () => (await import('./test-command.js')).testCommand,
  run: async () => (await import('./run-command.js')).runCommand,
  list: async () => (await import('./list-command.js')).listCommand,
  ls: async () => (await import('./list-command.js')).listCommand,
  // `doctor --agent X` checks another agent's hook config (its own module); plain doctor the profile.
  doctor: async () => (await import('./doctor-route.js')).doctorRoute,
  validate: async () => (await import('./validate-command.js')).validateCommand,
  approve: async () => (await import('./approve-command.js')).approveCommand,
  revoke: async () => (await import('./approve-command.js')).revokeCommand,
  import: async () => (await import('./import-command.js')).importCommand,
  'print-config': async () => (await import('./import-command.js')).printConfigCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
};

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr.write(MAIN_HELP);
    return 1;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(MAIN_HELP);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === '-V') {
    writeLine(io.stdout, await version());
    return 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    writeLine(io.stderr, `hermes-hooks: unknown command '${command}'. Run 'hermes-hooks --help'.`);
    return 1;
  }
  try {
    return await (await load())(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      writeLine(io.stderr, `hermes-hooks: ${e.message}`);
      return e.exitCode;
    }
    writeLine(io.stderr, `hermes-hooks: internal error: ${(e as Error)?.stack ?? String(e)}`);
    return 1;
  }
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

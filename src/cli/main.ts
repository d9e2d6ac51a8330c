// main(argv, io): the whole CLI as a function, so tests run it in-process. The commands are
// records (commands.ts); their modules are imported lazily.

import { parseCommandArgs } from './_args.js';
import { CliError, processIO, writeLine, type CliIO } from './_io.js';
import { findCommand, MAIN_HELP, type CliCommand } from './commands.js';
import { errorText } from '../errors.js';

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  // Options every command shares may come before the command too: `hermes-hooks --config x list`.
  const { lead, command, rest, error } = splitGlobalOptions(argv);
  const json = wantsJson(argv);
  const fail = (message: string, code = 1): number => {
    writeLine(io.stderr, `hermes-hooks: ${message}`);
    // With --json, a program reading stdout gets the error as JSON too, never an empty stdout.
    if (json) writeLine(io.stdout, JSON.stringify({ error: message.replace(/\n+Usage:[\s\S]*$/, ''), exit_code: code }));
    return code;
  };
  if (error !== undefined) return fail(`${error}. Run 'hermes-hooks --help'.`);
  if (command === undefined) {
    if (lead.includes('--help') || lead.includes('-h')) {
      io.stdout.write(MAIN_HELP);
      return 0;
    }
    if (json || lead.length > 0) return fail("missing <command>. Run 'hermes-hooks --help'.");
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
  const args = [...lead, ...rest];
  const found = findCommand(command, args);
  if (!found) return fail(`unknown command '${command}'. Run 'hermes-hooks --help'.`);
  try {
    return await runCommandRecord(found, args, io);
  } catch (e) {
    if (e instanceof CliError) return fail(e.message, e.exitCode);
    if (json) writeLine(io.stdout, JSON.stringify({ error: `internal error: ${errorText(e)}`, exit_code: 1 }));
    writeLine(io.stderr, `hermes-hooks: internal error: ${(e as Error)?.stack ?? String(e)}`);
    return 1;
  }
}

/** Its arguments parsed with its options, then --help or its run (a raw command reads its own). */
async function runCommandRecord(command: CliCommand, args: string[], io: CliIO): Promise<number> {
  if ('runRaw' in command) return command.runRaw(args, io);
  const parsed = parseCommandArgs(command.name, args, command.options);
  if (parsed.values.help) {
    io.stdout.write(await command.help());
    return 0;
  }
  return command.run(parsed, io);
}

/** Global options: name → takes a value. */
const GLOBAL_OPTIONS: Record<string, boolean> = {
  '--config': true,
  '-c': true,
  '--profile': true,
  '-p': true,
  '--home': true,
  '--json': false,
  '--help': false,
  '-h': false,
};

/**
 * Split `[global options…] <command> [args…]`. The leading options are handed to the command as if
 * written after it. `--version` and the like are left as the "command" for main to answer.
 */
function splitGlobalOptions(argv: string[]): { lead: string[]; command: string | undefined; rest: string[]; error?: string } {
  const lead: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const token = argv[i] as string;
    if (!token.startsWith('-') || token === '-' || token === '--') break;
    const eq = token.indexOf('=');
    const name = token.startsWith('--') && eq > 0 ? token.slice(0, eq) : token;
    const takesValue = GLOBAL_OPTIONS[name];
    if (takesValue === undefined) {
      // -cFILE / -pNAME, as parseArgs reads them after the command.
      if (/^-[cp]./.test(token)) {
        lead.push(token);
        i++;
        continue;
      }
      if (['--version', '-v', '-V'].includes(token)) break;
      return { lead, command: undefined, rest: [], error: `unknown option '${token}' before the command` };
    }
    lead.push(token);
    if (takesValue && name === token) {
      if (i + 1 >= argv.length) return { lead, command: undefined, rest: [], error: `option '${token}' needs a value, as in '${token} <value> <command>'` };
      lead.push(argv[i + 1] as string);
      i += 2;
    } else i++;
  }
  return { lead, command: argv[i], rest: argv.slice(i + 1) };
}

/** `--json` anywhere before a `--` that ends the options. */
function wantsJson(argv: string[]): boolean {
  for (const token of argv) {
    if (token === '--') return false;
    if (token === '--json') return true;
  }
  return false;
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

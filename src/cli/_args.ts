// Argument parsing on node:util.parseArgs: the options every subcommand shares (config discovery)
// plus its own. Unknown flags are errors that name the flag.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './_io.js';
import { errorText } from '../errors.js';

export const DISCOVERY_OPTIONS = {
  config: { type: 'string', short: 'c' },
  profile: { type: 'string', short: 'p' },
  home: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export type Discovery = { config?: string; profile?: string; home?: string };

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** A command's arguments once parsed: option values by name and the positionals in order. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseCommandArgs(command: string, args: string[], options: OptionSpecs): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...DISCOVERY_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (e) {
    throw new CliError(`${command}: ${errorText(e).replace(/\. To specify a positional argument.*$/s, '')}\nRun 'hermes-hooks ${command} --help' for usage.`);
  }
}

export function discoveryOf(values: Record<string, unknown>): Discovery {
  const out: Discovery = {};
  if (typeof values.config === 'string') out.config = values.config;
  if (typeof values.profile === 'string') out.profile = values.profile;
  if (typeof values.home === 'string') out.home = values.home;
  return out;
}

// The engine reports through a host-supplied logger; the default writes warnings to stderr,
// because a skipped or failing hook must never be silent. Messages carry commands, paths and hook
// output: the terminal gets them inert (control characters escaped), a host logger gets them raw.

import { inert } from '../display.js';
import type { Logger } from '../types.js';

export type { Logger } from '../types.js';

/** A Logger that drops everything. */
export const silentLogger: Logger = { warn: () => {}, info: () => {}, debug: () => {} };

/** The default Logger: warnings on stderr (info and debug with `verbose`), control characters escaped. */
export function stderrLogger(opts: { verbose?: boolean; stream?: NodeJS.WritableStream } = {}): Logger {
  const write = (level: string, message: string): void => {
    (opts.stream ?? process.stderr).write(`hermes-hooks: ${level}${inert(message, { keepNewlines: true })}\n`);
  };
  return {
    warn: (m) => write('warning: ', m),
    info: opts.verbose ? (m) => write('', m) : () => {},
    debug: opts.verbose ? (m) => write('debug: ', m) : () => {},
    output: (m) => write('', m),
  };
}

/** Only what plugins print, on stderr: for faces that report everything else themselves (`test`). */
export function pluginOutputLogger(stream: NodeJS.WritableStream): Logger {
  return { ...silentLogger, output: stderrLogger({ stream }).output! };
}

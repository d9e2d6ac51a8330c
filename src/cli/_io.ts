// The CLI's world, passed in so main(argv, io) runs in tests without spawning a process.

import type { Readable, Writable } from 'node:stream';
import { HooksError } from '../errors.js';

export interface CliIO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): CliIO {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** How long `run` and `test` wait for stdin to close when neither the flag nor the env says. */
export const DEFAULT_STDIN_TIMEOUT_S = 30;
export const STDIN_TIMEOUT_ENV = 'HERMES_HOOKS_STDIN_TIMEOUT';

/**
 * The bound on reading stdin, in ms (null: none): `--stdin-timeout SECONDS`, else
 * $HERMES_HOOKS_STDIN_TIMEOUT, else 30 s; 0 waits forever. A bad value is an error naming its source.
 */
export function stdinTimeoutMs(flag: unknown, env: NodeJS.ProcessEnv): number | null {
  const [raw, source] = typeof flag === 'string' ? [flag, '--stdin-timeout'] : [env[STDIN_TIMEOUT_ENV], STDIN_TIMEOUT_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_STDIN_TIMEOUT_S * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new CliError(`${source}: expected a number of seconds (0 = no limit), got '${raw}'`);
  return seconds === 0 ? null : seconds * 1000;
}

/**
 * Read all of stdin. A TTY is never read (a dry run must not hang waiting for a human), and a
 * stdin that is closed or absent (CI) reads as empty. A stdin still open after `timeoutMs` (a host
 * that wrote the payload but never closed the pipe) is a StdinTimeout, never a wait without end.
 */
export async function readAllStdin(io: CliIO, timeoutMs: number | null = DEFAULT_STDIN_TIMEOUT_S * 1000): Promise<string | null> {
  if (io.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  if (timeoutMs !== null) {
    timer = setTimeout(() => {
      timedOut = true;
      // Ends the for-await below; the descriptor is let go so the process can exit once it answered.
      io.stdin.destroy();
    }, timeoutMs);
  }
  try {
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  } catch {
    if (!timedOut) return '';
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) {
    const got = chunks.reduce((n, c) => n + c.length, 0);
    throw new StdinTimeout(
      `stdin was not closed within ${(timeoutMs ?? 0) / 1000} s (${got} byte(s) read): the payload is read to its end before any hook runs — ` +
        `close stdin after writing it, or raise --stdin-timeout SECONDS / ${STDIN_TIMEOUT_ENV}`,
    );
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function writeLine(stream: Writable, text = ''): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Raised for problems the user must fix; main() prints the message and exits 1. */
export class CliError extends HooksError {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super('cli', message, options);
  }
}

/** stdin did not close in time: the payload is not known, so nothing can be decided. */
export class StdinTimeout extends CliError {}

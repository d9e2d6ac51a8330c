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

/**
 * Read all of stdin. A TTY is never read (a dry run must not hang waiting for a human), and a
 * stdin that is closed or absent (CI) reads as empty.
 */
export async function readAllStdin(io: CliIO): Promise<string | null> {
  if (io.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  } catch {
    return '';
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

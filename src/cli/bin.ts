#!/usr/bin/env node
// The executable. Sets process.exitCode instead of calling process.exit(), so piped stdout drains
// completely (an exit right after a large write truncates it at 64 KiB). Runs the bundled CLI
// when the build made one (see _bundle.ts), else main.ts as compiled.

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, type MainFn } from './_bundle.js';

async function loadMain(): Promise<MainFn> {
  const bundle = loadBundle(dirname(fileURLToPath(import.meta.url)));
  return bundle ? bundle.main : (await import('./main.js')).main;
}

// A reader that stops early (`hermes-hooks doctor | head`) is not our failure: stop writing to it and
// finish quietly, with the command's own exit code, instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    stream.destroy();
  });
}

loadMain()
  .then((main) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`hermes-hooks: internal error: ${String((e as Error)?.stack ?? e)}\n`);
      process.exitCode = 1;
    },
  );

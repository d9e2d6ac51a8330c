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

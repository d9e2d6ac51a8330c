#!/usr/bin/env node
// The executable. Sets process.exitCode instead of calling process.exit(), so piped stdout drains
// completely (an exit right after a large write truncates it at 64 KiB).

import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`hermes-hooks: internal error: ${String((e as Error)?.stack ?? e)}\n`);
    process.exitCode = 1;
  },
);

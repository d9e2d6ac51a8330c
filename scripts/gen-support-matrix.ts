// Writes the support matrix of docs/agents.md (between its markers) from the agents' records.
// `npm run gen:matrix` after adding or changing a record; test/agent-wiring/support-matrix.test.ts
// fails when the committed page differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderSupportMatrix, replaceSupportMatrix } from '../src/agent-wiring/support-matrix.js';

export const AGENTS_PAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'agents.md');

function main(): void {
  const page = readFileSync(AGENTS_PAGE, 'utf8');
  const next = replaceSupportMatrix(page, renderSupportMatrix());
  if (next === page) {
    console.log('docs/agents.md: the support matrix is up to date');
    return;
  }
  writeFileSync(AGENTS_PAGE, next);
  console.log('wrote the support matrix of docs/agents.md');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

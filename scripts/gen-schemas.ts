// Generates protocol/*.schema.json from the zod schemas in src/protocol (the source of truth).
// `npx tsx scripts/gen-schemas.ts` writes them; test/protocol/schemas-drift.test.ts fails when the
// committed files differ from what this produces.

import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PUBLISHED_SCHEMAS, toPublishedJsonSchema } from '../src/protocol/published.js';

export const PROTOCOL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'protocol');

/** File name → file text (2-space JSON, trailing newline), in a stable order. */
export function generateSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of PUBLISHED_SCHEMAS) {
    out[entry.file] = JSON.stringify(toPublishedJsonSchema(entry), null, 2) + '\n';
  }
  return out;
}

function main(): void {
  for (const [file, text] of Object.entries(generateSchemas())) {
    writeFileSync(join(PROTOCOL_DIR, file), text);
    console.log(`wrote protocol/${file}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

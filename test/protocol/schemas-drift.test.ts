// protocol/*.schema.json are generated from src/protocol (zod). This fails when someone edits the
// zod schemas without re-running `npx tsx scripts/gen-schemas.ts`, or edits the JSON by hand.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSchemas, PROTOCOL_DIR } from '../../scripts/gen-schemas.js';

const generated = generateSchemas();

describe('published JSON Schemas', () => {
  it('include at least payload, directive, decision and test-report', () => {
    expect(Object.keys(generated)).toEqual(
      expect.arrayContaining(['payload.schema.json', 'directive.schema.json', 'decision.schema.json', 'test-report.schema.json']),
    );
  });

  it.each(Object.keys(generated))('protocol/%s matches the zod source (run `npx tsx scripts/gen-schemas.ts`)', (file) => {
    const committed = readFileSync(join(PROTOCOL_DIR, file), 'utf8');
    expect(committed).toBe(generated[file]);
  });

  it('has no stale schema files that the generator no longer writes', () => {
    const onDisk = readdirSync(PROTOCOL_DIR)
      .filter((f) => f.endsWith('.schema.json'))
      .sort();
    expect(onDisk).toEqual(Object.keys(generated).sort());
  });

  it.each(Object.entries(generated))('%s is commit-ready: $schema, $id, title, description first; trailing newline', (file, text) => {
    expect(text.endsWith('}\n')).toBe(true);
    const schema = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(schema).slice(0, 4)).toEqual(['$schema', '$id', 'title', 'description']);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`https://unpkg.com/hermes-hooks/protocol/${file}`);
    expect(generateSchemas()[file]).toBe(text); // stable across runs
  });
});

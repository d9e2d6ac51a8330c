// The published JSON Schemas must give the same verdict as zod (the source of truth) for every
// fixture, so hook authors validating with any JSON Schema tool get our answer. Fixtures live in
// test/fixtures/protocol/{valid,invalid}/<schema name>/*.json; scripts-examples/payloads/*.json
// (realistic stdin payloads) must all be valid payloads.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_DIR } from '../../scripts/gen-schemas.js';
import { PUBLISHED_SCHEMAS, type PublishedSchema } from '../../src/protocol/published.js';
import { parseStdout } from '../../src/directives/parse-stdout.js';
import { EVENT_NAMES } from '../../src/events.js';
import { WIRE_PAYLOAD_KEYS } from '../../src/protocol/payload.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'protocol');
const EXAMPLE_PAYLOADS = join(ROOT, 'scripts-examples', 'payloads');

// strict: the published files use only keywords ajv knows, so any unknown keyword is a bug.
const ajv = new Ajv2020({ strict: true, allErrors: true });

function validatorFor(entry: PublishedSchema): (data: unknown) => boolean {
  const schema = JSON.parse(readFileSync(join(PROTOCOL_DIR, entry.file), 'utf8')) as { $id: string };
  const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
  return (data) => validate(data) as boolean;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

const cases = PUBLISHED_SCHEMAS.flatMap((entry) =>
  (['valid', 'invalid'] as const).flatMap((verdict) =>
    jsonFiles(join(FIXTURES, verdict, entry.name)).map((file) => ({ entry, verdict, file, label: `${verdict}/${entry.name}/${basename(file)}` })),
  ),
);

describe('fixtures: ajv (published schema) and zod agree', () => {
  it('every published schema has both valid and invalid fixtures', () => {
    for (const entry of PUBLISHED_SCHEMAS) {
      expect(jsonFiles(join(FIXTURES, 'valid', entry.name)).length, `valid/${entry.name}`).toBeGreaterThanOrEqual(3);
      expect(jsonFiles(join(FIXTURES, 'invalid', entry.name)).length, `invalid/${entry.name}`).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(cases)('$label', ({ entry, verdict, file }) => {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const expected = verdict === 'valid';
    expect(entry.schema.safeParse(data).success, 'zod').toBe(expected);
    expect(validatorFor(entry)(data), 'ajv').toBe(expected);
  });
});

describe('valid directive fixtures mean something', () => {
  it.each(jsonFiles(join(FIXTURES, 'valid', 'directive')).map((f) => [basename(f), f]))('%s gives a directive on at least one event', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    expect(EVENT_NAMES.some((e) => parseStdout(e, text) !== null)).toBe(true);
  });
});

describe('scripts-examples/payloads', () => {
  const byName = (name: string) => PUBLISHED_SCHEMAS.find((s) => s.name === name)!;
  const files = jsonFiles(EXAMPLE_PAYLOADS);

  // Written against whatever is there; an empty folder is fine (the fixtures above still run).
  // A file with all seven keys must be a valid stdin payload; a file with fewer is input for
  // `hermes-hooks test` (missing keys are filled) and must be a valid test-input.
  it('every example payload is valid, for zod and ajv alike', () => {
    for (const file of files) {
      const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const complete = typeof data === 'object' && data !== null && WIRE_PAYLOAD_KEYS.every((k) => k in data);
      const entry = byName(complete ? 'payload' : 'test-input');
      const zodResult = entry.schema.safeParse(data);
      expect(zodResult.success, `${basename(file)} as ${entry.name}: ${zodResult.success ? '' : zodResult.error.message}`).toBe(true);
      expect(validatorFor(entry)(data), `${basename(file)} as ${entry.name} (ajv)`).toBe(true);
    }
  });
});

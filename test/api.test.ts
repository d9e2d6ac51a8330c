// The public API is a deliberate list: what the built package exports (values from dist/index.js,
// types from dist/index.d.ts, followed to their declarations) must be exactly the rows of
// docs/api.md, each of its kind, each declared with a TSDoc comment. So the API cannot grow, shrink
// or go undocumented by accident.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const VALUE_KINDS = new Set(['function', 'class', 'const']);

/** docs/api.md's table rows: | `name` | kind | what it is |. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const [, name, kind] of readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8').matchAll(/^\| `(\w+)` \| (\w+) \|/gm)) {
    expect(rows.has(name!), `docs/api.md lists ${name} twice`).toBe(false);
    rows.set(name!, kind!);
  }
  return rows;
}

interface Declared {
  kind: string;
  file: string;
  /** The line before the declaration: a TSDoc comment ends there. */
  before: string;
}

const text = (file: string): string => readFileSync(file, 'utf8');
const target = (from: string, spec: string): string => join(dirname(from), spec.replace(/\.js$/, '.d.ts'));
/** `export { a, type B, c as d } from './m.js'` → [[exported, local, module]]. */
const reexports = (file: string): [string, string, string][] =>
  [...text(file).matchAll(/^export (?:type )?\{([^}]*)\} from '([^']+)'/gm)].flatMap(([, list, spec]) =>
    list!
      .split(',')
      .map((item) => item.trim().replace(/^type /, ''))
      .filter(Boolean)
      .map((item): [string, string, string] => {
        const [local, exported = local] = item.split(/\s+as\s+/);
        return [exported!, local!, target(file, spec!)];
      }),
  );
const starExports = (file: string): string[] => [...text(file).matchAll(/^export (?:type )?\* from '([^']+)'/gm)].map(([, spec]) => target(file, spec!));

/** Every name a .d.ts exports, each followed to the file that declares it. */
function exportsOf(file: string): Map<string, Declared> {
  const out = new Map<string, Declared>();
  const lines = text(file).split('\n');
  lines.forEach((line, i) => {
    const m = /^export (?:declare )?(?:abstract )?(function|const|class|interface|type) (\w+)/.exec(line);
    if (m) out.set(m[2]!, { kind: m[1]!, file, before: lines[i - 1] ?? '' });
  });
  for (const [exported, local, from] of reexports(file)) {
    const decl = exportsOf(from).get(local);
    expect(decl, `${file} re-exports ${local} from ${from}, which does not export it`).toBeDefined();
    out.set(exported, decl!);
  }
  for (const from of starExports(file)) for (const [name, decl] of exportsOf(from)) if (!out.has(name)) out.set(name, decl);
  return out;
}

describe('the public API (dist/index.js) is exactly docs/api.md', () => {
  const docs = documented();

  it('the runtime exports are the documented values', async () => {
    const values = Object.keys(await import(pathToFileURL(join(DIST, 'index.js')).href)).sort();
    const documentedValues = [...docs]
      .filter(([, kind]) => VALUE_KINDS.has(kind))
      .map(([name]) => name)
      .sort();
    expect(values).toEqual(documentedValues);
  });

  it('every export, types included, is a row of its kind, and every row is exported', () => {
    const declared = exportsOf(join(DIST, 'index.d.ts'));
    const kinds = Object.fromEntries([...declared].map(([name, d]) => [name, d.kind]));
    expect(kinds).toEqual(Object.fromEntries(docs));
  });

  it('every export is declared with a TSDoc comment', () => {
    const bare = [...exportsOf(join(DIST, 'index.d.ts'))]
      .filter(([, d]) => !d.before.trimEnd().endsWith('*/'))
      .map(([name, d]) => `${name} (${d.file.slice(ROOT.length + 1)})`);
    expect(bare).toEqual([]);
  });
});

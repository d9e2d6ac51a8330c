// The ground floor (DESIGN.md "Layout") imports nothing above it: what several floors share lives
// here, so a ground-floor file that reached up into a folder would put every floor in a loop.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
/** The ground floor: the public root files (index.ts, the face, aside) and these folders. */
const GROUND_FOLDERS = ['events', 'util'];

const tsFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith('.ts') ? [p] : [];
  });
const isGround = (file: string): boolean => {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? parts[0] !== 'index.ts' : GROUND_FOLDERS.includes(parts[0] as string);
};

describe('the ground floor', () => {
  const ground = tsFiles(SRC).filter(isGround);

  it('holds the shared helpers, public by name', () => {
    const names = ground.map((f) => relative(SRC, f));
    for (const n of ['types.ts', 'errors.ts', 'events.ts', 'json.ts', 'display.ts', 'shell-words.ts', 'file-identity.ts', 'deadlines.ts']) {
      expect(names).toContain(n);
    }
    expect(names.filter((n) => !n.includes('/') && n.startsWith('_'))).toEqual([]);
  });

  it('imports nothing above it (type-only imports included)', () => {
    const upward: string[] = [];
    for (const file of ground) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/g)) {
        const target = resolve(dirname(file), m[1] as string).replace(/\.js$/, '.ts');
        if (!isGround(target)) upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

// ConsentStore.matchesDisk / refresh: the identity-based re-read the launch check relies on, with
// two real stores on one real allowlist (as two processes would be).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../src/file-identity.js';
import { ConsentStore } from '../../src/consent/store.js';

let home: string;
/** A real script per name (an approval pins its file), as its hook command. */
const cmd = (name: string): string => {
  writeFileSync(join(home, name), '#!/bin/sh\n', { mode: 0o755 });
  return `bash ${join(home, name)}`;
};
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hh-refresh-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const commands = (s: ConsentStore) => s.entries().map((e) => String(e.command).replace(`bash ${home}/`, ''));

describe('ConsentStore.matchesDisk, refresh and reload', () => {
  it('a missing allowlist matches until one is written; refresh then reads it', async () => {
    const mine = await ConsentStore.open(home);
    expect(mine.matchesDisk()).toBe(true);
    await (await ConsentStore.open(home)).approve({ event: 'pre_tool_call', command: cmd('a.sh') });
    expect(mine.matchesDisk()).toBe(false);
    expect(commands(mine)).toEqual([]);
    await mine.refresh();
    expect(commands(mine)).toEqual(['a.sh']);
    expect(mine.matchesDisk()).toBe(true);
  });

  it('sees another store revoke, and an in-place edit of the same size', async () => {
    const other = await ConsentStore.open(home);
    await other.approve([
      { event: 'pre_tool_call', command: cmd('a.sh') },
      { event: 'pre_tool_call', command: cmd('b.sh') },
    ]);
    const mine = await ConsentStore.open(home);
    expect(commands(mine)).toEqual(['a.sh', 'b.sh']);
    await other.revoke(cmd('b.sh'));
    expect(mine.matchesDisk()).toBe(false);
    await mine.refresh();
    expect(commands(mine)).toEqual(['a.sh']);
    // A hand edit in place, same length: a.sh → c.sh.
    const file = join(home, 'shell-hooks-allowlist.json');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('/a.sh"', '/c.sh"'));
    expect(mine.matchesDisk()).toBe(false);
    await mine.refresh();
    expect(commands(mine)).toEqual(['c.sh']);
  });

  it('matchesDisk(true) holds only for a file that had been quiet for SETTLE_MS when it was read', async () => {
    await (await ConsentStore.open(home)).approve({ event: 'pre_tool_call', command: cmd('a.sh') });
    const fresh = await ConsentStore.open(home);
    expect([fresh.matchesDisk(), fresh.matchesDisk(true)]).toEqual([true, false]);
    await new Promise((r) => setTimeout(r, SETTLE_MS + 20));
    await fresh.reload(); // what the launch gate does when matchesDisk(true) is false
    expect([fresh.matchesDisk(), fresh.matchesDisk(true)]).toEqual([true, true]);
  });
});

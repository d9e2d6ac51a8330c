// The commands of a `bash -c` string as consent follows them (src/consent/_shell-code.ts): what is
// pinned comes from here, so what cannot be read from the text must say so, never guess.

import { describe, expect, it } from 'vitest';
import { readShellCode } from '../../src/consent/_shell-code.js';

const read = (code: string) => readShellCode(code, '/home/me');

describe('readShellCode', () => {
  it.each([
    ['~/guard.sh | tee -a log', [['/home/me/guard.sh'], ['tee', '-a', 'log']]],
    ['/g.sh && echo ok; /h.sh || true', [['/g.sh'], ['echo', 'ok'], ['/h.sh'], ['true']]],
    ['DEBUG=1 /g.sh --x 2>&1 >/tmp/out', [['/g.sh', '--x']]],
    ['if /check.sh; then python3 "/a b.py"; fi', [['/check.sh'], ['python3', '/a b.py']]],
    [
      'source ~/lib.sh; . ./env.sh',
      [
        ['source', '/home/me/lib.sh'],
        ['.', './env.sh'],
      ],
    ],
    ['jq . </dev/stdin | (cat)', [['jq', '.'], ['cat']]],
  ])('%j → its simple commands', (code, commands) => {
    expect(read(code)).toMatchObject({ commands, unfollowable: null });
  });

  it('marks words a shell would expand, so a variable naming the program is caught', () => {
    const r = read('G=/g.sh; "$G" --x $HOME');
    expect(r.commands).toEqual([['$G', '--x', '$HOME']]);
    expect(r.dynamic).toEqual([[true, false, true]]);
  });

  it.each([
    ['/g.sh $(date)', /command substitution/],
    ['/g.sh `date`', /command substitution/],
    ['exec "$0"', /positional parameter/],
    ['cat <<EOF\nx\nEOF', /here-document/],
    ['eval "$CMD"', /`eval`/],
    ['for f in *.sh; do "$f"; done', /`for`/],
    ["echo 'unclosed", /quotes do not close/],
  ])('%j cannot be followed', (code, why) => {
    expect(read(code).unfollowable).toMatch(why);
  });

  it('a cd anywhere means relative paths cannot be resolved against the hook directory', () => {
    expect(read('cd /tmp && ./x').movesDir).toBe(true);
    expect(read('./x').movesDir).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { splitCommand } from '../src/shell-words.js';

const HOME = '/home/tester';
const split = (cmd: string) => splitCommand(cmd, { homedir: HOME });

describe('splitCommand', () => {
  const table: Array<[string, string[]]> = [
    ['bash hook.sh', ['bash', 'hook.sh']],
    ['  spaced\t\targs \n here  ', ['spaced', 'args', 'here']],
    [`python3 'a b' "c d"`, ['python3', 'a b', 'c d']],
    [`echo 'single "double" inside'`, ['echo', 'single "double" inside']],
    [`echo "double 'single' inside"`, ['echo', "double 'single' inside"]],
    [`echo a\\ b c\\"d`, ['echo', 'a b', 'c"d']],
    [`echo 'back\\slash' "x\\y"`, ['echo', 'back\\slash', 'x\\y']],
    [`echo "a\\"b" "c\\\\d" "e\\$f" "g\\\`h"`, ['echo', 'a"b', 'c\\d', 'e$f', 'g`h']],
    [`echo "line\\\ncontinued"`, ['echo', 'linecontinued']],
    ['echo one\\\ntwo', ['echo', 'onetwo']],
    [`echo ab'cd'"ef"g`, ['echo', 'abcdefg']],
    [`echo '' ""`, ['echo', '', '']],
    ['echo # not a comment', ['echo', '#', 'not', 'a', 'comment']],
    ['echo a#b', ['echo', 'a#b']],
    ['echo $HOME ${HOME} $(id)', ['echo', '$HOME', '${HOME}', '$(id)']],
    ['ls *.sh ?', ['ls', '*.sh', '?']],
    ['cat a | grep b > out 2>&1 ; x && y', ['cat', 'a', '|', 'grep', 'b', '>', 'out', '2>&1', ';', 'x', '&&', 'y']],
    ['~/hooks/x.sh', [`${HOME}/hooks/x.sh`]],
    ['bash ~/hooks/x.sh ~/other', ['bash', `${HOME}/hooks/x.sh`, `${HOME}/other`]],
    ['cd ~', ['cd', HOME]],
    ['echo ~user/x ~x a~/b', ['echo', '~user/x', '~x', 'a~/b']],
    [`echo '~/quoted' "~/dq" \\~/escaped ~"/x"`, ['echo', '~/quoted', '~/dq', '~/escaped', '~/x']],
    ['echo ~/"quoted rest"', ['echo', `${HOME}/quoted rest`]],
    ['echo héllo 日本', ['echo', 'héllo', '日本']],
  ];
  for (const [cmd, argv] of table) {
    it(`splits ${JSON.stringify(cmd)}`, () => {
      expect(split(cmd)).toEqual({ ok: true, argv });
    });
  }

  it('reports an unbalanced single quote like Hermes', () => {
    expect(split(`echo 'oops`)).toEqual({ ok: false, error: `command 'echo 'oops' cannot be parsed: No closing quotation` });
  });

  it('reports an unbalanced double quote', () => {
    expect(split('echo "oops \\" still open')).toEqual({
      ok: false,
      error: `command 'echo "oops \\" still open' cannot be parsed: No closing quotation`,
    });
  });

  it('reports a trailing backslash', () => {
    expect(split('echo \\')).toEqual({ ok: false, error: `command 'echo \\' cannot be parsed: No escaped character` });
  });

  it('reports an empty command', () => {
    expect(split('')).toEqual({ ok: false, error: 'empty command' });
    expect(split('   \t\n')).toEqual({ ok: false, error: 'empty command' });
  });

  it('keeps an explicitly empty argument', () => {
    expect(split("''")).toEqual({ ok: true, argv: [''] });
  });

  it('uses os.homedir() when no homedir is given', async () => {
    const { homedir } = await import('node:os');
    expect(splitCommand('~/x')).toEqual({ ok: true, argv: [`${homedir()}/x`] });
  });
});
